"""`advisor rules list | show ID`."""

from __future__ import annotations

import sys
from pathlib import Path

from advisor.engine import packs
from advisor.errors import InputError
from advisor.report.layout import Span
from advisor.report.terminal import Output, titled_table


def list_rules(rule_dirs: list[Path]) -> None:
    rows: list[list[str | Span]] = []
    for rule in sorted(packs.load(rule_dirs), key=lambda r: r.id):
        sev = "/".join(s.value for s in sorted(rule.check_severities(), key=lambda s: -s.rank))
        rows.append([rule.id, sev, rule.subject, rule.title])
    with Output(sys.stdout) as out:
        titled_table(out, None, ["id", "severity", "subject", "title"], rows, wrapping={3})


def show_rule(rule_id: str, rule_dirs: list[Path]) -> None:
    rules = {r.id: r for r in packs.load(rule_dirs)}
    rule = rules.get(rule_id)
    if rule is None:
        close = [r for r in rules if rule_id.split(".")[-1] in r]
        hint = f" (did you mean {', '.join(sorted(close))}?)" if close else ""
        raise InputError(f"no rule {rule_id!r}{hint}")
    severities = "/".join(s.value for s in sorted(rule.check_severities(), key=lambda s: -s.rank))
    lines: list[tuple[str, str]] = [
        (rule.id, "bold"), (rule.title, ""),
        (f"severity: {severities}   subject: {rule.subject}   platforms: {', '.join(rule.platforms)}", ""),
        (f"source: {rule.source.citation}" + (f" <{rule.source.url}>" if rule.source.url else ""), "")]
    lines += [(f"reference: {ref}", "") for ref in rule.references]
    lines += [("", ""), ("Rationale", "bold"), (rule.rationale.strip(), ""),
              ("", ""), ("Expected effect", "bold"), (rule.effect.strip(), ""),
              ("", ""), ("Fails when", "bold")]
    for c in rule.checks:
        sev = (c.severity or rule.severity).value
        lines.append((f"  [{sev}] {c.when}" + (f"   (only if {c.applies})" if c.applies else ""), ""))
    lines += [("", ""), (f"Remediation ({', '.join(i.value.value for i in rule.impact)})", "bold")]
    lines += [(f"  $ {r.command}" + (f"   (if {r.when})" if r.when else ""), "") for r in rule.remediation]
    if rule.params:
        lines += [("", ""), ("Parameters (override in a policy file)", "bold")]
        lines += [(f"  {k}: {v}", "") for k, v in rule.params.items()]
    with Output(sys.stdout) as out:
        for text, style in lines:
            out.text(text, style=style)
