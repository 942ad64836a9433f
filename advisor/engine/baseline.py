"""`--baseline report.json`: keep only findings that are new since a previous
run (matched on host, rule and subject) and list the ones that were fixed."""

from __future__ import annotations

from pathlib import Path

from advisor import datafile
from advisor.errors import InputError
from advisor.results.model import BaselineNote, HostReport, Report


def load(path: Path) -> dict[str, set[tuple[str, str]]]:
    """host -> {(rule, subject)} of a previous JSON report's findings."""
    data = datafile.load_json(path, InputError, "baseline")
    try:
        return {h["host"]: {(f["rule"], f["subject"]) for f in h["findings"]} for h in data["hosts"]}
    except (KeyError, TypeError):
        raise InputError(f"{path}: not an advisor JSON report (hosts[].findings[] with rule and subject)") from None


def apply(report: Report, previous: dict[str, set[tuple[str, str]]]) -> None:
    for h in report.hosts:
        apply_host(h, previous)


def apply_host(h: HostReport, previous: dict[str, set[tuple[str, str]]]) -> None:
    """Leaves out of the host's findings those the previous report had, and notes which were fixed since."""
    if h.status != "unreachable" and h.host in previous:
        before = previous[h.host]
        now = {(f.rule, f.subject) for f in h.findings} | {(f.rule, f.subject) for f in h.waived}
        h.baseline = BaselineNote(
            unchanged=sorted(f"{f.rule} {f.subject}" for f in h.findings if (f.rule, f.subject) in before),
            fixed=sorted(f"{rule} {subject}" for rule, subject in before - now))
        h.findings = [f for f in h.findings if (f.rule, f.subject) not in before]
