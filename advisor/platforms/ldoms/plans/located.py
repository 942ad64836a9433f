"""A plan read from a file, with where each part of it was written."""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.platforms.ldoms.plans.schema import Plan

# Keys: ("domain", dom), ("domain", dom, field), ("vsw", dom, name), ("vnet", dom, name),
# ("link", dom, name), ("vf", dom, name), ("hardware", field), ("software", field), ("plan",).
Where = dict[tuple[str, ...], str]


@dataclass
class LocatedPlan:
    plan: Plan
    where: Where = field(default_factory=dict)
    form: str = "yaml"  # yaml, xml (ldm list-constraints -x), or yaml+xml

    def at(self, *key: str) -> str:
        """`plan.yaml:14` for the most specific key that was recorded."""
        for n in range(len(key), 0, -1):
            if (hit := self.where.get(key[:n])) is not None:
                return hit
        return self.where.get(("plan",), "")
