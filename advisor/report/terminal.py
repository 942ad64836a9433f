"""`--format table`: the report for a person, readable in 80 columns and in a pipe."""

from __future__ import annotations

from collections import defaultdict
import io
import os
import shutil
from typing import IO

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from advisor.report.model import RUNTIME_REASON, ChangePlan, Finding, HostReport, PlanStep, Report

_STYLE = {"critical": "bold white on red", "high": "bold red", "medium": "yellow", "low": "cyan", "info": "dim"}
_STATUS_STYLE = {"clean": "green", "findings": "yellow", "no-evidence": "red", "error": "red", "unreachable": "red"}


class Output:
    """A rich console that writes to a stream when closed, colour only on a
    terminal, 80 columns when piped, and no padding at line ends."""

    def __init__(self, stream: IO[str], color: bool | None = None):
        self.stream = stream
        if color is None:  # colour only on a terminal, never with NO_COLOR set (no-color.org)
            color = stream.isatty() and not os.environ.get("NO_COLOR")
        self.is_tty = color
        width = shutil.get_terminal_size((80, 24)).columns if self.is_tty else 80
        self.buffer = io.StringIO()
        self.console = Console(file=self.buffer, force_terminal=self.is_tty, no_color=not self.is_tty,
                               width=width, highlight=False, soft_wrap=False)

    def print(self, *items: object) -> None:
        self.console.print(*items)

    def close(self) -> None:
        text = self.buffer.getvalue()
        self.stream.write("\n".join(line.rstrip() for line in text.split("\n")))

    def __enter__(self) -> "Output":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _fleet_table(report: Report) -> Table:
    table = Table(title="Hosts", title_justify="left", expand=False)
    for col, justify in (("host", "left"), ("platform", "left"), ("score", "right"),
                         ("crit", "right"), ("high", "right"), ("med", "right"), ("low", "right"),
                         ("info", "right"), ("status", "left")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for h in report.hosts:
        c = h.finding_counts()
        table.add_row(h.host, h.platform, "-" if h.score is None else f"{h.score:g}",
                      *(str(c.get(s, 0)) for s in ("critical", "high", "medium", "low", "info")),
                      Text(h.status, style=_STATUS_STYLE[h.status]))
    return table


def _header(h: HostReport) -> Group:
    d = h.detected
    os_name = d.os or ""
    arch = d.arch if d.arch and d.arch.lower() not in os_name.lower() else None
    parts = [p for p in (
        os_name or None, arch, f"SRU {d.sru}" if d.sru is not None else None,
        f"ldm {d.ldm_version}" if d.ldm_version else None, d.cpu_model,
        f"role: {' '.join(d.domain_roles)}" if d.domain_roles else None) if p]
    c = h.counts
    checks = c.passed + c.failed
    score = ("no evidence" if h.score is None and checks == 0 else "n/a" if h.score is None
             else f"{h.score:g}/100 from {checks} of {checks + c.unknown} checks")
    title = Text.assemble((h.host, "bold"), f"  {h.platform}  score ", (score, "bold"))
    return Group(title, _fields([
        ("detected", ", ".join(parts) or "no version information"),
        ("results", f"{c.passed} passed, {c.failed} failed, {c.unknown} unknown, {c.not_applicable} not applicable"),
        ("source", h.source),
    ]))


def _fields(rows: list[tuple[str, str]], style: str = "") -> Table:
    """Label and value columns, so wrapped values stay indented under their value."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=1)
    grid.add_column(style="dim", no_wrap=True)
    grid.add_column(overflow="fold", style=style)
    for label, value in rows:
        grid.add_row("", label, value)
    return grid


def _numbered(plan: ChangePlan | None) -> list[tuple[str, PlanStep]]:
    """Plan steps with the numbers the report shows: P1.. for prerequisites, 1.. for the rest."""
    if plan is None:
        return []
    steps = [(f"P{i}", s) for i, s in enumerate(plan.prerequisites, 1)]
    return steps + [(str(i), s) for i, s in enumerate((s for ph in plan.phases for s in ph.steps), 1)]


def _finding(f: Finding, numbered: list[tuple[str, PlanStep]]) -> Group:
    head = Text.assemble((f"{f.severity.value.upper():<8}", _STYLE[f.severity.value]), (f.rule, "bold"),
                         "  ", f.subject)
    rows = [("", f.message), ("observed", f.observed), ("expected", f.expected)]
    if f.evidence:
        rows.append(("evidence", ", ".join(f.evidence)))
    rows.append(("effect", f.effect))
    tag = f"{f.rule} on {f.subject}"
    mine = [(n, s) for n, s in numbered if tag in s.fixes]
    rows.append(("fix", f"impact: {f.impact}; plan step {', '.join(n for n, _ in mine)}" if mine
                 else f"impact: {f.impact}; follows from the other findings' steps" if f.steps
                 else f"impact: {f.impact}"))
    rows.extend(("", _shown(s)) for _n, s in mine)
    checks = [s.as_text() for s in f.steps if s.kind == "check"]
    rows.extend(("check", c) for c in checks)
    if f.undo:
        rows.append(("undo", "; ".join(f.undo)))
    conf = "" if f.confidence == "confirmed" else " [unconfirmed]"
    rows.append(("source", f.source + conf))
    return Group(head, _fields(rows))


def _shown(step: PlanStep) -> str:
    """A runnable command after '$ '; anything else as a comment saying why it is not run."""
    if step.run:
        return f"$ {step.command}"
    return f"# {step.note}: {step.command}" if step.note else f"# {step.command}"


def _plan(h: HostReport, numbered: list[tuple[str, PlanStep]]) -> list[object]:
    plan = h.plan
    if plan is None or not (plan.prerequisites or plan.phases):
        return []
    out: list[object] = [Text("Change plan (in this order; --format script writes it as scripts):", style="bold")]
    by_step = {id(s): n for n, s in numbered}
    if plan.prerequisites:
        out.append(_fields([("before", "prerequisites, maintenance tasks advisor never runs:")]))
        out.append(_fields([(by_step[id(s)], s.command) for s in plan.prerequisites]))
    for phase in plan.phases:
        part = " (after the reboot)" if phase.after_reboot else ""
        out.append(_fields([("", f"{phase.title}{part}; on {phase.runs_on}; interrupts: {phase.outage}")]))
        out.append(_fields([(by_step[id(s)], _shown(s)) for s in phase.steps]))
    for note in plan.notes:
        out.append(_fields([("note", note)]))
    return out


def _unknowns(h: HostReport) -> list[Table]:
    by_input: dict[str, set[str]] = defaultdict(set)
    for r in h.results:
        if r.status == "unknown":
            for m in r.missing or [r.reason or "undetermined"]:
                by_input[m].add(r.rule)
    if not by_input:
        return []
    return [_fields([("needs", f"{missing}: {', '.join(sorted(rules))}") for missing, rules in sorted(by_input.items())])]


def render(report: Report, console: Output) -> None:
    if report.errors:
        for e in report.errors:
            console.print(Text(f"error: {e}", style="red"))
        console.print()
    if len(report.hosts) > 1:
        console.print(_fleet_table(report))
        console.print()
    for h in report.hosts:
        console.print(_header(h))
        if h.errors:
            console.print(_fields([("error", e) for e in h.errors], style="red"))
        if h.not_collected:
            console.print(_fields([("no data", m) for m in h.not_collected]))
        if h.skipped:
            console.print(_fields([("skipped", s) for s in h.skipped[:20]]))
            if len(h.skipped) > 20:
                console.print(_fields([("skipped", f"{len(h.skipped) - 20} more")]))
        if h.unused:
            console.print(_fields([("not read", f"{f} (no rule uses it yet)") for f in h.unused]))
        console.print()
        if h.status == "no-evidence":
            console.print(Text("  No evidence: no check could be evaluated with these outputs (see below).",
                               style="red"))
        elif not h.findings:
            console.print(Text("  No findings.", style="green"))
            console.print()
        numbered = _numbered(h.plan)
        for f in h.findings:
            console.print(_finding(f, numbered))
            console.print()
        for item in _plan(h, numbered):
            console.print(item)
        if h.plan is not None and (h.plan.prerequisites or h.plan.phases):
            console.print()
        if h.waived:
            console.print(Text("Waived:", style="bold"))
            console.print(_fields([("waived", f"{f.rule} {f.subject}: {f.waiver.reason} ({f.waiver.owner}, until "
                                               f"{f.waiver.expires})") for f in h.waived if f.waiver]))
            console.print()
        if h.baseline is not None:
            console.print(_fields([("baseline", f"{len(h.baseline.unchanged)} finding(s) unchanged, not repeated; "
                                                f"fixed since: {', '.join(h.baseline.fixed) or 'none'}")]))
            console.print()
        for note in h.expired_waivers:
            console.print(Text(f"  expired waiver: {note}", style="yellow"))
        runtime = sorted({r.rule for r in h.results if r.status == "not_applicable" and r.reason
                          and r.reason.startswith(RUNTIME_REASON)})
        if h.kind == "plan" and runtime:
            console.print(_fields([("plan", f"not applicable before the system runs: {', '.join(runtime)}")]))
            console.print()
        unknown = _unknowns(h)
        if unknown:
            console.print(Text("Not evaluated (missing input):", style="bold"))
            for line in unknown:
                console.print(line)
            console.print()
    s = report.summary
    counts = ", ".join(f"{n} {sev}" for sev, n in s.findings.items() if n) or "no findings"
    console.print(Text(f"{s.hosts} host(s): {counts}; {s.errors} input error(s)", style="bold"))
    if s.gate is not None:
        console.print(Text(f"gate {s.gate}: {s.gate_reason}", style="bold"))
