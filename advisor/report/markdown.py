"""`--format markdown`: a merge-request comment: hosts, then findings with fixes."""

from __future__ import annotations

import re

from advisor.report.model import Report

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
    out += ["| host | platform | score | critical | high | medium | low | info | status |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for h in report.hosts:
        counts = h.finding_counts()
        score = "-" if h.score is None else f"{h.score:g}"
        out.append(f"| {inline(h.host)} | {h.platform} | {score} | " + " | ".join(str(counts[s]) for s in _ORDER)
                   + f" | {h.status} |")
    for e in report.errors:
        out += ["", f"> error: {inline(e)}"]
    for h in report.hosts:
        out += ["", f"## {inline(h.host)}", ""]
        out += [f"> error: {inline(e)}" for e in h.errors]
        if not h.findings:
            out.append("No findings.")
        for f in h.findings:
            out += [f"### {f.severity.value.upper()} {code(f.rule)} {inline(f.subject)}", "", inline(f.message), "",
                    f"- observed: {inline(f.observed)}", f"- expected: {inline(f.expected)}",
                    f"- evidence: {', '.join(code(e) for e in f.evidence) or '-'}",
                    f"- effect: {inline(f.effect)}", f"- source: {inline(f.source)}", "",
                    f"Fix ({f.impact}):", "", "```sh", *f.remediation, "```", ""]
    return "\n".join(out).rstrip() + "\n"
