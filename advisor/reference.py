"""Generated documentation: the rule reference (docs/rules.md) and the JSON
Schema of the report (docs/report.schema.json). `python -m advisor.reference`
rewrites both; a test fails when the committed copies are stale."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from advisor import platform_registry as platforms
from advisor.changeplan.strategy import strategy_of
from advisor.engine import explain, packs
from advisor.engine.model import Rule
from advisor.report.markdown import code
from advisor.results.model import Report

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
    lines += [f"- Reference: {_words(ref)}" for ref in rule.references]
    if rule.follows_from:
        lines.append(f"- Follows from: {', '.join(f'`{r}`' for r in rule.follows_from)} (reports show it under them)")
    if rule.confidence != "confirmed":
        lines.append("- Confidence: unconfirmed (reported as info/unknown only)")
    lines += ["", rule.rationale.strip(), "", f"*Expected effect:* {rule.effect.strip()}", "",
              explain.fails_when(rule) + ":", ""]
    for f in explain.failures(rule):
        lines += [f"- [{f.severity.value}] {_words(f.says)}", f"  - condition (CEL): {code(f.cel)}"]
    lines += ["", f"Remediation ({impacts}), as steps of the change plan:", ""]
    for step in explain.steps(rule):
        lines += _step_lines(step)
    lines.append("")
    if rule.params:
        lines += ["Parameters: " + ", ".join(f"`{k}` = {v}" for k, v in rule.params.items()), ""]
    if rule.load is not None:
        lines += _load_lines(rule)
    return lines


def _load_lines(rule: Rule) -> list[str]:
    """What two samples of the counters do to the rule's findings (its `load`)."""
    said = explain.load_said(rule)
    assert said is not None
    return [f"{_words(said.intro)}:", "", f"- measured (CEL, {said.unit}): {code(said.measure)}",
            *(f"- {move}" for move in said.moves), ""]


def _words(text: str) -> str:
    """Words with <placeholders>, which Markdown would read as HTML tags."""
    return text.replace("<", "\\<")


def _step_lines(step: explain.Step) -> list[str]:
    """A command in a code span, after its heading; all else in words, labelled."""
    what = code(step.command) if step.command else _words(step.needs or "")
    lines = [f"- {_words(step.heading)}: {what}"]
    lines += [f"  - {label}: {_words(words)}" for label, words in
              (("check first", step.check_first), ("held", step.held)) if words]
    return lines + ([f"  - condition (CEL): {code(step.cel)}"] if step.cel else [])


PLAN_INTRO = """## How the fixes become one plan

advisor does not hand out a list of commands per finding. It builds one change
plan per host from all of its findings, applies it to a model of the host, and
judges the model again before any script is written. Prerequisites (software
and firmware upgrades, with the versions needed) come first, as comments only:
they are maintenance projects. Then the live changes; then the changes that
take effect at a restart, with as few restarts as the platform allows. A step
that depends on what advisor cannot see (switches on the path, which value of
a drifted tunable is wanted, a name to fill in) is written commented out with
the check to run first.

Where a platform's virtualization manager stops and starts domains, its plans
follow the manager's order:

"""


def _plan_said() -> str:
    """The introduction, then each restart strategy's own order (its pack's `restarts`)."""
    said = [strategy_of(f).said for f in platforms.families()]
    return PLAN_INTRO + "\n".join(s for s in said if s)


def rules_markdown() -> str:
    rules = sorted(packs.load(), key=lambda r: r.id)
    lines = ["# Rule reference", "",
             "Generated from each platform pack's `advisor/platforms/<name>/rules.yaml` by `python -m advisor.reference`; do not edit by hand.", "",
             _plan_said(),
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
