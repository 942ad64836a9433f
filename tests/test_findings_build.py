"""How findings are built and written, held to what they were before they were made faster (issue #27)."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from conftest import FIXTURES, examples, review

SAMPLED = FIXTURES / "sampled/t5-primary-30s"


def test_an_absent_load_or_rates_is_left_out_in_every_mode_and_a_present_one_kept() -> None:
    sampled = review(SAMPLED).hosts[0]
    single = sampled.model_copy(update={"rates": None, "findings": [f.model_copy(update={"load": None})
                                                                     for f in sampled.findings]})
    assert sampled.rates is not None and any(f.load is not None for f in sampled.findings)
    for data in (sampled.model_dump(), json.loads(sampled.model_dump_json())):
        assert "rates" in data and all(("load" in d) == (f.load is not None)
                                       for d, f in zip(data["findings"], sampled.findings))
    for data in (single.model_dump(), json.loads(single.model_dump_json(indent=2))):
        assert "rates" not in data and all("load" not in d for d in data["findings"])
        # every other field is written, in the model's order
        assert list(data) == [name for name in type(single).model_fields if name != "rates"]


# --- a rule's text rendered from its parts, held to the regex substitution it replaced ---------------

def _render_by_substitution(template: str, ns: dict, word=str) -> str:
    """render as it was: each {ns.field} substituted by a regex callback, then stripped."""
    from advisor.engine.evaluate import _lookup, _show
    from advisor.engine.model import TEMPLATE

    def value(m) -> str:
        path = m.group(1) if m.group(2) is None else f"{m.group(1)}.{m.group(2)}"
        return word(_show(_lookup(ns, path)))

    return TEMPLATE.sub(value, template).strip()


_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                    st.text(max_size=8), st.lists(st.integers(), max_size=3))
_NAMES = st.sampled_from(["name", "mtu", "cores", "x_1", "Mtu"])
_PIECES = st.one_of(
    st.text(alphabet=" {}.sxphostv\t\nAZ_1#'\";", max_size=6),
    st.builds(lambda ns, name: f"{{{ns}.{name}}}", st.sampled_from(["s", "host", "p", "v", "intent", "item"]), _NAMES),
    st.sampled_from(["{s}", "{item}", "{s.}", "{s.name", "{{s.mtu}}", "{q.name}", "  "]))


@settings(max_examples=examples(500), deadline=None)
@given(pieces=st.lists(_PIECES, max_size=8),
       s=st.dictionaries(_NAMES, _VALUES, max_size=4), item=_VALUES, quote=st.booleans())
def test_a_template_renders_as_the_regex_substitution_did(pieces: list[str], s: dict, item, quote: bool) -> None:
    from advisor.engine.evaluate import render
    from advisor.shell import shell_word

    template = "".join(pieces)
    ns = {"s": s, "host": {"name": "h1", "mtu": 1500}, "p": {"mtu": 9000}, "v": {}, "intent": {}, "item": item}
    word = shell_word if quote else str
    assert render(template, ns, word) == _render_by_substitution(template, ns, word)
