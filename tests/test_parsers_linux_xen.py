"""What the Xen and Linux parsers read from each real-format variant."""

from __future__ import annotations

import pytest

from advisor.collect.identify import identify_text
from advisor.errors import ParseError
from advisor.platforms.linux.parsers import net as linux_net
from advisor.platforms.xen.parsers import xen
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


def test_vcpu_list_header_wrapped_by_a_mail_client() -> None:
    """xen-devel mails wrap the header before `Affinity ...`, `(Hard / Soft)` or `CPU Affinity`."""
    rows = "Domain-0   0     0    0   r--      29.4 all / all\nmydomu     1     0    5   r--      21.6 5 / all\n"
    for head in ("Name  ID  VCPU   CPU State Time(s) \nAffinity (Hard / Soft)\n",
                 "Name  ID  VCPU   CPU State   Time(s) Affinity\n(Hard / Soft)\n"):
        parsed = xen.parse_vcpu_list(head + rows)
        assert [(r.domain, r.hard, r.soft) for r in parsed] == [("Domain-0", "all", "all"), ("mydomu", "5", "all")]
    xm = xen.parse_vcpu_list(" Name   ID  VCPU   CPU State   Time(s)\n CPU Affinity\n vm1  1  0  2  r--  3.5 2\n")
    assert (xm[0].hard, xm[0].soft) == ("2", None)
    with pytest.raises(ParseError) as err:  # a tail alone is not a header
        xen.parse_vcpu_list("Affinity (Hard / Soft)\n" + rows)
    assert err.value.line == 1


@pytest.mark.parametrize("cut", [66, 67, 75, 76, 78, 80, 83, 85])
def test_vcpu_list_header_cut_anywhere_in_its_affinity_title(cut: int) -> None:
    """A narrow terminal cuts the 87-character xl header mid-word (`(Ha` / `rd / Soft)`)."""
    header = "Name                                ID  VCPU   CPU State   Time(s) Affinity (Hard / Soft)"
    rows = "vm1                                  1     0    3   -b-       2.0  3 / all\n"
    [v] = xen.parse_vcpu_list(f"{header[:cut]}\n{header[cut:]}\n{rows}")
    assert (v.domain, v.hard, v.soft) == ("vm1", "3", "all")


def test_vcpu_list_a_second_line_that_does_not_complete_the_header_is_a_row() -> None:
    with pytest.raises(ParseError, match="not a vcpu-list row"):
        xen.parse_vcpu_list("Name ID VCPU CPU State Time(s) Affinity (Hard / Soft)\n(Hard / Soft)\n")


def test_vcpu_list_console_lines_bad_option_and_libxl_errors() -> None:
    head = "Name  ID  VCPU   CPU State   Time(s) Affinity (Hard / Soft)\n"
    rows = xen.parse_vcpu_list(head + "(XEN) livepatch: do_domctl was called\n"
                               "Domain-0  0  0  1  -b-  67.7  all / all\n(XEN) sched: x\n"
                               "Domain-0  0  1  -  --p   0.0  all / all\n")
    assert [(r.vcpu, r.online) for r in rows] == [(0, True), (1, False)]
    xl41 = xen.parse_vcpu_list("option `j' not supported.\nName  ID  VCPU  CPU State  Time(s) CPU Affinity\n"
                               "Domain-0  0  0  0  -b-  193.1  any cpu\n")
    assert xl41[0].hard == "any cpu"
    with pytest.raises(ParseError, match="libxl error") as err:  # an incomplete listing is not read as whole
        xen.parse_vcpu_list(head.replace("Affinity (Hard / Soft)", "CPU Affinity") + "Domain-0  0  0  0  -b-  1.0  all\n"
                            "libxl: critical: libxl__calloc: libxl: FATAL ERROR: memory allocation failure\n")
    assert err.value.line == 3
    with pytest.raises(ParseError):
        xen.parse_vcpu_list(head + "Domain-0  0  0  1  -b-  67.7  all / all\nsome prose in the paste\n")


def test_info_wrapped_values_indented_or_not() -> None:
    man = xen.parse_info(" host                   : talon\n nr_cpus                : 2\n"
                         " xen_changeset          : Mon Nov 14 18:13:38 2005 +0100 \n"
                         "                          7793:090e44133d40\n"
                         " cc_compiler            : gcc version 3.4.3 (Mandrakelinux \n"
                         "                          10.2 3.4.3-7mdk)\n xend_config_format     : 3\n")
    assert man.get("xen_changeset") == "Mon Nov 14 18:13:38 2005 +0100 7793:090e44133d40"
    assert man.get("cc_compiler") == "gcc version 3.4.3 (Mandrakelinux 10.2 3.4.3-7mdk)" and man.int("nr_cpus") == 2
    mail = xen.parse_info("nr_cpus                : 4\nhw_caps                :\n"
                          "1f8bfbff:f7fa3203:2c100800:00000121:0000000f:d19f47ab:00000008:00000100\n"
                          "xen_commandline        : placeholder dom0_max_vcpus=16\n"
                          "dom0_mem=4096M,max:4096M cpuinfo com1=115200,8n1 console=com1,tty\n"
                          "loglvl=all guest_loglvl=all\ncc_compiler            : gcc (GCC) 4.8.5\n")
    assert (mail.get("hw_caps") or "").startswith("1f8bfbff:") and (mail.get("xen_commandline") or "").endswith("guest_loglvl=all")
    assert "dom0_mem=4096M,max:4096M" in (mail.get("xen_commandline") or "")
    for bad in ("nr_cpus : 4\nhw_caps :\nnot hex at all\n", "nr_cpus : 4\nvirt_caps : hvm\nloglvl=all\n"):
        with pytest.raises(ParseError) as err:  # only the values that wrap may continue unindented
            xen.parse_info(bad)
        assert err.value.line == 3


def test_xm_list_five_letter_state_and_indented_man_page() -> None:
    doms = xen.parse_list("Name     ID   Mem VCPUs State Time(s)\nDomain-0  0   1233   4  r----- 937.9\n"
                          "Domain-e64b 21   384    1  ---c-  14.3\n")
    assert [(d.domid, d.state) for d in doms] == [(0, "r-----"), (21, "---c-")]
    man = xen.parse_list("    Name   ID Mem(MiB) VCPUs State  Time(s)\n    Domain-0   0   98   1 r-----  5068.6\n")
    assert man[0].memory_mb == 98


def test_identify_indented_and_wrapped_xen_headers() -> None:
    assert identify_text("    Name      ID Mem(MiB) VCPUs State  Time(s)\n    Domain-0  0  98  1 r-----  5.6\n") == "xl-list"
    assert identify_text(" host                   : talon\n nr_cpus                : 2\n") == "xl-info"
    assert identify_text("Name  ID  VCPU   CPU State Time(s) \nAffinity (Hard / Soft)\n") == "xl-vcpu-list"
    assert identify_text(" Name  ID  VCPU   CPU State   Time(s)\n CPU Affinity\n") == "xm-vcpu-list"


def test_ethtool_k_features_the_driver_cannot_report() -> None:
    """ethtool 5/6: `Cannot get device X settings: <error>` (the feature is unknown), and
    `no offload info available` when it read none: an empty answer, not an error."""
    some = linux_net.parse_ethtool_k("Offload parameters for eth0:\n"
                                     "Cannot get device udp large send offload settings: Operation not \nsupported\n"
                                     "rx-checksumming: on\ntcp segmentation offload: on\n")
    assert set(some) == {"rx-checksumming", "tcp-segmentation-offload"}
    none = linux_net.parse_ethtool_k("Offload parameters for eth1:\n"
                                     "Cannot get device rx csum settings: Operation not supported\n"
                                     "no offload info available\n")
    assert none == {}
    with pytest.raises(ParseError) as err:
        linux_net.parse_ethtool_k("Offload parameters for eth1:\nrx-checksumming: on\nCannot\n")
    assert err.value.line == 3
    with pytest.raises(ParseError):  # a `Cannot get` line before the header is not this output
        linux_net.parse_ethtool_k("Cannot get device rx csum settings: Operation not supported\n")


def test_lspci_lines_wrapped_by_a_mail_client() -> None:
    text = ("02:00.2 Ethernet controller: Intel Corporation Ethernet Controller X710\nfor 10GbE SFP+ (rev 02)\n"
            "\tCapabilities: [a0] Express (v2) Endpoint, MSI 00\n"
            "\t\tLnkCap:\tPort #0, Speed 8GT/s, Width x8, ASPM\nL1, Exit Latency L1 <16us\n"
            "\t\tLnkSta:\tSpeed 8GT/s (ok), Width x8 (ok)\n\t\t\tTrErr- Train- SlotClk+ DLActive- BWMgmt-\nABWMgmt-\n"
            "\tKernel driver in use: i40e\n")
    (fn,) = linux_net.parse_lspci(text)
    assert fn.description == "Intel Corporation Ethernet Controller X710 for 10GbE SFP+ (rev 02)"
    assert fn.link_cap == "Port #0, Speed 8GT/s, Width x8, ASPM L1, Exit Latency L1 <16us"
    assert (fn.speed("sta"), fn.width("sta"), fn.driver) == (8.0, 8, "i40e")
    with pytest.raises(ParseError) as err:  # an unindented line after a short one is not a wrap
        linux_net.parse_lspci("02:00.0 Ethernet controller: X\n\tLnkSta:\tSpeed 5GT/s\nroot@host:~# exit\n")
    assert err.value.line == 3


def test_brctl_table_indented_by_its_page() -> None:
    text = ("  bridge name     bridge id               STP enabled     interfaces\n"
            "  docker0         8000.0242b38b3dee       no              vetha0fa6b7\n"
            "                                                          veth1\n"
            "  br0             8000.5a37b3bb1f7b       no\n")
    assert [(b.name, b.ports) for b in linux_net.parse_brctl(text)] == [("docker0", ["vetha0fa6b7", "veth1"]),
                                                                         ("br0", [])]
    with pytest.raises(ParseError) as err:  # a bridge row left of the table is not one of its rows
        linux_net.parse_brctl("  bridge name  bridge id  STP enabled  interfaces\nstray words here\n")
    assert err.value.line == 2


def test_identify_the_whole_sysctl_a() -> None:
    head = "abi.vsyscall32 = 1\ncrypto.fips_enabled = 0\nkernel.pid_max = 32768\nnet.ipv4.ip_forward = 0\n"
    assert identify_text(head) == "sysctl-net"
    assert identify_text("abi.vsyscall32 = 1\ncrypto.fips_enabled = 0\n") is None  # no net.*: not what advisor reads


def test_vcpu_list_rows_wrapped_by_a_mail_client() -> None:
    xl = xen.parse_vcpu_list("Name  ID  VCPU   CPU State   Time(s)\nAffinity (Hard / Soft)\n"
                             "Domain-0   0     0    0   r--      15.9  all /\nall\n"
                             "Domain-0   0     4    -   --p       0.0  all /\nall\n")
    assert [(r.vcpu, r.hard, r.soft, r.online, r.line) for r in xl] == [(0, "all", "all", True, 3),
                                                                         (4, "all", "all", False, 5)]
    xm = xen.parse_vcpu_list(" Name   ID  VCPU   CPU State   Time(s)\n CPU Affinity\n"
                             " vm2   2     0     3   -b-       3.0\n 2-3\n vm2   2     1     2   r--   2.6 2-3\n")
    assert [(r.vcpu, r.hard) for r in xm] == [(0, "2-3"), (1, "2-3")]
    with pytest.raises(ParseError) as err:  # a cut row with no affinity after it stays unread
        xen.parse_vcpu_list("Name ID VCPU CPU State Time(s) CPU Affinity\nvm2 2 0 3 -b- 3.0\nvm2 2 1 2 r-- 2.6 2-3\n")
    assert err.value.line == 2


def test_ethtool_c_driver_without_coalescing() -> None:
    text = "Cannot get device coalesce settings: Operation not supported\nCoalesce parameters for usb0:\n"
    assert linux_net.parse_ethtool_c(text) == {}
    with pytest.raises(ParseError):
        linux_net.parse_ethtool_c("Coalesce parameters for usb0:\n")
