"""version_ge parses each text once (a cache): the same answers as parsing at every call."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from advisor.versions import version_ge

_VERSIONS = st.one_of(st.none(), st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,3}){0,4}", fullmatch=True), st.text(max_size=8))


def _reference(a: str | None, b: str | None) -> bool | None:
    """version_ge as it was: its texts' numbers found by a regex at each call."""
    if a is None or b is None:
        return None
    return tuple(int(p) for p in re.findall(r"\d+", a)) >= tuple(int(p) for p in re.findall(r"\d+", b))


@settings(max_examples=300, deadline=None)
@given(a=_VERSIONS, b=_VERSIONS)
def test_version_ge_is_the_comparison_it_was(a: str | None, b: str | None) -> None:
    for _ in range(2):  # parsed, then cached
        assert version_ge(a, b) == _reference(a, b)


def test_another_type_is_refused_as_before() -> None:
    for value in (["3.4"], 3):
        try:
            _reference(value, "3")  # type: ignore[arg-type]
        except TypeError as exc:
            expected = str(exc)
        try:
            version_ge(value, "3")  # type: ignore[arg-type]
        except TypeError as exc:
            assert str(exc) == expected
        else:
            raise AssertionError("not refused")
