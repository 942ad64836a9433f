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


_COUNTED = {"pass": "passed", "fail": "failed", "not_applicable": "not_applicable", "unknown": "unknown"}


def counts(results: list[Result]) -> Counts:
    """Tallied in a dict, the model made once: a model's field set by setattr costs
    pydantic's __setattr__ each time (a host has ~100 results). The fields given are
    those a result has, as setattr left them set."""
    tally: dict[str, int] = {}
    for r in results:
        field = _COUNTED[r.status]
        tally[field] = tally.get(field, 0) + 1
    return Counts(**tally)
