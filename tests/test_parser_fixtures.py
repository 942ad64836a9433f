"""Every real-format variant under fixtures/parsers/<command-id>/ is found
automatically: it must be identified as that command and parse cleanly."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.collect.capture import RawOutput
from advisor.collect.identify import identify
from advisor.platforms.solaris.parsers import kstat_wanted
from advisor.parsers import parser_for
from advisor.platforms.solaris.parsers import kstat
from conftest import FIXTURES, is_sample

VARIANTS = sorted(p for p in (FIXTURES / "parsers").glob("*/*") if is_sample(p))


def parse_file(command_id: str, path: Path):
    if command_id == "kstat-p":
        return kstat.parse(path.read_text())
    parser = parser_for(command_id)
    assert parser is not None, f"no parser for {command_id}"
    return parser(RawOutput(command_id, str(path), path))


def test_there_are_variants_for_every_parser() -> None:
    covered = {p.parent.name for p in VARIANTS}
    assert {"ldm-list-l", "ldm-list-l-p", "ldm-version", "kstat-p", "dladm-show-linkprop", "dladm-show-phys",
            "dladm-show-dev", "ipadm-show-prop-tcp", "etc-system", "psrinfo-pv", "pkg-entire", "showrev-p",
            "virtinfo", "ndd-tcp", "uname-a", "release", "xm-vcpu-list", "xl-vcpu-list", "xl-info", "xl-list",
            "brctl-show", "ip-link", "ethtool-k", "ethtool-c", "ethtool-i", "sysctl-net", "lspci-vv",
            "lanscan", "lanscan-v", "nwmgr-vmtu", "lanadmin-vmtu", "nwmgr", "nwmgr-attrs", "plan", "ldm-list-constraints-x"} <= covered


# Outputs that do not name their interface are known by their bundle file name only.
NAMED_ONLY = {"nwmgr-vmtu", "lanadmin-vmtu", "ethtool-i"}


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_variant_is_identified_and_parses(path: Path) -> None:
    command_id = path.parent.name
    expected = None if command_id in NAMED_ONLY else command_id
    assert ((identify(path) or "").split("@")[0] or None) == expected  # ethtool ids name the interface
    assert parse_file(command_id, path)


def test_kstat_wanted_filter_keeps_only_rule_inputs() -> None:
    stats = kstat.parse((FIXTURES / "parsers/kstat-p/seed002-grep.txt").read_text(), kstat_wanted.wanted)
    assert {k.statistic for k in stats} == {"dring_mode", "tcp_lso_disabled", "tcp_lso_enabled", "tcp_lso_pkt_out",
                                           "tcp_lso_times", "lso_enabled", "lso_max_len", "lso_opackets"}
