"""Facts the HP-UX rules read, from lanscan or from 11i v3's nwmgr."""

from __future__ import annotations

import shutil
from pathlib import Path

from advisor.collect.capture import Capture, RawOutput
from advisor.engine import packs
from advisor.engine.evaluate import Engine
from advisor.facts.build import build
from conftest import CAPTURES, run_cli

RX6600 = CAPTURES / "hpux-rx6600-untuned"
RX6600_V = CAPTURES / "hpux-rx6600-lanscan-v"  # its lanscan.txt holds lanscan -v with lanscan -q appended


def _facts(folder: Path):
    capture = Capture(host=folder.name, source=str(folder))
    for path in sorted(folder.glob("*.txt")):
        capture.add(RawOutput(path.stem, path.name, path))
    built = build(capture)
    assert built.errors == []
    return built.facts


def _copy(tmp_path: Path, drop: tuple[str, ...] = (), add: dict[str, str] | None = None) -> Path:
    folder = tmp_path / "host"
    shutil.copytree(RX6600, folder)
    for name in drop:
        (folder / name).unlink()
    for name, text in (add or {}).items():
        (folder / name).write_text(text)
    return folder


def test_speed_link_state_and_subsystems_from_nwmgr() -> None:
    lans = {lan.name: lan for lan in _facts(RX6600).lan_interfaces}
    assert (lans["lan0"].speed_mbps, lans["lan0"].duplex, lans["lan0"].autonegotiation) == (1000, "full", True)
    assert lans["lan0"].link_state == "Up" and lans["lan0"].interface_type == "1000Base-T"
    assert lans["lan0"].evidence["speed_mbps"].endswith("nwmgr-attrs@lan0.txt:3")
    assert lans["lan0"].driver == "iether" and lans["lan0"].evidence["driver"].endswith("lanscan-v.txt:11")
    assert lans["lan900"].members == ["lan0", "lan1"] and lans["lan901"].members == []
    assert lans["lan0"].tx_cko is None  # no attribute in the capture names checksum offload


def test_nwmgr_alone_gives_interfaces_drivers_and_aggregates(tmp_path: Path) -> None:
    """Where lanscan is gone, nwmgr lists the interfaces; APA membership is then unknown, not empty."""
    lans = {lan.name: lan for lan in _facts(_copy(tmp_path, drop=("lanscan.txt", "lanscan-v.txt"))).lan_interfaces}
    assert sorted(lans) == ["lan0", "lan1", "lan2", "lan900", "lan901"]
    assert (lans["lan2"].driver, lans["lan2"].tso_supported) == ("gelan", False)
    assert lans["lan900"].is_aggregate and lans["lan900"].members is None
    assert lans["lan0"].evidence["driver"].endswith("nwmgr.txt:2")


def test_lanscan_without_the_quiet_part_leaves_membership_unknown(tmp_path: Path) -> None:
    scan = (RX6600 / "lanscan.txt").read_text().splitlines()
    folder = _copy(tmp_path, add={"lanscan.txt": "\n".join(ln for ln in scan if not ln[:1].isdigit()) + "\n"})
    lans = {lan.name: lan for lan in _facts(folder).lan_interfaces}
    assert lans["lan900"].is_aggregate and lans["lan900"].members is None


def _tso_findings(folder: Path):
    _results, findings = Engine([r for r in packs.load() if r.id == "hpux.tso-disabled"]).evaluate(_facts(folder))
    return findings


def test_transmit_cko_off_is_named_and_turned_on_first(tmp_path: Path) -> None:
    """The attribute's display name is not confirmed (domain-facts 6): any name
    saying transmit checksum offload is read; multifragment CKO is not it."""
    attrs = ("lan0 current values:\nSpeed = 1 Gbps Full Duplex (Autonegotiation : On)\n"
             "UDP Multifragment Send CKO = On\nSend Checksum Offload = Off\nReceive Checksum Offload = On\n")
    folder = _copy(tmp_path, add={"nwmgr-attrs@lan0.txt": attrs})
    lan0 = {lan.name: lan for lan in _facts(folder).lan_interfaces}["lan0"]
    assert (lan0.tx_cko, lan0.rx_cko, lan0.cko_attribute) == (False, True, "Send Checksum Offload")
    assert lan0.evidence["tx_cko"].endswith("nwmgr-attrs@lan0.txt:4")
    by_subject = {f.subject: f for f in _tso_findings(folder)}
    finding = by_subject["interface lan0"]
    assert "transmit checksum offload is off too" in finding.message
    assert finding.remediation[0].startswith("# fill in TX_CKO_ATTRIBUTE first: nwmgr --sa -A TX_CKO_ATTRIBUTE=on -c lan0")
    # lan0 and lan1 are members of lan900: TSO waits for each to leave the aggregate, and lan0's for its CKO too
    assert finding.remediation[1].startswith("# only after checking that lan0 is out of aggregate lan900")
    assert finding.remediation[1].endswith("and its transmit checksum offload is on: nwmgr --sa -A vmtu=32160 -c lan0")
    assert [c.split(": nwmgr")[1] for c in by_subject["interface lan1"].remediation] == [" --sa -A vmtu=32160 -c lan1"]


def test_the_cko_placeholder_is_not_run_by_the_script(tmp_path: Path) -> None:
    folder = _copy(tmp_path, add={"nwmgr-attrs@lan0.txt": "lan0 current values:\nSend Checksum Offload = Off\n"})
    res = run_cli("review", str(folder), "-f", "script")
    assert res.returncode == 0, res.stderr
    assert "\n# NOT RUN: fill in TX_CKO_ATTRIBUTE first\n# nwmgr --sa -A TX_CKO_ATTRIBUTE=on -c lan0" in res.stdout
    assert res.stdout.index("TX_CKO_ATTRIBUTE=on -c lan0") < res.stdout.index("vmtu=32160 -c lan0")


def test_lanscan_txt_holding_the_v_form_gives_rows_drivers_and_members() -> None:
    lans = {lan.name: lan for lan in _facts(RX6600_V).lan_interfaces}
    assert sorted(lans) == ["lan0", "lan1", "lan2", "lan900", "lan901"]
    assert (lans["lan0"].driver, lans["lan2"].driver) == ("iether", "gelan")
    assert lans["lan0"].evidence["driver"].endswith("lanscan.txt:11")
    assert lans["lan900"].members == ["lan0", "lan1"] and lans["lan900"].evidence["members"].endswith("lanscan.txt:44")
    assert [m.name for m in lans["lan900"].members_tso_off] == ["lan0", "lan1"]


def test_lanscan_v_txt_holding_the_plain_form_still_lists_the_interfaces(tmp_path: Path) -> None:
    """Whatever the file name, the form the content shows is read."""
    plain = (RX6600 / "lanscan.txt").read_text()
    folder = _copy(tmp_path, drop=("lanscan.txt",), add={"lanscan-v.txt": plain})
    lans = {lan.name: lan for lan in _facts(folder).lan_interfaces}
    assert lans["lan900"].members == ["lan0", "lan1"] and lans["lan0"].evidence["state"].endswith("lanscan-v.txt:3")
    assert lans["lan0"].driver == "iether" and lans["lan0"].evidence["driver"].endswith("nwmgr.txt:2")


def test_lanscan_q_alone_gives_the_members_of_the_nwmgr_listing(tmp_path: Path) -> None:
    """A lanscan.txt of `lanscan -q` lines only lists no interface: nwmgr lists
    them, and the -q lines say which are in each aggregate."""
    folder = _copy(tmp_path, drop=("lanscan-v.txt",), add={"lanscan.txt": "0\n900 1 2\n901\n"})
    lans = {lan.name: lan for lan in _facts(folder).lan_interfaces}
    assert sorted(lans) == ["lan0", "lan1", "lan2", "lan900", "lan901"]
    assert lans["lan900"].members == ["lan1", "lan2"] and lans["lan900"].evidence["members"].endswith("lanscan.txt:2")
    assert lans["lan901"].members == [] and lans["lan0"].evidence["state"].endswith("nwmgr.txt:2")


def test_lanscan_iap_with_lanadmin_apa_and_mib(tmp_path: Path) -> None:
    """11i v1/v2 without lanscan's table: -iap lists the interfaces (no state, no
    driver), lanadmin -x -i gives one aggregate's ports, lanadmin -g the speed."""
    folder = tmp_path / "host"
    folder.mkdir()
    (folder / "lanscan-iap.txt").write_text("0x001A4B07F002 lan0 snap0 0\n0x001A4B07F003 lan1 snap1 1\n"
                                            "0x001A4B07F002 lan900 snap900 900\n0x000000000000 lan901 snap901 901\n")
    (folder / "lanadmin-apa@900.txt").write_text("Link Aggregate PPA # : 900\nActive Ports PPA # : 0\nPort(s) not ready : 1\n")
    (folder / "lanadmin-g@1.txt").write_text("LAN INTERFACE STATUS DISPLAY\n\nPPA Number = 1\nSpeed = 100000000\n"
                                             "Operation Status (value) = down(2)\n")
    lans = {lan.name: lan for lan in _facts(folder).lan_interfaces}
    assert (lans["lan0"].state, lans["lan0"].driver, "state" in lans["lan0"].evidence) == (None, None, False)
    assert lans["lan900"].members == ["lan0", "lan1"] and lans["lan901"].members is None  # -x -i named lan900 only
    assert lans["lan1"].aggregate == "lan900" and lans["lan900"].evidence["members"].endswith("lanadmin-apa@900.txt:1")
    assert (lans["lan1"].speed_mbps, lans["lan1"].link_state) == (100, "down")
    assert lans["lan1"].evidence["speed_mbps"].endswith("lanadmin-g@1.txt:4")


def test_nwmgr_apa_verbose_membership(tmp_path: Path) -> None:
    """`nwmgr -S apa -I 900 -v`: its Membership (a star marks a port that is down)
    gives the aggregate's ports where lanscan -q is missing."""
    attrs = "lan900 current values:\nMode = LAN_MONITOR\nMembership = 2,1*\n"
    folder = _copy(tmp_path, drop=("lanscan.txt", "lanscan-v.txt"), add={"nwmgr-attrs@lan900.txt": attrs})
    lans = {lan.name: lan for lan in _facts(folder).lan_interfaces}
    assert lans["lan900"].members == ["lan2", "lan1"] and lans["lan2"].aggregate == "lan900"
    assert lans["lan900"].evidence["members"].endswith("nwmgr-attrs@lan900.txt:3") and lans["lan901"].members is None
