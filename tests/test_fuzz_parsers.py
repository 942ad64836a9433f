"""Parsers never crash on arbitrary text: they return or raise ParseError."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.collect.capture import RawOutput
from advisor.errors import ParseError
from advisor.parsers import PARSERS, driver_conf, kstat
from conftest import FIXTURES

SAMPLES = {p.parent.name: p.read_text() for p in sorted((FIXTURES / "parsers").glob("*/*")) if p.is_file()}
COMMANDS = sorted(set(PARSERS) | {"kstat-p", "driver-nxge"})


class _Text:
    """A RawOutput stand-in that serves text from memory."""

    def __init__(self, text: str):
        self._text = text
        self.command = None
        self.file = "<fuzz>"
        self.path = Path("/nonexistent/fuzz.yaml")

    def text(self) -> str:
        return self._text

    def lines(self):
        return iter(self._text.splitlines(True))


def run_parser(command_id: str, text: str) -> None:
    try:
        if command_id == "kstat-p":
            kstat.parse(text)
        elif command_id.startswith("driver-"):
            driver_conf.parse(text)
        else:
            PARSERS[command_id](_Text(text))  # type: ignore[arg-type]
    except ParseError:
        pass


def mutate(text: str, data: st.DataObject) -> str:
    lines = text.splitlines(True)
    for _ in range(data.draw(st.integers(0, 4))):
        if not lines:
            break
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["drop", "cut", "dup", "junk", "swap"]))
        if op == "drop":
            del lines[i]
        elif op == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "junk":
            lines.insert(i, data.draw(st.text(max_size=60)) + "\n")
        else:
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("command_id", COMMANDS)
@FUZZ
@given(text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_arbitrary_text(command_id: str, text: str) -> None:
    run_parser(command_id, text)


@pytest.mark.parametrize("command_id", COMMANDS)
@FUZZ
@given(data=st.data())
def test_mutated_real_output(command_id: str, data: st.DataObject) -> None:
    base = SAMPLES.get(command_id) or SAMPLES.get(command_id.split("@")[0]) or "soft-lso-enable = 1;\n"
    run_parser(command_id, mutate(base, data))


@pytest.mark.parametrize("text", [":", "|", "VERSION 1.6\n|", "NAME STATE FLAGS\n", "\t", "a:1:b:"])
def test_known_crashers_stay_fixed(text: str) -> None:
    for command_id in COMMANDS:
        run_parser(command_id, text)


@FUZZ
@given(text=st.text(alphabet="|=:\n ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij-_0123456789", max_size=300))
def test_ldm_shaped_noise(text: str) -> None:
    for command_id in ("ldm-list-l", "ldm-list-l-p", "dladm-show-linkprop"):
        run_parser(command_id, "VERSION 1.6\n" + text if command_id == "ldm-list-l-p" else text)


def test_raw_output_reads_undecodable_bytes(tmp_path: Path) -> None:
    path = tmp_path / "kstat-p.txt"
    path.write_bytes(b"vnet:0:vnetldc0x0:dring_mode\t4\n\xff\xfe garbage\n")
    out = RawOutput("kstat-p", "kstat-p.txt", path)
    assert kstat.parse_stream(out.lines(), kstat.everything)
