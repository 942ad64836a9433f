"""Score per host: 100 x weight passed / weight evaluated (DESIGN.md)."""

from __future__ import annotations

from advisor.results.model import Counts, Result


def score(results: list[Result], waived: set[tuple[str, str]] | None = None) -> float | None:
    """`waived`, if given: the fails waived, as (rule, subject), in place of each result's own mark."""
    evaluated = passed = 0
    for r in results:
        if r.status not in ("pass", "fail") or r.severity is None \
                or (r.waived if waived is None else r.status == "fail" and (r.rule, r.subject) in waived):
            continue
        evaluated += r.severity.weight
        if r.status == "pass":
            passed += r.severity.weight
    if evaluated == 0:
        return None
    return round(100 * passed / evaluated, 1)


def counts(results: list[Result]) -> Counts:
    c = Counts()
    for r in results:
        field = {"pass": "passed", "fail": "failed"}.get(r.status, r.status)
        setattr(c, field, getattr(c, field) + 1)
    return c
