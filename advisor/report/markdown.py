"""`--format markdown`: a merge-request comment: hosts, then findings with fixes."""

from __future__ import annotations

import re

from advisor.report import grouping, stream
from advisor.results.model import HostReport, PlanStep, step_lines

_ORDER = ("critical", "high", "medium", "low", "info")  # the order of HostReport.finding_counts()


_SPECIAL = re.compile(r"([\\`*_\[\]<>|!~&#])")


def inline(text: str) -> str:
    """Text from captures as Markdown shows it literally, even in a table cell:
    no link, image, HTML tag, emphasis, code span or column of its own."""
    return _SPECIAL.sub(r"\\\1", " ".join(text.splitlines()))


def code(text: str) -> str:
    """A code span that no backtick in the text can close early."""
    text = " ".join(text.splitlines())
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


class Writer:
    """The table of hosts first, then a section per host in the table's order."""

    in_fleet_order = True
    separator = ""

    def __init__(self, causes: dict[str, list[str]] | None = None) -> None:
        self.causes = causes or {}

    def head(self, fleet: stream.Fleet) -> str:
        out = ["# advisor report", ""]
        if fleet.summary.gate:
            out += [f"**Gate {fleet.summary.gate}**: {inline(fleet.summary.gate_reason or '')}", ""]
        out += ["Hosts, worst severity first; checks: evaluated / applicable.", "",
                "| host | platform | score | checks | critical | high | medium | low | info | status |",
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
        for h in fleet.worst_first():
            counts = h.finding_counts()
            score = "-" if h.score is None else f"{h.score:g}"
            out.append(f"| {inline(h.label)} | {h.kind_of_host} | {score} | %d/%d | " % h.coverage
                       + " | ".join(str(counts[s]) for s in _ORDER) + f" | {h.status_said} |")
        for e in fleet.errors:
            out += ["", f"> error: {inline(e)}"]
        return "\n".join(out) + "\n"

    def part(self, h: HostReport) -> str:
        out = ["", f"## {inline(h.label)}", ""]
        out += [f"Collected {h.collected}.", ""] if h.collected else []
        out += [f"> error: {inline(e)}" for e in h.errors]
        if not h.findings:
            out.append("No findings.")
        order = grouping.order_said(h)
        if order and h.findings:
            out += [f"{inline(order)}.", ""]
        studies: dict[grouping.Study, int] = {}
        numbered = h.plan.numbered() if h.plan is not None else []
        for group in grouping.groups(h, self.causes):
            out += _group(group, numbered, h.source, studies)
        out += _plan(h)
        out += _unknowns(h) + _sources(studies)
        return "\n".join(out).rstrip() + "\n"

    def tail(self, fleet: stream.Fleet) -> str:
        return ""


def _group(group: grouping.Group, numbered: list[tuple[str, PlanStep]], source: str,
           studies: dict[grouping.Study, int]) -> list[str]:
    """One card per rule: each subject with its own values, then effect, source and fix once."""
    worst = group.worst
    rows = grouping.subjects(group, source)
    one = len(rows) == 1
    title = inline(worst.subject) if one else f"{len(rows)} subjects"
    out = [f"### {worst.severity.value.upper()} {code(group.rule)} {title}", ""]
    if group.causes:
        out += [f"Follows from {', '.join(code(c) for c in group.causes)}: fixing that fixes this.", ""]
    out += [inline(worst.message if one else worst.title), ""]
    if one:
        [r] = rows
        out += [f"- observed: {inline(r.observed)}", f"- expected: {inline(r.expected)}",
                f"- evidence: {', '.join(code(e) for e in r.evidence) or '-'}"]
    else:
        out += ["| subject | observed | expected | evidence |", "|---|---|---|---|"]
        out += [f"| {inline(r.name)} | {inline(r.observed)}{'' if r.severity == worst.severity.value else f' ({r.severity})'}"
                f" | {inline(r.expected)} | {', '.join(_in_cell(code(e)) for e in r.evidence) or '-'} |" for r in rows]
        out.append("")
    number, section = grouping.cite(worst, studies)
    steps = grouping.steps_of(group, numbered)
    lines = step_lines(steps) or grouping.checks_of(group)
    out += [f"- effect: {inline(worst.effect)}", f"- source: [{number}]" + (f", section {inline(section)}" if section
                                                                             else ""), "",
            f"Fix ({inline(grouping.fix_said(group, steps))}):", ""]
    return out + (_fenced(lines) if lines else [])


def _in_cell(span: str) -> str:
    """A code span in a table cell: GFM ends the cell at a bare `|`, even inside the span."""
    return span.replace("|", "\\|")


def _unknowns(h: HostReport) -> list[str]:
    missing = grouping.unknowns(h)
    if not missing:
        return []
    return ["### Not evaluated (missing input)", ""] + [
        f"- {inline(what)}: {', '.join(code(r) for r in rules)}" for what, rules in missing] + [""]


def _sources(studies: dict[grouping.Study, int]) -> list[str]:
    if not studies:
        return []
    return ["### Sources", ""] + [f"{n}. {inline(title)}" + (f" <{url}>" if url else "")
                                  for (title, url), n in studies.items()] + [""]


def _fenced(lines: list[str]) -> list[str]:
    fence = "`" * (max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0) + 3)
    return [fence + "sh", *lines, fence, ""]


def _plan(h: HostReport) -> list[str]:
    """The host's change plan, numbered as every other view numbers it."""
    plan = h.plan
    if plan is None or not (plan.prerequisites or plan.phases):
        return []
    out = [f"### Change plan for {inline(h.label)}", ""]
    if plan.simulation is not None:
        out += [f"Proven on advisor's model of the host: {inline(plan.simulation.summary())}", ""]
        out += [f"- left: {code(x.finding)}: {inline(x.why)}" for x in plan.simulation.left]
        out += [""] if plan.simulation.left else []
    number = {id(s): n for n, s in plan.numbered()}
    for p in plan.prerequisites:
        out.append(f"- {number[id(p)]} prerequisite, never run by advisor: {code(p.command)}")
    for phase in plan.phases:
        out += ["", f"**{inline(phase.title)}** (runs on {inline(phase.runs_on)}; interrupts: {inline(phase.outage)})", ""]
        for s in phase.steps:
            held = "" if s.run else " (not run)"
            out.append(f"{number[id(s)]}. {code(s.command)}{held}" + (f": {inline(s.note)}" if s.note else ""))
    out += [f"> {inline(n)}" for n in plan.notes]
    return out + [""]
