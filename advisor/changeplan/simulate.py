"""A plan proven before it is written: its changes applied to a model of the
machine, and the result judged again by the same rules.

The walk follows the plan's steps in order, as a script runs them, keeping
each domain's state: a change whose operation needs domains stopped (an LDoms
switch's MTU) is refused while they run, a domain may grow only into what the
machine has free, and each guest should be interrupted once, a reboot counting
for every guest it interrupts (the host's restart strategy says which, and
the domains' states as captured: changeplan/strategy.py). A step that breaks
one of these, or that makes a rule fail that passed, is held as a comment
saying why, and the plan is proven again without it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable

from advisor import changes as operations
from advisor import platform_registry as platforms
from advisor.changeplan.strategy import RestartStrategy, strategy_of
from advisor.changes import Change
from advisor.facts.models import HostFacts, cloned
from advisor.results.model import ChangePlan, Finding, Left, PlanStep, Simulation, unplanned
from advisor.shell import unquoted

Judge = Callable[[HostFacts], tuple[float | None, set[str]]]  # the score of facts, and what fails ("rule on subject")
_ROUNDS = 3  # provings at most: each round holds the steps that broke something


@dataclass
class _Walk:
    """The machine as the plan's steps leave it."""

    facts: HostFacts
    control: str
    strategy: RestartStrategy
    states: dict[str, str] = field(default_factory=dict)  # domain -> active, bound, inactive
    interruptions: dict[str, int] = field(default_factory=dict)
    broken: list[tuple[PlanStep, str]] = field(default_factory=list)  # a step, and what it breaks
    unmodelled: list[str] = field(default_factory=list)

    def interrupt(self, name: str) -> None:
        self.interruptions[name] = self.interruptions.get(name, 0) + 1

    def take(self, step: PlanStep) -> None:
        if step.control is not None:
            self._control(step.control.action, unquoted(step.control.domain))
        elif step.change is not None:
            self._change(step)

    def _control(self, action: str, name: str) -> None:
        if action == "stop":
            if self.states.get(name, "active") == "active":
                self.interrupt(name)
            self.states[name] = "bound"
        elif action == "start":
            self.states[name] = "active"
        elif action == "reboot":
            for guest in self.strategy.interrupted_by_reboot(self.facts, self.states, self.control):
                self.interrupt(guest)

    def _change(self, step: PlanStep) -> None:
        change = step.change
        assert change is not None
        op = operations.get(change.op)
        running = [d for d in (op.stops(change, self.facts) if op.stops else [])
                   if d != self.control and self.states.get(d, "active") == "active"]
        if running:
            self.broken.append((step, f"it changes {change.target} while {', '.join(running)} run(s) on it; "
                                      f"{self.strategy.stopped_first}"))
            return
        why = operations.apply(change, self.facts)
        if why is not None:
            self.unmodelled.append(f"{step.command}: {why}")
        pool = getattr(self.facts, op.grows, None) if op.grows else None
        if pool is not None and pool < 0:
            self.broken.append((step, f"it takes more than the machine has free ({op.grows.replace('_', ' ')} "  # type: ignore[union-attr]
                                      f"would be {pool:g})"))


# What the operations change: copied for each simulation; the rest (kstat
# channels, evidence) is shared with the captured facts, never written.
def _model(facts: HostFacts) -> HostFacts:
    model = copy.copy(facts)
    for p in platforms.packs_of(facts.platform):
        for name in p.changed:
            setattr(model, name, cloned(getattr(facts, name)))
    return model


def _walk(plan: ChangePlan, facts: HostFacts) -> _Walk:
    strategy = strategy_of(facts.platform)
    walk = _Walk(_model(facts), plan.control_domain_name, strategy, strategy.states(facts))
    for phase in plan.phases:
        for step in phase.steps:
            if step.run:
                walk.take(step)
    return walk


def proven(build: Callable[[dict[Change, str]], ChangePlan], facts: HostFacts, score: float | None,
           findings: list[Finding], judge: Judge, runtime: dict[str, str]) -> ChangePlan:
    """The plan `build` makes, proven on a copy of the facts: a change that
    breaks something is held (given back to `build`, which keeps it a comment
    saying why) and the plan is built and proven again."""
    held: dict[Change, str] = {}
    before = {f.tag for f in findings}
    for _ in range(_ROUNDS):
        plan = build(held)
        walk = _walk(plan, facts)
        after_score, after = judge(walk.facts)
        culprits = walk.broken + [(s, f"the simulation shows it makes {tag} fail")
                                  for tag in sorted(after - before) for s in _causes(plan, facts, tag, judge)]
        more = {s.change: f"held by the simulation: {why}" for s, why in culprits
                if s.change is not None and s.change not in held}
        if not more:
            break
        held.update(more)
    plan.simulation = _result(plan, score, after_score, findings, after, runtime, walk, held,
                              [f"{operations.render(c, facts).command}: {why}" for c, why in held.items()])
    return plan


def _causes(plan: ChangePlan, facts: HostFacts, tag: str, judge: Judge) -> list[PlanStep]:
    """The running changes without which the plan no longer makes a finding
    fail: each is tried out of the plan in turn, those acting on the
    finding's subject first."""
    name = tag.split(" on ", 1)[1].split(" ", 1)[-1].split("@")[0]
    running = [s for ph in plan.phases for s in ph.steps if s.run and s.change is not None]
    near = [s for s in running if name in (s.change.target, s.change.domain)]  # type: ignore[union-attr]
    found: list[PlanStep] = []
    for step in near + [s for s in running if s not in near]:
        step.run = False
        try:
            _score, after = judge(_walk(plan, facts).facts)
        finally:
            step.run = True
        if tag not in after:
            found.append(step)
            if step in near:
                break
    return found


def _result(plan: ChangePlan, score: float | None, after_score: float | None, before: list[Finding],
            after_tags: set[str], runtime: dict[str, str], walk: _Walk, held: dict[Change, str],
            said: list[str]) -> Simulation:
    steps = plan.by_finding()
    left: list[Left] = []
    fixed: list[str] = []
    before_tags = [f.tag for f in before]
    for f, tag in zip(before, before_tags):
        mine = steps.get(tag, [])
        running = [n for n, s in mine if s.run]
        if tag not in after_tags:
            fixed.append(tag)
        elif f.rule in runtime and running:
            left.append(Left(finding=tag, why=f"judged on run-time data ({runtime[f.rule]}): capture the host again after "
                                             f"step {', '.join(running)} to see it fixed"))
        elif running:
            left.append(Left(finding=tag, why=f"step {', '.join(running)} run(s), but advisor's model of the "
                                             f"host still fails it after them"))
        else:
            left.append(Left(finding=tag, why=_waiting(mine, held) if mine else unplanned(f)))
    interrupted = {d: n for d, n in walk.interruptions.items() if n > 1}
    return Simulation(score_before=score, score_after=after_score, fixed=fixed, left=left,
                      new=sorted(after_tags.difference(before_tags)), held=said,
                      not_modelled=walk.unmodelled, interrupted_more_than_once=interrupted)


def _waiting(steps: list[tuple[str, PlanStep]], held: dict[Change, str]) -> str:
    """Why a finding's steps do not run: prerequisites, checks, the simulation."""
    prereqs = [n for n, _s in steps if n.startswith("P")]
    sim = [n for n, s in steps if s.change is not None and s.change in held]
    checks = [n for n, _s in steps if n not in prereqs and n not in sim]
    said = ([f"step {', '.join(checks)} wait(s) for a check first"] if checks else []) + (
        [f"step {', '.join(sim)} held by the simulation"] if sim else []) + (
        [f"prerequisite {', '.join(prereqs)} first (never run by advisor)"] if prereqs else [])
    return "; ".join(said)
