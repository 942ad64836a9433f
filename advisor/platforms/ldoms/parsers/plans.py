"""Planned configurations, read as outputs: an advisor-plan/1 YAML file, or
`ldm list-constraints -x` XML."""

from __future__ import annotations

from advisor.collect.capture import RawOutput
from advisor.platforms.ldoms.plans import constraints_xml, yaml_plan
from advisor.platforms.ldoms.plans.located import LocatedPlan


def plan(output: RawOutput) -> LocatedPlan:
    return yaml_plan.parse(output.text(), output.file, output.path.parent)


def constraints(output: RawOutput) -> LocatedPlan:
    return constraints_xml.parse(output.text(), output.file)
