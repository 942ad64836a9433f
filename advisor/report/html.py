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
from advisor.report import grouping, stream
from advisor.results.model import ChangePlan, Finding, HostLine, HostReport, PlanStep, step_lines

SEVERITIES = grouping.SEVERITIES
COLOURS = {"critical": "#7b1fa2", "high": "#c62828", "medium": "#ef6c00", "low": "#f9a825", "info": "#607d8b"}

_STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2em;color:#222;max-width:70em}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}
th{background:#f3f3f3}.num{text-align:right}.sev{color:#fff;padding:0 .4em;border-radius:3px;font-size:.85em}
pre{background:#f6f8fa;padding:.6em;overflow-x:auto}.finding{border-left:4px solid #ccc;padding-left:1em;margin:1.2em 0}
.muted{color:#666}ol.plan>li{margin:.5em 0}.gate-failed{color:#c62828}.gate-passed{color:#2e7d32}
code{white-space:pre-wrap;overflow-wrap:break-word}.finding.after{margin-left:2em}
figure{margin:.5em 0}figcaption{font-size:.9em;color:#444}
table.hosts td+td{white-space:nowrap}ul.steps{list-style:none;padding-left:1em}.step{display:inline-block;min-width:2.5em;color:#666}
"""


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _badge(severity: str) -> str:
    return f'<span class="sev" style="background:{COLOURS[severity]}">{_e(severity)}</span>'


def tally(findings: list[Finding], per_rule: dict[str, Counter[str]]) -> None:
    """Adds findings to the counts per rule and severity the chart draws."""
    for f in findings:
        per_rule.setdefault(f.rule, Counter())[f.severity.value] += 1


def chart(per_rule: dict[str, Counter[str]]) -> str:
    """Horizontal bars: findings per rule, stacked by severity."""
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


def _summary_table(hosts: list[HostLine], shown: list[str]) -> str:
    """The terminal's fleet table: the same hosts in the same order, the same columns."""
    head = "".join(f"<th>{s}</th>" for s in shown)
    rows = []
    for h in hosts:
        counts = h.finding_counts()
        cells = "".join(f'<td class="num">{counts[s]}</td>' for s in shown)
        rows.append(f'<tr><td><a href="#{_anchor(h)}">{_e(h.label)}</a></td><td>{_e(h.kind_of_host)}'
                    f'{" (plan)" if h.kind == "plan" else ""}</td>'
                    f'<td class="num score">{_e(grouping.score_short(h))}</td>'
                    f'<td class="num">{"%d/%d" % h.coverage}</td>{cells}<td>{_e(h.status_said)}</td></tr>')
    return (f'<table class="hosts"><tr><th>host</th><th>platform</th><th>score</th><th>checks</th>{head}'
            f"<th>status</th></tr>{''.join(rows)}</table>")


def _legend() -> str:
    return '<p class="legend">Severity: ' + " ".join(
        f'{_badge(s)} <span class="muted">weight {w}</span>' for s, w in zip(SEVERITIES, (10, 5, 3, 1, 0))) + "</p>"


def _plan(h: HostReport, numbered: list[tuple[str, PlanStep]]) -> str:
    """The change plan, each step with the number the cards give it."""
    plan = h.plan
    if plan is None or not (plan.prerequisites or plan.phases):
        return ""
    number = {id(s): n for n, s in numbered}
    parts = ["<h3>Change plan</h3>", *_proven(plan)]
    if plan.prerequisites:
        parts.append('<p>Prerequisites, never run by advisor:</p><ul class="steps">' + "".join(
            f"<li>{_number(number[id(p)])}<code>{_e(p.command)}</code></li>" for p in plan.prerequisites) + "</ul>")
    parts.append('<ol class="plan">')
    for phase in plan.phases:
        after = " (after the reboot)" if phase.after_reboot else ""
        steps = "".join(_step(number[id(st)], st) for st in phase.steps)
        parts.append(f"<li><strong>{_e(phase.title)}</strong>{after}; on {_e(phase.runs_on)}; interrupts: "
                     f'{_e(phase.outage)}<ul class="steps">{steps}</ul></li>')
    parts.append("</ol>")
    parts += [f'<p class="muted">{_e(n)}</p>' for n in plan.notes]
    return "".join(parts)


def _number(n: str) -> str:
    return f'<span class="step">{n}</span> '


def _proven(plan: ChangePlan) -> list[str]:
    """What the plan achieves, proven on a model of the host."""
    sim = plan.simulation
    if sim is None:
        return []
    left = "".join(f"<li><code>{_e(x.finding)}</code>: {_e(x.why)}</li>" for x in sim.left)
    return [f'<p class="proven">{_e(sim.summary())}</p>'] + ([f"<p>Left after the plan:</p><ul>{left}</ul>"]
                                                            if left else [])


def _step(n: str, st: PlanStep) -> str:
    note = f' <span class="muted">{_e(st.note)}</span>' if st.note else ""
    return f"<li>{_number(n)}<code>{'' if st.run else '# '}{_e(st.command)}</code>{note}</li>"


def _anchor(h: HostReport | HostLine) -> str:
    return "host-" + "".join(c if c.isalnum() or c in "-_" else "_" for c in h.host)


def _card(h: HostReport, group: grouping.Group, numbered: list[tuple[str, PlanStep]],
          studies: dict[grouping.Study, int]) -> str:
    """One rule's findings: each subject's own values, then effect, fix and source once."""
    worst, one = group.worst, len(group.findings) == 1
    steps = grouping.steps_of(group, numbered)
    follows = (f'<p class="follows">follows from {", ".join(f"<code>{_e(c)}</code>" for c in group.causes)}: '
               f"fixing that fixes this</p>" if group.causes else "")
    what = _one(*grouping.subjects(group, h.source)) if one else _subjects(group, h.source)
    checks = grouping.checks_of(group)
    undo = list(dict.fromkeys(u for f in group.findings for u in f.undo))
    kind = "finding after" if group.causes else "finding"  # under its cause, indented
    return (f'<div class="{kind}" style="border-color:{COLOURS[worst.severity.value]}">'
            f"<h4>{_badge(worst.severity.value)} <code>{_e(group.rule)}</code> "
            f"{_e(worst.subject if one else f'{len(group.findings)} subjects')}</h4>{follows}"
            f"<p>{_e(worst.message if one else worst.title)}</p>{what}<table>"
            f"<tr><th>effect</th><td>{_e(worst.effect)}</td></tr>"
            f"<tr><th>fix</th><td>{_e(grouping.fix_said(group, steps))}</td></tr>"
            f"<tr><th>source</th><td>{_cited(h, worst, studies)}</td></tr></table>"
            + _pre("fix", step_lines(steps)) + _pre("check", checks, "Check by hand:") + _pre("undo", undo, "Undo:")
            + "</div>")


def _pre(kind: str, lines: list[str], title: str = "") -> str:
    if not lines:
        return ""
    return (f"<p>{title}</p>" if title else "") + f'<pre class="{kind}">{_e(chr(10).join(lines))}</pre>'


def _one(s: grouping.Subject) -> str:
    return (f"<table><tr><th>observed</th><td>{_e(s.observed)}</td></tr>"
            f"<tr><th>expected</th><td>{_e(s.expected)}</td></tr>"
            f"<tr><th>evidence</th><td>{_evidence(s.evidence)}</td></tr></table>")


def _subjects(group: grouping.Group, source: str) -> str:
    """A row per subject with its own observed and expected values; its severity where it is not the card's."""
    worst = group.worst.severity.value
    rows = "".join(f'<tr><td>{_e(s.name)}{"" if s.severity == worst else " " + _badge(s.severity)}</td>'
                   f"<td>{_e(s.observed)}</td><td>{_e(s.expected)}</td><td>{_evidence(s.evidence)}</td></tr>"
                   for s in grouping.subjects(group, source))
    return ('<table class="subjects"><tr><th>subject</th><th>observed</th><th>expected</th><th>evidence</th></tr>'
            f"{rows}</table>")


def _evidence(evidence: list[str]) -> str:
    return ", ".join(f"<code>{_path(e)}</code>" for e in evidence) or "-"


def _path(text: str) -> str:
    """A path or address may wrap after each slash, never inside a word."""
    return _e(text).replace("/", "/<wbr/>")


def _cited(h: HostReport, f: Finding, studies: dict[grouping.Study, int]) -> str:
    """`[1], section ...`: the number of the study in the host's list of sources."""
    number, section = grouping.cite(f, studies)
    return (f'<a href="#{_anchor(h)}-source-{number}">[{number}]</a>' + (f", section {_e(section)}" if section else "")
            + ("" if f.confidence == "confirmed" else " [unconfirmed]"))


def _sources(h: HostReport, studies: dict[grouping.Study, int]) -> str:
    items = "".join(f'<li id="{_anchor(h)}-source-{n}">'
                    + (f'<a href="{_e(url)}">{_e(title)}</a><br/><span class="muted">{_path(url)}</span>' if url
                       else _e(title)) + "</li>" for (title, url), n in studies.items())
    return f'<h3>Sources</h3><ol class="sources">{items}</ol>' if studies else ""


def _unknowns(h: HostReport) -> str:
    """The checks not evaluated, by the input that would decide them."""
    items = "".join(f"<li>needs {_e(missing)}: {', '.join(f'<code>{_e(r)}</code>' for r in rules)}</li>"
                    for missing, rules in grouping.unknowns(h))
    return f'<h3>Not evaluated (missing input)</h3><ul class="unknown">{items}</ul>' if items else ""


def _waived(h: HostReport) -> str:
    if not h.waived:
        return ""
    return "<h3>Waived</h3><ul>" + "".join(
        f"<li><code>{_e(f.rule)}</code> {_e(f.subject)}: {_e(f.waiver.reason if f.waiver else '')}</li>"
        for f in h.waived) + "</ul>"


def _node(h: HostReport) -> str:
    """Which machine the capture came from, whatever the bundle is called."""
    return f"node {_e(h.detected.nodename)}; " if h.detected.nodename else ""


def _collected(h: HostReport) -> str:
    return f" (collected {h.collected})" if h.collected else ""


def _verdict(h: HostReport) -> str:
    if h.status == "no-evidence":
        return '<p class="gate-failed">No evidence: no check could be evaluated with these outputs (see below).</p>'
    return "" if h.findings else "<p>No findings.</p>"


def _bits(bps: float | None) -> str:
    if bps is None:
        return "no rate"
    for scale, unit in ((1e9, "Gb/s"), (1e6, "Mb/s"), (1e3, "kb/s")):
        if bps >= scale:
            return f"{bps / scale:.3g} {unit}"
    return f"{bps:.3g} b/s"


def _rates(h: HostReport) -> str:
    """Two samples: each link's throughput in and out against its line rate, and
    the captured domain's CPU busy (all its CPUs, then each), as small bars."""
    r = h.rates
    if r is None:
        return ""
    label, bar, row = 170, 300, 18
    rows: list[str] = []

    def line(y: int, name: str, share: float | None, said: str, cls: str, data: str, colour: str) -> None:
        width = bar * min(max(share, 0.0), 1.0) if share is not None else 0.0
        rows.append(f'<text x="0" y="{y + 13}" font-size="12">{_e(name)}</text>'
                    f'<rect x="{label}" y="{y + 2}" width="{bar}" height="{row - 5}" fill="#eee"/>'
                    f'<rect class="{cls}" {data} x="{label}" y="{y + 2}" width="{width:.1f}" height="{row - 5}" '
                    f'fill="{colour}"><title>{_e(name)}: {_e(said)}</title></rect>'
                    f'<text x="{label + bar + 6}" y="{y + 13}" font-size="12">{_e(said)}</text>')

    y = 0
    for link in r.links:
        for way, bps, share in (("in", link.in_bps, link.in_line_share), ("out", link.out_bps, link.out_line_share)):
            said = _bits(bps) + (f", {share:.0%} of {_bits(link.line_bps)}" if share is not None and link.line_bps
                                 else ("" if bps is None else ", no line rate"))
            data = (f'data-link="{_e(link.name)}" data-dir="{way}" '
                    f'data-share="{"" if share is None else f"{share:.4f}"}"')
            line(y, f"{link.name} {way}", share, said, "rate-bar", data, "#1565c0" if way == "in" else "#2e7d32")
            y += row
    links_height = y
    y = 0
    cpu_rows_start = len(rows)
    cpus = [("all CPUs", r.cpu_busy)] + [(c.name, c.busy) for c in r.cpus]
    for name, busy in cpus:
        said = "no rate" if busy is None else f"{busy:.0%} busy"
        data = f'data-cpu="{_e(name)}" data-busy="{"" if busy is None else f"{busy:.4f}"}"'
        line(y, name, busy, said, "cpu-bar", data, "#6a1b9a")
        y += row
    width = label + bar + 150
    over = f" over {r.interval_s:.0f} s" if r.interval_s else ""
    links_svg = (f'<svg xmlns="http://www.w3.org/2000/svg" class="rates-links" width="{width}" height="{links_height}" '
                 f'role="img" aria-label="throughput per link against its line rate{over}">'
                 + "".join(rows[:cpu_rows_start]) + "</svg>") if r.links else '<p class="muted">No link rates.</p>'
    cpu_svg = (f'<svg xmlns="http://www.w3.org/2000/svg" class="rates-cpu" width="{width}" height="{y}" role="img" '
               f'aria-label="CPU busy{over}">' + "".join(rows[cpu_rows_start:]) + "</svg>")
    return (f'<div class="rates"><h3>Measured load{_e(over)}</h3>'
            f'<figure><figcaption>Throughput per link, in and out, against its line rate</figcaption>{links_svg}'
            f'</figure><figure><figcaption>CPU busy of the captured domain</figcaption>{cpu_svg}</figure></div>')


def _host(h: HostReport, causes: dict[str, list[str]]) -> str:
    score = f"{h.score:g}/100" if h.score is not None else grouping.score_short(h)
    numbered = h.plan.numbered() if h.plan is not None else []
    studies: dict[grouping.Study, int] = {}
    cards = [_card(h, g, numbered, studies) for g in grouping.groups(h, causes)]
    return "".join([
        f'<section id="{_anchor(h)}"><h2>{_e(h.label)} <span class="muted">score {_e(score)}</span></h2>',
        f'<p class="muted">{_node(h)}{_path(h.source)}{_collected(h)}; {h.counts.passed} passed, '
        f"{h.counts.failed} failed, {h.counts.unknown} unknown, {h.counts.not_applicable} not applicable</p>",
        *[f'<p class="gate-failed">error: {_e(e)}</p>' for e in h.errors], _verdict(h), _rates(h),
        f'<p class="order">{_e(order)}.</p>' if (order := grouping.order_said(h)) and h.findings else "",
        *cards, _plan(h, numbered), _waived(h), _unknowns(h), _sources(h, studies), "</section>"])


class Writer:
    """The page: the fleet table and the chart first, then a section per host
    in the table's order. `now`: the time the page says it was made."""

    in_fleet_order = True
    separator = ""

    def __init__(self, causes: dict[str, list[str]] | None = None, now: datetime | None = None) -> None:
        self.causes, self.now = causes or {}, now
        self.per_rule: dict[str, Counter[str]] = {}

    def part(self, h: HostReport) -> str:
        tally(h.findings, self.per_rule)
        return _host(h, self.causes)

    def head(self, fleet: stream.Fleet) -> str:
        when = (self.now or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
        summary = fleet.summary
        gate = ""
        if summary.gate:
            gate = (f'<p class="gate-{summary.gate}"><strong>Gate {summary.gate}</strong>: '
                    f"{_e(summary.gate_reason or '')}</p>")
        errors = "".join(f'<p class="gate-failed">error: {_e(e)}</p>' for e in fleet.errors)
        hosts, shown = grouping.fleet(fleet.lines)
        return ("<!DOCTYPE html>\n"
                '<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><meta charset="utf-8"/>'
                f"<title>advisor report</title><style>{_STYLE}</style></head><body>"
                f"<h1>advisor report</h1><p class=\"muted\">advisor {__version__}, {when}, {fleet.tool.rules} rules, "
                f"{summary.hosts} host(s)</p>{gate}{errors}{_legend()}"
                f"<h2>Hosts (worst severity first; checks: evaluated/applicable)</h2>{_summary_table(hosts, shown)}"
                f"<h2>Findings per rule</h2>{chart(self.per_rule)}")

    def tail(self, fleet: stream.Fleet) -> str:
        return "</body></html>\n"
