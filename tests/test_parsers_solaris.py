"""What the Solaris parsers read from each real-format variant."""

from __future__ import annotations

import pytest

from advisor.errors import ParseError
from advisor.platforms.ldoms.parsers import info as ldoms_info, ldm_list
from advisor.platforms.solaris.parsers import dladm, driver_conf, etc_system, info as solaris_info, tcp_props
from advisor.platforms.unix.parsers import identity
from conftest import CAPTURES, FIXTURES

P = FIXTURES / "parsers"


def read(rel: str) -> str:
    return (P / rel).read_text()


def test_ldm_2x_guest_without_cid_or_norm_columns() -> None:
    [dom] = ldm_list.parse(read("ldm-list-l/ldm2x-guest.txt")).domains
    assert dom.name == "ldg3" and dom.ncpu == 8 and dom.flags == {"normal"}
    assert [r.get("pid") for r in dom.vcpus] == [str(p) for p in range(24, 32)]
    [vnet] = dom.vnets
    assert vnet.get("service") == "primary-vsw0@primary" and vnet.get("mtu") == "1500"
    assert [p.get("peer") for p in vnet.peers] == ["primary-vsw0@primary", "vnet1@ldg2"]
    assert dom.control["failure-policy"].get("failure-policy") == "ignore"
    assert "extended-mapin-space" not in dom.control  # ldm 2.x had no such property


def _props(rel: str, command: str | None = None) -> dict[tuple[str, str], dladm.LinkProp]:
    return {(p.link, p.name): p for p in dladm.parse_show_linkprop(read(rel), command)}


def test_linkprop_solaris_11_0_effective_rows() -> None:
    props = _props("dladm-show-linkprop/s11.0-effective-rows.txt")
    assert props[("net0", "rxfanout-effective")].value == "4"
    assert props[("net0", "cpus-effective")].value == "0-7"
    assert props[("net1", "mtu")].value == "9000" and props[("net1", "mtu")].possible == "1500-9000"


def test_linkprop_effective_column_and_empty_values() -> None:
    props = _props("dladm-show-linkprop/s11.1-effective-column.txt")
    fan = props[("net0", "rxfanout")]
    assert (fan.value, fan.effective, fan.default) == (None, "8", "8")
    assert props[("net0", "priority")].possible == "low,medium,high"


def test_linkprop_11_4_parseable_with_escaped_colons() -> None:
    props = _props("dladm-show-linkprop/s11.4-parseable-renamed.txt",
                   "dladm show-linkprop -c -o link,property,perm,value,effective,default,possible")
    assert props[("net0", "mac-address")].value == "0:14:4f:f9:c0:a4"
    assert props[("net0", "rx-fanout")].effective == "8"


def test_linkprop_solaris_10_has_no_perm_column() -> None:
    props = _props("dladm-show-linkprop/s10-no-perm.txt")
    assert props[("nxge0", "mtu")].value == "1500" and props[("nxge0", "mtu")].perm is None


REAL = FIXTURES.parent / "tests" / "real"


def _real(rel: str) -> str:
    """A published sample's output, less its header and prompt line."""
    body = (REAL / rel).read_text().split("\n---\n", 1)[1]
    return "\n".join(ln for ln in body.splitlines() if not ln.startswith(("#", "$", "root@")))


def test_linkprop_solaris_10_question_mark_and_possible_on_its_own_line() -> None:
    props = {(p.link, p.name): p for p in dladm.parse_show_linkprop(
        _real("dladm-show-linkprop/built-s10-no-perm-question-wrapped-possible.txt"))}
    assert props[("e1000g1", "mtu")].value is None and props[("e1000g1", "mtu")].default == "1500"
    assert props[("ath0", "speed")].possible == "1,2,5.5,6,9,11,12,18,24,36,48,54"
    assert props[("e1000g0", "speed")].possible is None  # `-- ` with the header's trailing blank
    assert props[("ath0", "powermode")].line == 11


def test_linkprop_solaris_10_c_pairs_and_illumos_wrapped_mtu() -> None:
    pairs = dladm.parse_show_linkprop(_real("dladm-show-linkprop/built-s10-c-quoted-pairs.txt"), "dladm show-linkprop -c")
    assert [(p.name, p.value, p.default, p.possible) for p in pairs] == [
        ("mtu", "9000", "1500", "1500-16298"), ("speed", "1000", None, None)]
    mtu = dladm.parse_show_linkprop(_real("dladm-show-linkprop/built-illumos-mtu-possible-wrapped.txt"))
    assert [(p.link, p.possible) for p in mtu] == [("e1000g0", "1500-16298"), ("vioif0", "576-9500")]


def test_linkprop_zone_links_and_elided_rows() -> None:
    props = dladm.parse_show_linkprop(_real("dladm-show-linkprop/built-s11-4-zone-links-overflow-elided.txt"))
    assert [(p.link, p.value, p.possible) for p in props] == [
        ("net0", "9000", "576-9216"), ("zone1/vnic1", "1500", "576-9000"), ("zone2/vnic2", "9000", "576-9000")]
    rings = dladm.parse_show_linkprop(_real("dladm-show-linkprop/oracle-s11-2-netvirt-gmcac-net4-elided.txt"))
    assert len(rings) == 6 and rings[0].possible == "sw,hw,<1-7>"


def test_linkprop_a_wrapped_value_is_still_refused() -> None:
    with pytest.raises(ParseError):
        dladm.parse_show_linkprop("LINK PROPERTY PERM VALUE DEFAULT POSSIBLE\nnet0 protection rw\nmac-nospoof, -- x\n")


def test_show_phys_elided_rows_and_rings_form_refused() -> None:
    phys = dladm.parse_show_phys(_real("dladm-show-phys/built-s11-2-netcomp-geyru-elided.txt"))
    assert [p.device for p in phys] == ["e1000g0", "bge0"]
    with pytest.raises(ParseError, match="show-phys -H"):
        dladm.parse_show_phys(_real("dladm-show-phys-h/oracle-s11-2-netvirt-gmcac-net0.txt"))


def test_show_phys_h_is_told_apart_by_command_and_content() -> None:
    from advisor.collect.command_line import identify_command
    from advisor.collect.identify import identify_text

    assert identify_command("dladm show-phys -H net0").command_id == "dladm-show-phys-h"  # type: ignore[union-attr]
    assert identify_command("dladm show-phys net0").command_id == "dladm-show-phys"  # type: ignore[union-attr]
    assert identify_text(_real("dladm-show-phys-h/oracle-s11-4-netvirt-gmcac-net0-dollar-prompt.txt")) == "dladm-show-phys-h"
    assert identify_text('LINK="e1000g0" PROPERTY="mtu" VALUE="1500"\n') == "dladm-show-linkprop"


def test_show_phys_and_show_dev() -> None:
    phys = {p.link: p for p in dladm.parse_show_phys(read("dladm-show-phys/s11.txt"))}
    assert (phys["net0"].device, phys["net0"].speed_mbps, phys["net2"].state) == ("ixgbe0", 10000, "unknown")
    dev = {p.link: p for p in dladm.parse_show_phys(read("dladm-show-dev/s10.txt"))}
    assert dev["nxge0"].speed_mbps == 10000 and dev["e1000g0"].speed_mbps == 1000


def test_ipadm_wrapped_possible_column() -> None:
    props = tcp_props.parse_ipadm(read("ipadm-show-prop-tcp/s11.1-wrapped.txt"))
    assert (props["send_buf"].value, props["send_buf"].persistent) == ("49152", "1048576")
    assert props["sack"].value == "active" and "active" not in props


def test_ndd_three_forms() -> None:
    assert tcp_props.parse_ndd(read("ndd-tcp/pairs.txt"))["tcp_recv_hiwat"].value == "49152"
    assert tcp_props.parse_ndd(read("ndd-tcp/equals.txt"))["tcp_max_buf"].value == "4194304"
    explorer = tcp_props.parse_ndd(read("ndd-tcp/explorer-lines.txt"))
    assert explorer["tcp_max_buf"].value == "1048576" and explorer["tcp_recv_hiwat"].line == 2


def test_etc_system_values_and_directives() -> None:
    s = etc_system.parse(read("etc-system/mixed.txt"))
    assert s["ip:ip_soft_rings_cnt"].value == 8 and s["ip:ip_soft_rings_cnt"].line == 3
    assert s["ddi_msix_alloc_limit"].value == 8  # 0x8
    assert s["pcplusmp:apic_intr_policy"].value == 1  # trailing comment dropped
    assert s["maxusers"].value == 32  # 040 is octal
    assert "moddebug" not in s  # '|' modifies a bit mask


def test_identity_outputs() -> None:
    assert solaris_info.parse_pkg_entire(read("pkg-entire/s11.4-sru42.txt")).sru == 42
    p = solaris_info.parse_pkg_entire(read("pkg-entire/s11.1-sru4.txt"))
    assert (p.release, p.sru) == ("11.1", 4)
    listed = solaris_info.parse_pkg_entire(read("pkg-entire/s11.2-ga-pkg-list.txt"))  # `pkg list entire`
    assert (listed.release, listed.sru, listed.version_text, listed.line) == ("11.2", 0, "0.5.11-0.175.2.0.0.42.0", 2)
    fmri = solaris_info.parse_pkg_entire(read("pkg-entire/s11.4-ga-pkg-list-v.txt"))  # `pkg list -v entire`
    assert (fmri.release, fmri.sru) == ("11.4", 0)
    other = solaris_info.parse_pkg_entire("entire (solaris) 0.5.11-0.175.3.1.0.5.0 i--\n")  # another publisher's
    assert (other.release, other.sru) == ("11.3", 1)
    with pytest.raises(ParseError, match="entire@"):
        solaris_info.parse_pkg_entire("NAME (PUBLISHER)  VERSION  IFO\nsystem/core-os  0.5.11-0.175.2.0.0.42.0  i--\n")
    old = solaris_info.parse_psrinfo(read("psrinfo-pv/s10-no-cores.txt"))
    assert (old.vcpus, old.cores, old.model) == (8, None, "UltraSPARC-T2")
    new = solaris_info.parse_psrinfo(read("psrinfo-pv/s11-cores.txt"))
    assert (new.vcpus, new.cores, new.threads_per_core) == (32, 4, 8)
    assert ldoms_info.parse_virtinfo(read("virtinfo/control.txt")).roles == {"control", "i/o", "service", "root"}
    assert ldoms_info.parse_virtinfo(read("virtinfo/guest.txt")).domain_name == "ldg2"
    r = identity.parse_release(read("release/s10-5-09-x86.txt"))
    assert (r.major, r.update, r.arch) == (10, "5/09", "X86")
    assert solaris_info.parse_showrev(read("showrev-p/s10.txt")).revisions["150031"][0] == 9
    u = identity.parse_uname(read("uname-a/s10-x86.txt"))
    assert (u.release, u.machine) == ("5.10", "i86pc")


def test_driver_conf() -> None:
    tuned = driver_conf.parse((CAPTURES / "x4270-s10-tuned/driver-nxge.conf").read_text())
    assert tuned["soft-lso-enable"] == ("1", 5)
    assert "soft-lso-enable" not in driver_conf.parse((CAPTURES / "x4270-s10-untuned/driver-nxge.conf").read_text())
    multi = driver_conf.parse('name="pciex8086,10fb" parent="/pci@0"\n  unit-address="0" flow_control = 1;\n')
    assert multi["flow_control"] == ("1", 1) and multi["unit-address"] == ("0", 1)


def test_virtinfo_parseable_form() -> None:
    from advisor.platforms.ldoms.parsers.info import parse_virtinfo

    text = ("VERSION 1.0\nDOMAINROLE|impl=LDoms|control=true|io=true|service=true|root=true\n"
            "DOMAINNAME|name=primary\nDOMAINCONTROL|name=t5-primary\n")
    info = parse_virtinfo(text)
    assert info.roles == frozenset({"control", "i/o", "service", "root"}) and info.line == 2
    assert (info.domain_name, info.control_domain) == ("primary", "t5-primary")
    guest = parse_virtinfo(text.replace("true", "false"))
    assert guest.roles == frozenset({"guest"})
    with pytest.raises(ParseError) as err:
        parse_virtinfo("VERSION 1.0\nDOMAINROLE|impl=LDoms|control=false\nnot a record\n")
    assert err.value.line == 3


def test_psrinfo_takes_the_model_a_sentence_names() -> None:
    """Solaris 9 and early 10 name the processor in the sentence, with no model line under it
    (tests/real: a Sun Fire V240); the later form names it on the line below."""
    v240 = solaris_info.parse_psrinfo((REAL / "psrinfo-pv/glpi-v240-usiiii.txt").read_text().split("\n---\n", 1)[1])
    assert (v240.vcpus, v240.cores, v240.model) == (2, None, "UltraSPARC-IIIi")
    v490 = solaris_info.parse_psrinfo((REAL / "psrinfo-pv/glpi-v490-usiv.txt").read_text().split("\n---\n", 1)[1])
    assert v490.model == "UltraSPARC-IV"
