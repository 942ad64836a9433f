"""A host's part of the JSON report is written where it stands in the report
(json_out.Writer.part): the same text as the host serialized alone, made safe
and indented four spaces deeper, as the first version wrote it."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings, strategies as st

from advisor.report import json_out
from advisor.results.model import HostReport
from conftest import CAPTURES

_UNSAFE = {c: f"\\u{c:04x}" for c in (*range(0x80, 0xA0), 0x2028, 0x2029)}


def _first_version(h: HostReport) -> str:
    """Writer.part as first written: the host serialized alone, escaped, then indented."""
    return "\n    " + h.model_dump_json(indent=2).translate(_UNSAFE).replace("\n", "\n" + " " * 4)


@cache
def _hosts() -> tuple[HostReport, ...]:
    from advisor.collect.offline import Loader
    from advisor.engine import evaluate, packs, policy
    from advisor.pipeline import review_all

    engine = evaluate.Engine(packs.load([]), policy.load(None))
    found: list[HostReport] = []
    with Loader() as loader:
        for name in ("t5-primary-untuned", "t5-primary-tuned"):
            found += review_all(loader.load(CAPTURES / name), engine, 1, [], None)
    return tuple(found)


def test_each_captured_host_is_written_as_the_first_version_wrote_it() -> None:
    for h in _hosts():
        assert json_out.Writer().part(h) == _first_version(h)


# text from captures: blanks, quotes, backslashes, controls, C1 controls, separators, any other
# character but a lone surrogate (which neither version can write: pydantic refuses it)
_TEXT = st.text(alphabet=st.one_of(st.sampled_from(' \t\n\r"\\\x1b\x85\x9b\u2028\u2029é€'),
                                   st.characters(max_codepoint=0xD7FF), st.characters(min_codepoint=0xE000)),
                max_size=30)


@given(host=_TEXT, errors=st.lists(_TEXT, max_size=3), message=_TEXT)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_text_is_written_as_the_first_version_wrote_it(host: str, errors: list[str], message: str) -> None:
    h = _hosts()[0]
    findings = [f.model_copy(update={"message": message}) for f in h.findings[:2]]
    changed = h.model_copy(update={"host": host, "errors": errors, "findings": findings + h.findings[2:]})
    assert json_out.Writer().part(changed) == _first_version(changed)
