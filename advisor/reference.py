"""Generated documentation: the rule reference (docs/rules.md) and the JSON
Schema of the report (docs/report.schema.json). `python -m advisor.reference`
rewrites both; a test fails when the committed copies are stale."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from advisor.engine import packs
from advisor.engine.model import Rule
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
             f"- Source: `{rule.source.seed}`, {rule.source.section}"]
    lines += [f"- Reference: {ref}" for ref in rule.references]
    if rule.confidence != "confirmed":
        lines.append("- Confidence: unconfirmed (reported as info/unknown only)")
    lines += ["", rule.rationale.strip(), "", f"*Expected effect:* {rule.effect.strip()}", "", "Fails when:", ""]
    for c in rule.checks:
        cond = f" (only if `{c.applies}`)" if c.applies else ""
        lines.append(f"- [{(c.severity or rule.severity).value}] `{c.when}`{cond}")
    lines += ["", f"Remediation ({impacts}):", "", "```sh"]
    lines += [r.command for r in rule.remediation]
    lines += ["```", ""]
    if rule.params:
        lines += ["Parameters: " + ", ".join(f"`{k}` = {v}" for k, v in rule.params.items()), ""]
    return lines


def rules_markdown() -> str:
    rules = sorted(packs.load(), key=lambda r: r.id)
    lines = ["# Rule reference", "",
             "Generated from `rules/*.yaml` by `python -m advisor.reference`; do not edit by hand.", "",
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
