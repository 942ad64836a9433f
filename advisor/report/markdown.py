"""`--format markdown`: a merge-request comment: hosts, then findings with fixes."""

from __future__ import annotations

import re

from advisor.report.model import HostReport, Report, fix_lines, worst_first

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


def render(report: Report) -> str:
    out = ["# advisor report", ""]
    if report.summary.gate:
        out += [f"**Gate {report.summary.gate}**: {inline(report.summary.gate_reason or '')}", ""]
    hosts = sorted(report.hosts, key=worst_first)
    out += ["Hosts, worst severity first; checks: evaluated / applicable.", "",
            "| host | platform | score | checks | critical | high | medium | low | info | status |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for h in hosts:
        counts = h.finding_counts()
        score = "-" if h.score is None else f"{h.score:g}"
        out.append(f"| {inline(h.label)} | {h.kind_of_host} | {score} | %d/%d | " % h.coverage
                   + " | ".join(str(counts[s]) for s in _ORDER) + f" | {h.status_said} |")
    for e in report.errors:
        out += ["", f"> error: {inline(e)}"]
    for h in hosts:
        out += ["", f"## {inline(h.label)}", ""]
        out += [f"Collected {h.collected}.", ""] if h.collected else []
        out += [f"> error: {inline(e)}" for e in h.errors]
        if not h.findings:
            out.append("No findings.")
        for f in h.findings:
            which, lines = fix_lines(h, f)
            out += [f"### {f.severity.value.upper()} {code(f.rule)} {inline(f.subject)}", "", inline(f.message), "",
                    f"- observed: {inline(f.observed)}", f"- expected: {inline(f.expected)}",
                    f"- evidence: {', '.join(code(e) for e in f.evidence) or '-'}",
                    f"- effect: {inline(f.effect)}", f"- source: {inline(f.source)}", "",
                    f"Fix ({f.impact}; {which}):", ""] + (_fenced(lines) if lines else [])
        out += _plan(h)
    return "\n".join(out).rstrip() + "\n"


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
