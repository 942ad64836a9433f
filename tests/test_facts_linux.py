"""Facts the Linux rules read: TSO that cannot be changed, PCIe link bandwidth."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.collect.capture import Capture, RawOutput
from advisor.engine import packs
from advisor.engine.evaluate import Engine
from advisor.facts.build import build
from conftest import CAPTURES, FIXTURES

P = FIXTURES / "parsers"


def _facts(files: dict[str, Path]):
    """files: command id -> a file holding its output."""
    capture = Capture(host="host", source="test")
    for cid, path in files.items():
        capture.add(RawOutput(cid, path.name, path))
    built = build(capture)
    assert built.errors == []
    return built.facts


def _statuses(facts, rule: str) -> dict[str, str]:
    results, _findings = Engine([r for r in packs.load() if r.id == rule]).evaluate(facts)
    return {r.subject: r.status for r in results}


@pytest.mark.parametrize("sample,interface,fixed,status", [
    # ethtool 5.x (netlink): the parts carry [fixed], the tcp-segmentation-offload line does not
    ("netlink-usb-tso-parts-fixed.txt", "enx0c37961ce55a", True, "pass"),
    ("nfp-flattened-tso-parts-fixed.txt", "enp4s0np0", True, "pass"),
    # ethtool 3.x: TSO off but its parts are only off, not fixed: ethtool -K tso on can turn it on
    ("ethtool3-e1000e-requested-on.txt", "eth2", False, "fail"),
    ("ethtool3-trusty-tcp6-fixed.txt", "eth0", False, "pass"),  # on: two parts fixed, one on
    ("tabs-indented.txt", "eth2", False, "fail"),
])
def test_tso_is_fixed_when_every_tx_tcp_segmentation_part_is(sample, interface, fixed, status) -> None:
    facts = _facts({f"ethtool-k@{interface}": P / "ethtool-k" / sample})
    [iface] = facts.interfaces
    assert iface.tso_fixed is fixed
    if fixed:
        assert iface.evidence["tso_fixed"].endswith(f"{sample}:13")  # the first tx-tcp*-segmentation line
    assert _statuses(facts, "linux.tso-off") == {f"interface {interface}": status}


def test_one_part_that_can_change_leaves_tso_changeable(tmp_path: Path) -> None:
    text = (P / "ethtool-k/netlink-usb-tso-parts-fixed.txt").read_text()
    path = tmp_path / "ethtool.txt"
    path.write_text(text.replace("\ttx-tcp6-segmentation: off [fixed]", "\ttx-tcp6-segmentation: off"))
    [iface] = _facts({"ethtool-k@enx0c37961ce55a": path}).interfaces
    assert iface.tso == "off" and not iface.tso_fixed


def test_the_gateway_bundle_reports_eth2_not_eth1() -> None:
    """eth1's TSO parts are all off [fixed] (ethtool 3.x+ form): nothing to turn on."""
    folder = CAPTURES / "linux-gw-untuned"
    facts = _facts({p.stem: p for p in folder.glob("*.txt")})
    assert _statuses(facts, "linux.tso-off") == {"interface eth0": "pass", "interface eth1": "pass",
                                                 "interface eth2": "fail"}
