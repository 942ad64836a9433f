"""What the Xen and Linux parsers read from each real-format variant."""

from __future__ import annotations

from advisor.parsers import linux_net, xen
from conftest import FIXTURES

P = FIXTURES / "parsers"


def read(rel: str) -> str:
    return (P / rel).read_text()


def test_xm_vcpu_list_collapsed_whitespace_from_seed_003() -> None:
    rows = xen.parse_vcpu_list(read("xm-vcpu-list/seed003-collapsed.txt"))
    assert [(r.domain, r.vcpu, r.cpu, r.hard) for r in rows[:3]] == [
        ("18_nfs1", 0, 0, "0"), ("21_nfs2", 0, 1, "1"), ("24_vmrac1", 0, 2, "any cpu")]
    assert all(r.soft is None for r in rows)


def test_xm_vcpus_header_and_dash_state() -> None:
    rows = xen.parse_vcpu_list(read("xm-vcpu-list/xm-vcpus-header.txt"))
    assert [(r.domid, r.state, r.online) for r in rows] == [(16, "---", True), (16, "r--", True)]


def test_xl_offline_vcpus_and_long_names() -> None:
    rows = xen.parse_vcpu_list(read("xl-vcpu-list/container-hash-name.txt"))
    offline = rows[1]
    assert (offline.cpu, offline.state, offline.hard, offline.soft) == (None, "---", "0-1", "all")
    assert rows[3].domain.startswith("5527fc1b") and rows[3].domid == 18
    parked = xen.parse_vcpu_list(read("xl-vcpu-list/offline-and-long-names.txt"))[-1]
    assert (parked.domain, parked.cpu, parked.state, parked.online) == ("web1", None, "--p", False)


def test_cpu_sets() -> None:
    assert xen.cpu_set("0-3,^2", 8) == {0, 1, 3}
    assert xen.cpu_set("^0", 4) == {1, 2, 3}
    assert xen.cpu_set("all", 4) == {0, 1, 2, 3} and xen.cpu_set("any cpu", None) is None
    assert xen.cpu_set("nodes:0", 8) is None and xen.cpu_set("5", 8) == {5}


def test_xl_and_xm_info() -> None:
    info = xen.parse_info(read("xl-info/ovm34-xl.txt"))
    assert info.int("nr_cpus") == 8 and "dom0_vcpus_pin" in (info.get("xen_commandline") or "")
    assert xen.parse_info(read("xl-info/ovm33-xm.txt")).get("xen_minor") == "3"


def test_xl_list_with_tabs_and_inactive_domains() -> None:
    doms = xen.parse_list(read("xl-list/ovm34-tab-in-header.txt"))
    assert [(d.name, d.domid, d.vcpus) for d in doms][:2] == [("Domain-0", 0, 2), ("0004fb00000600003a4b8c2a6e1d3a10", 3, 2)]
    stopped = xen.parse_list(read("xl-list/inactive-without-id.txt"))[-1]
    assert (stopped.name, stopped.domid, stopped.memory_mb) == ("stopped-guest", None, 512)


def test_brctl_continuation_lines_and_empty_bridges() -> None:
    bridges = {b.name: b for b in linux_net.parse_brctl(read("brctl-show/bridge-without-ports.txt"))}
    assert bridges["xenbr1"].ports == ["eth2", "vif5.0", "vif6.0"] and bridges["virbr0"].ports == []
    assert bridges["virbr0"].stp == "yes"


def test_ip_link_both_forms_and_peer_suffixes() -> None:
    one = {lk.name: lk for lk in linux_net.parse_ip_link(read("ip-link/ip-o-link.txt"))}
    assert (one["vif5.0"].mtu, one["vif5.0"].master) == (9000, "xenbr1") and "SLAVE" in one["eth0"].flags
    two = {lk.name: lk for lk in linux_net.parse_ip_link(read("ip-link/ip-link-two-lines.txt"))}
    assert two["eth2"].mtu == 9000 and len(two) == 10
    assert [lk.name for lk in linux_net.parse_ip_link(read("ip-link/veth-peer-names.txt"))] == ["lo", "eth0"]


def test_ethtool_features_all_spellings() -> None:
    new = linux_net.parse_ethtool_k(read("ethtool-k/tabs-indented.txt"))
    assert new["tcp-segmentation-offload"].value == "off" and not new["tcp-segmentation-offload"].fixed
    assert new["tx-checksum-ipv4"].fixed
    old = linux_net.parse_ethtool_k(read("ethtool-k/old-spaced-names.txt"))
    assert old["tcp-segmentation-offload"].value == "on" and old["udp-fragmentation-offload"].value == "off"
    flat = linux_net.parse_ethtool_k(read("ethtool-k/requested-and-flattened.txt"))
    assert flat["rx-gro-hw"].requested == "on" and flat["rx-vlan-filter"].value == "n/a"
    assert flat["large-receive-offload"].fixed


def test_ethtool_coalescing() -> None:
    c = linux_net.parse_ethtool_c(read("ethtool-c/ixgbe.txt"))
    assert c["adaptive-rx"][0] == "off" and c["rx-usecs"][0] == "1" and c["tx-frames-irq"][0] == "256"


def test_sysctl_and_lspci() -> None:
    s = linux_net.parse_sysctl(read("sysctl-net/dom0.txt"))
    assert s["net.ipv4.ip_forward"][0] == "0" and s["net.ipv4.tcp_rmem"][0] == "4096\t87380\t6291456"
    fns = linux_net.parse_lspci(read("lspci-vv/dual-82599-gen1.txt"))
    eth = [f for f in fns if f.kind == "Ethernet controller"]
    assert [f.card for f in eth] == ["03:00", "03:00"]
    assert (eth[0].speed("sta"), eth[0].speed("cap"), eth[0].width("sta"), eth[0].driver) == (2.5, 5.0, 8, "ixgbe")
