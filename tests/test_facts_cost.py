"""What was rewritten to cut the facts' cost a host gives what the first versions gave.

Each first version is kept here, as it was, and the rewrite is held to it on
generated values: a fact record's dump (given to CEL and to templates) and the
check that every number of a host fits CEL's 64 bits (and names the fact that
does not).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from advisor.engine import evaluate
from advisor.errors import InputError
from advisor.facts.record import Fact, Record
from conftest import examples

_INT64 = 1 << 63


def _within_cel_first(value: Any, path: str) -> None:
    """evaluate._within_cel as first written: each value's path spelt as it is walked."""
    if isinstance(value, dict):
        for key, item in value.items():
            _within_cel_first(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _within_cel_first(item, f"{path}[{i}]")
    elif isinstance(value, int) and not isinstance(value, bool) and not -_INT64 <= value < _INT64:
        raise InputError(f"{evaluate.excerpt(path, 80)} is a number of {len(str(abs(value))):,} digits; the rules "
                         f"compare numbers of at most 19")


def _outcome(check: Any, value: Any) -> str | None:
    try:
        check(value, "host")
    except InputError as exc:
        return str(exc)
    return None


_numbers = st.one_of(st.integers(min_value=-_INT64, max_value=_INT64 - 1),
                     st.integers(min_value=-(10 ** 30), max_value=10 ** 30), st.just(_INT64), st.just(-_INT64 - 1),
                     st.just(10 ** 399))
class _Int(int):
    """A subclass of int (as IntEnum is): a dump has none, the check must still see it."""


class _Dict(dict):
    pass


class _List(list):
    pass


_leaves = st.one_of(_numbers, st.booleans(), st.none(), st.text(max_size=5), st.floats(allow_nan=False),
                    st.tuples(_numbers), st.builds(_Int, _numbers))  # a tuple is not walked, as before
_keys = st.text(min_size=1, max_size=4)
_values = st.recursive(_leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_keys, inner, max_size=4),
    st.builds(_List, st.lists(inner, max_size=3)), st.builds(_Dict, st.dictionaries(_keys, inner, max_size=3))),
    max_leaves=25)


@settings(max_examples=examples(400), deadline=None)
@given(value=_values)
def test_within_cel_names_the_first_number_past_64_bits_as_it_did(value: Any) -> None:
    assert _outcome(evaluate._within_cel, value) == _outcome(_within_cel_first, value)


def test_a_400_digit_count_deep_in_a_host_is_named_by_its_path() -> None:
    host = {"host": "t5", "ldcs": [{"name": "ldc0", "counters": {"opackets64": 1}},
                                   {"name": "ldc1", "counters": {"opackets64": 10 ** 399, "ierrors": True}}]}
    with pytest.raises(InputError, match=r"^host\.ldcs\[1\]\.counters\.opackets64 is a number of 400 digits; "
                                         r"the rules compare numbers of at most 19$"):
        evaluate._within_cel(host, "host")
    host["ldcs"][1]["counters"]["opackets64"] = _INT64 - 1  # the largest CEL reads
    evaluate._within_cel(host, "host")


class _Inner(Record):
    name: str
    mtu: int | None = None
    tags: list[str] = []


class _Outer(Fact):
    name: str
    cores: float | None = None
    inner: _Inner | None = None
    inners: list[_Inner] | None = None
    counters: dict[str, int] = {}
    nested: dict[str, Any] = {}
    pair: tuple[int, ...] | None = None


def _plain_first(value: Any) -> Any:
    if isinstance(value, Record):
        return _dump_first(value)
    if isinstance(value, list):
        return [_plain_first(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain_first(v) for k, v in value.items()}
    return value


def _dump_first(record: Record, exclude: frozenset[str] = frozenset(), only: set[str] | None = None) -> dict:
    """Record.dump as first written: every field through getattr and _plain."""
    return {name: _plain_first(getattr(record, name)) for name in type(record).fields()
            if name not in exclude and (only is None or name in only)}


_text = st.text(max_size=4)
_inner = st.builds(_Inner, name=_text, mtu=st.none() | st.integers(), tags=st.lists(_text, max_size=3))
_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _text | _inner,
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3), max_leaves=10)
_outer = st.builds(_Outer, name=_text, cores=st.none() | st.integers(-5, 5) | st.floats(allow_nan=False),
                   inner=st.none() | _inner, inners=st.none() | st.lists(_inner, max_size=3),
                   counters=st.dictionaries(_text, st.integers(), max_size=3),
                   nested=st.dictionaries(_text, _json, max_size=3),
                   pair=st.none() | st.tuples(st.integers()), evidence=st.dictionaries(_text, _text, max_size=2))
_fields = st.sets(st.sampled_from(_Outer.fields()))


@settings(max_examples=examples(300), deadline=None)
@given(record=_outer, exclude=_fields, only=st.none() | _fields)
def test_dump_gives_what_it_first_gave(record: _Outer, exclude: set[str], only: set[str] | None) -> None:
    dumped = record.dump(exclude=exclude, only=only)
    first = _dump_first(record, frozenset(exclude), only)
    assert dumped == first and list(dumped) == list(first)
    assert [type(v) for v in dumped.values()] == [type(v) for v in first.values()]  # 2.0 stays a float, True a bool
    assert repr(dumped) == repr(first)  # nested orders and types too


def test_a_dump_shares_no_list_or_dict_with_its_record() -> None:
    """What CEL and the templates are given is a copy: a change to the record after it is not seen in it."""
    record = _Outer(name="x", inners=[_Inner(name="a", tags=["t"])], counters={"n": 1}, nested={"l": [1]})
    dumped = record.dump()
    record.inners[0].tags.append("u")  # type: ignore[index]
    record.counters["n"] = 2
    record.nested["l"].append(2)
    assert dumped["inners"] == [{"name": "a", "mtu": None, "tags": ["t"]}]
    assert dumped["counters"] == {"n": 1} and dumped["nested"] == {"l": [1]}


def _clone_first(record: Record) -> Record:
    """Record.clone as first written: each field set through object.__setattr__, copied by cloned."""
    from advisor.facts.record import cloned

    new = object.__new__(type(record))
    for name, value in vars(record).items():
        object.__setattr__(new, name, value if name == "evidence" else cloned(value))
    return new


def _containers(value: Any) -> list[Any]:
    """Every record, list and dict in a value (a record's evidence left out: a copy shares it)."""
    if isinstance(value, Record):
        return [value] + [c for name, v in vars(value).items() if name != "evidence" for c in _containers(v)]
    if isinstance(value, list):
        return [value] + [c for v in value for c in _containers(v)]
    if isinstance(value, dict):
        return [value] + [c for v in value.values() for c in _containers(v)]
    return []


@settings(max_examples=examples(300), deadline=None)
@given(record=_outer)
def test_a_clone_is_what_the_first_clone_gave_and_shares_only_its_evidence(record: _Outer) -> None:
    copy, first = record.clone(), _clone_first(record)
    assert copy == first == record and repr(copy) == repr(first)
    assert list(vars(copy)) == list(vars(first))  # in the fields' order
    assert copy.evidence is record.evidence
    mine = {id(c) for c in _containers(record)}
    assert not any(id(c) in mine for c in _containers(copy))  # a plan's model writes its copy alone


_digit_runs = st.lists(st.tuples(st.sampled_from(["7", "\u0663", "\u00b2", "x", " "]),  # '٣' is a digit, '²' none
                                 st.sampled_from([1, 2149, 2150, 2151, 4299, 4300, 4301, 4302, 6000])), max_size=6)


@settings(max_examples=examples(300), deadline=None)
@given(runs=_digit_runs, lead=st.integers(0, 2200))
def test_a_long_number_is_found_where_the_search_alone_found_it(runs: list[tuple[str, int]], lead: int) -> None:
    """capture.long_number searches only a text with an aligned slice of 2,150 digits: the match is the same."""
    from advisor.collect.capture import _LONG_NUMBER, long_number

    text = "a" * lead + "".join(char * count for char, count in runs)
    found, first = long_number(text), _LONG_NUMBER.search(text)
    assert (found and found.span()) == (first and first.span())


def test_a_run_of_4301_digits_at_any_offset_is_found() -> None:
    from advisor.collect.capture import long_number

    for lead in (0, 1, 2149, 2150, 2151, 4300):
        for digit in ("9", "\u0663"):
            text = "x" * lead + digit * 4301 + "\n"
            assert (m := long_number(text)) is not None and m.span() == (lead, lead + 4301)
            assert long_number("x" * lead + digit * 4300 + "\n") is None
