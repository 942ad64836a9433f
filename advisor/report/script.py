"""`--format script`: the change plan as POSIX shell scripts, one per machine.

advisor runs none of it. A script refuses to run until the administrator has
read it and sets ADVISOR_CONFIRM=yes. The captured host's script carries what
runs there; when the captured host is not the control domain, its `ldm` steps
go to a second script for the control domain. A plan whose control domain
reboots has two parts: part 1 ends with that reboot (the script cannot go on
past it), part 2 (`sh SCRIPT after-reboot`) does the rest once it is back.
Prerequisites, checks and steps that depend on what advisor cannot see are
comments only.
"""

from __future__ import annotations

import re
import shlex
from functools import cache
from typing import Protocol, cast

from advisor import __version__
from advisor import platform_registry as platforms
from advisor.results.model import ChangePlan, HostReport, PlanPhase, PlanStep
from advisor.shell import unquoted

AFTER = "after-reboot"


_LONGEST = 120  # file systems allow 255 bytes a name; a host name from a capture may be anything


def file_name(host: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", host)
    if len(safe) > _LONGEST:  # cut, and told apart from other long names by a digest of the whole
        import hashlib

        safe = f"{safe[:_LONGEST - 13]}-{hashlib.sha256(host.encode()).hexdigest()[:12]}"
    return safe + ".remediation.sh"


_BREAKS = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def _one_line(text: str) -> str:
    return " ".join(text.split())


class Guards(Protocol):
    """What a platform's scripts guard against, in its manager's words (`Pack.script`)."""

    elsewhere: str  # where a guest's manager steps run, when the capture did not name that machine

    def pending(self, domain: str) -> str:
        """What is left when `domain` has changes pending until it restarts, and how to drop them."""
        ...

    def stopped(self, domain: str) -> str:
        """What is left when the script stopped `domain` and did not start it again."""
        ...

    def still_pending(self, control: str) -> list[str]:
        """Part 2's lines that stop it while `control` has not restarted yet."""
        ...


class _Plain:
    """The guards of a platform that declares none: its plans stop and reconfigure no domain."""

    elsewhere = "the machine that runs its manager"

    def pending(self, domain: str) -> str:
        return f"{domain} has changes pending until it restarts"

    def stopped(self, domain: str) -> str:
        return f"{domain} was stopped by this script and not started again"

    def still_pending(self, control: str) -> list[str]:
        return []


@cache
def guards_of(family: str) -> Guards:
    """The script guards a pack of this family declares, or the plain ones."""
    return cast(Guards, platforms.declared(family, "script") or _Plain())


class _Left:
    """What the script has left half done after each of its steps, known when
    it is written (the script runs its steps in order): changes pending until
    a domain restarts (a delayed reconfiguration), domains stopped and not
    started again. Said on the way out, in the platform's words, if a later step fails."""

    def __init__(self, guards: Guards) -> None:
        self.guards = guards
        self.reconf: str | None = None
        self.stopped: list[str] = []

    def apply(self, step: PlanStep) -> bool:
        """Takes a step the script runs; True when what is left changed."""
        if step.control is None or step.control.action == "reboot":
            return False
        verb, domain = step.control.action, unquoted(step.control.domain)
        if verb == "start-reconf":
            self.reconf = domain
        elif verb == "stop":
            self.stopped.append(domain)
        elif domain in self.stopped:
            self.stopped.remove(domain)
        return True

    def rebooted(self) -> None:
        self.reconf = None

    def message(self) -> str:
        said = [self.guards.pending(self.reconf)] if self.reconf is not None else []
        said += [self.guards.stopped(d) for d in self.stopped]
        return "; ".join(said)


# A step that fails stops the script (set -e); what it leaves half done is said.
# Trap 0, not EXIT, and backquotes, not $(...): Solaris 10's /bin/sh is the Bourne shell.
_ON_EXIT = ["left=''",
            """trap 'status=$?; [ "$status" -eq 0 ] || [ -z "$left" ] || printf "stopped by a failed step: %s\\n" "$left" >&2' 0"""]


# Each step that runs is written to a journal beside the script once it has
# run, and a second run of the script skips it: run again (after a failed
# step is put right, or by mistake), the script stops no guest again and
# changes nothing twice. A reboot is written down before it is asked for.
_JOURNAL = '"$0.done"'
_STEPS = ["step() {",
          f"    if grep \"^$1\\$\" {_JOURNAL} >/dev/null 2>&1; then",
          "        echo \"step $1 ran before (see $0.done): skipped\" >&2",
          "        return 1",
          "    fi",
          "    return 0",
          "}",
          f"ran() {{ echo \"$1\" >> {_JOURNAL}; }}"]


def _step(step: PlanStep, left: _Left, number: str) -> list[str]:
    lines = [f"# fixes: {'; '.join(step.fixes)}"] if step.fixes else []
    if step.undo:
        lines.append(f"# undo: {step.undo}")
    if step.run:
        if step.note:
            lines.append(f"# {_one_line(step.note)}")
        reboot = step.control is not None and step.control.action == "reboot"
        lines += [f"if step {number}; then"] + ([f"    ran {number}", f"    {step.command}"] if reboot
                                                 else [f"    {step.command}", f"    ran {number}"]) + ["fi"]
        if left.apply(step):
            lines.append(f"left={shlex.quote(_one_line(left.message()))}")
    else:
        lines += [f"# NOT RUN: {_one_line(step.note or 'see the report')}", f"# {step.command}"]
    return lines + [""]


# Part 1 ends with the control domain's reboot: once that reboot is asked for, a
# second run of part 1 would ask for it again, an outage of every guest for
# nothing. The mark, beside the script, is made just before the reboot.
_REBOOTED = '"$0.part1-rebooted"'
_RUN_ONCE = [f"if [ -f {_REBOOTED} ]; then",
             f"    when=`cat {_REBOOTED}`",
             f"    printf 'part 1 already ran and rebooted the control domain (%s): run part 2 ({AFTER}); "
             f"to run part 1 again, remove %s\\n' \"$when\" {_REBOOTED} >&2",
             "    exit 1", "fi", ""]


def _phase(phase: PlanPhase, left: _Left, numbers: dict[int, str], ends_part_1: bool = False) -> list[str]:
    head = f"# ==== {phase.title} "
    lines = [head + "=" * max(4, 78 - len(head)),
             f"# runs on {phase.runs_on}; interrupts: {phase.outage}", ""]
    for i, step in enumerate(phase.steps):
        if ends_part_1 and step.run and i == len(phase.steps) - 1:  # the reboot that ends part 1
            lines.append(f"date > {_REBOOTED}")
        lines += _step(step, left, numbers[id(step)])
    return lines


def _header(h: HostReport, plan: ChangePlan, where: str, name: str, two_parts: bool) -> list[str]:
    lines = [
        "#!/bin/sh",
        f"# Change plan for {h.label}, to run on {where}; written by advisor {__version__} from {h.source}.",
        f"# Score {h.score if h.score is not None else '-'}; {len(h.findings)} finding(s). advisor ran none of this.",
        "# Read every step, then run it with ADVISOR_CONFIRM=yes.",
    ]
    if two_parts:
        lines += ["# Part 1 ends with the reboot of the control domain. When it is back, run part 2:",
                  f"#   ADVISOR_CONFIRM=yes sh {name} {AFTER}"]
    if plan.prerequisites:
        lines += ["#", "# Prerequisites: do these first, as maintenance tasks; this script does not run them:"]
        lines += [f"#   {p.command}   ({'; '.join(p.fixes)})" for p in plan.prerequisites]
    if plan.notes:
        lines += ["#", *[f"# Note: {_one_line(n)}" for n in plan.notes]]
    if plan.simulation is not None:
        sim = plan.simulation
        lines += ["#", f"# Proven on advisor's model of the host: {sim.summary()}."]
        lines += [f"#   left: {x.finding}: {_one_line(x.why)}" for x in sim.left]
    return lines + [""]


def _guard(two_parts: bool, node: list[str], on_exit: bool) -> list[str]:
    lines = [
        "set -eu",
        'if [ "${ADVISOR_CONFIRM:-}" != yes ]; then',
        '    echo "review this script, then run it with ADVISOR_CONFIRM=yes" >&2',
        "    exit 1",
        "fi",
    ]
    if two_parts:
        lines += [
            'part="${1:-1}"',
            'case "$part" in',
            f"    1|{AFTER}) ;;",
            f'    *) echo "usage: sh $0 [{AFTER}]" >&2; exit 2 ;;',
            "esac",
        ]
    return lines + node + (_ON_EXIT if on_exit else []) + ["set -x", ""]


def _node_check(h: HostReport, where: str, plan: ChangePlan, captured: bool) -> list[str]:
    """A script stops on any machine but its own: its steps name that machine's
    domains, switches and files. `uname -n` must print the node name the
    capture showed: uname -a's second field for the captured host, and for the
    control domain of a guest what the guest's virtinfo said ("the same string
    as uname -n prints on the control domain": virtinfo(1M), -c, Oracle VM
    Server for SPARC 2.0 Reference Manual)."""
    if h.kind == "plan":
        return []
    node = h.detected.nodename if captured else plan.control_domain
    if not node:
        seen = "no uname -a" if captured else "no control domain in virtinfo -a"
        return [f"# advisor saw no node name for {where} ({seen} in the capture of {h.host}): "
                f"make sure this is that machine before running this."]
    word = shlex.quote(node)  # never left bare, as shell_word leaves a <placeholder>: `[ x != <y> ]` redirects
    return ["node=`uname -n`",
            f'if [ "$node" != {word} ]; then',
            "    printf 'this script is for node %s, not for %s (if this is that machine, renamed, "
            f"edit this check)\\n' {word} \"$node\" >&2",
            "    exit 1",
            "fi"]


def _nothing_to_run(h: HostReport, plan: ChangePlan) -> list[str]:
    """Why a script has no step: nothing to change, or what stops advisor from planning it."""
    if not h.findings:
        return ["# Nothing to change here."]
    needs = list(dict.fromkeys(n for f in h.findings for n in f.plan_needs))
    lines = [f"# No step to run: {len(h.findings)} finding(s), and none has a change advisor can plan from this capture."]
    if needs:
        lines.append(f"# It lacks {'; '.join(needs)}: capture that and review again.")
    if plan.prerequisites:
        lines.append("# The prerequisites above come first.")
    if plan.checks:
        lines.append("# The checks at the end say what to look at by hand.")
    return lines


def _script(h: HostReport, phases: list[PlanPhase], where: str, name: str, plan: ChangePlan,
            captured: bool) -> str:
    """The script of the captured host (`captured`), or of the control domain where a guest's ldm steps run."""
    two_parts = any(p.after_reboot for p in phases) and any(not p.after_reboot for p in phases)
    node = _node_check(h, where, plan, captured)
    guards = guards_of(h.platform)
    on_exit = any(s.run and _Left(guards).apply(s) for p in phases for s in p.steps)
    left = _Left(guards)
    numbers = {id(s): n for n, s in plan.numbered()}
    lines = _header(h, plan, where, name, two_parts) + _guard(two_parts, node, on_exit)
    if any(s.run for p in phases for s in p.steps):
        lines += _STEPS + [""]
    if not phases:
        lines += _nothing_to_run(h, plan) + [""]
    first = [p for p in phases if not p.after_reboot]
    second = [p for p in phases if p.after_reboot]
    if two_parts:
        lines += ['if [ "$part" = 1 ]; then', "", *_RUN_ONCE]
        for phase in first:
            lines += _phase(phase, left, numbers,
                            ends_part_1=phase is first[-1] and phase.outage.startswith("reboot of"))
        lines += ["exit 0", "fi", "", f"# ==== Part 2: run with the argument {AFTER} once the control domain is back", "",
                  *guards.still_pending(plan.control_domain_name), ""]
        left.rebooted()
        if left.message():
            lines += [f"left={shlex.quote(_one_line(left.message()))}", ""]
        for phase in second:
            lines += _phase(phase, left, numbers)
    else:
        for phase in phases:
            lines += _phase(phase, left, numbers)
    if plan.checks and captured:
        lines += ["# ==== Afterwards, check by hand " + "=" * 46]
        lines += [f"#   {c.command}" for c in plan.checks]
    # Comments quote the captures (host names, sources, fixes): a line break in
    # one, however it got this far, must not start a line that sh would run.
    lines = [_BREAKS.sub(" ", line) if line.startswith("#") else line for line in lines]
    return "\n".join(lines).rstrip() + "\n"


def render_host(h: HostReport, tag: str | None = None) -> dict[str, str]:
    """File name -> script: the captured host's, and the control domain's when
    the ldm steps run elsewhere. `tag` tells apart hosts whose names would make
    the same file names. Each is read whole by `sh -n` first (checked)."""
    plan = h.plan or ChangePlan()
    mine, theirs = _names(h, tag)
    scripts = {mine: _script(h, [p for p in plan.phases if p.script == "host"], h.node, mine, plan, captured=True)}
    control = [p for p in plan.phases if p.script == "control-domain"]
    if control:
        where = plan.control_domain or guards_of(h.platform).elsewhere
        scripts[theirs] = _script(h, control, where, theirs, plan, captured=False)
    return {name: checked(h, name, text) for name, text in scripts.items()}


def checked(h: HostReport, name: str, text: str) -> str:
    """The script, once `sh -n` has read the whole of it. sh runs a script as
    it reads it: a line it cannot parse in part 2 stopped the script only after
    part 1 had run, reboot and all. A script sh refuses is replaced by one that
    runs nothing and says why. Where no sh is found (not a POSIX system), as is."""
    import shutil
    import subprocess

    sh = shutil.which("sh")
    if sh is None:
        return text
    try:
        done = subprocess.run([sh, "-n"], input=text.encode("utf-8", "surrogateescape"), capture_output=True,
                              timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        why = f"sh -n could not check it ({exc})"
    else:
        if done.returncode == 0:
            return text
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = f"sh -n refused it ({said[-1] if said else f'exit status {done.returncode}'})"
    why = _one_line(why)
    import sys

    from advisor.errors import printable

    print(printable(f"advisor: {name}: {why}; written as a script that runs nothing"), file=sys.stderr)
    return "\n".join(["#!/bin/sh", f"# advisor made a change plan for {_BREAKS.sub(' ', h.label)} that it could not "
                       f"write as a script: {_BREAKS.sub(' ', why)}.",
                       "# Nothing here runs; the report lists the plan's steps. Please report this to advisor's "
                       "maintainers.",
                       f"echo {shlex.quote(f'{name}: advisor could not write this script: {why}')} >&2",
                       "exit 1", ""])


def _names(h: HostReport, tag: str | None) -> tuple[str, str]:
    host = f"{h.host}-{tag}" if tag else h.host
    control = (h.plan.control_domain if h.plan else None) or "control-domain"
    return file_name(host), file_name(f"{control}.for-{host}")


def tag_of(h: HostReport) -> str:
    """Tells apart hosts whose names make the same file name: a digest of where its bundle came from."""
    import hashlib

    return hashlib.sha256(f"{h.source}\0{h.host}".encode()).hexdigest()[:10]
