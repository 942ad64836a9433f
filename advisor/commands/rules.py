"""`advisor rules list | show ID`."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.table import Table
from rich.text import Text

from advisor.engine import packs
from advisor.errors import InputError
from advisor.report.terminal import Output


def list_rules(rule_dirs: list[Path]) -> None:
    table = Table(show_edge=False, pad_edge=False)
    for col in ("id", "severity", "subject", "title"):
        table.add_column(col, overflow="fold")
    for rule in sorted(packs.load(rule_dirs), key=lambda r: r.id):
        sev = "/".join(s.value for s in sorted(rule.check_severities(), key=lambda s: -s.rank))
        table.add_row(rule.id, sev, rule.subject, rule.title)
    with Output(sys.stdout) as out:
        out.print(table)


def show_rule(rule_id: str, rule_dirs: list[Path]) -> None:
    rules = {r.id: r for r in packs.load(rule_dirs)}
    rule = rules.get(rule_id)
    if rule is None:
        close = [r for r in rules if rule_id.split(".")[-1] in r]
        hint = f" (did you mean {', '.join(sorted(close))}?)" if close else ""
        raise InputError(f"no rule {rule_id!r}{hint}")
    lines = [Text(rule.id, style="bold"), Text(rule.title),
           Text(f"severity: {'/'.join(s.value for s in sorted(rule.check_severities(), key=lambda s: -s.rank))}"
                f"   subject: {rule.subject}   platforms: {', '.join(rule.platforms)}"),
           Text(f"source: {rule.source.citation}" + (f" <{rule.source.url}>" if rule.source.url else ""))]
    lines += [Text(f"reference: {ref}") for ref in rule.references]
    lines += [Text(""), Text("Rationale", style="bold"), Text(rule.rationale.strip()),
            Text(""), Text("Expected effect", style="bold"), Text(rule.effect.strip()),
            Text(""), Text("Fails when", style="bold")]
    for c in rule.checks:
        sev = (c.severity or rule.severity).value
        lines.append(Text(f"  [{sev}] {c.when}" + (f"   (only if {c.applies})" if c.applies else "")))
    lines += [Text(""), Text(f"Remediation ({', '.join(i.value.value for i in rule.impact)})", style="bold")]
    lines += [Text(f"  $ {r.command}" + (f"   (if {r.when})" if r.when else "")) for r in rule.remediation]
    if rule.params:
        lines += [Text(""), Text("Parameters (override in a policy file)", style="bold")]
        lines += [Text(f"  {k}: {v}") for k, v in rule.params.items()]
    with Output(sys.stdout) as out:
        for line in lines:
            out.print(line)
