"""`ldm list -l` in its 1.x and 3.x human layouts and the parseable form."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.collect.capture import Capture, RawOutput
from advisor.errors import ParseError
from advisor.facts.build import build
from advisor.parsers import ldm_devices, ldm_list, ldm_parseable
from advisor.parsers.solaris_info import parse_ldm_version
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


def test_list_devices_without_its_sections_is_refused() -> None:
    with pytest.raises(ParseError, match="no CORE, VCPU or MEMORY section"):
        ldm_devices.parse("NAME STATE\nprimary active\n")
