"""What every reporting verb shares: the gate, writing the report, the exit status."""

from __future__ import annotations

import sys
from pathlib import Path

from advisor.engine.model import Severity
from advisor.errors import InputError
from advisor.report import json_out, terminal
from advisor.report.model import Report

EXIT_OK, EXIT_GATE, EXIT_INPUT, EXIT_UNREACHABLE = 0, 1, 2, 3


def gate(report: Report, fail_on: str, min_score: float | None) -> None:
    """Sets summary.gate when a threshold was asked for."""
    reasons = []
    if fail_on != "never":
        floor = Severity(fail_on).rank
        worst = [f for h in report.hosts for f in h.findings if f.severity.rank >= floor]
        if worst:
            reasons.append(f"{len(worst)} finding(s) at or above {fail_on}")
    if min_score is not None:
        low = [h.host for h in report.hosts if h.score is not None and h.score < min_score]
        if low:
            reasons.append(f"score below {min_score:g} on {', '.join(low)}")
    if fail_on != "never" or min_score is not None:
        report.summary.gate = "failed" if reasons else "passed"
        report.summary.gate_reason = "; ".join(reasons) or "no finding at or above the threshold"


def write(report: Report, fmt: str, output: Path | None) -> None:
    try:
        stream = output.open("w", encoding="utf-8") if output else sys.stdout
    except OSError as exc:
        raise InputError(f"{output}: cannot write ({exc.strerror})") from None
    try:
        if fmt == "json":
            stream.write(json_out.render(report))
        else:
            with terminal.Output(stream) as out:
                terminal.render(report, out)
    finally:
        if output:
            stream.close()


def exit_status(report: Report) -> int:
    """2 unreadable input, 3 a host not (completely) collected, 1 gate failed,
    else 0. Each error is printed on stderr as one line."""
    unreachable = [h for h in report.hosts if h.status == "unreachable"]
    incomplete = [h for h in report.hosts if h.incomplete]
    input_errors = report.errors + [e for h in report.hosts if h.status != "unreachable" for e in h.errors]
    for e in input_errors:
        print(f"advisor: {e}", file=sys.stderr)
    for h in unreachable:
        print(f"advisor: {h.host}: not collected: {'; '.join(h.errors)}", file=sys.stderr)
    for h in incomplete:
        print(f"advisor: {h.host}: incomplete: {', '.join(h.incomplete)} did not finish", file=sys.stderr)
    if input_errors:
        return EXIT_INPUT
    if unreachable or incomplete:
        return EXIT_UNREACHABLE
    return EXIT_GATE if report.summary.gate == "failed" else EXIT_OK
