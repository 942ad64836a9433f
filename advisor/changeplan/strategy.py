"""A platform's restart strategy: what the generic plan builder and its
simulation ask the host's platform pack (`Pack.restarts`).

The generic builder keeps what every platform shares: each step once with the
findings it serves, the live changes in the captured host, the changes that
take effect at the host's reboot (with its family's reboot command), a copy of
each system file before it is edited. A strategy adds what its platform's
manager does: the steps run through it (ldm), the outages of the domains it
stops and starts, its own reboot, the resources it hands out, the names it
refuses, saving its configuration; and, for the simulation, which domains run
and which a reboot interrupts. A host of a family without one gets the generic
plan: its live changes, then its changes and one reboot.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple, Protocol, cast

from advisor import platform_registry as platforms
from advisor.changeplan.steps import Step
from advisor.facts.models import HostFacts
from advisor.results.model import ChangePlan, Finding, PlanPhase


class RestartedElsewhere(NamedTuple):  # a NamedTuple, not a frozen dataclass: cheaper to define at import
    """The captured host's restart is a phase of another machine's script (a
    guest's stop and start on its control domain): what that interrupts, and
    why the host's own reboot line is not run."""

    outage: str
    note: str


class Restarts(NamedTuple):
    """What a strategy plans around the captured host's own phases."""

    phases: list[PlanPhase]  # after the host's live changes: the manager's phases
    takes_boot: bool  # the host's restart-bound changes are in one of `phases` (its own reboot is there)
    restarted_elsewhere: RestartedElsewhere | None
    closing: list[PlanPhase]  # last of all (saving the manager's configuration)


class RestartStrategy(Protocol):
    """How a platform restarts what its changes need restarted (see the module's docstring)."""

    stopped_first: str  # why a change that needs domains stopped is refused while they run
    said: str  # the order of its plans, in Markdown, for the rule reference (a `###` section)

    def begin(self, findings: list[Finding], facts: HostFacts) -> ChangePlan:
        """The empty plan, with where the manager's steps run."""
        ...

    def host_name(self, facts: HostFacts) -> str:
        """How the plan names the captured host."""
        ...

    def size(self, steps: list[Step], facts: HostFacts, notes: list[str]) -> list[Step]:
        """One decision per resource a step sizes, within what the machine has free."""
        ...

    def refuse(self, changes: list[Step], facts: HostFacts, plan: ChangePlan) -> list[Step] | None:
        """The changes that may be planned (notes saying why others may not); None: none may."""
        ...

    def restarts(self, changes: list[Step], boot: list[Step], facts: HostFacts, plan: ChangePlan) -> Restarts:
        """The phases of the manager's steps and outages; `boot`: the host's changes that need its restart."""
        ...

    def states(self, facts: HostFacts) -> dict[str, str]:
        """Each domain's state as captured (active, bound, inactive), for the simulation."""
        ...

    def interrupted_by_reboot(self, facts: HostFacts, states: dict[str, str], rebooted: str) -> list[str]:
        """The running domains a reboot of `rebooted` interrupts."""
        ...


class Generic:
    """The plan of a host whose platform has no manager of its own: its live
    changes, then the changes that take effect at its reboot, and the reboot."""

    stopped_first = "they are stopped first"
    said = ""  # the reference's own introduction says what a generic plan is

    def begin(self, findings: list[Finding], facts: HostFacts) -> ChangePlan:
        return ChangePlan()

    def host_name(self, facts: HostFacts) -> str:
        return facts.host

    def size(self, steps: list[Step], facts: HostFacts, notes: list[str]) -> list[Step]:
        return steps

    def refuse(self, changes: list[Step], facts: HostFacts, plan: ChangePlan) -> list[Step] | None:
        return changes

    def restarts(self, changes: list[Step], boot: list[Step], facts: HostFacts, plan: ChangePlan) -> Restarts:
        return Restarts([], False, None, [])

    def states(self, facts: HostFacts) -> dict[str, str]:
        return {}

    def interrupted_by_reboot(self, facts: HostFacts, states: dict[str, str], rebooted: str) -> list[str]:
        return []


@cache
def strategy_of(family: str) -> RestartStrategy:
    """The restart strategy a pack of this family declares, or the generic one."""
    return cast(RestartStrategy, platforms.declared(family, "restarts") or Generic())
