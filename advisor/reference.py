"""Generated documentation: the rule reference (docs/rules.md) and the JSON
Schema of the report (docs/report.schema.json). `python -m advisor.reference`
rewrites both; a test fails when the committed copies are stale."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from advisor.engine import packs
from advisor import changes
from advisor.engine.model import Remedy, Rule
from advisor.report.model import Report

DOCS = Path(__file__).resolve().parent.parent / "docs"


def report_schema() -> str:
    schema = Report.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "advisor report"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def _rule_section(rule: Rule) -> list[str]:
    sev = "/".join(s.value for s in sorted(rule.check_severities(), key=lambda s: -s.rank))
    impacts = ", ".join(dict.fromkeys(c.value.value for c in rule.impact))
    lines = [f"### `{rule.id}`", "", f"**{rule.title}**", "",
             f"- Severity: {sev}; subject: {rule.subject}; platforms: {', '.join(rule.platforms)}",
             f"- Source: {rule.source.citation}" + (f" <{rule.source.url}>" if rule.source.url else "")]
    lines += [f"- Reference: {ref}" for ref in rule.references]
    if rule.follows_from:
        lines.append(f"- Follows from: {', '.join(f'`{r}`' for r in rule.follows_from)} (reports show it under them)")
    if rule.confidence != "confirmed":
        lines.append("- Confidence: unconfirmed (reported as info/unknown only)")
    lines += ["", rule.rationale.strip(), "", f"*Expected effect:* {rule.effect.strip()}", "", "Fails when:", ""]
    for c in rule.checks:
        cond = f" (only if `{c.applies}`)" if c.applies else ""
        lines.append(f"- [{(c.severity or rule.severity).value}] `{c.when}`{cond}")
    lines += ["", f"Remediation ({impacts}), as steps of the change plan:", ""]
    lines += [_remedy_line(r) for r in rule.remediation]
    lines.append("")
    if rule.params:
        lines += ["Parameters: " + ", ".join(f"`{k}` = {v}" for k, v in rule.params.items()), ""]
    return lines


_KIND = {"change": "change", "check": "read-only check, never run by a script",
         "prerequisite": "prerequisite, listed first and never run by a script"}


def _timing(op: changes.Operation) -> str:
    """When an operation's change takes effect, as its declaration says."""
    if op.restarts is changes.always:
        return "takes effect at the restart of the domain it changes"
    if op.restarts is changes.never:
        return "takes effect at once"
    return "takes effect " + " ".join((op.restarts.__doc__ or "").split()).rstrip(".")


def _remedy_line(r: Remedy) -> str:
    parts = [_KIND[r.kind]]
    op = changes.get(r.change.op) if r.change else None
    if r.kind == "change":
        parts.append(_timing(op) if op is not None else
                     "takes effect at the restart of the domain it changes" if r.takes_effect == "restart"
                     else "takes effect at once")
    if op is not None and op.sizes:
        parts.append(f"sizes {op.sizes} of `{r.change.target}`, merged with other rules' targets")  # type: ignore[union-attr]
    if r.check_first:
        parts.append(f"commented out until: {r.check_first}")
    if r.when:
        parts.append(f"when `{r.when}`")
    if r.for_each:
        parts.append(f"for each of `{r.for_each}`")
    return f"- `{r.summary}`: {'; '.join(parts)}"



PLAN_INTRO = """## How the fixes become one plan

advisor does not hand out a list of commands per finding. It builds one change
plan per host from all of its findings, in the order Oracle VM Server for
SPARC accepts (while the primary domain is in a delayed reconfiguration, ldm
refuses configuration changes for other domains until it reboots):

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
max-cores stops a fix); a switch's MTU is the lowest any rule asks. A step
that depends on what advisor cannot see (switches on the path, which value of
a drifted tunable is wanted, a name to fill in) is written commented out with
the check to run first. When the captured host is a guest, its `ldm` steps go
to a separate script for the control domain.

"""


def rules_markdown() -> str:
    rules = sorted(packs.load(), key=lambda r: r.id)
    lines = ["# Rule reference", "",
             "Generated from `rules/*.yaml` by `python -m advisor.reference`; do not edit by hand.", "",
             PLAN_INTRO,
             "| id | severity | subject | title |", "|---|---|---|---|"]
    for r in rules:
        sev = "/".join(s.value for s in sorted(r.check_severities(), key=lambda s: -s.rank))
        lines.append(f"| [`{r.id}`](#{r.id.replace('.', '')}) | {sev} | {r.subject} | {r.title} |")
    lines.append("")
    for r in rules:
        lines += _rule_section(r)
    return "\n".join(lines).rstrip() + "\n"


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    (DOCS / "rules.md").write_text(rules_markdown())
    (DOCS / "report.schema.json").write_text(report_schema())
    print("wrote docs/rules.md and docs/report.schema.json", file=sys.stderr)


if __name__ == "__main__":
    main()
