"""`--format html`: one self-contained file for a CI server's artifacts.

No scripts, fonts or images are fetched: the style is inline and the chart of
findings per rule is an inline SVG. The output is well-formed XHTML, so it can
be checked with an XML parser. Every text from the report is escaped.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from html import escape

from advisor import __version__
from advisor.report.model import ChangePlan, Finding, HostReport, PlanStep, Report, fix_lines, worst_first

SEVERITIES = ("critical", "high", "medium", "low", "info")
COLOURS = {"critical": "#7b1fa2", "high": "#c62828", "medium": "#ef6c00", "low": "#f9a825", "info": "#607d8b"}

_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2em;color:#222;max-width:70em}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}
th{background:#f3f3f3}.num{text-align:right}.sev{color:#fff;padding:0 .4em;border-radius:3px;font-size:.85em}
pre{background:#f6f8fa;padding:.6em;overflow-x:auto}.finding{border-left:4px solid #ccc;padding-left:1em;margin:1.2em 0}
.muted{color:#666}ol.plan>li{margin:.5em 0}code{white-space:pre-wrap;word-break:break-all}.gate-failed{color:#c62828}.gate-passed{color:#2e7d32}
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _badge(severity: str) -> str:
    return f'<span class="sev" style="background:{COLOURS[severity]}">{_e(severity)}</span>'


def chart(findings: list[Finding]) -> str:
    """Horizontal bars: findings per rule, stacked by severity."""
    per_rule: dict[str, Counter[str]] = {}
    for f in findings:
        per_rule.setdefault(f.rule, Counter())[f.severity.value] += 1
    if not per_rule:
        return '<p class="muted">No findings to chart.</p>'
    rules = sorted(per_rule, key=lambda r: (-sum(per_rule[r].values()), r))
    most = max(sum(c.values()) for c in per_rule.values())
    label, bar, row = 260, 400, 22
    height = row * len(rules) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{label + bar + 60}" height="{height}" role="img" '
             f'aria-label="findings per rule">']
    for i, rule in enumerate(rules):
        y = 5 + i * row
        parts.append(f'<text x="{label - 6}" y="{y + 15}" text-anchor="end" font-size="12">{_e(rule)}</text>')
        x = float(label)
        for sev in SEVERITIES:
            n = per_rule[rule][sev]
            if n:
                w = bar * n / most
                parts.append(f'<rect class="bar" data-rule="{_e(rule)}" data-severity="{sev}" data-count="{n}" '
                             f'x="{x:.1f}" y="{y + 3}" width="{w:.1f}" height="{row - 6}" fill="{COLOURS[sev]}">'
                             f'<title>{_e(rule)}: {n} {sev}</title></rect>')
                x += w
        parts.append(f'<text x="{x + 6:.1f}" y="{y + 15}" font-size="12">{sum(per_rule[rule].values())}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _summary_table(report: Report) -> str:
    head = "".join(f"<th>{s}</th>" for s in SEVERITIES)
    rows = []
    for h in sorted(report.hosts, key=worst_first):
        counts = h.finding_counts()
        score = "-" if h.score is None else f"{h.score:g}"
        cells = "".join(f'<td class="num">{counts[s]}</td>' for s in SEVERITIES)
        rows.append(f'<tr><td><a href="#{_anchor(h)}">{_e(h.host)}</a></td><td>{_e(h.kind_of_host)}'
                    f'{" (plan)" if h.kind == "plan" else ""}</td><td class="num score">{score}</td>{cells}'
                    f"<td>{_e(h.status)}</td></tr>")
    return (f"<table><tr><th>host</th><th>platform</th><th>score</th>{head}<th>status</th></tr>"
            f"{''.join(rows)}</table>")



def _legend() -> str:
    return '<p class="legend">Severity: ' + " ".join(
        f'{_badge(s)} <span class="muted">weight {w}</span>' for s, w in zip(SEVERITIES, (10, 5, 3, 1, 0))) + "</p>"


def _plan(h: HostReport) -> str:
    plan = h.plan
    if plan is None or not (plan.prerequisites or plan.phases):
        return ""
    parts = ["<h3>Change plan</h3>", *_proven(plan)]
    if plan.prerequisites:
        parts.append("<p>Prerequisites, never run by advisor:</p><ul>" + "".join(
            f"<li><code>{_e(p.command)}</code></li>" for p in plan.prerequisites) + "</ul>")
    parts.append('<ol class="plan">')
    for phase in plan.phases:
        after = " (after the reboot)" if phase.after_reboot else ""
        steps = "".join(_step(st) for st in phase.steps)
        parts.append(f"<li><strong>{_e(phase.title)}</strong>{after}; on {_e(phase.runs_on)}; interrupts: "
                     f"{_e(phase.outage)}<ul>{steps}</ul></li>")
    parts.append("</ol>")
    parts += [f'<p class="muted">{_e(n)}</p>' for n in plan.notes]
    return "".join(parts)


def _proven(plan: ChangePlan) -> list[str]:
    """What the plan achieves, proven on a model of the host."""
    sim = plan.simulation
    if sim is None:
        return []
    left = "".join(f"<li><code>{_e(x.finding)}</code>: {_e(x.why)}</li>" for x in sim.left)
    return [f'<p class="proven">{_e(sim.summary())}</p>'] + ([f"<p>Left after the plan:</p><ul>{left}</ul>"]
                                                            if left else [])


def _step(st: PlanStep) -> str:
    note = f' <span class="muted">{_e(st.note)}</span>' if st.note else ""
    return f"<li><code>{'' if st.run else '# '}{_e(st.command)}</code>{note}</li>"


def _anchor(h: HostReport) -> str:
    return "host-" + "".join(c if c.isalnum() or c in "-_" else "_" for c in h.host)


def _finding(h: HostReport, f: Finding) -> str:
    evidence = ", ".join(f"<code>{_e(e)}</code>" for e in f.evidence) or "-"
    which, lines = fix_lines(h, f)
    undo = (f"<p>Undo:</p><pre>{_e(chr(10).join(f.undo))}</pre>" if f.undo else "")
    return (f'<div class="finding" style="border-color:{COLOURS[f.severity.value]}">'
            f"<h4>{_badge(f.severity.value)} <code>{_e(f.rule)}</code> {_e(f.subject)}</h4>"
            f"<p>{_e(f.message)}</p><table>"
            f"<tr><th>observed</th><td>{_e(f.observed)}</td></tr><tr><th>expected</th><td>{_e(f.expected)}</td></tr>"
            f"<tr><th>evidence</th><td>{evidence}</td></tr><tr><th>effect</th><td>{_e(f.effect)}</td></tr>"
            f"<tr><th>source</th><td>{_source(f)}</td></tr></table>"
            f"<p>Fix (impact: {_e(f.impact)}; {_e(which)}):</p>"
            + (f"<pre class=\"fix\">{_e(chr(10).join(lines))}</pre>" if lines else "") + f"{undo}</div>")


def _source(f: Finding) -> str:
    if f.source_url:
        return f'<a href="{_e(f.source_url)}">{_e(f.source)}</a>'
    return _e(f.source)


def _node(h: HostReport) -> str:
    """Which machine the capture came from, whatever the bundle is called."""
    return f"node {_e(h.detected.nodename)}; " if h.detected.nodename else ""


def _collected(h: HostReport) -> str:
    return f" (collected {h.collected})" if h.collected else ""


def _host(h: HostReport) -> str:
    score = "-" if h.score is None else f"{h.score:g}"
    parts = [f'<section id="{_anchor(h)}"><h2>{_e(h.host)} <span class="muted">score {score}/100</span></h2>',
             f'<p class="muted">{_node(h)}{_e(h.source)}{_collected(h)}; {h.counts.passed} passed, {h.counts.failed} failed, '
             f"{h.counts.unknown} unknown, {h.counts.not_applicable} not applicable</p>"]
    parts += [f'<p class="gate-failed">error: {_e(e)}</p>' for e in h.errors]
    for sev in SEVERITIES:
        found = [f for f in h.findings if f.severity.value == sev]
        if found:
            parts.append(f"<h3>{_badge(sev)} {len(found)} finding(s)</h3>")
            parts += [_finding(h, f) for f in found]
    if not h.findings:
        parts.append("<p>No findings.</p>")
    parts.append(_plan(h))
    if h.waived:
        parts.append("<h3>Waived</h3><ul>" + "".join(
            f"<li><code>{_e(f.rule)}</code> {_e(f.subject)}: {_e(f.waiver.reason if f.waiver else '')}</li>"
            for f in h.waived) + "</ul>")
    parts.append("</section>")
    return "".join(parts)


def render(report: Report, now: datetime | None = None) -> str:
    findings = [f for h in report.hosts for f in h.findings]
    when = (now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    gate = ""
    if report.summary.gate:
        gate = (f'<p class="gate-{report.summary.gate}"><strong>Gate {report.summary.gate}</strong>: '
                f"{_e(report.summary.gate_reason or '')}</p>")
    errors = "".join(f'<p class="gate-failed">error: {_e(e)}</p>' for e in report.errors)
    return ("<!DOCTYPE html>\n"
            '<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><meta charset="utf-8"/>'
            f"<title>advisor report</title><style>{_STYLE}</style></head><body>"
            f"<h1>advisor report</h1><p class=\"muted\">advisor {__version__}, {when}, {report.tool.rules} rules, "
            f"{report.summary.hosts} host(s)</p>{gate}{errors}{_legend()}"
            f"<h2>Hosts (worst severity first)</h2>{_summary_table(report)}"
            f"<h2>Findings per rule</h2>{chart(findings)}"
            + "".join(_host(h) for h in report.hosts) + "</body></html>\n")
