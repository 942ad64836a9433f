"""The kstat statistics advisor's rules read: a dump is scanned for these alone."""

from __future__ import annotations

import re

from advisor.collect.capture import RawOutput
from advisor.platforms.solaris.parsers import kstat
from advisor.platforms.solaris.parsers.kstat import KstatKey, KstatValue

_LDC_NAME = re.compile(r"^(vnet|vsw)\w*ldc")
LDC_STATS = {"dring_mode", "lso_enabled", "lso_max_len", "lso_opackets"}
# Counters `advisor diff` compares between two captures: traffic, and where
# packets are lost (illumos vgen_stats.c names these per LDC).
LDC_COUNTERS = {"opackets64", "ipackets64", "ierrors", "oerrors", "norcvbuf", "noxmtbuf", "tx_no_desc",
                "rx_allocb_fail", "rx_lost_pkts"}
MODULES = frozenset({"vnet", "vsw", "tcp"})
TCP_LSO_STATS = {"tcp_lso_enabled", "tcp_lso_disabled", "tcp_lso_times", "tcp_lso_pkt_out"}
STATISTICS = frozenset(LDC_STATS | LDC_COUNTERS | TCP_LSO_STATS | {"outDataSegs"})  # every one `wanted` accepts


def wanted(module: str, instance: str, name: str, statistic: str) -> bool:
    if module == "vnet" or module == "vsw":
        return (statistic in LDC_STATS or statistic in LDC_COUNTERS) and bool(_LDC_NAME.match(name))
    if module == "tcp" and instance == "0":
        return (name == "tcpstat" and statistic in TCP_LSO_STATS) or (name == "tcp" and statistic == "outDataSegs")
    return False


def scan_output(output: RawOutput) -> dict[KstatKey, KstatValue]:
    return kstat.scan_file(output.path, wanted, MODULES, STATISTICS)
