"""The LDoms parsers reworked for speed (session 42) read every text as their
reference copies (ldm_list_reference.py, ldm_devices_reference.py,
ldm_parseable_reference.py) did: the
same records, or the same ParseError at the same line. Texts are real outputs
cut, shuffled, re-indented and salted with ldm-shaped noise, so that every
branch of the readers is met."""

from __future__ import annotations

from typing import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ldm_devices_reference
import ldm_list_reference
import ldm_parseable_reference
from advisor.errors import ParseError
from advisor.platforms.ldoms.parsers import ldm_devices, ldm_list, ldm_parseable
from conftest import FIXTURES, examples, is_sample
from test_real_outputs import SAMPLES


def _texts(families: tuple[str, ...], captured: str) -> list[str]:
    """Every fixture, capture and real sample of these commands."""
    paths = sorted(p for family in families for p in (FIXTURES / "parsers" / family).glob("*") if is_sample(p))
    paths += sorted(FIXTURES.glob(f"*/*/{captured}"))
    return [p.read_text() for p in paths] + [s.body for s in SAMPLES if s.family in families]


_LISTINGS = _texts(("ldm-list", "ldm-list-l", "ldm-list-bindings", "ldm-list-constraints"), "ldm-list-l.txt")
_DEVICES = _texts(("ldm-list-devices",), "ldm-list-devices.txt")
_PARSEABLE = _texts(("ldm-list-l-p", "ldm-list-constraints-p"), "ldm-list-l-p.txt")
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


def _cut_up(texts: list[str], data: st.DataObject) -> str:
    """A real output with some of its lines edited, dropped, repeated or moved, or lines drawn from them all."""
    if data.draw(st.booleans()):
        lines = data.draw(st.sampled_from(texts)).splitlines()
    else:
        pool = sorted({line for text in texts for line in text.splitlines()})
        lines = data.draw(st.lists(st.sampled_from(pool), max_size=60))
    for _ in range(data.draw(st.integers(0, 8))):
        if not lines:
            break
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["edit", "drop", "dup", "move", "wrap"]))
        if op == "edit":
            lines[i] = _edited(lines[i], data)
        elif op == "wrap":  # a page wrapping a long line after one of its `|` (or anywhere)
            bars = [at + 1 for at, ch in enumerate(lines[i]) if ch == "|"] or [len(lines[i]) // 2]
            at = data.draw(st.sampled_from(bars))
            lines[i:i + 1] = [lines[i][:at], " " * data.draw(st.integers(0, 4)) + lines[i][at:]]
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
    text = _cut_up(_LISTINGS, data)
    assert _outcome(lambda t: ldm_list.parse(t, domain), text) == \
        _outcome(lambda t: ldm_list_reference.parse(t, domain), text)


@SETTINGS
@given(text=st.text(alphabet=_NOISE + "\n", max_size=300))
def test_ldm_list_reads_noise_as_its_reference_copy(text: str) -> None:
    assert _outcome(ldm_list.parse, text) == _outcome(ldm_list_reference.parse, text)


def _devices(text: str) -> dict[str, object]:
    return vars(ldm_devices.parse(text))


def _reference_devices(text: str) -> dict[str, object]:
    return vars(ldm_devices_reference.parse(text))  # its own Devices class: compared by its fields


@SETTINGS
@given(data=st.data())
def test_ldm_devices_reads_a_listing_as_its_reference_copy(data: st.DataObject) -> None:
    text = _cut_up(_DEVICES, data)
    assert _outcome(_devices, text) == _outcome(_reference_devices, text)


@SETTINGS
@given(text=st.text(alphabet=_NOISE + "\n|", max_size=300))
def test_ldm_devices_reads_noise_as_its_reference_copy(text: str) -> None:
    assert _outcome(_devices, text) == _outcome(_reference_devices, text)


@SETTINGS
@given(data=st.data())
def test_ldm_parseable_reads_a_listing_as_its_reference_copy(data: st.DataObject) -> None:
    text = _cut_up(_PARSEABLE, data)
    assert _outcome(ldm_parseable.parse, text) == _outcome(ldm_parseable_reference.parse, text)


@SETTINGS
@given(text=st.text(alphabet=_NOISE + "\n|", max_size=300))
def test_ldm_parseable_reads_noise_as_its_reference_copy(text: str) -> None:
    text = "VERSION 1.6\n" + text
    assert _outcome(ldm_parseable.parse, text) == _outcome(ldm_parseable_reference.parse, text)


def test_the_outputs_cut_up_hold_every_kind_of_table() -> None:
    """The property tests above are only as good as the outputs they cut up."""
    listings, devices = "\n".join(_LISTINGS), "\n".join(_DEVICES)
    for needle in ("PEER", "NAME             STATE", "VCPU", "DISK", "VSW", "CONSTRAINT", "DOMAIN"):
        assert needle in listings, needle
    for needle in ("%FREE", "BOUND", "MEMORY", "|pid=", "|pa="):
        assert needle in devices, needle
    parseable = "\n".join(_PARSEABLE)
    for needle in ("VERSION 1.", "DOMAIN|", "VSW|", "|peer=", "CORE|count=", "nvramrc"):
        assert needle in parseable, needle
