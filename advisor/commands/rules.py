"""`advisor rules list | show ID`."""

from __future__ import annotations

from pathlib import Path

from advisor.commands.stdout import to_stdout
from advisor.engine import explain, packs
from advisor.engine.model import Rule
from advisor.errors import InputError
from advisor.report.layout import Span
from advisor.report.terminal import Output, titled_table


def list_rules(rule_dirs: list[Path]) -> None:
    rows: list[list[str | Span]] = []
    for rule in sorted(packs.load(rule_dirs), key=lambda r: r.id):
        sev = "/".join(s.value for s in sorted(rule.check_severities(), key=lambda s: -s.rank))
        rows.append([rule.id, sev, rule.subject, rule.title])
    with to_stdout() as stdout, Output(stdout) as out:
        titled_table(out, None, ["id", "severity", "subject", "title"], rows, wrapping={3})


def show_rule(rule_id: str, rule_dirs: list[Path], cel: bool = False) -> None:
    """The rule in words; with `cel`, each condition as CEL too, on a line of its own labelled so."""
    rules = {r.id: r for r in packs.load(rule_dirs)}
    rule = rules.get(rule_id)
    if rule is None:
        close = [r for r in rules if rule_id.split(".")[-1] in r]
        hint = f" (did you mean {', '.join(sorted(close))}?)" if close else ""
        raise InputError(f"no rule {rule_id!r}{hint}")
    with to_stdout() as stdout, Output(stdout) as out:
        _about(rule, out)
        _failures(rule, out, cel)
        _remediation(rule, out, cel)
        _load(rule, out, cel)
        if rule.params:
            out.blank()
            out.text("Parameters (override in a policy file)", style="bold")
            for k, v in rule.params.items():
                out.text(f"  {k}: {v}")


def _about(rule: Rule, out: Output) -> None:
    severities = "/".join(s.value for s in sorted(rule.check_severities(), key=lambda s: -s.rank))
    out.text(rule.id, style="bold")
    for line in [rule.title, f"severity: {severities}   subject: {rule.subject}   platforms: {', '.join(rule.platforms)}",
                 f"source: {rule.source.citation}" + (f" <{rule.source.url}>" if rule.source.url else ""),
                 *(f"reference: {ref}" for ref in rule.references)]:
        out.text(line)
    for title, body in (("Rationale", rule.rationale), ("Expected effect", rule.effect)):
        out.blank()
        out.text(title, style="bold")
        out.text(body.strip())


def _failures(rule: Rule, out: Output, cel: bool) -> None:
    out.blank()
    out.text(explain.fails_when(rule), style="bold")
    for f in explain.failures(rule):
        out.hanging(f"  [{f.severity.value}] ", f.says)
        if cel:
            out.whole(CEL_LEAD + f.cel, style="dim")


def _remediation(rule: Rule, out: Output, cel: bool) -> None:
    """A command to type after `$ `, whole; all else in words, labelled."""
    out.blank()
    out.text(f"Remediation ({', '.join(dict.fromkeys(i.value.value for i in rule.impact))})", style="bold")
    for step in explain.steps(rule):
        out.hanging("  - ", step.heading + ":", indent="    ")
        for label, words in (("check first: ", step.check_first), ("needs: ", step.needs), ("held: ", step.held)):
            if words:
                out.hanging("    " + label, words)
        if step.command:
            out.whole(f"    $ {step.command}")
        if cel and step.cel:
            out.whole(CEL_LEAD + step.cel, style="dim")


def _load(rule: Rule, out: Output, cel: bool) -> None:
    said = explain.load_said(rule)
    if said is None:
        return
    out.blank()
    out.text("Weighed by measured load", style="bold")
    out.text(said.intro + ":")
    for move in said.moves:
        out.hanging("  - ", move)
    if cel:
        out.whole(f"      measured (CEL, {said.unit}): {said.measure}", style="dim")


CEL_LEAD = "      condition (CEL): "  # one line, never wrapped: an expression to copy
