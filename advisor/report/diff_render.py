"""`advisor diff` as text (terminal, pipe) and as Markdown (merge-request comments)."""

from __future__ import annotations

from advisor.report.diff import CounterMove, Diff, HostDiff
from advisor.report.markdown import code, inline


def _score(h: HostDiff) -> str:
    show = lambda s: "-" if s is None else f"{s:g}"  # noqa: E731
    change = "" if h.score_change is None else f" ({h.score_change:+g})"
    return f"score {show(h.score_before)} -> {show(h.score_after)}{change}"


def _counter(m: CounterMove) -> str:
    moved = "went down (reboot or wrap between the captures)" if m.delta is None else f"{m.delta:+,}"
    return f"{m.subject} {m.counter}: {m.before:,} -> {m.after:,} ({moved})"


def _host_lines(h: HostDiff) -> list[str]:
    if h.before is None or h.after is None:
        side = "after" if h.before is None else "before"
        return [f"{h.host}: only in the {side} report ({h.after or h.before})"]
    lines = [f"{h.host}: {_score(h)}; {len(h.fixed)} fixed, {len(h.new)} new, {len(h.changed)} changed, "
             f"{h.unchanged} unchanged"]
    lines += [f"  fixed    {f.severity.value:<8} {f.rule}  {f.subject}" for f in h.fixed]
    lines += [f"  new      {f.severity.value:<8} {f.rule}  {f.subject}: {f.message}" for f in h.new]
    for c in h.changed:
        severity = c.severity.value if c.severity == c.severity_before else f"{c.severity_before.value}->{c.severity.value}"
        lines.append(f"  changed  {severity:<8} {c.rule}  {c.subject}: {c.observed_before} -> {c.observed_after}")
    if h.counters is not None:
        moved = [m for m in h.counters if m.delta != 0]
        lines.append(f"  counters {len(moved)} of {len(h.counters)} moved" + (":" if moved else ""))
        lines += [f"    {_counter(m)}" for m in moved]
    return lines


def text(diff: Diff) -> str:
    lines = [f"error: {e}" for e in diff.errors]
    for h in diff.hosts:
        lines += _host_lines(h) + [""]
    new = len(diff.worst_new())
    lines.append(f"{len(diff.hosts)} host(s): {sum(len(h.fixed) for h in diff.hosts)} fixed, "
                 f"{new} new or more severe")
    return "\n".join(lines) + "\n"


def markdown(diff: Diff) -> str:
    out = ["## advisor diff", ""]
    for h in diff.hosts:
        if h.before is None or h.after is None:
            out += [f"### {inline(h.host)}", "", f"Only in the {'after' if h.before is None else 'before'} report.", ""]
            continue
        out += [f"### {inline(h.host)}: {_score(h)}", "", "| change | severity | rule | subject | detail |",
                "|---|---|---|---|---|"]
        out += [f"| fixed | {f.severity.value} | {code(f.rule)} | {inline(f.subject)} | {inline(f.message)} |"
                for f in h.fixed]
        out += [f"| new | {f.severity.value} | {code(f.rule)} | {inline(f.subject)} | {inline(f.message)} |"
                for f in h.new]
        out += [f"| changed | {c.severity_before.value} → {c.severity.value} | {code(c.rule)} | {inline(c.subject)} | "
                f"{inline(c.observed_before)} → {inline(c.observed_after)} |" for c in h.changed]
        if h.counters:
            out += ["", "| counter | before | after | change |", "|---|---|---|---|"]
            out += [f"| {inline(m.subject)} {inline(m.counter)} | {m.before:,} | {m.after:,} | "
                    f"{'reset' if m.delta is None else f'{m.delta:+,}'} |" for m in h.counters if m.delta != 0]
        out.append("")
    return "\n".join(out)
