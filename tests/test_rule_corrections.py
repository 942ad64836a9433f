"""Rules right on the hosts they judge: each case is a variant of a bundled
capture that a rule misjudged (a finding on a healthy setup, or none on a
broken one), with what it must say now."""

from __future__ import annotations

import re

import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from advisor.engine import packs
from advisor.engine.model import Rule
from advisor.results.model import Severity
from conftest import CAPTURES, POLICIES, review, run_cli

TUNED = CAPTURES / "t5-primary-tuned"
UNTUNED = CAPTURES / "t5-primary-untuned"


def _variant(tmp_path: Path, bundle: Path, edits: dict[str, list[tuple[str, str]]]) -> Path:
    out = tmp_path / bundle.name
    shutil.copytree(bundle, out)
    for name, pairs in edits.items():
        path = out / name
        text = path.read_text() if path.exists() else ""
        for old, new in pairs:
            assert old in text, (name, old)
            text = text.replace(old, new, 1)
        path.write_text(text)
    return out


# the untuned capture brought to the LSO software levels: ldm 3.1, Solaris 11.1 SRU 9
LSO_LEVELS = {"ldm-version.txt": [("3.0.0.2", "3.1.0.0.24")],
              "pkg-entire.txt": [("11.1.4.5.0", "11.1.9.5.0"), ("11.1.4.5.0", "11.1.9.5.0"),
                                 ("0.175.1.4.0.5.0", "0.175.1.9.0.5.0"), ("0.175.1.4.0.5.0", "0.175.1.9.0.5.0")]}


def _host(bundle: Path, policy: Path | None = None):
    [host] = review(bundle, policy=policy).hosts
    assert host.errors == []
    return host


def _results(host, rule: str) -> dict[str, str]:
    return {r.subject: r.status for r in host.results if r.rule == rule}


def _finding(host, rule: str, subject: str):
    return next(f for f in host.findings if f.rule == rule and f.subject == subject)


def _commands(host) -> list[str]:
    return [s.command for p in host.plan.phases for s in p.steps if s.run]


def _planned(host) -> dict[str, str | None]:
    """Every step of the plan, run or held, with its note: the tuned capture has
    no `ldm list-devices`, so steps that grow a domain wait for that check."""
    return {s.command: s.note for p in host.plan.phases for s in p.steps}


def test_service_cores_count_data_ports_only(tmp_path: Path) -> None:
    """The SP's usbecm link and unused ports are not 10 GbE bandwidth: the tuned
    control domain (4 cores, 2 ports at 10 GbE) still passes."""
    bundle = _variant(tmp_path, TUNED, {"dladm-show-phys.txt": [(
        "net5              Ethernet             up         0      unknown   vsw1",
        "net5              Ethernet             up         0      unknown   vsw1\n"
        "net6              Ethernet             up         10     full      usbecm0")]})
    host = _host(bundle)
    assert _results(host, "ldoms.service-cores")["domain primary"] == "pass"
    assert _results(host, "ldoms.service-memory")["domain primary"] == "pass"


def test_service_cores_count_an_owned_port_that_is_up(tmp_path: Path) -> None:
    bundle = _variant(tmp_path, TUNED, {"dladm-show-phys.txt": [(
        "net2              Ethernet             unknown    0      unknown   ixgbe2",
        "net2              Ethernet             up         10000  full      ixgbe2")]})
    host = _host(bundle)
    finding = _finding(host, "ldoms.service-cores", "domain primary")
    assert finding.severity.value == "medium" and "3 10 GbE data port(s) with 4 whole cores" in finding.message
    assert "`ldm list-devices core` shows at least 2 free whole cores" in _planned(host)["ldm set-core 6 primary"]


def test_guest_cores_count_links_not_vnets(tmp_path: Path) -> None:
    """Two vnets on one switch reach one 10 GbE link: 2 cores are enough."""
    bundle = _variant(tmp_path, TUNED, {"ldm-list-l-p.txt": [(
        "VNET|name=vnet0|dev=network@0|service=primary-vsw0@primary|mac-addr=00:14:4f:f9:c0:a4|mode=|pvid=1|vid=|mtu=1500|linkprop=|id=0\n",
        "VNET|name=vnet0|dev=network@0|service=primary-vsw0@primary|mac-addr=00:14:4f:f9:c0:a4|mode=|pvid=1|vid=|mtu=1500|linkprop=|id=0\n"
        "VNET|name=vnet9|dev=network@9|service=primary-vsw0@primary|mac-addr=00:14:4f:f9:c0:a9|mode=|pvid=1|vid=|mtu=1500|linkprop=|id=9\n")]})
    host = _host(bundle)
    assert _results(host, "ldoms.guest-cores")["domain ldg1"] == "pass"
    assert _results(host, "ldoms.guest-memory")["domain ldg1"] == "pass"


def test_a_domain_with_a_vf_and_vnets_is_judged_by_the_vnet_rules(tmp_path: Path) -> None:
    bundle = _variant(tmp_path, TUNED, {"ldm-list-l-p.txt": [
        ("DOMAIN|name=db1|state=active|flags=normal|cons=5002|ncpu=16|mem=17179869184|util=0.4|uptime=1040460|norm_util=0.4\n"
         "CONTROL|failure-policy=ignore|extended-mapin-space=on",
         "DOMAIN|name=db1|state=active|flags=normal|cons=5002|ncpu=16|mem=2147483648|util=0.4|uptime=1040460|norm_util=0.4\n"
         "CONTROL|failure-policy=ignore|extended-mapin-space=off"),
        ("VDISK|name=db1-root",
         "VNET|name=vnet0|dev=network@0|service=primary-vsw1@primary|mac-addr=00:14:4f:f8:71:0e|mode=|pvid=1|vid=|mtu=1500|linkprop=|id=0\n"
         "VDISK|name=db1-root")]})
    host = _host(bundle)
    assert _results(host, "ldoms.extended-mapin-space")["domain db1"] == "fail"
    assert _results(host, "ldoms.guest-memory")["domain db1"] == "fail"
    assert _results(host, "ldoms.guest-cores")["domain db1"] == "pass"


def test_dring_mode_names_the_peer_when_the_control_domain_is_ready(tmp_path: Path) -> None:
    bundle = _variant(tmp_path, TUNED, {"kstat-p.txt": [("vsw:1:vswldc0x6:dring_mode\t4", "vsw:1:vswldc0x6:dring_mode\t1")]})
    host = _host(bundle)
    finding = _finding(host, "ldoms.dring-mode", "ldc vsw:1:vswldc0x6")
    assert "primary is ready, so the other end is at fault: ldg2" in finding.message
    assert [c.command for c in host.plan.checks] == [
        "ldm list -l ldg2 | grep extended-mapin   # on the control domain: the other end must be on too"]
    assert any("in ldg2" in p.command for p in host.plan.prerequisites)
    assert not any(c.startswith("ldm set-domain") for c in _commands(host))


def test_dring_mode_on_solaris_10_is_fixed_by_the_patch_not_pkg() -> None:
    host = _host(CAPTURES / "s10-guest-untuned")
    prereq = [p.command for p in host.plan.prerequisites]
    assert any(c.startswith("patchadd 150031-07") for c in prereq)
    assert not any(c.startswith("pkg ") for c in prereq)


def test_lso_is_judged_from_a_control_domains_switch_channels(tmp_path: Path) -> None:
    bundle = _variant(tmp_path, TUNED, {"kstat-p.txt": [("vsw:0:vswldc0x3:lso_enabled\t1", "vsw:0:vswldc0x3:lso_enabled\t0")]})
    host = _host(bundle)
    assert _finding(host, "ldoms.lso", "host t5-primary-b").observed == "lso_enabled 0 on vswldc0x3"


def test_solaris_10_in_a_control_domain_fails_the_software_level(tmp_path: Path) -> None:
    bundle = _variant(tmp_path, TUNED, {
        "release.txt": [("Oracle Solaris 11.3 SPARC", "Oracle Solaris 10 1/13 s10s_u11wos_24a SPARC")],
        "uname-a.txt": [("5.11", "5.10")],
        "showrev-p.txt": [("", "Patch: 150031-09 Obsoletes:  Requires: 118833-36 Incompatibles:  Packages: SUNWldomr\n")]})
    (bundle / "pkg-entire.txt").unlink()
    host = _host(bundle)
    finding = _finding(host, "ldoms.software-level", "host t5-primary-b")
    assert finding.severity.value == "high" and "Solaris 10 in a control or service domain" in finding.message
    assert [p.command for p in host.plan.prerequisites] == [
        "Solaris 11.1 SRU 9 or later in this domain   # a reinstall: Solaris 10 has no upgrade path to 11"]


def test_jumbo_frames_rest_on_the_lso_software_not_the_ldm_version(tmp_path: Path) -> None:
    """ldm 3.1 with Solaris 11.1 SRU 4 has no LSO: MTU 1500 is the slow case,
    and the plan's answer is the upgrade, not jumbo frames."""
    bundle = _variant(tmp_path, UNTUNED, {"ldm-version.txt": [("3.0.0.2", "3.1.0.0.24")]})
    host = _host(bundle)
    finding = _finding(host, "ldoms.jumbo-frames", "vsw primary-vsw0")
    assert finding.severity.value == "medium"
    assert not any("mtu=9000" in c for c in _commands(host))
    assert any(p.command.startswith("ldm 3.1 or later with Solaris 11.1 SRU 9") for p in host.plan.prerequisites)


def test_a_vnet_below_its_switch_is_supported_and_a_switch_above_its_link_is_high(tmp_path: Path) -> None:
    host = _host(UNTUNED)
    finding = _finding(host, "ldoms.mtu-mismatch", "vsw primary-vsw1")
    assert finding.severity.value == "high" and "above its link net1 MTU 1500" in finding.message
    # before the LSO levels jumbo frames carry the throughput: lowering the switch waits for that choice
    assert "ldoms.jumbo-frames" in (_planned(host)["ldm set-vsw mtu=1500 primary-vsw1"] or "")
    assert not any(c.startswith(("dladm", "ldm set-vnet mtu", "ldm set-vsw mtu")) for c in _commands(host))
    lso = _variant(tmp_path / "lso", UNTUNED, LSO_LEVELS)
    assert "ldm set-vsw mtu=1500 primary-vsw1" in _commands(_host(lso))
    lowered = _variant(tmp_path, TUNED, {"ldm-list-l-p.txt": [
        ("mac-addr=00:14:4f:fa:90:55|mode=|pvid=1|vid=|mtu=1500", "mac-addr=00:14:4f:fa:90:55|mode=|pvid=1|vid=|mtu=1400")]})
    host = _host(lowered)
    finding = _finding(host, "ldoms.mtu-mismatch", "vsw primary-vsw1")
    assert finding.severity.value == "info" and "this is supported" in finding.message
    assert _commands(host) == []


def test_inter_vnet_link_is_not_applicable_with_one_vnet(tmp_path: Path) -> None:
    bundle = _variant(tmp_path, TUNED, {"ldm-list-l-p.txt": [("|id=1|inter-vnet-link=on|dev=switch@1", "|id=1|inter-vnet-link=off|dev=switch@1")]})
    assert _results(_host(bundle), "ldoms.inter-vnet-link")["vsw primary-vsw1"] == "not_applicable"


def test_whole_core_rounds_up_and_never_shrinks_a_domain(tmp_path: Path) -> None:
    """12 vCPUs on 8-thread cores: 2 cores, not 1 (which would take 4 vCPUs away)."""
    bundle = _variant(tmp_path, TUNED, {"ldm-list-l-p.txt": [
        ("DOMAIN|name=ldg1|state=active|flags=normal|cons=5000|ncpu=16", "DOMAIN|name=ldg1|state=active|flags=normal|cons=5000|ncpu=12"),
        ("|cid=5|cpuset=40,41,42,43,44,45,46,47", "|cid=5|cpuset=40,41,42,43"),
        ("|vid=12|pid=44|cid=5|util=0.3|strand=100\n|vid=13|pid=45|cid=5|util=0.3|strand=100\n"
         "|vid=14|pid=46|cid=5|util=0.3|strand=100\n|vid=15|pid=47|cid=5|util=0.3|strand=100\n", ""),
        ("CONSTRAINT|cpu=whole-core|max-cores=unlimited\nVARIABLES\n|auto-boot?=true\nVNET|name=vnet0|dev=network@0|service=primary-vsw0@primary|mac-addr=00:14:4f:f9:c0:a4",
         "CONSTRAINT|threading=max-throughput\nVARIABLES\n|auto-boot?=true\nVNET|name=vnet0|dev=network@0|service=primary-vsw0@primary|mac-addr=00:14:4f:f9:c0:a4")]})
    host = _host(bundle)
    assert _results(host, "ldoms.whole-core")["domain ldg1"] == "fail"
    assert "ldm set-core 2 ldg1" in _planned(host)
    assert "ldm set-core 1 ldg1" not in _planned(host)


def test_soft_rings_never_exceed_the_vcpus(tmp_path: Path) -> None:
    """Before, a 4-vCPU domain was told to set 8 soft rings (more than its CPUs)."""
    bundle = CAPTURES / "s10-guest-untuned"
    host = _host(bundle)
    finding = _finding(host, "solaris10.soft-rings", "host ldg2")
    target = int(re.search(r"echo 'set ip:ip_soft_rings_cnt=(\d+)'", finding.steps[0].command).group(1))
    assert 2 < target <= _vcpus(bundle)
    psrinfo = "The physical processor has {n} virtual processors (0-{m})\n  The core has {n} virtual processors (0-{m})\n" \
              "    SPARC-T5 (chipid 0, clock 3600 MHz)\n"
    for n, status in ((4, "pass"), (6, "fail")):
        small = tmp_path / f"cpus{n}"
        shutil.copytree(bundle, small)
        (small / "psrinfo-pv.txt").write_text(psrinfo.format(n=n, m=n - 1))
        host = _host(small)
        assert _results(host, "solaris10.soft-rings") == {"host ldg2": status}, n
        if status == "fail":
            assert "ip_soft_rings_cnt=3" in _finding(host, "solaris10.soft-rings", "host ldg2").steps[0].command


def _vcpus(bundle: Path) -> int:
    from advisor.collect.offline import Loader
    from advisor.facts.build import build

    with Loader() as loader:
        [cap] = loader.load(bundle)
    return build(cap).facts.vcpus


def test_vf_mtu_is_information_with_a_valid_commented_fix() -> None:
    host = _host(CAPTURES / "s11-guest-untuned")
    finding = _finding(host, "ldoms.vf-mtu", "link net1")
    assert finding.severity.value == "info" and finding.confidence == "unconfirmed"
    [step] = [s for p in host.plan.phases for s in p.steps if "mtu=1500 net1" in s.command]
    assert step.command == "dladm set-linkprop -p mtu=1500 net1" and not step.run and "82599" in (step.note or "")


def test_a_rule_resting_on_an_unconfirmed_fact_reports_information_only() -> None:
    """A rule built on an unconfirmed fact (confidence: unconfirmed) reports info
    or unknown, never a hard fail: every such rule of the packs is info, and one
    with a higher check is refused as its pack loads."""
    rules = packs.load()
    unconfirmed = [r for r in rules if r.confidence == "unconfirmed"]
    assert unconfirmed and all(r.check_severities() == {Severity.info} for r in unconfirmed)
    data = next(r for r in rules if r.id == "ldoms.extended-mapin-space").model_dump(
        exclude_unset=True, exclude={"source": {"study"}})
    data["confidence"] = "unconfirmed"
    with pytest.raises(ValidationError, match="severity high: a rule resting on an unconfirmed fact"):
        Rule.model_validate(data)


def test_wan_window_never_lowers_and_restarts_sshd(tmp_path: Path) -> None:
    policy = POLICIES / "declared-intents.yaml"
    host = _host(CAPTURES / "x4270-s10-untuned", policy)
    finding = _finding(host, "solaris.tcp-window-wan", "host x4270-db")
    codes = [s.code for s in finding.steps]
    assert "ndd -set /dev/tcp tcp_recv_hiwat 1048576" in codes
    assert not any(c.startswith("ndd -set /dev/tcp tcp_max_buf") for c in codes)  # 1 MB does not exceed it
    sshd = [s for s in finding.steps if "svcadm restart svc:/network/ssh:default" in s.command]
    assert sshd and not sshd[0].runnable
    higher = _variant(tmp_path, CAPTURES / "x4270-s10-untuned", {"ndd-tcp.txt": [("tcp_recv_hiwat 49152", "tcp_recv_hiwat 4194304")]})
    assert _results(_host(higher, policy), "solaris.tcp-window-wan") == {"host x4270-db": "pass"}


def test_a_loose_kstat_dump_gets_a_domain_placeholder_not_its_file_name(tmp_path: Path) -> None:
    dump = tmp_path / "customer-kstat.out"
    dump.write_text("vnet:0:vnetldc0x0:dring_mode\t1\nvnet:0:vnetldc0x0:lso_enabled\t1\n")
    host = _host(dump)
    finding = _finding(host, "ldoms.dring-mode", "ldc vnet:0:vnetldc0x0")
    assert "<domain> at fault" in finding.message and "customer-kstat" not in finding.message
    assert [s.command for s in finding.steps] == ["ldm list -l <domain> | grep extended-mapin   # on the control domain: must be on"]
    assert not any(s.runnable and s.kind == "change" for s in finding.steps)


def test_a_host_with_nothing_evaluated_has_no_evidence_and_fails_the_gate(tmp_path: Path) -> None:
    from conftest import run_cli

    bundle = tmp_path / "only-uname"
    bundle.mkdir()
    shutil.copy(UNTUNED / "uname-a.txt", bundle)
    host = _host(bundle)
    assert host.status == "no-evidence" and host.score is None and host.counts.passed == host.counts.failed == 0
    res = run_cli("gate", str(bundle))
    assert res.returncode == 1
    assert "score no evidence" in res.stdout and "No evidence: no check could be evaluated" in res.stdout
    assert "nothing could be evaluated on only-uname (no evidence)" in res.stderr
    assert run_cli("review", str(bundle)).returncode == 0  # without a gate it is reported, not failed


def test_soft_rings_are_unknown_where_the_solaris_version_is_not_known(tmp_path: Path) -> None:
    """A second `requires:` key replaced the first in silence (YAML keeps the last),
    so the Solaris 10 tunable was judged, and failed medium with a reboot, on a
    Solaris 11.3 domain whose capture lacked uname and /etc/release."""
    loose = tmp_path / "s11-loose"
    loose.mkdir()
    for name in ("etc-system.txt", "psrinfo-pv.txt", "dladm-show-phys.txt", "dladm-show-linkprop.txt",
                 "ipadm-show-prop-tcp.txt"):
        shutil.copy(CAPTURES / "t5-primary-tuned" / name, loose / name)
    assert set(_results(_host(loose), "solaris10.soft-rings").values()) == {"unknown"}


def test_a_key_given_twice_in_a_rule_pack_is_refused(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    pack = rules / "site.yaml"
    pack.write_text("- id: site.twice\n  title: a rule\n  requires: [host.system]\n  requires: [host.vcpus]\n")
    res = run_cli("review", str(CAPTURES / "t5-primary-tuned"), "--rules", str(rules), "-f", "json")
    assert res.returncode == 2
    assert res.stderr == f"advisor: {pack}:4: key 'requires' is given twice in one mapping; refused\n"


def test_a_channel_whose_handshake_has_not_completed_is_not_judged(tmp_path: Path) -> None:
    """A guest stopped or at the ok prompt leaves its switch channel with a mode no
    handshake settles on (0): it failed high as copy mode, blaming the guest's
    software, and failed LSO with it."""
    import re as _re

    bundle = tmp_path / "t5-peer-down"
    shutil.copytree(CAPTURES / "t5-primary-tuned", bundle)
    kstat = bundle / "kstat-p.txt"
    text = kstat.read_text()
    text = _re.sub(r"(vsw:1:vswldc0x6:dring_mode\t)\d+", r"\g<1>0", text)
    text = _re.sub(r"(vsw:1:vswldc0x6:lso_enabled\t)\d+", r"\g<1>0", text)
    kstat.write_text(text)
    host = _host(bundle)
    assert _results(host, "ldoms.dring-mode")["ldc vsw:1:vswldc0x6"] == "not_applicable"
    assert set(_results(host, "ldoms.lso").values()) == {"pass"}
    assert host.findings == []


def test_inter_vnet_link_off_for_the_remote_relay_mode_is_not_judged(tmp_path: Path) -> None:
    """vsw-relay-mode=remote sends guest-to-guest traffic through the external switch on
    purpose and needs inter-vnet-link off (Oracle VM Server for SPARC 3.5 Administration
    Guide, "Virtual Switch Relay Failure Cases"): it failed high, with a fix that undoes it."""
    import re as _re

    results = {}
    for relay in ("", "|vsw-relay-mode=remote"):
        bundle = tmp_path / f"t5{relay.replace('|', '-')}"
        shutil.copytree(CAPTURES / "t5-primary-tuned", bundle)
        listing = bundle / "ldm-list-l-p.txt"
        text, n = _re.subn(r"(VSW\|name=primary-vsw0\|.*?)\|inter-vnet-link=\w+", rf"\1|inter-vnet-link=off{relay}",
                           listing.read_text())
        assert n == 1
        listing.write_text(text)
        results[relay] = _results(_host(bundle), "ldoms.inter-vnet-link")["vsw primary-vsw0"]
    assert results == {"": "fail", "|vsw-relay-mode=remote": "not_applicable"}


def test_moving_a_guest_off_dom0s_cpus_never_puts_it_back_on_them(tmp_path: Path) -> None:
    """The fix was `vcpu-pin ... all`, which lets the vCPU onto dom0's CPUs again (dom0
    runs on 0-1 here, dom0_vcpus_pin). Now its CPUs without dom0's, run when that keeps
    it on as many CPUs or fewer; more CPUs would grow a hard partition held for Oracle
    licensing, so that step waits for that check."""
    untuned = CAPTURES / "ovm-dom0-untuned"
    steps = {}
    for hard in ("1", "1-3"):
        bundle = tmp_path / f"pin{hard}"
        shutil.copytree(untuned, bundle)
        listing = bundle / "xl-vcpu-list.txt"
        text = listing.read_text()
        old = "web1                                 7     0    1   -b-     412.3  1 / all"
        assert old in text
        listing.write_text(text.replace(old, old.replace("412.3  1 / all", f"412.3  {hard} / all")))
        host = _host(bundle)
        [step] = [s for s in _finding(host, "xen.dom0-overlap", "vcpu web1/0").steps]
        steps[hard] = (step.code, step.check_first is None)
    assert steps == {"1": ("xl vcpu-pin web1 0 2,3,4,5,6,7", False), "1-3": ("xl vcpu-pin web1 0 2,3", True)}


def test_unpinning_guests_that_share_a_cpu_waits_for_the_licensing_check() -> None:
    """Pinning is how Oracle VM keeps hard partitions for Oracle's CPU licensing: advisor
    cannot see why the pins are there, and `all` also covers dom0's CPUs."""
    host = _host(CAPTURES / "ovm-dom0-untuned")
    steps = [s for f in host.findings if f.rule == "xen.shared-pcpu" for s in f.steps]
    assert steps and all(s.check_first and "hard partitioning" in s.check_first for s in steps)


def test_rxfanout_is_unknown_where_the_vnet_does_not_say_its_speed(tmp_path: Path) -> None:
    """A vnet reports speed 0 unless its link follows the physical one
    (linkprop=phys-state): the rule took that for 10 GbE and failed it."""
    guest = CAPTURES / "s11-guest-untuned"
    bundle = _variant(tmp_path, guest, {"dladm-show-phys.txt": [(
        "net0              Ethernet             up         10000  full      vnet0",
        "net0              Ethernet             up         0      unknown   vnet0")]})
    assert _results(_host(bundle), "ldoms.rxfanout")["link net0"] == "unknown"
    assert _results(_host(guest), "ldoms.rxfanout")["link net0"] == "fail"


def test_tso_off_on_a_vif_or_where_the_device_refused_it_is_not_a_finding(tmp_path: Path) -> None:
    """netback (vif) and tun (tap) offer only what the guest negotiated, and a
    device that kept TSO off although asked (`off [requested on]`) cannot be
    turned on by ethtool: neither is a step an administrator can take."""
    dom0 = CAPTURES / "ovm-dom0-untuned"
    bundle = _variant(tmp_path, dom0, {
        "ethtool-k@vif5.0.txt": [("tcp-segmentation-offload: on", "tcp-segmentation-offload: off")],
        "ethtool-k@eth2.txt": [("tcp-segmentation-offload: off", "tcp-segmentation-offload: off [requested on]")]})
    results = _results(_host(bundle), "linux.tso-off")
    assert results["interface vif5.0"] == "not_applicable" and results["interface eth2"] == "pass"
    assert _results(_host(dom0), "linux.tso-off")["interface eth2"] == "fail"


def test_mtu_chain_says_where_a_large_frame_is_dropped() -> None:
    [host] = review(CAPTURES / "ovm-dom0-untuned").hosts
    [finding] = [f for f in host.findings if f.rule == "xen.mtu-chain"]
    assert "drops it at any other" in finding.message and "dropped at the bridge" not in finding.message


def test_a_half_core_control_domain_has_no_whole_core_whatever_its_own_psrinfo_says(tmp_path: Path) -> None:
    """primary with 4 of a SPARC-T5 core's 8 strands: its own psrinfo -pv shows
    a core of 4 threads, which made it '1 whole cores (4 vCPUs)'. Threads per
    core come from the processor model first."""
    vcpu_rows = "".join(f"    {i}      {i}      0      0.3% 0.3%   100%\n" for i in range(4, 8))
    bundle = _variant(tmp_path, UNTUNED, {
        "psrinfo-pv.txt": [("1 core and 8 virtual processors (0-7)", "1 core and 4 virtual processors (0-3)"),
                           ("The core has 8 virtual processors (0-7)", "The core has 4 virtual processors (0-3)")],
        "ldm-list-l.txt": [("primary          active     -n-cv-  UART    8     8G",
                            "primary          active     -n-cv-  UART    4     8G"),
                           ("    0      (0, 1, 2, 3, 4, 5, 6, 7)", "    0      (0, 1, 2, 3)"), (vcpu_rows, "")]})
    finding = _finding(_host(bundle), "ldoms.service-cores", "domain primary")
    assert finding.observed.startswith("0 whole cores (4 vCPUs)"), finding.observed


def test_service_cores_for_a_port_faster_than_the_study_measured_wait_for_a_check(tmp_path: Path) -> None:
    """A 100 GbE port counts as ten 10 GbE ports, an estimate past what the
    study measured (10 GbE on T4 and T5): the step that follows is held."""
    bundle = _variant(tmp_path, TUNED, {"dladm-show-phys.txt": [(
        "net2              Ethernet             unknown    0      unknown   ixgbe2",
        "net2              Ethernet             up         100000 full      ixgbe2")]})
    host = _host(bundle)
    assert "12 10 GbE data port(s)" in _finding(host, "ldoms.service-cores", "domain primary").message
    note = _planned(host)["ldm set-core 24 primary"]
    assert note is not None and "the study measured 10 GbE ports only" in note


def test_tso_on_an_apa_member_port_or_without_transmit_cko_waits_for_its_prerequisite(tmp_path: Path) -> None:
    """lan0 and lan1 are members of lan900: HP's APA guide says TSO cannot be
    changed on a port in an aggregate; and TSO needs transmit checksum offload
    on first (Ethernet Support Guide). Neither step may run as it stands."""
    host = _host(CAPTURES / "hpux-rx6600-untuned")
    planned = _planned(host)
    for lan in ("lan0", "lan1"):
        note = planned[f"nwmgr --sa -A vmtu=32160 -c {lan}"]
        assert note is not None and f"{lan} is out of aggregate lan900" in note, note
    assert not [c for c in _commands(host) if "vmtu=32160" in c]


def test_tso_waits_for_transmit_checksum_offload_where_it_is_off(tmp_path: Path) -> None:
    """lan0 alone (out of the aggregate) with transmit CKO off: the CKO step
    (its attribute name to fill in) comes first, and the VMTU step waits for it."""
    bundle = _variant(tmp_path, CAPTURES / "hpux-rx6600-untuned", {
        "lanscan.txt": [("900 0 1\n", "900 1\n")],
        "nwmgr-attrs@lan0.txt": [("Link State = Up\n", "Link State = Up\nTransmit Checksum Offload = Off\n")]})
    note = _planned(_host(bundle))["nwmgr --sa -A vmtu=32160 -c lan0"]
    assert note is not None and "transmit checksum offload is on on lan0" in note, note


def test_guests_sharing_a_cpu_are_spread_over_the_cpus_off_dom0_at_medium() -> None:
    """dom0 is pinned to CPUs 0 and 1: `vcpu-pin ... all` would let the guests
    onto them. Its severity rests on one 10-second run of two guests: medium."""
    host = _host(CAPTURES / "ovm-dom0-untuned")
    findings = [f for f in host.findings if f.rule == "xen.shared-pcpu"]
    assert findings and {f.severity.value for f in findings} == {"medium"}
    assert sorted(s.code for f in findings for s in f.steps) == [
        "xl vcpu-pin nfs1 0 2,3,4,5,6,7", "xl vcpu-pin nfs2 0 2,3,4,5,6,7"]


def test_ipsec_jumbo_frames_only_on_data_links_that_can_carry_them(tmp_path: Path) -> None:
    """Not the service processor's usbecm link (1500 only), the vsw pseudo-links
    or the ports that are not up."""
    bundle = _variant(tmp_path, UNTUNED, {"dladm-show-phys.txt": [(
        "net5              Ethernet             up         0      unknown   vsw1",
        "net5              Ethernet             up         0      unknown   vsw1\n"
        "net6              Ethernet             up         10     full      usbecm0")]})
    finding = _finding(_host(bundle, POLICIES / "declared-intents.yaml"), "solaris.ipsec-fanout", "host t5-primary")
    assert finding.observed == "MTU 1500 on net0, net1"


def test_msix_tunables_are_not_offered_on_solaris_10_10_08(tmp_path: Path) -> None:
    """The Nehalem study: a bug in ixgbe on Solaris 10 Update 6 (10/08) keeps
    several receive DMA channels from working; the tunables do not fix it."""
    bundle = _variant(tmp_path, CAPTURES / "x4270-s10-untuned", {"release.txt": [(
        "Solaris 10 5/09 s10x_u7wos_08 X86", "Solaris 10 10/08 s10x_u6wos_07b X86")]})
    finding = _finding(_host(bundle), "solaris.msix-interrupts", "host x4270-db")
    assert finding.severity.value == "info" and "10/08" in finding.message
    assert [s.kind for s in finding.steps] == ["prerequisite"]


def _second_switch(tmp_path: Path, net_dev: str) -> Path:
    """The tuned capture with ldg1's second vnet on a switch over `net_dev`
    (none: an internal switch; stub0: an etherstub, whose speed no output gives)."""
    return _variant(tmp_path, TUNED, {"ldm-list-l-p.txt": [
        ("VSW|name=primary-vsw1|", f"VSW|name=primary-stub|nclients=1|mac-addr=00:14:4f:fb:a8:18|net-dev={net_dev}|"
                                   "pvid=1|vid=|mode=|mtu=1500|linkprop=|id=2|inter-vnet-link=on|dev=switch@2|"
                                   "default-vlan-id=1\nVSW|name=primary-vsw1|"),
        ("VNET|name=vnet0|dev=network@0|service=primary-vsw0@primary|mac-addr=00:14:4f:f9:c0:a4|mode=|pvid=1|vid=|mtu=1500|"
         "linkprop=|id=0\n",
         "VNET|name=vnet0|dev=network@0|service=primary-vsw0@primary|mac-addr=00:14:4f:f9:c0:a4|mode=|pvid=1|vid=|mtu=1500|"
         "linkprop=|id=0\nVNET|name=vnet1|dev=network@1|service=primary-stub@primary|mac-addr=00:14:4f:f9:c0:a5|mode=|"
         "pvid=1|vid=|mtu=1500|linkprop=|id=1\n")]})


def test_a_guest_with_one_10gbe_link_and_one_on_an_etherstub_switch_is_judged_by_its_10gbe_link(tmp_path: Path) -> None:
    """A switch with no net-dev (an internal or etherstub switch) reaches no
    physical link: ldg1's vnet on one made guest-cores unknown."""
    host = _host(_second_switch(tmp_path, ""))
    assert _results(host, "ldoms.guest-cores")["domain ldg1"] == "pass"
    assert _results(host, "ldoms.whole-core")["domain ldg1"] == "pass"


def test_a_guest_with_a_10gbe_link_and_one_on_a_named_etherstub_is_judged_by_what_is_known(tmp_path: Path) -> None:
    """net-dev=stub0: no output gives that link's speed, so ldg1's 10 GbE link
    count is at least the one it surely reaches. Whole cores are judged; a
    core count enough for the links known is not a pass (unknown); one too
    small for them is a fail, said as a lower bound."""
    bundle = _second_switch(tmp_path, "stub0")
    host = _host(bundle)
    assert _results(host, "ldoms.whole-core")["domain ldg1"] == "pass"
    assert _results(host, "ldoms.guest-cores")["domain ldg1"] == "unknown"
    policy = tmp_path / "policy.yaml"
    policy.write_text("params:\n  ldoms.guest-cores: {cores_per_link: 64}\n")
    strict = _host(bundle, policy=policy)
    finding = _finding(strict, "ldoms.guest-cores", "domain ldg1")
    assert "for at least 1 10 GbE link(s)" in finding.message


def test_lro_on_a_bond_slave_under_a_bridge_is_found(tmp_path: Path) -> None:
    """eth0 is a slave of bond0, a port of bridge 0a1b2c3d4e: what LRO merges
    on eth0 is forwarded through the bridge all the same."""
    dom0 = CAPTURES / "ovm-dom0-untuned"
    bundle = _variant(tmp_path, dom0, {})
    eth2 = (dom0 / "ethtool-k@eth2.txt").read_text()
    (bundle / "ethtool-k@eth0.txt").write_text(eth2.replace("eth2", "eth0"))
    results = _results(_host(bundle), "linux.lro-forwarding")
    assert results["interface eth0"] == results["interface eth2"] == "fail"


def test_turning_lro_off_says_it_resets_the_link() -> None:
    """ixgbe and most drivers reset the adapter to change LRO: the live phase
    that runs it does not interrupt 'none'."""
    host = _host(CAPTURES / "ovm-dom0-untuned")
    [phase] = [p for p in host.plan.phases if any(s.command.startswith("ethtool -K eth2 lro off") for s in p.steps)]
    assert phase.outage == "the link of eth2, for a few seconds (the driver resets the adapter)"


def test_mtu_chain_judges_xen_dom0s_only() -> None:
    """The Xen study measured a dom0's vif-bridge-uplink chain: a KVM host's bridges are not judged by it."""
    kvm = _host(CAPTURES / "kvm-host-rhel8")
    assert {r.status for r in kvm.results if r.rule == "xen.mtu-chain"} == {"not_applicable"}
    dom0 = _host(CAPTURES / "ovm-dom0-untuned")
    assert "fail" in {r.status for r in dom0.results if r.rule == "xen.mtu-chain"}
    # a dom0's brctl show pasted without xm or xl: its vifD.N ports say Xen (judged; unknown for want of MTUs)
    [pasted] = review(Path(__file__).parent / "real" / "brctl-show" / "deimosfr-xen3-xenbr0-peth0-vifs.txt").hosts
    assert {r.status for r in pasted.results if r.rule == "xen.mtu-chain"} == {"unknown"}
