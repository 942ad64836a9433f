"""`advisor review`: offline captures to a report and an exit status."""

from __future__ import annotations

import sys
from pathlib import Path

from advisor.collect.offline import Loader
from advisor.engine import packs, policy as policy_mod
from advisor.engine.evaluate import Engine
from advisor.engine.model import Severity
from advisor.errors import InputError
from advisor.pipeline import load_captures, review_all, summarize
from advisor.report import json_out, terminal
from advisor.report.model import Report

EXIT_OK, EXIT_GATE, EXIT_INPUT = 0, 1, 2


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


def run_review(paths: list[Path], fmt: str, output: Path | None, fail_on: str, min_score: float | None,
               policy_path: Path | None, rule_dirs: list[Path], jobs: int = 1) -> int:
    rules = packs.load(rule_dirs)
    engine = Engine(rules, policy_mod.load(policy_path))
    with Loader() as loader:
        captures, input_errors = load_captures(paths, loader)
        hosts = review_all(captures, engine, jobs, rule_dirs, policy_path)
    report = summarize(hosts, input_errors, len(engine.rules))
    gate(report, fail_on, min_score)
    _write(report, fmt, output)
    errors = report.errors + [e for h in report.hosts for e in h.errors]
    for e in errors:
        print(f"advisor: {e}", file=sys.stderr)
    if errors:
        return EXIT_INPUT
    return EXIT_GATE if report.summary.gate == "failed" else EXIT_OK


def _write(report: Report, fmt: str, output: Path | None) -> None:
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
