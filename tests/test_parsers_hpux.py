"""What the HP-UX parsers read from each real-format variant."""

from __future__ import annotations

import pytest

from advisor.errors import ParseError
from advisor.collect.identify import identify_text
from advisor.platforms.hpux.parsers import lan as hpux
from conftest import FIXTURES

P = FIXTURES / "parsers"


def test_lanscan_long_paths_linkagg_and_quiet_tail() -> None:
    scan = hpux.parse_lanscan((P / "lanscan/long-paths-linkagg-and-q.txt").read_text())
    assert [(c.name, c.ppa, c.hw_path, c.is_aggregate) for c in scan.cards][:3] == [
        ("lan0", 0, "0/0/1/1/0/6/0", False), ("lan1", 1, "0/0/1/1/0/6/1", False), ("lan2", 2, "0/0/12/1/0", False)]
    assert scan.cards[3].is_aggregate and scan.cards[3].hw_path == "LinkAgg0"
    assert scan.members == {900: [0, 1], 901: []}


def test_lanscan_fddi_rows_without_snap() -> None:
    scan = hpux.parse_lanscan((P / "lanscan/fddi-and-snap-less-rows.txt").read_text())
    assert [(c.name, c.state) for c in scan.cards] == [("lan0", "UP"), ("lan3", "UP"), ("lan2", "DOWN"), ("lan1", "DOWN")]


def test_lanscan_v_drivers() -> None:
    scan = hpux.parse_lanscan_v((P / "lanscan-v/iether-gelan.txt").read_text())
    assert {k: v[0] for k, v in scan.drivers.items()} == {"lan0": "iether", "lan1": "iether", "lan2": "gelan"}
    assert scan.verbose and [c.name for c in scan.cards] == ["lan0", "lan1", "lan2"] and not scan.quiet_seen


def test_published_lanscan_v_outputs() -> None:
    """jreypo's 11i v2 host (driver without an instance number) and the btlan/FDDI
    notes (a blank line after every line; `btlan3` and `fddi4` are driver names)."""
    one = hpux.parse_lanscan((P / "lanscan-v/jreypo-11iv2-iether.txt").read_text())
    assert [(c.name, c.hw_path) for c in one.cards] == [("lan0", "0/0/0/1/0")] and one.drivers == {"lan0": ("iether", 11)}
    notes = hpux.parse_lanscan((P / "lanscan-v/btlan-fddi-notes-double-spaced.txt").read_text())
    assert {k: v[0] for k, v in notes.drivers.items()} == {
        "lan0": "btlan", "lan3": "btlan", "lan4": "btlan", "lan5": "btlan", "lan6": "btlan", "lan2": "fddi", "lan1": "fddi"}
    assert [(c.name, c.state) for c in notes.cards][-2:] == [("lan2", "DOWN"), ("lan1", "DOWN")]


def test_any_lanscan_form_in_one_file() -> None:
    """A bundle's lanscan.txt may hold the plain form, the -v form, -q appended, or plain then -v."""
    plain = (P / "lanscan/long-paths-linkagg-and-q.txt").read_text()
    verbose = (P / "lanscan-v/iether-gelan.txt").read_text()
    v_then_q = hpux.parse_lanscan(verbose + "-" * 79 + "\n2\n900 0 1\n")
    assert v_then_q.members == {900: [0, 1]} and v_then_q.quiet_seen and v_then_q.drivers["lan2"][0] == "gelan"
    assert hpux.parse_lanscan(verbose + "2\n900 0 1\n").members == {900: [0, 1]}  # -q right after a driver line
    both = hpux.parse_lanscan(plain + verbose)
    assert [c.name for c in both.cards] == ["lan0", "lan1", "lan2", "lan900", "lan901"]  # the -v rows repeat them
    assert both.cards[0].line == 3 and both.drivers["lan0"] == ("iether", 21) and both.members == {900: [0, 1], 901: []}
    extra = verbose.replace("iether1\n", "iether1\nSpeed = 1000 Full-Duplex\n")  # more driver-specific lines
    assert hpux.parse_lanscan(extra).drivers["lan1"][0] == "iether"


def test_lanscan_errors_name_the_line() -> None:
    verbose = (P / "lanscan-v/iether-gelan.txt").read_text().splitlines(keepends=True)
    verbose.insert(5, "lanscan: cannot open /dev/dlpi\n")  # inside a block, outside its driver section
    with pytest.raises(ParseError) as err:
        hpux.parse_lanscan("".join(verbose))
    assert err.value.line == 6
    with pytest.raises(ParseError) as err:
        hpux.parse_lanscan("\nlanscan: not found\n")
    assert err.value.line == 2
    with pytest.raises(ParseError):
        hpux.parse_lanscan("-" * 79 + "\n")  # a rule and nothing listed


def test_vmtu_outputs() -> None:
    off = hpux.parse_vmtu((P / "nwmgr-vmtu/tso-off.txt").read_text())
    assert (off.vmtu, off.tso_supported) == (0, True)
    none = hpux.parse_vmtu((P / "nwmgr-vmtu/unsupported.txt").read_text())
    assert (none.vmtu, none.tso_supported) == (None, False)
    assert hpux.parse_vmtu((P / "lanadmin-vmtu/tso-on.txt").read_text()).vmtu == 32160
    with pytest.raises(ParseError):
        hpux.parse_vmtu("lanadmin: Invalid PPA\n")


def _rows(path: str) -> list[tuple[str, str, str, str]]:
    return [(r.name, r.state, r.subsystem, r.type) for r in hpux.parse_nwmgr_list((P / path).read_text())]


def test_nwmgr_listing_as_quoted_and_aligned_read_the_same() -> None:
    expected = [("lan0", "UP", "igelan", "1000Base-T"), ("lan1", "UP", "iether", "1000Base-T"),
                ("lan2", "UP", "iether", "1000Base-T"), ("lan900", "DOWN", "hp_apa", "hp_apa")]
    assert _rows("nwmgr/handbook-rows-as-quoted.txt") == expected
    assert _rows("nwmgr/aligned-to-the-rule.txt") == expected


def test_nwmgr_listing_ignores_the_headings_and_names_a_bad_row() -> None:
    table = (P / "nwmgr/aligned-to-the-rule.txt").read_text()
    headed = "Name/          Interface\nClassInstance  State\n" + table
    assert [r.line for r in hpux.parse_nwmgr_list(headed)] == [4, 5, 6, 7]
    with pytest.raises(ParseError) as err:
        hpux.parse_nwmgr_list(table + "nwmgr: permission denied\n")
    assert err.value.line == 6
    with pytest.raises(ParseError):
        hpux.parse_nwmgr_list("lan0 UP 0x00306EF30764 igelan 1000Base-T\n")  # no rule line: not the table


def test_nwmgr_attributes_and_speeds() -> None:
    attrs = hpux.parse_nwmgr_attrs((P / "nwmgr-attrs/link-state-speed.txt").read_text())
    assert attrs.instance == "lan0" and attrs.values["Link State"] == ("Up", 2)
    speeds = [hpux.parse_speed(hpux.parse_nwmgr_attrs((P / f"nwmgr-attrs/{name}.txt").read_text()).values["Speed"][0])
              for name in ("link-state-speed", "100-half-autoneg", "100-full-forced")]
    assert speeds == [hpux.Speed(1000, "full", True), hpux.Speed(100, "half", True), hpux.Speed(100, "full", None)]
    assert hpux.parse_speed("Unknown") is None
    with pytest.raises(ParseError):
        hpux.parse_nwmgr_attrs("lan0 current values:\n")
    with pytest.raises(ParseError) as err:
        hpux.parse_nwmgr_attrs("lan0 current values:\nSpeed = 1 Gbps\nlan1 current values:\n")
    assert err.value.line == 3


def test_lanscan_q_alone_gives_membership_only() -> None:
    """`lanscan -q` pasted alone (HP APA guide): PPA numbers, an aggregate's
    members after it; identified by an aggregate's line, not by bare numbers."""
    quiet = "900 5 6 8 7\n901\n902\n903\n"
    scan = hpux.parse_lanscan(quiet)
    assert scan.cards == [] and scan.quiet_seen and scan.members == {900: [5, 6, 8, 7], 901: [], 902: [], 903: []}
    assert scan.quiet_line == {900: 1, 901: 2, 902: 3, 903: 4}
    assert identify_text(quiet) == "lanscan" and identify_text(" 0\n1\n\n900  2 3 \n901") == "lanscan"
    for other in ("0\n1\n2\n", "12 13 14\n", "9005 6 8 7\n", "900 5 6\nlan0\n"):
        assert identify_text(other) is None
    with pytest.raises(ParseError) as err:
        hpux.parse_lanscan(quiet + "lanscan: not found\n")
    assert err.value.line == 5


def test_non_breaking_spaces_and_a_closing_prompt() -> None:
    """Web copies put U+00A0 between columns; a copied session ends with an empty prompt."""
    nbsp = "\u00a0 \u00a0"
    rows = (P / "lanscan/long-paths-linkagg-and-q.txt").read_text().replace("   ", nbsp)
    scan = hpux.parse_lanscan(rows + "root@sap01:~#\n")
    assert [c.name for c in scan.cards][:2] == ["lan0", "lan1"] and scan.members == {900: [0, 1], 901: []}
    table = (P / "nwmgr/aligned-to-the-rule.txt").read_text().replace("  ", nbsp)
    assert [r.name for r in hpux.parse_nwmgr_list(table + "\n[root@ignite] ~ #\n")][-1] == "lan900"
    attrs = hpux.parse_nwmgr_attrs("lan900 current values:\n Parent PPA =\u00a0 -\n Speed = 1 Gbps Full Duplex\n# \n")
    assert attrs.values["Parent PPA"] == ("-", 2)
    assert hpux.parse_vmtu("Driver/Hardware supports TCP Segmentation Offload.\u00a0Current VMTU =\u00a032160\n").vmtu == 32160
    with pytest.raises(ParseError) as err:
        hpux.parse_lanscan(rows + "root@sap01:~# lanscan -v\n")  # a prompt with a command is not an ending
    assert err.value.line == 11


APA_LAN900 = """lan900 current values:
 Speed = 1 Gbps Full Duplex
 Virtual Maximum Transmission Unit = 0
 Features = Linkagg Interface
 IPV4 Recv CKO
 IPV4 Send CKO
 64Bit MIB Support
 Mode = LAN_MONITOR
 Membership = 0,1
"""


def test_nwmgr_attribute_lists_continue_on_lines_of_their_own() -> None:
    """`nwmgr -g -S apa -I 900 -v` (jreypo's 11i v3 host): Features lists its values one a line."""
    attrs = hpux.parse_nwmgr_attrs(APA_LAN900)
    assert attrs.instance == "lan900" and attrs.values["Features"] == ("Linkagg Interface", 4)
    assert attrs.more == {"Features": [("IPV4 Recv CKO", 5), ("IPV4 Send CKO", 6), ("64Bit MIB Support", 7)]}
    assert attrs.values["Membership"] == ("0,1", 9)
    lines = APA_LAN900.splitlines(keepends=True)
    for n, bad in ((5, "1\n"), (5, "nwmgr: lan900: no such interface\n"), (2, "IPV4 Recv CKO\n")):
        with pytest.raises(ParseError) as err:  # a guide's callout number, an error, a value under no attribute
            hpux.parse_nwmgr_attrs("".join(lines[:n - 1] + [bad] + lines[n - 1:]))
        assert err.value.line == n


REAL = FIXTURES.parent / "tests" / "real"


def _real(path: str) -> str:
    return (REAL / path).read_text().split("\n---\n", 1)[1]


def test_lanscan_iap_names_and_ppas_without_state() -> None:
    """`lanscan -iap` (FusionInventory's HP-UX test data): address, names, PPA;
    `lanscan -i` alone: the names, each naming its PPA."""
    scan = hpux.parse_lanscan_iap((P / "lanscan-iap/apa-aggregates-unconfigured.txt").read_text())
    assert [(c.name, c.ppa, c.state, c.hw_path, c.is_aggregate) for c in scan.cards][:3] == [
        ("lan0", 0, None, None, False), ("lan1", 1, None, None, False), ("lan900", 900, None, None, True)]
    assert not scan.quiet_seen and scan.drivers == {}
    names = hpux.parse_lanscan_iap("lan0 snap0\nlan900 snap900\n")
    assert [(c.name, c.ppa) for c in names.cards] == [("lan0", 0), ("lan900", 900)]
    assert identify_text("0x0016353EAC5C lan0 snap0     0  \n") == "lanscan-iap"
    for text, said in (("0x001A4B07F002\n", "looks like `lanscan -a`"), ("0\n1\n900\n", "looks like `lanscan -p`")):
        with pytest.raises(ParseError, match=said):
            hpux.parse_lanscan_iap(text)


def test_lanadmin_g_status_display() -> None:
    """The MIB status block and the Ethernet-like group; in menu mode the menus
    around the display are not read (`LAN Interface PPA Number = 0` is the menu's)."""
    mib = hpux.parse_lanadmin_mib((P / "lanadmin-g/status-and-ethernet-group.txt").read_text())
    assert (mib.ppa, mib.number("Speed"), mib.number("MTU Size"), mib.status("Operation Status")) == (0, 10**9, 1500, "up")
    assert mib.line("Speed") == 9 and mib.values["FCS Errors"] == ("0", 32)
    menu = hpux.parse_lanadmin_mib(_real("lanadmin-g/jreypo-sap01-11iv2-menu-display.txt"))
    assert menu.values["Specific"] == ("655367", 54) and "clear" not in menu.values and len(menu.values) == 34
    assert identify_text(_real("lanadmin-g/jreypo-sap01-11iv2-menu-display.txt")) == "lanadmin-g@0"
    with pytest.raises(ParseError, match="no 'PPA Number"):
        hpux.parse_lanadmin_mib("LAN INTERFACE STATUS DISPLAY\nSpeed = 10\n")


def test_lanadmin_apa_displays_give_every_port() -> None:
    """-x -i: active, ready and not ready ports (connected ones are among them);
    -x -v: `Ports PPA`; -x -m: every aggregate."""
    group = hpux.parse_lanadmin_apa((P / "lanadmin-apa/x-i-failover-group.txt").read_text())
    assert [(g.ppa, g.members, g.mode) for g in group] == [(901, [3, 4, 6, 7, 5], "LAN_MONITOR")]
    every = hpux.parse_lanadmin_apa((P / "lanadmin-apa/x-m-all-aggregates.txt").read_text())
    assert [(g.ppa, g.members, g.line) for g in every] == [(900, [4], 2), (901, [1, 2, 3], 7)]
    ports = hpux.parse_lanadmin_apa("Link Aggregate PPA #      : 900\nPorts PPA                 : 0 1\n"
                                    "Link Aggregation State    : LINKAGG MANUAL\n")
    assert [(g.members, g.mode) for g in ports] == [([0, 1], "MANUAL")]
    assert identify_text("[0] ppa : 900\n") == "lanadmin-apa@900"
    with pytest.raises(ParseError) as err:
        hpux.parse_lanadmin_apa("Link Aggregate PPA # : 900\nlanadmin: bad PPA\n")
    assert err.value.line == 2


def test_nwmgr_apa_tables_give_each_aggregates_ports() -> None:
    """`nwmgr -S apa` (every aggregate, `-` for none) and `nwmgr -S apa -I 900`
    (jreypo's 11i v3 host): the Membership column is the last."""
    rows = hpux.parse_nwmgr_apa((P / "nwmgr-apa/all-aggregates.txt").read_text())
    assert [(r.name, r.members, r.line) for r in rows][:2] == [("lan900", [0, 1], 4), ("lan901", [], 5)]
    one = hpux.parse_nwmgr_apa(_real("nwmgr-apa/jreypo-ignite-11iv3-lan900.txt").split("\n", 1)[1])
    assert [(r.name, r.members) for r in one] == [("lan900", [0, 1])]
    assert hpux.parse_nwmgr_apa("==== ==== ==== ====\nlan900 Up LACP_AUTO 9,13*\n")[0].members == [9, 13]
    with pytest.raises(ParseError) as err:
        hpux.parse_nwmgr_apa("==== ==== ==== ====\nlan900 Up LACP_AUTO LB_MAC\n")
    assert err.value.line == 2


def test_lanscan_q_records_an_aggregate_listed_with_no_members() -> None:
    """The HP APA guide's `lanscan -q`: 900 with four ports, 901-903 configured with none.
    A port in no aggregate is alone on its line too (PPA under 900): not an aggregate."""
    scan = hpux.parse_lanscan(_real("lanscan/hp-apa-guide-11iv1v2-2008-lanscan-q.txt"))
    assert scan.members == {900: [5, 6, 8, 7], 901: [], 902: [], 903: []}
    assert scan.quiet_line == {900: 1, 901: 2, 902: 3, 903: 4}
    assert hpux.parse_lanscan("2\n900 0 1\n901\n").members == {900: [0, 1], 901: []}
