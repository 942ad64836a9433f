"""Facts the Xen rules read: pinning, dom0's CPUs, bridge chains."""

from __future__ import annotations

from pathlib import Path

from advisor.collect.capture import Capture, RawOutput
from advisor.facts.build import build


def _facts(tmp_path: Path, files: dict[str, str]):
    capture = Capture(host="dom0", source=str(tmp_path))
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text)
        capture.add(RawOutput(name.rsplit(".", 1)[0], name, path))
    built = build(capture)
    assert built.errors == []
    return built.facts


HEADER = "Name                                ID  VCPU   CPU State   Time(s) Affinity (Hard / Soft)\n"


def test_parked_vcpu_does_not_share_its_pinned_cpu(tmp_path: Path) -> None:
    facts = _facts(tmp_path, {"xl-vcpu-list.txt": HEADER
                              + "Domain-0    0  0  0  r--  10.0  all / all\n"
                              + "app1        2  0  3  -b-   5.0  3 / all\n"
                              + "app1        2  1  -  --p   0.0  3 / all\n",
                              "uname-a.txt": "Linux dom0 4.14.35 #2 SMP x86_64 x86_64 x86_64 GNU/Linux\n"})
    [pcpu] = facts.pcpus
    assert pcpu.cpu == 3 and [(r.domain, r.vcpu) for r in pcpu.pinned_guest_vcpus] == [("app1", 0)]
    assert facts.xen_dom0_pinned == []  # dom0 runs anywhere: nothing to overlap


def test_exclusions_and_dom0_vcpus_pin(tmp_path: Path) -> None:
    facts = _facts(tmp_path, {
        "xl-info.txt": "host : dom0\nnr_cpus : 8\nxen_commandline : dom0_mem=2G dom0_vcpus_pin dom0_max_vcpus=2\n",
        "xl-vcpu-list.txt": HEADER + "Domain-0  0  0  0  r--  1.0  0 / all\nDomain-0  0  1  1  -b-  1.0  1 / all\n"
                            + "db        4  0  5  -b-  2.0  0-7,^2-4 / all\n",
        "uname-a.txt": "Linux dom0 4.14.35 #2 SMP x86_64 x86_64 x86_64 GNU/Linux\n"})
    [guest] = facts.xen_guest_vcpus
    assert guest.hard_cpus == [0, 1, 5, 6, 7] and guest.pinned_cpu is None
    assert facts.xen_dom0_pinned == [0, 1] and guest.overlaps_dom0 == [0, 1]


def _storage_findings():
    from conftest import CAPTURES, POLICIES, review

    [host] = review(CAPTURES / "ovm-dom0-untuned", policy=POLICIES / "xen-storage.yaml").hosts
    return {f.rule: f for f in host.findings if f.rule in ("xen.mtu-chain", "xen.jumbo-storage")}


def test_uplink_first_with_the_switch_check_then_vifs_then_the_bridge() -> None:
    """Raising the uplink's MTU depends on the external switch, which advisor cannot see."""
    for rule, finding in _storage_findings().items():
        steps = [c[c.index("ip link"):].split("   #")[0] for c in finding.remediation]  # past any "# only after ...:"
        assert steps == ["ip link set dev eth2 mtu 9000", "ip link set dev vif5.0 mtu 9000",
                         "ip link set dev vif6.0 mtu 9000", "ip link set dev xenbr1 mtu 9000"], rule
        assert "external switch port of eth2 and every hop" in finding.remediation[0], rule
        assert "(advisor cannot see the switch)" in finding.remediation[0], rule
        assert all("switch port" not in c for c in finding.remediation[1:]), rule


def test_jumbo_storage_quotes_the_seed_udp_baseline_as_udp() -> None:
    """Seed 003's ~1.9 Gbit/s at MTU 1500 was an iperf UDP run; only the 6.27 Gbit/s was TCP."""
    effect = _storage_findings()["xen.jumbo-storage"].effect
    assert "6.27 Gbit/s" in effect and "UDP" in effect and "1.85" in effect
    assert "TCP from 1.9" not in effect


def test_an_oracle_vm_server_dom0_is_recognised_as_a_xen_dom0_not_plain_linux() -> None:
    from conftest import CAPTURES, review

    [ovm] = review(CAPTURES / "ovm-dom0-untuned").hosts
    assert ovm.detected.os == "Oracle VM Server 3.4.7" and ovm.detected.arch == "x86_64"
    assert ovm.detected.domain_roles == ["xen dom0 (Xen 4.4.4OVM, xl)"]
    [old] = review(CAPTURES / "ovm-dom0-tuned").hosts
    assert old.detected.domain_roles == ["xen dom0 (xm)"]
    [plain] = review(CAPTURES / "linux-gw-untuned").hosts
    assert plain.detected.os == "Oracle Linux Server 9.4" and plain.detected.domain_roles is None
