"""One change plan per host from all of its findings.

Order:

1. prerequisites: upgrades, listed with the versions needed, never run;
2. live changes in the captured host;
3. what the host's platform manager does, in the order its restart strategy
   gives (changeplan/strategy.py: for LDoms, live ldm changes, the control
   domain's delayed reconfiguration and its one reboot, each other domain in
   one outage);
4. the changes that take effect at the host's reboot, and that reboot (unless
   the strategy's phases restart the host);
5. what the strategy does last (LDoms: `ldm add-spconfig`).

Steps that size one resource (cores, memory, a switch MTU) are merged into one
decision by the strategy; steps that depend on what advisor cannot see stay comments.
"""

from __future__ import annotations

from advisor import changes as operations
from advisor.changeplan.steps import Step, control_step, plan_step, reboot_command
from advisor.changeplan.strategy import RestartedElsewhere, RestartStrategy, strategy_of
from advisor.changes import Change
from advisor.facts.models import HostFacts
from advisor.results.model import ChangePlan, Finding, PlanPhase, PlanStep
from advisor.shell import shell_word


def _merge(findings: list[Finding]) -> list[Step]:
    """Each command once, with every finding it serves; a restart wins over now."""
    merged: dict[tuple[str, str, str | None], Step] = {}
    served: dict[tuple[str, str, str | None], set[str]] = {}  # a step may serve thousands (one per LDC channel)
    for f in findings:
        tag = f.tag
        for s in f.steps:
            key = (s.kind, s.code, s.domain)
            entry = merged.get(key)
            if entry is None:
                # fields are only ever set anew on the copy (a Change is frozen): its list is a new one
                copied = s.model_copy(update={"also_restarts": sorted(set(s.also_restarts))})
                entry = merged[key] = Step(copied)
                served[key] = set()
            elif s.also_restarts:
                more = set(s.also_restarts).difference(entry.step.also_restarts)
                if more:
                    entry.step.also_restarts = sorted(more.union(entry.step.also_restarts))
            if tag not in served[key]:
                served[key].add(tag)
                entry.fixes.append(tag)
            # each field set only where it moves: most steps are served by one finding, or by several alike
            if s.takes_effect == "restart" and entry.step.takes_effect != "restart":
                entry.step.takes_effect = "restart"
            if s.check_first is None and entry.step.check_first is not None:  # one finding that needs the step
                entry.step.check_first = None  # without a check runs it
    return list(merged.values())


def _hold(steps: list[Step], held: dict[Change, str] | None) -> None:
    """A change the simulation found wrong stays a comment saying why."""
    for s in steps:
        if held and s.step.change in held:
            s.step.held = held[s.step.change]


def build(findings: list[Finding], facts: HostFacts, held: dict[Change, str] | None = None) -> ChangePlan:
    """The plan; `held` gives the changes a simulation found wrong, with why: they stay comments."""
    strategy = strategy_of(facts.platform)
    plan = strategy.begin(findings, facts)
    steps = _merge(findings)
    _hold(steps, held)
    steps = strategy.size(steps, facts, plan.notes)
    _hold(steps, held)  # sizing chooses one target per resource: a target the simulation found wrong stays held
    plan.prerequisites = [plan_step(s) for s in steps if s.step.kind == "prerequisite"]
    plan.checks = [plan_step(s) for s in steps if s.step.kind == "check"]
    changes = strategy.refuse([s for s in steps if s.step.kind == "change"], facts, plan)
    if changes is not None:
        plan.phases = _with_copies(_phases(changes, facts, plan, strategy))
    return plan


def _phases(changes: list[Step], facts: HostFacts, plan: ChangePlan, strategy: RestartStrategy) -> list[PlanPhase]:
    here = strategy.host_name(facts)
    live = [s for s in changes if not s.managed and s.step.takes_effect == "now"]
    boot = [s for s in changes if not s.managed and s.step.takes_effect == "restart"]
    restarts = strategy.restarts(changes, boot, facts, plan)
    phases: list[PlanPhase] = []
    if live:
        cut = list(dict.fromkeys(s.step.interrupts for s in live if s.step.interrupts and s.step.runnable))
        phases.append(PlanPhase(title=f"Live changes in {here}", script="host", runs_on=here,
                                outage="; ".join(cut) or "none", steps=[plan_step(s) for s in live]))
    phases += restarts.phases
    if boot and not restarts.takes_boot:
        phases.append(_boot_phase(boot, facts, here, restarts.restarted_elsewhere))
    return phases + restarts.closing


def _boot_phase(boot: list[Step], facts: HostFacts, here: str, elsewhere: RestartedElsewhere | None) -> PlanPhase:
    steps = [plan_step(s) for s in boot]
    if elsewhere is not None:
        return PlanPhase(title=f"Changes in {here} that take effect at its next start", script="host", runs_on=here,
                         outage=elsewhere.outage, steps=steps +
                         [PlanStep(command=reboot_command(facts.platform), run=False, note=elsewhere.note)])
    steps.append(control_step(reboot_command(facts.platform), f"reboots {here}"))
    return PlanPhase(title=f"Changes in {here} and one reboot", script="host", runs_on=here,
                     outage=f"reboot of {here}", steps=steps)


def _with_copies(phases: list[PlanPhase]) -> list[PlanPhase]:
    """Before the first step that appends to a system file (/etc/system, a
    driver's .conf), a copy of the file as it was, made once: a bad line there
    can keep the machine from booting, and a script run again must not copy
    its own changes over the original."""
    copied: set[str] = set()
    for phase in phases:
        steps: list[PlanStep] = []
        for step in phase.steps:
            edits = operations.get(step.change.op).edits if step.run and step.change is not None else None
            edited = edits(step.change) if edits is not None and step.change is not None else None
            if edited is not None and edited not in copied:
                path = shell_word(edited)
                kept = shell_word(edited + ".before-advisor")
                copied.add(edited)
                steps.append(PlanStep(
                    command=f"if [ -f {path} ] && [ ! -f {kept} ]; then cp -p {path} {kept}; fi",
                    note=f"{kept} keeps {path} as it was before this plan: to undo all its changes there, "
                         f"copy it back and reboot"))
            steps.append(step)
        phase.steps = steps
    return phases
