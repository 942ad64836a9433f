"""`--format table`: the report for a person, readable in 80 columns and in a pipe."""

from __future__ import annotations

from collections import defaultdict
from typing import Literal
import io
import os
import shutil
from typing import IO, Iterator

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group
from rich.table import Table
from rich.text import Text

from advisor.report.model import RUNTIME_REASON, ChangePlan, Finding, HostReport, PlanStep, Report, worst_first

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
        width, height = shutil.get_terminal_size((80, 24)) if self.is_tty else (80, 24)
        self.buffer = io.StringIO()
        # Both sizes given: rich otherwise asks the terminal for its height at every table cell.
        self.console = Console(file=self.buffer, force_terminal=self.is_tty, no_color=not self.is_tty,
                               width=width, height=height, highlight=False, soft_wrap=False, markup=False,
                               emoji=False)

    def print(self, *items: object, soft_wrap: bool = False) -> None:
        self.console.print(*items, soft_wrap=soft_wrap)

    def close(self) -> None:
        text = self.buffer.getvalue()
        self.stream.write("\n".join(line.rstrip() for line in text.split("\n")))

    def __enter__(self) -> "Output":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


SCORE_NOTE = ("score: 100 x the weight of passed checks / the weight of evaluated checks (critical 10, high 5, "
              "medium 3, low 1, info 0); unknown and not applicable checks count in neither")
Mode = Literal["full", "compact", "quiet"]



def _fleet_table(report: Report) -> Table:
    """Worst hosts first, full host names, no column that is empty throughout."""
    hosts = sorted(report.hosts, key=worst_first)
    counts = [h.finding_counts() for h in hosts]
    shown = [s for s in ("critical", "high", "medium", "low", "info") if any(c.get(s) for c in counts)]
    table = Table(title="Hosts (worst first)", title_justify="left", expand=False, padding=(0, 1),
                  box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("host", no_wrap=True)
    table.add_column("platform", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    for sev in shown:
        table.add_column({"critical": "crit", "medium": "med"}.get(sev, sev), justify="right", no_wrap=True)
    table.add_column("status", no_wrap=True)
    for h, c in zip(hosts, counts):
        table.add_row(h.host, h.platform, _score_short(h), *(str(c.get(s, 0)) for s in shown),
                      Text(h.status, style=_STATUS_STYLE[h.status]))
    return table


def _score_short(h: HostReport) -> str:
    if h.score is None:
        return "no evidence" if h.counts.passed + h.counts.failed == 0 else "-"
    return f"{h.score:g}"


def _detected(h: HostReport) -> str:
    d = h.detected
    os_name = d.os or ""
    arch = d.arch if d.arch and d.arch.lower() not in os_name.lower() else None
    parts = [p for p in (
        os_name or None, arch, f"SRU {d.sru}" if d.sru is not None else None,
        f"ldm {d.ldm_version}" if d.ldm_version else None, d.cpu_model,
        f"role: {' '.join(d.domain_roles)}" if d.domain_roles else None) if p]
    return ", ".join(parts) or "no version information"


def _header(h: HostReport) -> Group:
    c = h.counts
    checks = c.passed + c.failed
    score = ("no evidence" if h.score is None and checks == 0 else "n/a" if h.score is None
             else f"{h.score:g}/100")
    basis = f"from {checks} of {checks + c.unknown} checks; {c.unknown} unknown" if checks else \
        f"no check could be evaluated; {c.unknown} unknown"
    title = Text.assemble((h.host, "bold"), f"  {h.platform}  score ", (score, "bold"), f"  ({basis})")
    found = ", ".join(f"{n} {sev}" for sev, n in h.finding_counts().items() if n) or "none"
    return Group(title, _fields([("detected", _detected(h)), ("findings", found), ("source", h.source)]))


class _Fields:
    """Label and value columns, so wrapped values stay indented under their value:
    two spaces, the labels, and the values wrapped to what is left of the width.
    Laid out by hand: a rich table grid measures every cell first, which made
    these blocks a tenth of a review's work."""

    def __init__(self, rows: list[tuple[str, str]], style: str = ""):
        self.rows = rows
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        label_width = max(cell_len(label) for label, _value in self.rows)
        indent = " " * (3 + label_width)
        width = max(options.max_width - len(indent), 1)
        for label, value in self.rows:
            text = Text(value, style=self.style)
            text.expand_tabs(console.tab_size)
            lines = text.wrap(console, width, overflow="fold")
            for number, line in enumerate(lines):
                head = Text.assemble("  ", (label + " " * (label_width - cell_len(label)), "dim"), " ") \
                    if number == 0 else Text(indent)
                yield Text.assemble(head, line, no_wrap=True, overflow="ignore")


def _fields(rows: list[tuple[str, str]], style: str = "") -> _Fields:
    return _Fields(rows, style)


def _numbered(plan: ChangePlan | None) -> list[tuple[str, PlanStep]]:
    """Plan steps with the numbers the report shows: P1.. for prerequisites, 1.. for the rest."""
    if plan is None:
        return []
    steps = [(f"P{i}", s) for i, s in enumerate(plan.prerequisites, 1)]
    return steps + [(str(i), s) for i, s in enumerate((s for ph in plan.phases for s in ph.steps), 1)]


def _rules_of(steps: list[PlanStep]) -> str:
    rules = list(dict.fromkeys(t.split(" on ", 1)[0] for s in steps for t in s.fixes))
    return ", ".join(r.split(".", 1)[-1] for r in rules)


def _plan_summary(h: HostReport, numbered: list[tuple[str, PlanStep]]) -> list[tuple[str, str]]:
    """The plan in a few lines, by step numbers, each naming the rules it fixes."""
    plan = h.plan
    if plan is None:
        return []
    number = {id(s): n for n, s in numbered}
    rows: list[tuple[str, str]] = []
    if plan.prerequisites:
        span = "P1" if len(plan.prerequisites) == 1 else f"P1-{len(plan.prerequisites)}"
        rows.append((span, "prerequisites, never run by advisor: " +
                     "; ".join(s.command.split(" #", 1)[0].strip() for s in plan.prerequisites)))
    outages = [p for p in plan.phases if p.title.startswith("Domain ")]
    for phase in plan.phases:
        if phase in outages[1:]:
            continue
        steps = phase.steps if phase not in outages else [s for p in outages for s in p.steps]
        first, last = number[id(steps[0])], number[id(steps[-1])]
        title = phase.title
        if phase in outages:
            names = ", ".join(p.title.split()[1].rstrip(":") for p in outages)
            title = f"{names}: one outage each" + (" after the reboot" if phase.after_reboot else "")
        fixes = _rules_of(steps)
        held = "" if any(s.run for s in steps) else ", a comment until a check is made"
        rows.append((first if first == last else f"{first}-{last}",
                     f"{title}" + (f" ({fixes}{held})" if fixes else "")))
    return rows


def _groups(h: HostReport, causes: dict[str, list[str]]) -> list[tuple[str, list[Finding], list[str]]]:
    """Findings by rule, worst first; a rule that follows from another one shown
    sits right after its cause, naming it."""
    by_rule: dict[str, list[Finding]] = {}
    for f in h.findings:
        by_rule.setdefault(f.rule, []).append(f)
    order = sorted(by_rule, key=lambda r: (-max(f.severity.rank for f in by_rule[r]), r))
    placed: list[tuple[str, list[Finding], list[str]]] = []
    dependents = {r: [c for c in causes.get(r, []) if c in by_rule] for r in order}
    for rule in order:
        if dependents[rule]:
            continue
        placed.append((rule, by_rule[rule], []))
        for other in order:
            if dependents[other] and dependents[other][0] == rule:
                placed.append((other, by_rule[other], dependents[other]))
    return placed


def _short(evidence: str, source: str) -> str:
    """Evidence relative to the host's source (its path is in the header)."""
    return evidence[len(source) + 1:] if evidence.startswith(source + "/") else evidence


def _group(rule: str, findings: list[Finding], causes: list[str], numbered: list[tuple[str, PlanStep]],
           mode: Mode, source: str) -> list[object]:
    worst = max(findings, key=lambda f: f.severity.rank)
    head = Text.assemble(("  " if causes else "") + f"{worst.severity.value.upper():<8}", (rule, "bold"),
                         f"  {findings[0].subject}" if len(findings) == 1 else f"  {len(findings)} subjects")
    if mode == "compact":
        return [head]
    rows: list[tuple[str, str]] = []
    if causes:
        rows.append(("", f"follows from {', '.join(causes)}: fixing that fixes this"))
    rows.append(("", worst.message if len(findings) == 1 else worst.title))
    if len(findings) == 1:
        f = findings[0]
        rows += [("observed", f.observed), ("expected", f.expected)]
        if f.evidence:
            rows.append(("evidence", ", ".join(_short(e, source) for e in f.evidence)))
    out: list[object] = [head, _fields(rows)]
    if len(findings) > 1:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=1)
        grid.add_column(no_wrap=True)
        grid.add_column(overflow="fold")
        grid.add_column(overflow="fold", style="dim")
        for f in findings:
            sev = "" if f.severity is worst.severity else f" [{f.severity.value}]"
            grid.add_row("", f.subject.split(" ", 1)[-1], f.observed + sev,
                         ", ".join(_short(e, source) for e in f.evidence))
        out += [grid, _fields([("expected", worst.expected)])]
    tags = {f"{f.rule} on {f.subject}" for f in findings}
    mine = [(n, s) for n, s in numbered if tags & set(s.fixes)]
    impact = ", ".join(dict.fromkeys(f.impact for f in findings))
    conf = "" if worst.confidence == "confirmed" else " [unconfirmed]"
    out.append(_fields([
        ("effect", worst.effect),
        ("fix", f"impact: {impact}; plan step {', '.join(n for n, _ in mine)}" if mine
         else f"impact: {impact}; fixed by the steps of the findings it follows from"),
        ("source", worst.source + conf + (f" <{worst.source_url}>" if worst.source_url else ""))]))
    out += _commands([s for _n, s in mine])
    checks = list(dict.fromkeys(s.as_text() for f in findings for s in f.steps if s.kind == "check"))
    out += [_Unwrapped(f"      check: {line}") for line in checks]
    return out


def _commands(steps: list[PlanStep]) -> list[object]:
    """A command is one line, never wrapped; what it needs goes on the line above."""
    out: list[object] = []
    for step in steps:
        if step.note:
            out.append(Text(f"      # {step.note}", style="dim"))
        out.append(_Unwrapped(("      $ " if step.run else "      # ") + step.command))
    return out


class _Unwrapped(Text):
    """Printed whole on one line, whatever the width: copying it copies a command."""

    def __init__(self, text: str) -> None:
        super().__init__(text, no_wrap=True, overflow="ignore")


def _plan(h: HostReport, numbered: list[tuple[str, PlanStep]]) -> list[object]:
    plan = h.plan
    if plan is None or not (plan.prerequisites or plan.phases):
        return []
    out: list[object] = [Text("Change plan, in this order (--format script writes it as scripts):", style="bold")]
    by_step = {id(s): n for n, s in numbered}
    if plan.prerequisites:
        out.append(Text("  Prerequisites: maintenance tasks advisor never runs"))
        out += [_Unwrapped(f"  {by_step[id(s)]:>3}  # {s.command}") for s in plan.prerequisites]
    for phase in plan.phases:
        part = " (after the reboot)" if phase.after_reboot else ""
        out.append(Text(f"  {phase.title}{part}; on {phase.runs_on}; interrupts: {phase.outage}"))
        for s in phase.steps:
            if s.note:
                out.append(Text(f"       # {s.note}", style="dim"))
            out.append(_Unwrapped(f"  {by_step[id(s)]:>3}  {'$ ' if s.run else '# '}{s.command}"))
    for note in plan.notes:
        out.append(_fields([("note", note)]))
    return out


def _unknowns(h: HostReport) -> list[_Fields]:
    by_input: dict[str, set[str]] = defaultdict(set)
    for r in h.results:
        if r.status == "unknown":
            for m in r.missing or [r.reason or "undetermined"]:
                by_input[m].add(r.rule)
    if not by_input:
        return []
    return [_fields([("needs", f"{missing}: {', '.join(sorted(rules))}") for missing, rules in sorted(by_input.items())])]


def _notes(h: HostReport) -> list[object]:
    out: list[object] = []
    if h.errors:
        out.append(_fields([("error", e) for e in h.errors], style="red"))
    if h.not_collected:
        out.append(_fields([("no data", m) for m in h.not_collected]))
    if h.skipped:
        out.append(_fields([("skipped", s) for s in h.skipped[:20]]))
        if len(h.skipped) > 20:
            out.append(_fields([("skipped", f"{len(h.skipped) - 20} more")]))
    if h.unused:
        out.append(_fields([("not read", f"{f} (no rule uses it yet)") for f in h.unused]))
    return out


def _host(h: HostReport, console: "Output", causes: dict[str, list[str]], mode: Mode) -> None:
    console.print(_header(h))
    numbered = _numbered(h.plan)
    summary = _plan_summary(h, numbered)
    if summary:
        console.print(Text("  Change plan (steps below):", style="bold"))
        console.print(_fields(summary))
    for item in _notes(h):
        console.print(item)
    console.print()
    if h.status == "no-evidence":
        console.print(Text("  No evidence: no check could be evaluated with these outputs (see below).", style="red"))
    elif not h.findings:
        console.print(Text("  No findings.", style="green"))
    for rule, findings, after in _groups(h, causes):
        for item in _group(rule, findings, after, numbered, mode, h.source):
            console.print(item, soft_wrap=isinstance(item, _Unwrapped))
        if mode == "full":
            console.print()
    if mode == "compact":
        console.print()
        return
    for item in _plan(h, numbered):
        console.print(item, soft_wrap=isinstance(item, _Unwrapped))
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


def render(report: Report, console: "Output", causes: dict[str, list[str]] | None = None,
           mode: Mode = "full") -> None:
    """The report for a person: per host a summary that fits one screen, then
    findings grouped by rule (effect and source once), then the plan.
    `causes` maps a rule to the rules it follows from; `mode` compact gives one
    line per rule group, quiet only the verdict and counts."""
    if report.errors:
        for e in report.errors:
            console.print(Text(f"error: {e}", style="red"))
        console.print()
    if len(report.hosts) > 1:
        console.print(_fleet_table(report))
        console.print()
    if mode != "quiet":
        for h in sorted(report.hosts, key=worst_first) if len(report.hosts) > 1 else report.hosts:
            _host(h, console, causes or {}, mode)
        console.print(Text(SCORE_NOTE, style="dim"))
    s = report.summary
    counts = ", ".join(f"{n} {sev}" for sev, n in s.findings.items() if n) or "no findings"
    console.print(Text(f"{s.hosts} host(s): {counts}; {s.errors} input error(s)", style="bold"))
    if s.gate is not None:
        console.print(Text(f"gate {s.gate}: {s.gate_reason}", style="bold"))
