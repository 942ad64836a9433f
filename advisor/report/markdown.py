"""`--format markdown`: a merge-request comment: hosts, then findings with fixes."""

from __future__ import annotations

from advisor.report.model import Report

_ORDER = ("critical", "high", "medium", "low", "info")  # the order of HostReport.finding_counts()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(report: Report) -> str:
    out = ["# advisor report", ""]
    if report.summary.gate:
        out += [f"**Gate {report.summary.gate}**: {report.summary.gate_reason}", ""]
    out += ["| host | platform | score | critical | high | medium | low | info | status |",
            "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for h in report.hosts:
        counts = h.finding_counts()
        score = "-" if h.score is None else f"{h.score:g}"
        out.append(f"| {_cell(h.host)} | {h.platform} | {score} | " + " | ".join(str(counts[s]) for s in _ORDER)
                   + f" | {h.status} |")
    for e in report.errors:
        out += ["", f"> error: {_cell(e)}"]
    for h in report.hosts:
        out += ["", f"## {h.host}", ""]
        out += [f"> error: {_cell(e)}" for e in h.errors]
        if not h.findings:
            out.append("No findings.")
        for f in h.findings:
            out += [f"### {f.severity.value.upper()} `{f.rule}` {f.subject}", "", f.message, "",
                    f"- observed: {f.observed}", f"- expected: {f.expected}",
                    f"- evidence: {', '.join(f'`{e}`' for e in f.evidence) or '-'}",
                    f"- effect: {f.effect}", f"- source: {f.source}", "",
                    f"Fix ({f.impact}):", "", "```sh", *f.remediation, "```", ""]
    return "\n".join(out).rstrip() + "\n"
