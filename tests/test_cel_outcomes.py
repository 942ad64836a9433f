"""An expression's outcome is remembered per scope and per value of what it reads.

The CEL core converts a lazy variable (p, s, v) at each reference, so an
expression that reads the same values again within one host's judgment (a
channel's dring_mode, a `let` that reads the host alone) is run once, and its
value or its error handed back alike (cel_env.Expr._remembered). Each test
holds that to a run of the core every time.
"""

from __future__ import annotations

import datetime
import math
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from advisor.engine import cel_env
from conftest import CAPTURES
from test_fast_path import _report


def _direct(expr: cel_env.Expr, scope: cel_env.Scope) -> Any:
    """The outcome as the core gives it, run now."""
    scope.lazy.give(expr.reads)
    return expr.program.execute(scope.ctx)


def _exact(value: Any) -> Any:
    """A value to compare: each scalar with its type (a NaN as its bits: it is not equal to itself),
    a map's items in any order (the core's maps keep none)."""
    if isinstance(value, float):
        return float, value.hex()
    if isinstance(value, dict):
        return dict, sorted((repr(k), _exact(v)) for k, v in value.items())
    if isinstance(value, list):
        return list, [_exact(v) for v in value]
    return type(value), value


def _outcome(run, *args) -> tuple[str, Any]:
    try:
        value = run(*args)
    except Exception as exc:  # noqa: BLE001 - the error is the outcome compared
        return "error", (type(exc), str(exc))
    return "value", _exact(value)


@pytest.mark.parametrize("capture", ["t5-primary-untuned", "t2-primary-crowded", "s11-guest-untuned",
                                     "ovm-dom0-untuned", "linux-gw-untuned"])
def test_a_review_is_the_same_with_every_expression_run_each_time(capture: str, monkeypatch) -> None:
    remembered = _report(CAPTURES / capture)
    monkeypatch.setattr(cel_env.Expr, "_remembered", _direct)
    assert _report(CAPTURES / capture) == remembered


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**63 - 1), st.sampled_from([0, 1, 2, 4]),
                     st.floats(allow_nan=True), st.sampled_from([0.0, -0.0, 1.0, 2.0, 4.0]),
                     st.sampled_from(["", "1", "on", "vnet0"]), st.text(max_size=4))
# Maps of one key at most: the core walks a map's keys in no set order, run to run (`[] + m`, `m.map(x, x)`)
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.sampled_from(["a", "b", "n"]), inner, max_size=1), max_leaves=6)
_SUBJECTS = st.builds(lambda fields, listed: {**fields, **listed}, st.dictionaries(
    st.sampled_from(["a", "b", "n"]), _VALUES, max_size=3), st.dictionaries(
    st.just("l"), _SCALARS | st.lists(_SCALARS, max_size=3), max_size=1))
_TEXTS = [
    "s.a == s.b", "s.a == 1", "s.a == true", "s.a == 0.0", "string(s.a)", "s.a + s.b", "1.0 / s.a", "s.a",
    "[s.a, s.b]", "s.l.map(x, x)", "has(s.a) ? s.a : 'none'", "size(s)", "s.n in [1, 2, 4]", "s.a > v.n",
    "s.l.filter(x, x == s.a)", "s", "v.n + p.k", "s.a.b", "s.l[1]", "s.a != null && s.a.size() > 0",
]


@settings(max_examples=60, deadline=None)
@given(subjects=st.lists(_SUBJECTS, min_size=1, max_size=6), lets=st.lists(st.dictionaries(
    st.just("n"), _SCALARS), min_size=1, max_size=3))
def test_a_remembered_outcome_is_the_one_a_new_run_gives(subjects: list[dict], lets: list[dict]) -> None:
    """One scope judging subjects in turn (outcomes remembered) against the core run each time:
    values of other types that Python holds equal (1, 1.0, true; 0.0, -0.0) are told apart."""
    exprs = [cel_env.Expr(text, "test") for text in _TEXTS]
    scope = cel_env.Scope(cel={"host": {"arch": "sparc"}}, host={"arch": "sparc"}, p={"k": 2}, s=None, v={})
    for subject in subjects:
        for let in lets:
            scope.set("s", subject)
            scope.set("v", let)
            for expr in exprs:
                assert _outcome(expr.run, scope) == _outcome(_direct, expr, scope), expr.source


def test_an_error_is_raised_again_alike_without_running_the_core() -> None:
    scope = cel_env.Scope(s={"mtu": 1500}, v={}, p={})
    asked: list[str] = []
    resolve = scope.lazy.given.get
    scope.ctx.set_variable_resolver(lambda name: asked.append(name) or resolve(name))
    expr = cel_env.Expr("s.absent == 1 || s.mtu == 1", "test")
    first = _outcome(expr.test, scope)
    assert first[0] == "error" and first[1][0] is KeyError
    ran = len(asked)
    assert _outcome(expr.test, scope) == first == _outcome(_direct, expr, scope)
    assert len(asked) == ran + 1  # the second test was not run: only the direct run asked again
    scope.set("s", {"mtu": 1})  # another value: run again
    assert expr.test(scope) is True


def test_an_error_of_a_python_function_is_not_remembered() -> None:
    """The core prints such a failure to stderr each time: each run must still happen."""
    scope = cel_env.Scope(s={"version": 3}, v={}, p={})
    expr = cel_env.Expr("version_ge(s.version, '3.4')", "test")
    for _ in range(2):
        with pytest.raises(RuntimeError, match="version_ge"):
            expr.run(scope)
    assert scope.outcomes == {}


def test_a_remembered_list_is_not_shared_with_its_caller() -> None:
    scope = cel_env.Scope(s={"names": ["vsw0", "vsw1"], "inner": {"x": [1]}}, v={}, p={})
    expr = cel_env.Expr("[s.names, {'in': s.inner}]", "test")
    first = expr.run(scope)
    first[0].append("changed")
    first[1]["in"]["x"].append(2)
    assert expr.run(scope) == [["vsw0", "vsw1"], {"in": {"x": [1]}}]


def test_a_value_of_another_type_is_run_each_time() -> None:
    """marshal, which makes the key, writes only plain values: a date is given to the core each time."""
    when = datetime.datetime(2026, 11, 28, tzinfo=datetime.timezone.utc)
    scope = cel_env.Scope(s={"at": when}, v={}, p={})
    expr = cel_env.Expr("s.at", "test")
    assert expr.run(scope) == _direct(expr, scope)
    assert scope.outcomes == {}


def test_texts_of_the_host_alone_are_run_as_they_are() -> None:
    """Reading no lazy variable, a text costs the core less than a key would: nothing is remembered."""
    scope = cel_env.Scope(cel={"host": {"arch": "sparc"}}, host={"arch": "sparc"}, s=None, v={}, p={})
    assert cel_env.Expr("host.arch != 'x86'", "test").test(scope) is True
    assert math.isclose(cel_env.Expr("1.5 * 2.0", "test").run(scope), 3.0)
    assert scope.outcomes == {}


@pytest.mark.parametrize("text", ["string(s.a)", "1.0 / s.a", "type(s.a) == int", "s.a == true", "[s.a][0]"])
def test_values_python_holds_equal_are_not_the_same_to_cel(text: str) -> None:
    """1, 1.0 and true are equal (and hash alike) in Python, and so are 0.0 and -0.0: not to CEL."""
    scope = cel_env.Scope(s=None, v={}, p={})
    expr = cel_env.Expr(text, "test")
    for a in (1, 1.0, True, 0.0, -0.0, 0, False, 1, 0.0):
        scope.set("s", {"a": a})
        assert _outcome(expr.run, scope) == _outcome(_direct, expr, scope), a


_FLAT_TEXTS = [
    "s.a == s.b", "s.a + s.b", "s.a > v.n && p.k == 2", "string(s.a) + 's.a' // s.b in a comment", "s.a.b",
    "s.l.filter(x, x == s.a).map(x, x)", "size(s) > 0 && s.a == 1", "[s.a, s.l, v.n]", "s.a != null ? s.a : p.k",
    "int(p.k) * s.a", "double(s.a) / double(v.n)", "s.a in s.l", "s.l.size() > 0 || s.a == true", "s.n < 0 ? -s.n : s.n",
    "{'a': s.a}.a == s . a", "s.a == s.a && s.b == s.b",
]


@settings(max_examples=80, deadline=None)
@given(subject=_SUBJECTS, let=st.dictionaries(st.just("n"), _SCALARS), other=_SCALARS)
def test_a_flattened_text_gives_the_outcome_of_the_text_as_written(subject: dict, let: dict, other: Any) -> None:
    """`s.a` read as a variable of its own (`s__a`), where every field so read is there and not null:
    the same value, or the same error, as the text as written gives; else the text as written is run."""
    for s in (subject, other):  # a subject that is no map: run as written
        scope = cel_env.Scope(cel={"host": {"arch": "sparc"}}, host={"arch": "sparc"}, p={"k": 2}, s=s, v=let)
        for text in _FLAT_TEXTS:
            expr = cel_env.Expr(text, "test")
            assert expr.flat is not None, text
            written = _outcome(_direct, expr, scope)
            if scope.lazy.give_fields(expr.flat.fields):
                assert _outcome(cel_env._cel.compile(expr.flat.text).execute, scope.ctx) == written, text
            assert _outcome(expr.run, scope) == written, text


def test_a_field_is_flattened_only_where_it_is_the_variables() -> None:
    """Not in a string, not a field of another map (`host.s.a`), not where a macro binds
    the name or has() tests the field: those are left as written."""
    assert cel_env.flattened("s.mtu > s.net_dev_mtu + v.n").text == "s__mtu > s__net_dev_mtu + v__n"
    assert cel_env.flattened("host.s.a == s.b && 's.c' != ''").text == "host.s.a == s__b && 's.c' != ''"
    assert cel_env.flattened("l.exists(s, s.a) && v.n > 1").fields == (("v__n", "v", "n"),)
    assert cel_env.flattened("has(s.a) && s.b") is None and cel_env.flattened("host.arch") is None
    assert cel_env.flattened("size(s) == s.n").text == "size(s) == s__n"  # s whole is still given


def test_an_outcome_of_the_lazy_variables_alone_is_shared_with_another_scope() -> None:
    """`s.mtu > v.n` says the same in any scope given the same s and v: a plan's model of the host
    judged again (Engine.again) finds it known. One that reads the host is the scope's own."""
    first = cel_env.Scope(cel={"host": {"arch": "sparc"}}, host={"arch": "sparc"}, s={"mtu": 9000}, v={"n": 1500}, p={})
    alone, with_host = cel_env.Expr("s.mtu > v.n", "test"), cel_env.Expr("s.mtu > 1 && host.arch == 'sparc'", "test")
    assert alone.test(first) and with_host.test(first)
    assert len(first.alone) == 1 and len(first.outcomes) == 1
    second = cel_env.Scope(cel={"host": {"arch": "x86"}}, alone=first.alone, host={"arch": "x86"}, s={"mtu": 9000},
                           v={"n": 1500}, p={})
    asked: list[str] = []
    second.ctx.set_variable_resolver(asked.append)
    assert alone.test(second) is True and asked == []  # not run: known
    second.ctx.set_variable_resolver(second.lazy.given.get)
    assert with_host.test(second) is False and len(second.outcomes) == 1


_VERSIONS = st.one_of(st.none(), st.sampled_from(["3.4", "3.4.0.3", "3.1", "2", "", "x"]), st.integers(0, 4))
_HOSTS = st.dictionaries(st.sampled_from(["a", "b", "l"]), _VERSIONS | st.lists(
    st.one_of(st.integers(-3, 3), st.floats(-2.0, 2.0), st.none()), max_size=3), max_size=3)
_CALLING_TEXTS = [
    "version_ge(host.a, '3.4')", "host.a != null && version_ge(host.a, host.b)", "total(host.l)",
    "total(host.l) > 1.0 ? host.a : host.b", "host.b == null || !version_ge(host.a, '3.1')",
    "has(host.a) && version_ge(host.a, '1')", "version_ge(host.a, intent.v)", "[version_ge(host.a, '3'), host.l]",
]


@settings(max_examples=60, deadline=None)
@given(hosts=st.lists(_HOSTS, min_size=1, max_size=4), intent=st.sampled_from(["3", "4"]))
def test_a_remembered_call_on_host_fields_is_the_one_a_new_run_gives(hosts: list[dict], intent: str) -> None:
    """A text of host fields alone that calls a (pure) function, its outcome kept by the values it
    reads and shared between scopes (a host and its plans' models): as the core gives it, run each time."""
    alone: dict = {}
    exprs = [cel_env.Expr(text, "test") for text in _CALLING_TEXTS]
    for host in hosts + hosts:  # each host's values met again, in another scope
        scope = cel_env.Scope(cel={"host": host}, alone=alone, host=host, intent={"v": intent}, p={}, s=None, v={})
        for expr in exprs:
            assert _outcome(expr.run, scope) == _outcome(_direct, expr, scope), expr.source


def test_a_call_on_host_fields_runs_once_for_the_same_values() -> None:
    asked: list[str] = []

    def counted(a: Any, b: Any) -> Any:
        asked.append(a)
        return cel_env.version_ge(a, b)

    functions = {**cel_env.FUNCTIONS, "version_ge": counted}
    expr = cel_env.Expr("host.v != null && version_ge(host.v, '3.4')", "test")
    first = cel_env.Scope(cel={"host": {"v": "3.4.0.3"}}, host={}, s=None, v={}, p={})
    first.ctx = cel_env._cel.Context(variables={"host": {"v": "3.4.0.3"}}, functions=functions)
    assert expr.test(first) is True and expr.test(first) is True and asked == ["3.4.0.3"]
    second = cel_env.Scope(cel={"host": {"v": "3.1"}}, alone=first.alone, host={}, s=None, v={}, p={})
    second.ctx = cel_env._cel.Context(variables={"host": {"v": "3.1"}}, functions=functions)
    assert expr.test(second) is False and asked == ["3.4.0.3", "3.1"]  # other values: run


def test_an_error_of_a_function_on_host_fields_is_not_remembered() -> None:
    scope = cel_env.Scope(cel={"host": {"v": 3}}, host={"v": 3}, s=None, v={}, p={})
    expr = cel_env.Expr("version_ge(host.v, '3.4')", "test")
    for _ in range(2):
        with pytest.raises(RuntimeError, match="version_ge"):
            expr.run(scope)
    assert scope.alone == {}
