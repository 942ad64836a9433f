"""The restart strategy of Oracle VM Server for SPARC (changeplan/strategy.py).

Order (Oracle VM Server for SPARC administration guide: while the primary
domain is in a delayed reconfiguration, configuration changes for other
domains are refused until it reboots; seed 002: domains are stopped and
started after that reboot):

1. live changes through ldm (after the captured host's own live changes);
2. the control domain's delayed-reconfiguration batch and its one reboot
   (part 1 of the script ends there);
3. each other domain in one outage: stop, all of its changes, start;
4. `ldm add-spconfig`, so the new configuration survives a power cycle.

Steps that size one resource (cores, memory, a switch MTU) are merged into one
decision, within what the machine has free (`ldm list-devices`).
"""

from __future__ import annotations

import shlex
from typing import Literal, NamedTuple

from advisor import changes as operations
from advisor.changeplan.steps import Step, control_step, held_unless, plan_step, reboot_command
from advisor.changeplan.strategy import RestartedElsewhere, Restarts
from advisor.changes import Change
from advisor.facts.models import HostFacts
from advisor.platforms.ldoms.records import Domain, LdomsFacts, ldoms
from advisor.platforms.ldoms.simulate import interrupted_by_reboot, states
from advisor.results.model import ChangePlan, DomainAction, Finding, PlanPhase, PlanStep, placeholder_in
from advisor.shell import shell_word

Script = Literal["host", "control-domain"]  # the captured host's script, or the control domain's
SAVE_CONFIG = 'ldm add-spconfig "advisor-`date +%Y%m%d%H%M`"'
CONTROL_FAMILY = "solaris"  # what a control domain runs, and so how it reboots


class _Host(NamedTuple):  # a NamedTuple, not a dataclass: cheaper to define at import
    """What the plan needs to know of the captured host and its domains."""

    facts: LdomsFacts
    domains: dict[str, Domain]  # by shell word, as steps name them
    control: str  # the control domain's name in ldm (always primary on current releases), as a shell word
    control_name: str  # the same, as written
    local: str | None  # the captured domain's ldm name

    @classmethod
    def of(cls, captured: HostFacts) -> "_Host":
        # Steps name domains as shell words (a capture may name one `x;reboot`),
        # so the plan compares and looks them up as words too.
        facts = ldoms(captured)
        domains = {shell_word(d.name): d for d in facts.domains or []}
        name = next((d.name for d in facts.domains or [] if d.is_control), "primary")
        local = facts.ldom_name or (name if facts.is_control_domain else None)
        return cls(facts, domains, shell_word(name), name, local)

    @property
    def is_control(self) -> bool:
        return self.facts.is_control_domain is True or (self.local is not None and self.local == self.control_name)

    def outage_rank(self, name: str) -> tuple[int, str]:
        dom = self.domains.get(name)
        return (0 if dom is not None and (dom.is_service or dom.is_io) else 1, name)


# "Entering Names in the CLI" (Oracle VM Server for SPARC Administration Guide,
# 1.2 to 3.6): a domain name's first character is a letter or a number, the
# others letters, numbers or any of -_+#.:;~(); names are at most 256 characters.
_LDM_NAME_OTHERS = frozenset("-_+#.:;~()")
LDM_NAME_MAX = 256


def ldm_refuses(name: str) -> bool:
    """Whether ldm would refuse `name` as a domain name: a capture that names a
    domain so (`-a`, `<domain>`, `ldg 1`) is damaged or forged, and no command
    of advisor's names it (a dash would make ldm read an option)."""
    if not name or len(name) > LDM_NAME_MAX or not _alnum(name[0]):
        return True
    return not all(_alnum(c) or c in _LDM_NAME_OTHERS for c in name)


def _alnum(char: str) -> bool:
    return char.isascii() and char.isalnum()  # str.isalnum() also takes 'é' and '²'; the guide's are ASCII


class LdomsRestarts:
    """Oracle VM Server for SPARC's restart strategy (the module's docstring)."""

    stopped_first = "Oracle's guide has them stopped first"
    said = """### Oracle VM Server for SPARC

The plan follows the order Oracle VM Server for SPARC accepts (while the
primary domain is in a delayed reconfiguration, ldm refuses configuration
changes for other domains until it reboots):

1. **Prerequisites**: software and firmware upgrades, with the versions
   needed. They are maintenance projects: scripts carry them as comments only.
2. **Live changes**: in the captured host, and `ldm` changes that take effect
   at once.
3. **The control domain's delayed reconfiguration**: `ldm start-reconf
   primary`, its changes, one reboot. A script's part 1 ends here.
4. **Each other domain in one outage**, after the control domain is back:
   `ldm stop`, all of its changes, `ldm start`. No domain is stopped twice.
5. **`ldm add-spconfig`**, so that the configuration survives a power cycle.

One decision per resource: a domain's cores are the most any rule needs,
never fewer than it has and never above its max-cores (the plan says so when
max-cores stops a fix), and within the free cores and memory `ldm
list-devices` showed; a switch's MTU is the lowest any rule asks. When the
captured host is a guest, its `ldm` steps go to a separate script for the
control domain.
"""

    def begin(self, findings: list[Finding], facts: HostFacts) -> ChangePlan:
        host = _Host.of(facts)
        plan = ChangePlan(control_domain_name=host.control_name)
        if not host.is_control and any(s.runs_in == "ldm" for f in findings for s in f.steps):
            plan.control_domain = ldoms(facts).control_host
        return plan

    def host_name(self, facts: HostFacts) -> str:
        return _Host.of(facts).local or facts.host

    def size(self, steps: list[Step], facts: HostFacts, notes: list[str]) -> list[Step]:
        return _sizing(steps, _Host.of(facts), notes)

    def refuse(self, changes: list[Step], facts: HostFacts, plan: ChangePlan) -> list[Step] | None:
        host = ldoms(facts)
        named = [d.name for d in host.domains or []] + ([host.ldom_name] if host.ldom_name is not None else [])
        refused = {name for name in named if ldm_refuses(name)}
        if not refused:
            return changes
        plan.notes += [f"domain {_shown(name)}: a name ldm refuses (a letter or digit, then letters, digits and "
                       f"-_+#.:;~(), at most {LDM_NAME_MAX} characters): the capture is damaged or forged, and no "
                       f"step is planned for it" for name in sorted(refused)]
        if plan.control_domain_name in refused:  # every ldm command runs there, and its reboot ends part 1
            plan.notes.append("no change is planned: the control domain's name is one ldm refuses")
            return None
        return [s for s in changes if not _names(s, refused)]

    def restarts(self, changes: list[Step], boot: list[Step], facts: HostFacts, plan: ChangePlan) -> Restarts:
        return _restarts(changes, boot, _Host.of(facts))

    def states(self, facts: HostFacts) -> dict[str, str]:
        return states(facts)

    def interrupted_by_reboot(self, facts: HostFacts, states: dict[str, str], rebooted: str) -> list[str]:
        return interrupted_by_reboot(facts, states, rebooted)


STRATEGY = LdomsRestarts()


def _sizing(steps: list[Step], host: _Host, notes: list[str]) -> list[Step]:
    """One decision per resource: the most cores and memory any rule needs,
    within max-cores; the lowest switch MTU (a switch above its link is never
    right; the plans' MTU answers agree on 1500 where LSO makes it best)."""
    by_key: dict[str, list[Step]] = {}
    rest: list[Step] = []
    for s in steps:
        if s.step.sets and s.step.amount is not None:
            by_key.setdefault(s.step.sets, []).append(s)
        else:
            rest.append(s)
    for key, group in by_key.items():
        kind, _, name = key.partition(":")
        pick = (min if kind == "vsw-mtu" else max)(group, key=lambda s: s.step.amount or 0)
        # the merged steps are the plan's own copies (changeplan/build.py), each in one group: the one picked is
        # changed in place, not copied again
        chosen = Step(pick.step, [t for s in group for t in s.fixes if t not in pick.fixes])
        chosen.fixes = list(dict.fromkeys(pick.fixes + chosen.fixes))
        if chosen.step.change is not None:  # the merged amount may open or close a live path
            chosen.step.takes_effect = "restart" if operations.get(chosen.step.change.op).restarts(
                chosen.step.change, host.facts) else "now"
        if any(s.step.check_first is None and s.step.amount == pick.step.amount for s in group):
            chosen.step.check_first = None
        if kind == "cores" and not _cap_cores(chosen, host.domains.get(name), host.facts, notes):
            continue
        rest.append(chosen)
    _within_free(rest, host, notes)
    return rest


class _Pool(NamedTuple):  # a NamedTuple, not a frozen dataclass: cheaper to define at import
    """What the machine has free of one resource, as host facts and domains name it."""

    kind: str  # the resource a step sizes: "cores:<domain>", "memory-gb:<domain>"
    free: str  # the host fact of what is free
    held: str  # the domain fact of what it holds now
    unit: str
    check: str  # the command that shows what is free


_POOLS = (_Pool("cores", "free_cores", "whole_cores", "free whole cores", "ldm list-devices core"),
          _Pool("memory-gb", "free_memory_gb", "memory_gb", "GB of free memory", "ldm list-devices memory"))


def _within_free(steps: list[Step], host: _Host, notes: list[str]) -> None:
    """A step that grows a domain's cores or memory runs only when the machine
    has them free (ldm list-devices): ldm refuses the step otherwise, and under
    `set -e` a guest the script stopped stays down. Service and I/O domains are
    served first; a step that does not fit, or whose free pool advisor did not
    see, becomes a comment naming the check."""
    for pool in _POOLS:
        free = getattr(host.facts, pool.free)
        growing = [s for s in steps if (s.step.sets or "").partition(":")[0] == pool.kind]
        for s in sorted(growing, key=lambda s: host.outage_rank(_sized(s))):
            dom = host.domains.get(_sized(s))
            held = getattr(dom, pool.held, None) if dom is not None else None
            more = (s.step.amount or 0) - held if held is not None else None
            if (more is not None and more <= 0) or not s.step.runnable:  # held already: takes nothing
                continue
            name = dom.name if dom is not None else _sized(s)
            if free is None or more is None:
                s.step.check_first = (f"`{pool.check}` shows at least {more:g} {pool.unit} for {name}, beside what "
                                      f"the plan's other steps take" if more is not None
                                      else f"`{pool.check}` shows enough {pool.unit} for {name}")
            elif more > free:
                s.step.check_first = (f"{more:g} more {pool.unit} can be had for {name} (the capture shows {free:g} "
                                      f"left free for it)")
                notes.append(f"{name} needs {more:g} more {pool.unit.replace('free ', '')} than it has, but "
                             f"`{pool.check}` showed {free:g} free after the plan's other steps: that step is held "
                             f"until resources are freed or added.")
            else:
                free -= more


def _sized(s: Step) -> str:
    """The domain a sizing step sizes, as a shell word."""
    return shell_word((s.step.sets or "").partition(":")[2])


def _cap_cores(s: Step, dom: Domain | None, facts: HostFacts, notes: list[str]) -> bool:
    """Keep the core target within max-cores; False when nothing is left to do."""
    if dom is None or dom.max_cores is None or not dom.max_cores.isdigit() or s.step.amount is None:
        return True
    limit = int(dom.max_cores)
    if s.step.amount <= limit:
        return True
    notes.append(f"{dom.name} needs {s.step.amount:g} whole cores but its max-cores is {limit}; max-cores can be "
                 f"raised only on a stopped, unbound domain (ldm stop, ldm unbind, ldm set-domain "
                 f"max-cores={s.step.amount:g} {dom.name}, ldm bind, ldm start), so the plan stops at {limit}.")
    if dom.whole_cores is not None and limit <= dom.whole_cores:
        return False
    if s.step.change is not None:
        s.step.with_change(s.step.change.with_value(str(limit)), facts)
    return True


def _shown(name: str) -> str:
    from advisor.errors import excerpt

    return repr(excerpt(name))


def _names(s: Step, names: set[str]) -> bool:
    """Whether the step names any of these domains: as its domain, one it
    restarts, or a word of its command."""
    st = s.step
    words = {shell_word(n) for n in names}
    if st.domain in words or words & set(st.also_restarts):
        return True
    if st.change is not None and (st.change.domain in names or (s.managed and st.change.target in names)):
        return True
    try:
        return bool(names & set(shlex.split(st.code)))
    except ValueError:
        return True  # a command whose quoting is broken names what it names: not run either


def _ldm(verb: Literal["stop", "start", "start-reconf"], name: str, note: str | None = None) -> PlanStep:
    """`ldm stop|start|start-reconf DOMAIN`: `name` is a shell word already."""
    return control_step(f"ldm {verb} {name}", note, DomainAction(action=verb, domain=name))


def _outage_domains(changes: list[Step], host: _Host) -> list[str]:
    """Domains other than the control domain that need a stop and start."""
    names: set[str] = set()
    for s in changes:
        st = s.step
        if st.takes_effect == "restart" and s.managed and st.domain and st.domain != host.control:
            names.add(st.domain)
        names.update(d for d in st.also_restarts if d != host.control)
    return sorted(names, key=host.outage_rank)


def _mtu_guests(reconf: list[Step], host: _Host) -> dict[str, list[Change]]:
    """The running guests with a vnet on a control-domain switch whose MTU the
    reconfiguration changes, each with the `set-vnet mtu=` steps its vnets
    need. Oracle's guide ("Configuring Jumbo Frames", 3.4): stop the domains
    other than the control domain before `ldm set-vsw mtu=`; a vnet whose MTU
    was set with set-vnet no longer follows its switch, and `ldm set-vnet mtu=
    VNET DOMAIN` makes it follow again: done for every vnet left above the new
    switch MTU (one below it is supported, and stays)."""
    guests: dict[str, list[Change]] = {}
    for s in reconf:
        kind, _, vsw = (s.step.sets or "").partition(":")
        if kind != "vsw-mtu" or not s.step.runnable or s.step.amount is None:
            continue
        for vnet in host.facts.vnets or []:
            word = shell_word(vnet.domain)
            dom = host.domains.get(word)
            if shell_word(vnet.vsw or "") != vsw or word == host.control or (dom and dom.state not in (None, "active")):
                continue
            resets = guests.setdefault(word, [])
            if vnet.mtu is not None and vnet.mtu > s.step.amount:
                resets.append(Change(op="reset-vnet-mtu", target=vnet.name, domain=vnet.domain))
    return guests


def _restarts(changes: list[Step], boot: list[Step], host: _Host) -> Restarts:
    outages = _outage_domains(changes, host)
    script: Script = "host" if host.is_control else "control-domain"
    where = host.control_name if host.is_control else (host.facts.control_host or "the control domain")
    here = host.local or host.facts.host
    live = [s for s in changes if s.managed and s.step.takes_effect == "now" and s.step.domain not in outages]
    reconf = [s for s in changes if s.managed and s.step.takes_effect == "restart" and s.step.domain == host.control]
    phases: list[PlanPhase] = []
    if live:
        phases.append(PlanPhase(title="Live changes through ldm", script=script, runs_on=where, outage="none",
                                steps=[plan_step(s) for s in live]))
    control_boot = host.is_control and bool(boot)
    after = bool(reconf or control_boot)
    # The control domain's reboot interrupts every guest it serves: a guest
    # that needs an outage as well is stopped before it and started after, so
    # that it is interrupted once.
    mtu = _mtu_guests(reconf, host)
    early = {**mtu, **{n: [] for n in outages if n not in mtu}} if after else {}
    started: list[PlanPhase] = []
    for name, resets in early.items():
        mine = [s for s in changes if s.managed and s.step.domain == name]
        before, start = _stopped_before(name, mine, resets, name in mtu, host, script, where)
        phases.append(before)
        started += [start] if start is not None else []
    if after:
        phases.append(_reconf_phase(reconf, boot if control_boot else [], host, script, where))
    phases += started
    for name in (n for n in outages if n not in early):
        mine = [s for s in changes if s.managed and s.step.domain == name]
        phases.append(_outage_phase(name, mine, host, script, where, after))
    elsewhere = RestartedElsewhere(
        outage=f"stop and start of {here} (control domain's script)",
        note=f"the stop and start of {here} in the control domain's script applies these: run this part first, "
             f"then that script") if here in outages else None
    closing = [PlanPhase(
        title="Save the new configuration on the service processor", script=script, runs_on=where,
        outage="none", after_reboot=after,
        steps=[control_step(SAVE_CONFIG, "so that the changes survive a power cycle; ldm list-spconfig lists "
                                         "the saved configurations")])] \
        if any(s.managed and s.step.runnable for s in changes) else []
    return Restarts(phases, control_boot, elsewhere, closing)


def _reconf_phase(reconf: list[Step], boot: list[Step], host: _Host, script: Script, where: str) -> PlanPhase:
    changes = [plan_step(s) for s in reconf + boot]
    runs = any(step.run for step in changes)
    steps: list[PlanStep] = []
    if reconf:
        steps.append(held_unless(runs, _ldm(
            "start-reconf", host.control, "delayed reconfiguration: the changes below take effect at the reboot; "
                                          "until then ldm refuses changes to other domains")))
    steps += changes
    steps.append(held_unless(runs, control_step(
        reboot_command(CONTROL_FAMILY), f"reboots {host.control_name}: its guests lose their virtual network and "
                                        f"disks until it is back", DomainAction(action="reboot", domain=host.control))))
    title = (f"Control domain {host.control_name}: delayed reconfiguration and one reboot" if reconf
             else f"Control domain {host.control_name}: changes that take effect at its reboot")
    return PlanPhase(title=title, script=script, runs_on=where, outage=f"reboot of {host.control_name}", steps=steps)


def _outage_phase(name: str, mine: list[Step], host: _Host, script: Script, where: str, after: bool) -> PlanPhase:
    dom = host.domains.get(name)
    active = dom is None or dom.state in (None, "active")
    changes = [plan_step(s) for s in mine]
    runs = any(step.run for step in changes)
    steps = [held_unless(runs, _ldm("stop", name))] if active else []
    steps += changes
    if active:
        steps.append(held_unless(runs, _ldm("start", name)))
    state = "" if active else f" ({name} was {dom.state} when captured: it is left as it was)"  # type: ignore[union-attr]
    return PlanPhase(title=f"Domain {name}: one outage{state}", script=script, runs_on=where,
                     outage=f"stop and start of {name}" if active else "none", after_reboot=after, steps=steps)


def _stopped_before(name: str, mine: list[Step], resets: list[Change], for_mtu: bool, host: _Host, script: Script,
                    where: str) -> tuple[PlanPhase, PlanPhase | None]:
    """A guest stopped before the control domain's reconfiguration, changed
    while stopped, and started once the control domain is back (the second
    phase): one outage that covers its own changes, its switch's MTU (Oracle's
    guide: stop the domain before `ldm set-vsw mtu=`) and the loss of its
    virtual I/O while the control domain reboots. A guest that was not running
    is changed and left as it was."""
    dom = host.domains.get(name)
    active = dom is None or dom.state in (None, "active")
    changes = [plan_step(s) for s in mine]
    for reset in resets:
        command, held = operations.command_line(reset, host.facts)
        changes.append(PlanStep(command=command, run=held is None and placeholder_in(command) is None, change=reset,
                                note=held or "this vnet's MTU was set on its own and no longer follows its switch: "
                                             "it follows the switch again"))
    runs = for_mtu or any(step.run for step in changes)
    why = (f"its vnets take the new MTU of their switch only while it is stopped; it stays stopped until "
           f"{host.control_name} is back" if for_mtu else
           f"{host.control_name}'s reboot interrupts it anyway: it stays stopped until {host.control_name} is back, "
           f"one interruption for both")
    title = (f"Domain {name}: stopped before {host.control_name}'s switch MTU changes" if for_mtu
             else f"Domain {name}: stopped before {host.control_name}'s reboot")
    if not active:
        state = f" ({name} was {dom.state} when captured: it is left as it was)"  # type: ignore[union-attr]
        return PlanPhase(title=f"Domain {name}: changed before {host.control_name}'s reboot{state}", script=script,
                         runs_on=where, outage="none", steps=changes), None
    before = PlanPhase(title=title, script=script, runs_on=where,
                       outage=f"stop of {name} until {host.control_name} is back",
                       steps=[held_unless(runs, _ldm("stop", name, why))] + changes)
    start = PlanPhase(title=f"Domain {name}: started once {host.control_name} is back", script=script, runs_on=where,
                      outage=f"ends the stop of {name}", after_reboot=True,
                      steps=[held_unless(runs, _ldm("start", name))])
    return before, start
