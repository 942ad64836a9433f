"""Parsers never crash on arbitrary text: they return or raise ParseError."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.collect.capture import RawOutput
from advisor.errors import ParseError
from advisor.parsers import parsers
from advisor.platforms.solaris.parsers import driver_conf, kstat
from conftest import FIXTURES, examples, is_sample

SAMPLES = {p.parent.name: p.read_text() for p in sorted((FIXTURES / "parsers").glob("*/*")) if is_sample(p)}
PARSERS = parsers()
COMMANDS = sorted((set(PARSERS) - {"driver-{name}"}) | {"kstat-p", "driver-nxge"})


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


FUZZ = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("command_id", COMMANDS)
@FUZZ
@given(text=st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400))
def test_arbitrary_text(command_id: str, text: str) -> None:
    run_parser(command_id, text)


@pytest.mark.slow  # a fuzz audit: the full run, not the fast tier
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


# The parsers reworked for TSO parts (ethtool -k), PCIe link width (lspci -vv)
# and any lanscan form in either lanscan file: every real sample of theirs is
# mutated, and text shaped like their input is thrown at them and at the facts
# built from it.
REWORKED = ("ethtool-k", "lspci-vv", "lanscan", "lanscan-v")
REWORKED_SAMPLES = sorted(p for c in REWORKED for p in (FIXTURES / "parsers" / c).glob("*") if is_sample(p))
FEW = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _facts_from(command_id: str, text: str) -> None:
    """Parse, then build facts as the pipeline does; a ParseError is an accepted outcome."""
    from advisor.platforms.hpux import facts as hpux_facts
    from advisor.platforms.linux import facts as linux_facts
    from advisor.facts.models import host_record

    try:
        parsed = PARSERS[command_id.split("@")[0]](_Text(text))  # type: ignore[arg-type]
    except ParseError:
        return
    hpux = command_id.startswith("lanscan")
    facts = host_record("hpux" if hpux else "linux")(host="fuzz")
    files = {command_id: "<fuzz>", "nwmgr": "<fuzz>"}
    (hpux_facts if hpux else linux_facts).build(facts, {command_id: parsed}, files)


@pytest.mark.slow  # a fuzz audit: the full run, not the fast tier
@pytest.mark.parametrize("path", REWORKED_SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
@FEW
@given(data=st.data())
def test_every_sample_of_the_reworked_parsers_mutated(path: Path, data: st.DataObject) -> None:
    command_id = path.parent.name
    text = mutate(path.read_text(), data)
    others = ("lanscan", "lanscan-v") if command_id.startswith("lanscan") else (command_id,)
    for cid in others:  # a lanscan file may hold any lanscan form
        _facts_from(f"{cid}@eth0" if cid == "ethtool-k" else cid, text)


_LANSCAN_LINES = st.sampled_from([
    "-" * 79, "Hardware Station        Crd Hdw   Net-Interface  NM  MAC       HP-DLPI DLPI",
    "Path     Address        In# State NamePPA        ID  Type      Support Mjr#",
    "0/0/1/1/0/6/0 0x001A4B06E5A8 0   UP    lan0 snap0     1   ETHER     Yes     119",
    "LinkAgg0 0x001A4B06E5A8 900 UP    lan900 snap900 5   ETHER     Yes     119",
    "Extended Station                           LLC Encapsulation", "Address                                    Methods",
    "0x001A4B06E5A8                             IEEE HPEXTIEEE SNAP ETHER NOVELL", "Driver Specific Information",
    "iether0", "btlan3", "900 0 1", "900 900", "2", "", "...",
])


@FUZZ
@given(lines=st.lists(st.one_of(_LANSCAN_LINES, st.text(max_size=30)), max_size=40))
def test_lanscan_shaped_noise(lines: list[str]) -> None:
    for command_id in ("lanscan", "lanscan-v"):
        _facts_from(command_id, "\n".join(lines) + "\n")


_FEATURE = st.builds(lambda indent, name, value, note: f"{indent}{name}: {value}{note}",
                     st.sampled_from(["", "\t", "    "]),
                     st.sampled_from(["tcp-segmentation-offload", "tx-tcp-segmentation", "tx-tcp6-segmentation",
                                      "tx-tcp-ecn-segmentation", "tx-tcp-mangleid-segmentation",
                                      "large-receive-offload", "tcp segmentation offload", "tx-tcp-"]),
                     st.sampled_from(["on", "off", "n/a", "OFF", "maybe"]),
                     st.sampled_from(["", " [fixed]", " [requested on]", " [requested off]", " [", " []"]))


@FUZZ
@given(lines=st.lists(st.one_of(_FEATURE, st.text(max_size=30)), max_size=30))
def test_ethtool_feature_shaped_noise(lines: list[str]) -> None:
    _facts_from("ethtool-k@eth0", "Features for eth0:\n" + "\n".join(lines) + "\n")


_LNK = st.builds(lambda tag, speed, width: f"\t\t{tag}\tSpeed {speed}, Width {width}",
                 st.sampled_from(["LnkSta:", "LnkCap:\tPort #0,"]),
                 st.sampled_from(["2.5GT/s", "5GT/s (ok)", "8GT/s (downgraded)", "unknown", "1.2.3GT/s", ".GT/s",
                                  "0GT/s", "99999999999999999999GT/s", "2.5Gb/s"]),
                 st.sampled_from(["x8", "x4 (downgraded)", "x0", "x", "x99999999999999999999", "8"]))


@FUZZ
@given(blocks=st.lists(st.tuples(st.sampled_from(["03:00.0", "03:00.1", "0000:81:00.0", "04:00.0"]),
                                 st.lists(st.one_of(_LNK, st.just("\tKernel driver in use: ixgbe"),
                                                    st.text(max_size=20).map(lambda t: "\t" + t)), max_size=5)),
                       max_size=4))
def test_lspci_link_shaped_noise(blocks) -> None:
    text = "".join(f"{addr} Ethernet controller: Intel Corporation 82599ES 10-Gigabit SFI/SFP+\n"
                   + "".join(f"{ln}\n" for ln in lines) for addr, lines in blocks)
    _facts_from("lspci-vv", text)


@settings(max_examples=examples(300), deadline=None)
@given(text=st.text(alphabet=st.sampled_from("ab \t\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"), max_size=60))
def test_lines_one_at_a_time_are_the_lines_of_numbered(text: str) -> None:
    """each_line (for large outputs) and numbered (splitlines) must number the same lines."""
    from advisor.parsers.text import each_line, numbered

    assert list(each_line(text)) == numbered(text)
