"""The LDoms parsers reworked for speed (session 42) read every text as their
reference copies (ldm_list_reference.py) did: the same records, or the same
ParseError at the same line. Texts are real listings cut, shuffled, re-indented
and salted with ldm-shaped noise, so that every branch of the readers is met."""

from __future__ import annotations

from typing import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldm_list_reference
from advisor.errors import ParseError
from advisor.platforms.ldoms.parsers import ldm_list
from conftest import CAPTURES, FIXTURES, examples, is_sample

_LISTINGS = sorted(p for pattern in ("ldm-list/*", "ldm-list-l/*", "ldm-list-constraints/*")
                   for p in (FIXTURES / "parsers").glob(pattern) if is_sample(p))
_LISTINGS += sorted(CAPTURES.glob("*/ldm-list-l.txt"))
_LISTING_LINES = sorted({line for p in _LISTINGS for line in p.read_text().splitlines()})
# what the readers tell lines by: section names, headers, dashes, elisions, tabs, key=value
_NOISE = "ABCDEFGHIJKLMNOPRSTUVWXYZ abcdefnrstuvw0123456789-_=.%()@/\t…"

SETTINGS = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _outcome(parse: Callable[[str], object], text: str) -> object:
    try:
        return parse(text)
    except ParseError as e:
        return ("ParseError", e.message, e.line)


def _edited(line: str, data: st.DataObject) -> str:
    edit = data.draw(st.sampled_from(["keep", "keep", "keep", "cut", "indent", "unindent", "tab", "noise"]))
    if edit == "cut":
        return line[: data.draw(st.integers(0, len(line)))]
    if edit == "indent":
        return " " * data.draw(st.integers(1, 10)) + line
    if edit == "unindent":
        return line.lstrip()
    if edit == "tab":
        at = data.draw(st.integers(0, len(line)))
        return line[:at] + "\t" + line[at:]
    if edit == "noise":
        return data.draw(st.text(alphabet=_NOISE, max_size=50))
    return line


def _listing_text(data: st.DataObject) -> str:
    """A real listing with some of its lines edited, dropped, repeated or moved, or lines drawn from them all."""
    if data.draw(st.booleans()):
        lines = data.draw(st.sampled_from(_LISTINGS)).read_text().splitlines()
    else:
        lines = data.draw(st.lists(st.sampled_from(_LISTING_LINES), max_size=60))
    for _ in range(data.draw(st.integers(0, 8))):
        if not lines:
            break
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["edit", "drop", "dup", "move"]))
        if op == "edit":
            lines[i] = _edited(lines[i], data)
        elif op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        else:
            lines.insert(data.draw(st.integers(0, len(lines))), lines.pop(i))
    return "\n".join(lines)


@SETTINGS
@given(data=st.data(), domain=st.sampled_from([None, "ldg1", "primary"]))
def test_ldm_list_reads_a_listing_as_its_reference_copy(data: st.DataObject, domain: str | None) -> None:
    text = _listing_text(data)
    assert _outcome(lambda t: ldm_list.parse(t, domain), text) == \
        _outcome(lambda t: ldm_list_reference.parse(t, domain), text)


@SETTINGS
@given(text=st.text(alphabet=_NOISE + "\n", max_size=300))
def test_ldm_list_reads_noise_as_its_reference_copy(text: str) -> None:
    assert _outcome(ldm_list.parse, text) == _outcome(ldm_list_reference.parse, text)


def test_the_listings_drawn_from_hold_every_kind_of_table() -> None:
    """The property tests above are only as good as the listings they cut up."""
    text = "\n".join(_LISTING_LINES)
    for needle in ("PEER", "NAME             STATE", "VCPU", "DISK", "VSW", "CONSTRAINT", "DOMAIN"):
        assert needle in text, needle
