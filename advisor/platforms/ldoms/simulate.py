"""What a plan's simulation knows of a machine of logical domains
(changeplan/simulate.py): the state each domain was captured in, and the
guests a reboot of a domain interrupts (those with a vnet on its switches)."""

from __future__ import annotations

from advisor.facts.models import HostFacts
from advisor.platforms.ldoms.records import ldoms


def states(facts: HostFacts) -> dict[str, str]:
    return {d.name: d.state or "active" for d in ldoms(facts).domains or []}


def interrupted_by_reboot(facts: HostFacts, states: dict[str, str], rebooted: str) -> list[str]:
    """The running guests with a vnet on one of the rebooted domain's switches."""
    names = {v.domain for v in ldoms(facts).vnets or [] if v.vsw_domain == rebooted and v.domain != rebooted}
    return sorted(n for n in names if states.get(n, "active") == "active")
