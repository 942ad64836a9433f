"""`--format table`: the report for a person, readable in 80 columns and in a pipe."""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Set as AbstractSet
from typing import IO, Literal

from advisor import platform_registry as platforms
from advisor.report import grouping, layout, stream
from advisor.report.layout import Column, Span, cells, paint, wrap
from advisor.report.stream import Fleet
from advisor.results.model import RUNTIME_REASON, HostLine, HostReport, PlanPhase, PlanStep, Report, without_comment

_STATUS_STYLE = {"clean": "green", "findings": "yellow", "no-evidence": "red", "error": "red", "unreachable": "red"}


class Output:
    """Lines for a stream, written when closed: colour only on a terminal,
    80 columns when piped, and no blanks at line ends."""

    def __init__(self, stream: IO[str], color: bool | None = None, width: int | None = None):
        self.stream = stream
        if color is None:  # colour only on a terminal, never with NO_COLOR set (no-color.org)
            color = stream.isatty() and not os.environ.get("NO_COLOR")
        self.color = color
        self.width = width or (shutil.get_terminal_size((80, 24)).columns if color else 80)
        self.lines: list[str] = []

    def like(self) -> "Output":
        """Lines for the same stream, kept apart: one host's part of the report."""
        return Output(io.StringIO(), self.color, self.width)

    def text_of(self) -> str:
        return "".join(line.rstrip() + "\n" for line in self.lines)

    def text(self, *spans: str | Span, style: str = "", indent: str = "") -> None:
        """A paragraph, wrapped to the width, lines after the first starting with
        `indent`; each span in its own style, else in `style`."""
        lines = layout.paragraph([(s, style) if isinstance(s, str) else s for s in spans],
                                 max(self.width - len(indent), 20), self.color)
        self.lines += lines[:1] + [indent + line for line in lines[1:]]

    def hanging(self, lead: str, text: str, style: str = "", indent: str | None = None) -> None:
        """`lead` then the text wrapped after it, each further line starting with
        `indent` (the lead's width in spaces by default): a comment wraps as
        comment lines (`# `), so the plan pasted into a shell stays valid."""
        indent = " " * len(lead) if indent is None else indent
        lines = layout.wrap(text, max(self.width - len(indent), 20))
        for n, line in enumerate(lines or [""]):
            self.lines.append(paint((lead if n == 0 else indent) + line, style, self.color))

    def comment(self, margin: str, text: str, style: str = "dim") -> None:
        """A shell comment: every wrapped line starts with `# ` at the same margin."""
        self.hanging(margin + "# ", text, style, indent=margin + "# ")

    def whole(self, line: str, style: str = "") -> None:
        """One line, never wrapped whatever the width: copying it copies a command."""
        self.lines.append(paint(line, style, self.color))

    def blank(self) -> None:
        self.lines.append("")

    def extend(self, lines: list[str]) -> None:
        self.lines += lines

    def close(self) -> None:
        self.stream.write(self.text_of())

    def __enter__(self) -> "Output":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


SCORE_NOTE = ("score: 100 x the weight of passed checks / the weight of evaluated checks (critical 10, high 5, "
              "medium 3, low 1, info 0); unknown and not applicable checks count in neither")
Mode = Literal["full", "compact", "quiet"]



def _fleet_table(fleet: Fleet, out: Output) -> None:
    """Worst hosts first, full host names, no column that is empty throughout."""
    hosts, shown = grouping.fleet(fleet.lines)
    head = ["host", "platform", "score", "checks", *[{"critical": "crit", "medium": "med"}.get(s, s) for s in shown],
            "status"]
    rows: list[list[str | Span]] = [
        [h.label, h.kind_of_host, grouping.score_short(h), "%d/%d" % h.coverage,
         *(str(h.finding_counts().get(s, 0)) for s in shown), _status(h)] for h in hosts]
    titled_table(out, "Hosts (worst severity first; checks: evaluated/applicable)", head, rows,
                 right=set(range(2, 4 + len(shown))))


def _status(h: HostLine) -> Span:
    return (h.status_said, "yellow" if h.status_said != h.status else _STATUS_STYLE[h.status])


def titled_table(out: Output, title: str | None, head: list[str], rows: list[list[str | Span]],
                 right: AbstractSet[int] = frozenset(), wrapping: AbstractSet[int] = frozenset()) -> None:
    """A title, a bold header, a rule under it, and the rows; columns three apart."""
    columns = [Column(wrap=i in wrapping, right=i in right) for i in range(len(head))]
    header: list[str | Span] = list(head)
    widths = layout.column_widths(columns, [header, *rows], out.width, 3)
    if title:
        out.whole(title, "italic")
    out.extend(layout.table(columns, [[(h, "bold") for h in head]], out.width, out.color, gap=3, widths=widths))
    out.whole("\u2500" * (sum(widths) + 3 * (len(widths) - 1)))
    out.extend(layout.table(columns, rows, out.width, out.color, gap=3, widths=widths))


def _detected(h: HostReport) -> str:
    d = h.detected
    os_name = d.os or ""
    arch = d.arch if d.arch and d.arch.lower() not in os_name.lower() else None
    parts = [p for p in (
        os_name or None, arch, *_versions(h), d.cpu_model,
        f"role: {' '.join(d.domain_roles)}" if d.domain_roles else None) if p]
    return ", ".join(parts) or "no version information"


def _versions(h: HostReport) -> list[str]:
    """The versions the host's platform packs detect, as each shows them (Pack.detected: `SRU 35`)."""
    shown = [(getattr(h.detected, field), label) for p in platforms.packs_of(h.platform)
             for field, _fact, label in p.detected]
    return [label.format(value) for value, label in shown if value is not None and value != ""]


def _header(h: HostReport, out: Output) -> None:
    c = h.counts
    checks = c.passed + c.failed
    score = ("no evidence" if h.score is None and checks == 0 else "n/a" if h.score is None
             else f"{h.score:g}/100")
    basis = f"from {checks} of {checks + c.unknown} checks; {c.unknown} unknown" if checks else \
        f"no check could be evaluated; {c.unknown} unknown"
    if checks and h.mostly_unknown:
        basis += ": most checks unknown, the score rests on few"
    out.text((h.label, "bold"), f"  {h.kind_of_host}  score ", (score, "bold"), f"  ({basis})",
             indent="  ")
    found = ", ".join(f"{n} {sev}" for sev, n in h.finding_counts().items() if n) or "none"
    collected = [("collected", h.collected)] if h.collected else []
    _fields(out, [("detected", _detected(h)), ("findings", found), ("source", h.source)] + collected)


def _fields(out: Output, rows: list[tuple[str, str]], style: str = "") -> None:
    """Label and value columns, so wrapped values stay indented under their value:
    two spaces, the labels (dim), and the values wrapped to what is left."""
    label_width = max(cells(label) for label, _value in rows)
    indent = " " * (3 + label_width)
    for label, value in rows:
        for number, line in enumerate(wrap(value, max(out.width - len(indent), 1))):
            head = f"  {paint(label, 'dim', out.color)}{' ' * (label_width - cells(label))} " if number == 0 else indent
            out.lines.append(head + paint(line, style, out.color))


def _rules_of(steps: list[PlanStep]) -> str:
    rules = list(dict.fromkeys(t.split(" on ", 1)[0] for s in steps for t in s.fixes))
    return ", ".join(r.split(".", 1)[-1] for r in rules)


def _per_domain(phase: PlanPhase) -> str | None:
    """What a guest's phase does, without the guest's name (`one outage`,
    `started once primary is back`); None for a phase that is not one guest's."""
    if not phase.title.startswith("Domain "):
        return None
    return phase.title.partition(": ")[2] or None


def _runs_of_outages(phases: list[PlanPhase]) -> list[list[PlanPhase]]:
    """The phases, each alone but for neighbouring guests' phases that do the
    same thing (each one outage, each started after the reboot), told as one."""
    runs: list[list[PlanPhase]] = []
    for phase in phases:
        last = runs[-1][-1] if runs else None
        if last is not None and _per_domain(phase) is not None and _per_domain(phase) == _per_domain(last) \
                and last.after_reboot == phase.after_reboot:
            runs[-1].append(phase)
        else:
            runs.append([phase])
    return runs


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
                     "; ".join(without_comment(s.command) for s in plan.prerequisites)))
    for run in _runs_of_outages(plan.phases):
        phase, steps = run[0], [s for p in run for s in p.steps]
        first, last = number[id(steps[0])], number[id(steps[-1])]
        title = phase.title
        if len(run) > 1:
            names = ", ".join(p.title.split()[1].rstrip(":") for p in run)
            what = _per_domain(phase) or ""
            what = "one outage each" if what.startswith("one outage") else what
            title = f"Domains {names}: {what}" + (" after the reboot" if what == "one outage each" and phase.after_reboot
                                                  else "")
        fixes = _rules_of(steps)
        held = "" if any(s.run for s in steps) else ", a comment until a check is made"
        rows.append((first if first == last else f"{first}-{last}",
                     f"{title}" + (f" ({fixes}{held})" if fixes else "")))
    return rows


def _group(group: grouping.Group, numbered: list[tuple[str, PlanStep]], mode: Mode, source: str, out: Output,
           studies: dict[grouping.Study, int]) -> None:
    rule, findings, causes = group
    worst = group.worst
    out.text(("  " if causes else "") + f"{worst.severity.value.upper():<8}", (rule, "bold"),
             f"  {findings[0].subject}" if len(findings) == 1 else f"  {len(findings)} subjects")
    if mode == "compact":
        return
    rows: list[tuple[str, str]] = []
    if causes:
        rows.append(("", f"follows from {', '.join(causes)}: fixing that fixes this"))
    rows.append(("", worst.message if len(findings) == 1 else worst.title))
    if len(findings) == 1:
        [one] = grouping.subjects(group, source)
        rows += [("observed", one.observed), ("expected", one.expected)]
        if one.evidence:
            rows.append(("evidence", ", ".join(one.evidence)))
    _fields(out, rows)
    if len(findings) > 1:
        _subjects(group, source, out)
    mine = grouping.steps_of(group, numbered)
    conf = "" if worst.confidence == "confirmed" else " [unconfirmed]"
    number, section = grouping.cite(worst, studies)
    _fields(out, [("effect", worst.effect), ("fix", grouping.fix_said(group, mine)),
                  ("source", f"[{number}]" + (f", section {section}" if section else "") + conf)])
    _commands([s for _n, s in mine], out)
    for line in grouping.checks_of(group):
        out.whole(f"      check: {line}")


def _subjects(group: grouping.Group, source: str, out: Output) -> None:
    """A row per subject; its expected value on the row when the subjects' targets differ, else once below."""
    rows = grouping.subjects(group, source)
    own = len({r.expected for r in rows}) > 1
    worst = group.worst.severity.value
    table: list[list[str | Span]] = [
        [r.name, r.observed + ("" if r.severity == worst else f" [{r.severity}]")
         + (f"; expected {r.expected}" if own else ""), ", ".join(r.evidence)] for r in rows]
    out.extend(layout.table([Column(wrap=False), Column(), Column(style="dim")], table, out.width, out.color,
                            indent="  "))
    if not own:
        _fields(out, [("expected", rows[0].expected)])


def _commands(steps: list[PlanStep], out: Output) -> None:
    """A command is one line, never wrapped; what it needs goes on the line above."""
    for step in steps:
        if step.note:
            out.comment("      ", step.note)
        out.whole(("      $ " if step.run else "      # ") + step.command)


def _plan(h: HostReport, numbered: list[tuple[str, PlanStep]], out: Output) -> bool:
    """The change plan in full; False when there is none."""
    plan = h.plan
    if plan is None or not (plan.prerequisites or plan.phases):
        return False
    out.text("Change plan, in this order (--format script writes it as scripts):", style="bold")
    by_step = {id(s): n for n, s in numbered}
    if plan.prerequisites:
        out.text("  Prerequisites: maintenance tasks advisor never runs")
        for s in plan.prerequisites:
            out.whole(f"  {by_step[id(s)]:>3}  # {s.command}")
    for phase in plan.phases:
        part = " (after the reboot)" if phase.after_reboot else ""
        out.hanging("  ", f"{phase.title}{part}; on {phase.runs_on}; interrupts: {phase.outage}", indent="    ")
        for s in phase.steps:
            if s.note:
                out.comment("       ", s.note)
            out.whole(f"  {by_step[id(s)]:>3}  {'$ ' if s.run else '# '}{s.command}")
    for note in plan.notes:
        _fields(out, [("note", note)])
    if plan.simulation is not None:
        sim = plan.simulation
        _fields(out, [("proven", sim.summary())] + [("left", f"{left.finding}: {left.why}") for left in sim.left]
                + [("new", f"{n}: no step of the plan causes it alone") for n in sim.new]
                + [("twice", f"{d} is interrupted {n} times") for d, n in sim.interrupted_more_than_once.items()])
    return True


def _notes(h: HostReport, out: Output) -> None:
    if h.errors:
        _fields(out, [("error", e) for e in h.errors], style="red")
    if h.not_collected:
        _fields(out, [("no data", m) for m in h.not_collected])
    if h.skipped:
        _fields(out, [("skipped", s) for s in h.skipped[:20]])
        if len(h.skipped) > 20:
            _fields(out, [("skipped", f"{len(h.skipped) - 20} more")])
    if h.unused:
        _fields(out, [("not read", f"{f} (no rule uses it yet)") for f in h.unused])


def _host(h: HostReport, out: Output, causes: dict[str, list[str]], mode: Mode) -> None:
    _header(h, out)
    numbered = h.plan.numbered() if h.plan is not None else []
    summary = _plan_summary(h, numbered)
    if summary:
        out.text("  Change plan (steps below):", style="bold")
        if h.plan is not None and h.plan.simulation is not None:
            _fields(out, [("proven", h.plan.simulation.summary())])
        _fields(out, summary)
    _notes(h, out)
    out.blank()
    if h.status == "no-evidence":
        out.text("  No evidence: no check could be evaluated with these outputs (see below).", style="red")
    elif not h.findings:
        out.text("  No findings.", style="green")
    studies: dict[grouping.Study, int] = {}
    order = grouping.order_said(h)
    if order and h.findings:
        out.hanging("  ", order + ".", style="dim")
        out.blank()
    for group in grouping.groups(h, causes):
        _group(group, numbered, mode, h.source, out, studies)
        if mode == "full":
            out.blank()
    if mode == "compact":
        out.blank()
        return
    if _plan(h, numbered, out):
        out.blank()
    if h.waived:
        out.text("Waived:", style="bold")
        _fields(out, [("waived", f"{f.rule} {f.subject}: {f.waiver.reason} ({f.waiver.owner}, until "
                                 f"{f.waiver.expires})") for f in h.waived if f.waiver])
        out.blank()
    if h.baseline is not None:
        _fields(out, [("baseline", f"{len(h.baseline.unchanged)} finding(s) unchanged, not repeated; "
                                   f"fixed since: {', '.join(h.baseline.fixed) or 'none'}")])
        out.blank()
    for note in h.expired_waivers:
        out.text(f"  expired waiver: {note}", style="yellow")
    runtime = sorted({r.rule for r in h.results if r.status == "not_applicable" and r.reason
                      and r.reason.startswith(RUNTIME_REASON)})
    if h.kind == "plan" and runtime:
        _fields(out, [("plan", f"not applicable before the system runs: {', '.join(runtime)}")])
        out.blank()
    unknown = grouping.unknowns(h)
    if unknown:
        out.text("Not evaluated (missing input):", style="bold")
        _fields(out, [("needs", f"{missing}: {', '.join(rules)}") for missing, rules in unknown])
        out.blank()
    if studies:
        out.text("Sources:", style="bold")
        for (study, url), n in studies.items():
            _fields(out, [(f"[{n}]", study)])
            if url:
                out.whole(f"      <{url}>")  # an address is never cut
        out.blank()


def summary_line(fleet: Fleet) -> str:
    """The verdict, the lowest score and the counts, on one line."""
    s = fleet.summary
    counts = ", ".join(f"{n} {sev}" for sev, n in s.findings.items() if n) or "no findings"
    if any(s.findings.values()):
        verdict = "findings"
    elif s.errors:
        verdict = "input errors"
    elif any(h.status in ("no-evidence", "unreachable") for h in fleet.lines):
        verdict = "not all judged"
    else:
        verdict = "clean"
    score = f"{s.lowest_score:g}" if s.lowest_score is not None else "-"
    return f"{verdict}: {counts}; {s.hosts} host(s), lowest score {score}; {s.errors} input errors"


class Writer:
    """The report for a person: per host a summary that fits one screen, then
    findings grouped by rule (effect and source once), then the plan.
    `causes` maps a rule to the rules it follows from; `mode` compact gives one
    line per rule group, quiet only the verdict and counts."""

    in_fleet_order = True
    separator = ""

    def __init__(self, target: Output, causes: dict[str, list[str]] | None = None, mode: Mode = "full") -> None:
        self.target, self.causes, self.mode = target, causes or {}, mode

    def part(self, h: HostReport) -> str:
        if self.mode == "quiet":
            return ""
        out = self.target.like()
        _host(h, out, self.causes, self.mode)
        return out.text_of()

    def head(self, fleet: Fleet) -> str:
        out = self.target.like()
        for e in fleet.errors:
            out.whole(f"error: {e}", style="red")  # one line, its path never folded
        if fleet.errors:
            out.blank()
        if len(fleet.lines) > 1:
            _fleet_table(fleet, out)
            out.blank()
        return out.text_of()

    def tail(self, fleet: Fleet) -> str:
        if not fleet.lines:  # nothing was reviewed: the errors above are the whole report
            return ""
        out = self.target.like()
        if self.mode != "quiet":
            out.text(SCORE_NOTE, style="dim")
        out.whole(summary_line(fleet), style="bold")
        if fleet.summary.gate is not None:
            out.text(f"gate {fleet.summary.gate}: {fleet.summary.gate_reason}", style="bold")
        return out.text_of()


def render(report: Report, out: Output, causes: dict[str, list[str]] | None = None,
           mode: Mode = "full") -> None:
    """The whole report into `out` (see Writer)."""
    out.lines += stream.render(Writer(out, causes, mode), report).splitlines()
