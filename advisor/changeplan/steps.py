"""The pieces every change plan is made of, whatever the platform: a step of
the plan with the findings it serves, and the plan's own steps (a stop, a
start, a reboot) held as comments when nothing they serve runs."""

from __future__ import annotations

from advisor import platform_registry as platforms
from advisor.results.model import DomainAction, FixStep, PlanStep, placeholder_in


class Step:
    """A step of the plan and the findings it serves."""

    __slots__ = ("step", "fixes")  # a plain class, not a dataclass: ~2 M instructions less at import

    def __init__(self, step: FixStep, fixes: list[str] | None = None) -> None:
        self.step = step
        self.fixes: list[str] = [] if fixes is None else fixes

    @property
    def managed(self) -> bool:
        """Run through the platform's manager (`runs_in`: ldm), not in the captured host."""
        return self.step.runs_in != "host"


def reboot_command(family: str) -> str:
    """How a host of this family reboots (its platform pack says)."""
    f = platforms.families().get(family)
    return f.reboot if f is not None else "reboot"


def plan_step(s: Step) -> PlanStep:
    st = s.step
    note = None
    if st.kind == "prerequisite":
        note = "prerequisite, never run by advisor"
    elif st.check_first is not None:
        note = f"first check that {st.check_first}"
    elif st.held is not None:
        note = st.held
    elif st.placeholder is not None:
        note = f"fill in {st.placeholder} first"
    return PlanStep(command=st.command, run=st.runnable, note=note, fixes=s.fixes, undo=st.undo, change=st.change)


def control_step(command: str, note: str | None = None, action: DomainAction | None = None) -> PlanStep:
    """A step of the plan's own (stop, start, reboot a domain); held as a comment
    when the domain's name is a placeholder still to be filled in."""
    held = placeholder_in(command)
    if held is not None:
        return PlanStep(command=command, run=False, note=f"fill in {held} first" + (f"; {note}" if note else ""),
                        control=action)
    return PlanStep(command=command, note=note, control=action)


_NOTHING_RUNS = "none of its changes runs until their checks are made, so this interruption is held too"


def held_unless(runs: bool, step: PlanStep) -> PlanStep:
    """A stop, start or reboot of the plan's own, held as a comment when no
    change it serves runs: an interruption for nothing is an outage."""
    if runs or not step.run:
        return step
    return PlanStep(command=step.command, run=False, note=_NOTHING_RUNS + (f"; {step.note}" if step.note else ""))
