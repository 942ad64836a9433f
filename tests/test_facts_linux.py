"""Facts the Linux rules read: TSO that cannot be changed, PCIe link bandwidth."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.collect.capture import Capture, RawOutput
from advisor.engine import packs
from advisor.engine.evaluate import Engine
from advisor.facts.build import build
from advisor.platforms.linux.facts import link_gbps
from advisor.platforms.linux.parsers import net as linux_net
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


@pytest.mark.parametrize("gts,lanes,gbps", [(2.5, 8, 16.0), (5.0, 4, 16.0), (5.0, 8, 32.0), (2.5, 16, 32.0),
                                            (8.0, 4, 31.51), (8.0, 2, 15.75), (16.0, 1, 15.75)])
def test_link_bandwidth_is_speed_times_width_less_line_coding(gts, lanes, gbps) -> None:
    assert link_gbps(gts, lanes) == gbps


_LINK = "{n}: {name}: <{flags}> mtu 1500 qdisc mq state {state} qlen 1000\\    link/ether 00:1b:21:00:00:0{n} brd ff:ff:ff:ff:ff:ff\n"


def _card(tmp_path: Path, lnksta: str, drivers: int = 2, carrier: tuple[bool, bool] = (True, True),
          driver_info: bool = True):
    """The dual-port card of the study at 03:00, its ports eth2 (03:00.0) and
    eth3 (03:00.1), each with link or not; ethtool -i as the X520 sample prints it."""
    text = (P / "lspci-vv/dual-82599-gen1.txt").read_text()
    text = text.replace("LnkSta:\tSpeed 2.5GT/s, Width x8,", f"LnkSta:\t{lnksta},")
    if drivers < 2:
        text = text.replace("\tKernel driver in use: ixgbe\n", "", 2 - drivers)
    files = {"lspci-vv": tmp_path / "lspci-vv.txt"}
    files["lspci-vv"].write_text(text)
    links = ""
    sample = (P / "ethtool-i/ixgbe-x520-tab-indented.txt").read_text()
    for n, (name, up) in enumerate((("eth2", carrier[0]), ("eth3", carrier[1]))):
        links += _LINK.format(n=n + 2, name=name, flags="BROADCAST,MULTICAST,UP" + (",LOWER_UP" if up else ""),
                              state="UP" if up else "DOWN").replace("<BROADCAST", "<BROADCAST" if up else "<NO-CARRIER,BROADCAST")
        if driver_info:
            files[f"ethtool-i@{name}"] = tmp_path / f"ethtool-i@{name}.txt"
            files[f"ethtool-i@{name}"].write_text(sample.replace("0000:04:00.1", f"0000:03:00.{n}"))
    files["ip-link"] = tmp_path / "ip-link.txt"
    files["ip-link"].write_text(links)
    return _facts(files)


@pytest.mark.parametrize("lnksta,status", [
    ("Speed 2.5GT/s, Width x8", "fail"),  # seed 004's PCIe 1.1 x8 card: 16 Gbit/s for 20
    ("Speed 5GT/s, Width x4 (downgraded)", "fail"),  # the same 16 Gbit/s at PCIe 2.0
    ("Speed 5GT/s (ok), Width x8 (ok)", "pass"),
    ("Speed 8GT/s, Width x4", "pass"),
    ("Speed 8GT/s, Width x2", "fail"),
    ("Speed 2.5GT/s, Width x16", "pass"),
])
def test_two_busy_ports_need_twenty_gigabits_of_link(tmp_path: Path, lnksta, status) -> None:
    facts = _card(tmp_path, lnksta)
    assert _statuses(facts, "pcie.dual-port-gen1") == {"pci 03:00": status}


def test_one_busy_port_passes_and_an_unknown_speed_is_unknown(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    assert _statuses(_card(tmp_path / "a", "Speed 5GT/s, Width x4", drivers=1), "pcie.dual-port-gen1") == {
        "pci 03:00": "pass"}
    unknown = _card(tmp_path / "b", "Speed unknown, Width x8")
    assert unknown.pci_cards[0].link_gbps is None
    assert _statuses(unknown, "pcie.dual-port-gen1") == {"pci 03:00": "unknown"}


def test_a_port_counts_when_its_link_is_up_not_when_a_driver_is_bound(tmp_path: Path) -> None:
    """A bound driver with no cable carries nothing: the study's two busy ports
    are two ports with link, found by ethtool -i's PCI address."""
    for name, kwargs, status, up in (("both", {}, "fail", 2),
                                     ("one-cable", {"carrier": (True, False)}, "pass", 1),
                                     ("no-driver-info", {"driver_info": False}, "unknown", None)):
        (tmp_path / name).mkdir()
        facts = _card(tmp_path / name, "Speed 2.5GT/s, Width x8", **kwargs)
        assert facts.pci_cards[0].functions_in_use == 2 and facts.pci_cards[0].ports_up == up, name
        assert _statuses(facts, "pcie.dual-port-gen1") == {"pci 03:00": status}, name
    both = _card(tmp_path / "both", "Speed 2.5GT/s, Width x8")
    assert both.pci_cards[0].evidence["ports_up"].split(", ")[:2] == ["ethtool-i@eth2.txt:5", "ip-link.txt:1"]


def test_a_port_given_to_a_guest_has_a_link_the_host_cannot_see() -> None:
    """vfio-pci has no interface in the host: the rule cannot say the ports are busy."""
    [card] = _facts({p.stem: p for p in (CAPTURES / "linux-82599-5gts-x4").glob("*.txt")}).pci_cards
    assert card.functions_in_use == 2 and card.ports_up is None


@pytest.mark.parametrize("sample, driver, bus", [
    ("ixgbe-x520-tab-indented.txt", "ixgbe", "0000:04:00.1"),
    ("bnx2x-pci-domain-0001.txt", "bnx2x", "0001:01:00.2"),
    ("loopback-no-driver-information.txt", None, None),
])
def test_ethtool_i_gives_the_driver_and_pci_address(sample: str, driver, bus) -> None:
    info = linux_net.parse_ethtool_i((P / "ethtool-i" / sample).read_text())
    assert (info.driver, info.bus_info) == (driver, bus)


def test_a_real_82599es_trained_at_5gts_x4() -> None:
    """A published lspci -vv (fixtures/README.md): LnkCap 5GT/s x8, LnkSta 5GT/s x4 (downgraded)."""
    [fn] = linux_net.parse_lspci((P / "lspci-vv/82599es-5gts-x4-downgraded.txt").read_text())
    assert (fn.speed("sta"), fn.width("sta"), fn.width("cap"), fn.driver, fn.link_sta_line) == (5.0, 4, 8, "vfio-pci", 30)
    [card] = _facts({p.stem: p for p in (CAPTURES / "linux-82599-5gts-x4").glob("*.txt")}).pci_cards
    assert (card.link_gts, card.link_width, card.link_gbps, card.functions_in_use) == (5.0, 4, 16.0, 2)
    assert card.evidence["link_gbps"].endswith("lspci-vv.txt:30")
