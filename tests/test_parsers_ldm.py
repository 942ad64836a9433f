"""`ldm list -l` in its 1.x and 3.x human layouts and the parseable form."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from hypothesis import given, settings, strategies as st

from advisor.collect.capture import Capture, RawOutput
from advisor.errors import ParseError
from advisor.facts.build import build
from advisor.parsers.text import parse_size
from advisor.platforms.ldoms.parsers import ldm_devices, ldm_list, ldm_parseable
from advisor.platforms.ldoms.parsers.info import parse_ldm_version
from conftest import CAPTURES, FIXTURES

REAL = Path(__file__).parent / "real"

LDM = FIXTURES / "parsers/ldm-list-l"


def test_ldm_12_doc_layout_reads_vsw_without_mtu_columns() -> None:
    listing = ldm_list.parse((LDM / "ldm12-list-e-doc.txt").read_text())
    [primary] = listing.domains
    assert primary.name == "primary" and primary.ncpu == 1 and primary.memory_bytes == 768 << 20
    assert {"control", "vio-service", "transition"} <= primary.flags
    assert [(v.get("name"), v.get("net-dev"), v.get("mode")) for v in primary.vsws] == [
        ("vsw0", "e1000g0", "prog,promisc"), ("vsw1", None, "routed")]
    assert [r.get("volume") for r in primary.vds] == ["myvol-a", "myvol-b", "myvol-c", "myvol-d"]
    assert primary.vcpus[0].get("pid") == "0"


def test_long_names_push_columns_right_and_are_still_read() -> None:
    listing = ldm_list.parse((LDM / "ldm34-long-names.txt").read_text())
    primary, db = listing.domains
    [vsw] = primary.vsws
    assert (vsw.get("name"), vsw.get("net-dev"), vsw.get("mtu"), vsw.get("inter-vnet-link")) == (
        "backup-network-vsw-10g", "aggr0", "9000", "on")
    assert db.name == "oracle-db-production-01" and db.ncpu == 24 and db.memory_bytes == 64 << 30
    [vnet] = db.vnets
    assert (vnet.get("service"), vnet.get("mtu")) == ("backup-network-vsw-10g@primary", "9000")
    assert [p.get("peer") for p in vnet.peers] == ["backup-network-vsw-10g@primary"]
    assert "whole-core" in primary.constraint


def test_parseable_form_with_multiline_nvramrc() -> None:
    listing = ldm_parseable.parse((FIXTURES / "parsers/ldm-list-l-p/ldm16-nvramrc.txt").read_text())
    assert listing.format_version == "1.6"
    primary, ldg1 = listing.domains
    assert primary.flags == {"normal", "control", "vio-service"}
    assert primary.control["extended-mapin-space"].get("extended-mapin-space") == "on"
    assert [p.get("peer") for p in primary.vsws[0].peers] == ["vnet0@ldg1"]
    assert ldg1.vnets[0].get("mode") == "hybrid" and len(ldg1.vcpus) == 8


def _facts(tmp_path: Path, listing_file: Path, name: str):
    bundle = tmp_path / name
    bundle.mkdir()
    for f in (CAPTURES / "t5-primary-tuned").iterdir():
        if not f.name.startswith("ldm-list"):
            (bundle / f.name).write_bytes(f.read_bytes())
    (bundle / name).write_bytes(listing_file.read_bytes())
    capture = Capture(host="t5", source=str(bundle))
    for f in bundle.iterdir():
        from advisor.collect.commands import command_id_for_name
        capture.add(RawOutput(command_id_for_name(f.name), f.name, f))
    built = build(capture)
    assert built.errors == []
    return built.facts


def _strip(models) -> list[dict]:
    return [m.dump(exclude={"evidence"}) for m in models]


def test_human_and_parseable_forms_give_identical_facts(tmp_path: Path) -> None:
    human = _facts(tmp_path, LDM / "ldm3x-tuned-human.txt", "ldm-list-l.txt")
    parseable = _facts(tmp_path, CAPTURES / "t5-primary-tuned/ldm-list-l-p.txt", "ldm-list-l-p.txt")
    assert human.domains and len(human.domains) == 4
    assert _strip(human.domains) == _strip(parseable.domains)
    assert _strip(human.vswitches) == _strip(parseable.vswitches)
    assert _strip(human.vnets) == _strip(parseable.vnets)


def test_ldm_version_singular_and_plural_manager() -> None:
    assert parse_ldm_version((FIXTURES / "parsers/ldm-version/ldm12-doc.txt").read_text()).version.value == "1.2"
    v = parse_ldm_version((FIXTURES / "parsers/ldm-version/ldm34.txt").read_text())
    assert v.version.value == "3.4.0.3.6" and v.version.line == 2


def test_a_vsw_section_in_a_layout_not_known_is_refused_not_read_as_empty() -> None:
    """The current Oracle VM Server for SPARC guide prints a switch as a row plus
    `KEY :value` lines (tests/real/ldm-list-bindings/...-o-network-primary-cut.txt).
    Read as no switch at all, every vsw rule would pass by omission."""
    sample = (REAL / "ldm-list-bindings" / "oracle-ovmsparc-admin-devid-list-bindings-e-o-network-primary-cut.txt")
    vsw = sample.read_text().split("\n---\n", 1)[1].split("\n", 1)[1]  # without its prompt line
    head = ("NAME             STATE      FLAGS   CONS    VCPU  MEMORY   UTIL  NORM  UPTIME\n"
            "primary          active     -n-cv-  UART    16    16G      0.2%  0.2%  1d 2h\n\n")
    # as the page shows it (its DEVICE line flush left), and with DEVICE indented like the lines below it
    for text in (head + vsw, head + vsw.replace("\nDEVICE ", "\n            DEVICE ")):
        with pytest.raises(ParseError):
            ldm_list.parse(text)
    with pytest.raises(ParseError, match=r"VSW of domain primary is in a layout advisor does not read "
                                         r"\('NAME MACADDRESS NET-DEV DVID\|PVID\|VIDs'\)") as err:
        ldm_list.parse(head + vsw.replace("\nDEVICE ", "\n            DEVICE "))
    assert err.value.line == 5


def _plain_is_header(text: str) -> bool:
    """ldm_list's header test as first written: each word matched on its own."""
    import re

    tokens = text.split()
    return bool(tokens) and "=" not in text and all(re.match(r"^[A-Z][A-Z0-9()_/-]*$", t) for t in tokens)


@settings(max_examples=500, deadline=None)
@given(text=st.one_of(
    st.text(alphabet="AZ09()_/-=%a \t\u00a0\x1c\n", max_size=30),
    st.lists(st.sampled_from(["NAME", "NET-DEV", "PVID", "VID(S)", "A/B", "0", "%FREE", "a", "=", "NAME="]),
             max_size=6).map(" ".join).map(lambda s: "    " + s)))
def test_a_table_header_is_told_as_word_by_word(text: str) -> None:
    assert ldm_list._is_header(text) == _plain_is_header(text)


def _published(name: str) -> str:
    return (REAL / "ldm-list-devices" / name).read_text().split("\n---\n", 1)[1]


def test_list_devices_counts_free_whole_cores_and_unbound_memory() -> None:
    annotated = ldm_devices.parse(_published("unidentified-react-ldoms-page-ls-devices-a-annotated.txt"))
    # three cores at 100 %FREE; the 28G row is unbound (the author's "----Free Memory" note is not a domain)
    assert (annotated.free_cores, annotated.free_memory_bytes, annotated.free_vcpus) == (3, 28 << 30, 24)
    bound = ldm_devices.parse(_published("unidentified-react-ldoms-page-list-devices-a-all-bound.txt"))
    assert (bound.free_cores, bound.free_memory_bytes) == (0, 0)
    free_only = ldm_devices.parse(_published("oracle-ldoms13-admin-list-available-memory.txt"))  # no BOUND column
    assert (free_only.free_cores, free_only.free_memory_bytes) == (None, 2848 << 20)
    parseable = ldm_devices.parse(_published("unidentified-ldom-discovery-docstring-list-devices-a-p-memory-v16.txt"))
    assert parseable.free_memory_bytes == 0 and parseable.memory_line == 3
    vcpus = ldm_devices.parse(_published("oracle-ldoms13-admin-pm-list-devices-a-p-cpu-cut.txt"))
    assert (vcpus.free_cores, vcpus.free_vcpus) == (None, 3)  # 1.x lists vCPUs only: whole cores unknown
    assert ldm_devices.parse("VERSION 1.6\nMEMORY\n|pa=0x0|size=268435456|bound=\n").free_memory_bytes == 256 << 20


def _plain_list_devices(text: str) -> ldm_devices.Devices:
    """ldm_devices.parse as first written (a regex on every line, the columns looked up on every row),
    to compare the faster one with."""
    import re

    devices = ldm_devices.Devices(None, None)
    section, header = None, None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if m := re.match(r"^\s*([A-Z][A-Z0-9_]*)\s*$", line):
            section, header = m.group(1), None
            continue
        if not stripped:
            if header is not None:
                section, header = None, None
            continue
        if section is None:
            continue
        if stripped.startswith("|"):
            fields = dict(f.split("=", 1) for f in stripped.split("|") if "=" in f)
            ldm_devices._parseable_row(devices, section, fields, number)
        elif header is None:
            header = stripped.split()
        else:
            cells = stripped.split()
            if section == "CORE" and "%FREE" in header and len(cells) > header.index("%FREE"):
                ldm_devices._add_core(devices, cells[header.index("%FREE")], number)
            elif section == "VCPU" and "%FREE" in header and len(cells) > header.index("%FREE"):
                ldm_devices._add_vcpu(devices, cells[header.index("%FREE")])
            elif section == "MEMORY" and "SIZE" in header and len(cells) > header.index("SIZE"):
                at = header.index("BOUND") if "BOUND" in header else None
                bound = cells[at] if at is not None and len(cells) > at and ldm_devices._NAME.match(cells[at]) else None
                ldm_devices._add_memory(devices, parse_size(cells[header.index("SIZE")]), bound, number)
    if devices.free_cores is None and devices.free_memory_bytes is None and devices.free_vcpus is None:
        raise ParseError("no CORE, VCPU or MEMORY section of ldm list-devices")
    return devices


_DEVICES_SECTION = st.sampled_from(["CORE", "VCPU", "MEMORY", "IO", "  CORE  ", "\tMEMORY", "CORE2", "Core", "ÉTAT",
                                    "VERSION 1.6", "NAME STATE", ""])
_DEVICES_HEADER = st.sampled_from(["    ID      %FREE   CPUSET", "    PID     %FREE   PM", "    PA    SIZE    BOUND",
                                   "    PA SIZE", "BOUND SIZE PA", "%FREE ID SIZE BOUND", "", "|pid=8|free=100|pm="])
_DEVICES_ROW = st.one_of(
    st.sampled_from(["    0       100     (0, 1, 2, 3)", "    1 0", "  5  50", "    0x0     512K    _sys_", "0x0 8G",
                     "0x0 8G primary", "0x0 1G ----Free", "0x0 zz", "primary 0x0 2G", "", "   ", "\u00a0",
                     "|pid=8|free=100|pm=", "|pa=0x0|size=268435456|bound=", "|pa=0|size=9|bound=ldg1", "|free=0"]),
    st.text(alphabet="CORE %FREIDSZ019|=x\t", max_size=12))


@settings(max_examples=400, deadline=None)
@given(blocks=st.lists(st.tuples(_DEVICES_SECTION, _DEVICES_HEADER, st.lists(_DEVICES_ROW, max_size=5)), max_size=5),
       end=st.sampled_from(["", "\n", "\r\n"]))
def test_list_devices_reads_as_its_plain_version_did(blocks: list[tuple[str, str, list[str]]], end: str) -> None:
    text = "\n".join(line for section, header, rows in blocks for line in (section, header, *rows)) + end

    def outcome(parse: Callable[[str], ldm_devices.Devices]) -> object:
        try:
            return parse(text)
        except ParseError as exc:
            return ("error", str(exc), exc.line)

    assert outcome(ldm_devices.parse) == outcome(_plain_list_devices)


def test_list_devices_without_its_sections_is_refused() -> None:
    with pytest.raises(ParseError, match="no CORE, VCPU or MEMORY section"):
        ldm_devices.parse("NAME STATE\nprimary active\n")


def _body(family: str, name: str) -> str:
    return (REAL / family / name).read_text().split("\n---\n", 1)[1]


def _pasted_facts(tmp_path: Path, text: str):
    from advisor.collect.offline import Loader

    pasted = tmp_path / "session.txt"
    pasted.write_text(text)
    with Loader() as loader:
        [capture] = loader.load(pasted)
        built = build(capture)
    assert built.errors == []
    return built.facts


def test_short_ldm_list_gives_domains_and_leaves_vsw_vnet_io_unknown() -> None:
    listing = ldm_list.parse(_body("ldm-list", "unidentified-docx-table-script-long-names.txt"))
    assert listing.form == "short" and len(listing.domains) == 12
    primary, app = listing.domains[:2]
    assert (primary.name, primary.ncpu, primary.memory_bytes) == ("primary", 16, 32 << 30)
    assert {"control", "vio-service"} <= primary.flags
    assert (app.name, app.state, app.ncpu, app.memory_bytes) == ("DR-PRD02-CBSAPP01", "active", 16, 64 << 30)
    assert not app.knows("VSW") and not app.knows("IO")
    old = ldm_list.parse(_body("ldm-list", "built-ldoms12-short-list-t-cv.txt").split("\n", 1)[1])
    assert old.domains[0].flags == {"transition", "control", "vio-service"} and old.domains[1].state == "bound"


def test_an_excerpt_starting_at_its_network_section_is_read_for_the_domain_its_command_names() -> None:
    text = _body("ldm-list-bindings", "oracle-ldoms13-admin-devid-ldg1-network-elided.txt").split("\n", 1)[1]
    [ldg1] = ldm_list.parse(text, "ldg1").domains
    assert [v.get("name") for v in ldg1.vnets] == ["vnet", "vnet1"] and ldg1.vnets[1].get("mtu") == "1500"
    assert not ldg1.complete and not ldg1.knows("VSW") and not ldg1.knows("NETWORK")  # rows elided
    with pytest.raises(ParseError, match="which domain it shows is not known"):
        ldm_list.parse(text)


def test_list_constraints_and_list_io_fill_what_the_short_list_leaves_unknown(tmp_path: Path) -> None:
    short = _body("ldm-list", "built-ldoms12-short-list-t-cv.txt")
    constraints = _body("ldm-list-constraints", "built-ovmsparc3x-list-constraints-whole-core.txt")
    io = _body("ldm-list-io", "fujitsu-m12-service-manual-9-3-4-release-root-complex-cut.txt")
    facts = _pasted_facts(tmp_path, short + "\n" + constraints + "\n" + io)
    primary, ldg1 = facts.domains
    assert (ldg1.whole_core_constraint, ldg1.max_cores, ldg1.memory_gb) == (True, "2", 0.5)  # the listing's 512M
    assert ldg1.evidence["whole_core_constraint"].endswith("session.txt@2:13")  # the CONSTRAINT line
    assert primary.io_devices == ["PCIE0", "PCIE1", "PCIE2", "PCIE3", "PCIE4", "PCIE5"] and primary.is_io
    assert (ldg1.io_devices, ldg1.is_io, ldg1.is_guest) == ([], False, True)  # list-io names every owner
    assert ldg1.vnet_names == ["vnet0"] and primary.vsw_names is None
    assert facts.vswitches is None  # no output shows a vsw section: vsw rules stay unknown


def test_list_constraints_p_reads_counts_and_the_whole_core_constraint() -> None:
    text = _body("ldm-list-constraints-p", "built-ovmsparc3x-list-constraints-p.txt").split("\n", 1)[1]
    [ldg1] = ldm_parseable.parse_constraints(text).domains
    assert (ldg1.core_count, ldg1.memory_bytes, ldg1.vcpus) == (2, 16 << 30, [])
    assert ldg1.constraint["cpu"].get("cpu") == "whole-core" and not ldg1.complete
