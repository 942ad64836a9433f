"""What the HP-UX parsers read from each real-format variant."""

from __future__ import annotations

import pytest

from advisor.errors import ParseError
from advisor.parsers import hpux
from conftest import FIXTURES

P = FIXTURES / "parsers"


def test_lanscan_long_paths_linkagg_and_quiet_tail() -> None:
    scan = hpux.parse_lanscan((P / "lanscan/long-paths-linkagg-and-q.txt").read_text())
    assert [(c.name, c.ppa, c.hw_path, c.is_aggregate) for c in scan.cards][:3] == [
        ("lan0", 0, "0/0/1/1/0/6/0", False), ("lan1", 1, "0/0/1/1/0/6/1", False), ("lan2", 2, "0/0/12/1/0", False)]
    assert scan.cards[3].is_aggregate and scan.cards[3].hw_path == "LinkAgg0"
    assert scan.members == {900: [0, 1]}


def test_lanscan_fddi_rows_without_snap() -> None:
    scan = hpux.parse_lanscan((P / "lanscan/fddi-and-snap-less-rows.txt").read_text())
    assert [(c.name, c.state) for c in scan.cards] == [("lan0", "UP"), ("lan3", "UP"), ("lan2", "DOWN"), ("lan1", "DOWN")]


def test_lanscan_v_drivers() -> None:
    drivers = hpux.parse_lanscan_v((P / "lanscan-v/iether-gelan.txt").read_text())
    assert {k: v[0] for k, v in drivers.items()} == {"lan0": "iether", "lan1": "iether", "lan2": "gelan"}


def test_vmtu_outputs() -> None:
    off = hpux.parse_vmtu((P / "nwmgr-vmtu/tso-off.txt").read_text())
    assert (off.vmtu, off.tso_supported) == (0, True)
    none = hpux.parse_vmtu((P / "nwmgr-vmtu/unsupported.txt").read_text())
    assert (none.vmtu, none.tso_supported) == (None, False)
    assert hpux.parse_vmtu((P / "lanadmin-vmtu/tso-on.txt").read_text()).vmtu == 32160
    with pytest.raises(ParseError):
        hpux.parse_vmtu("lanadmin: Invalid PPA\n")
