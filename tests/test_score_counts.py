"""score.counts tallies in a dict and makes the model once: the counts, and the fields set, as before."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from advisor.results import score as scoring
from advisor.results.model import Counts, Result


def _reference(results: list[Result]) -> Counts:
    """counts as it was: each result's field set on the model in turn."""
    c = Counts()
    for r in results:
        field = {"pass": "passed", "fail": "failed"}.get(r.status, r.status)
        setattr(c, field, getattr(c, field) + 1)
    return c


@settings(max_examples=200, deadline=None)
@given(statuses=st.lists(st.sampled_from(["pass", "fail", "not_applicable", "unknown"]), max_size=30))
def test_counts_are_those_of_the_model_set_field_by_field(statuses: list[str]) -> None:
    results = [Result(rule="r", subject=f"s{i}", status=s) for i, s in enumerate(statuses)]  # type: ignore[arg-type]
    got, expected = scoring.counts(results), _reference(results)
    assert got == expected
    assert got.model_fields_set == expected.model_fields_set
    assert got.model_dump_json(exclude_unset=True) == expected.model_dump_json(exclude_unset=True)
