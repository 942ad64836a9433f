"""The kstat statistics advisor's rules and rates read: a dump is scanned for these alone."""

from __future__ import annotations

import re

from advisor.collect.capture import RawOutput
from advisor.platform_spec import SECOND
from advisor.platforms.solaris.parsers import kstat
from advisor.platforms.solaris.parsers.kstat import KstatKey, KstatValue

_LDC_NAME = re.compile(r"^(vnet|vsw)\w*ldc")
LDC_STATS = {"dring_mode", "lso_enabled", "lso_max_len", "lso_opackets"}
# Counters `advisor diff` compares between two captures: traffic, and where
# packets are lost (illumos vgen_stats.c names these per LDC).
LDC_COUNTERS = {"opackets64", "ipackets64", "ierrors", "oerrors", "norcvbuf", "noxmtbuf", "tx_no_desc",
                "rx_allocb_fail", "rx_lost_pkts"}
# What rates need besides (issue #29): bytes per LDC, and each kstat's times.
LDC_RATE_COUNTERS = {"rbytes64", "obytes64"}
TIMES = {"snaptime", "crtime"}  # every kstat instance has both (kstat -p prints them among its statistics)
# link:0:<link> (illumos dls_stat.c): the 64-bit traffic counters, the 32-bit loss counters, the line rate
LINK_STATS = {"rbytes64", "obytes64", "ipackets64", "opackets64", "norcvbuf", "noxmtbuf", "ierrors", "oerrors",
              "ifspeed"}
# cpu:<n>:sys (illumos cpu.c): busy time in nanoseconds, ticks where nanoseconds are absent
CPU_STATS = {"cpu_nsec_idle", "cpu_nsec_kernel", "cpu_nsec_user", "cpu_ticks_idle", "cpu_ticks_kernel",
             "cpu_ticks_user", "cpu_ticks_wait"}
MODULES = frozenset({"vnet", "vsw", "tcp", "link", "cpu"})
TCP_LSO_STATS = {"tcp_lso_enabled", "tcp_lso_disabled", "tcp_lso_times", "tcp_lso_pkt_out"}
STATISTICS = frozenset(LDC_STATS | LDC_COUNTERS | LDC_RATE_COUNTERS | TIMES | LINK_STATS | CPU_STATS
                       | TCP_LSO_STATS | {"outDataSegs"})  # every one `wanted` accepts


# What the rules read of a dump of one sample: the rates' link and CPU statistics are scanned
# for only when there is a second sample (a dump's cpu:N:sys lines are a third of it or more,
# and the scan's search for them cost a review a third more time).
RULE_MODULES = frozenset({"vnet", "vsw", "tcp"})
RULE_STATISTICS = frozenset(LDC_STATS | LDC_COUNTERS | TCP_LSO_STATS | {"outDataSegs"})


def for_rules(module: str, instance: str, name: str, statistic: str) -> bool:
    if module == "vnet" or module == "vsw":
        return (statistic in LDC_STATS or statistic in LDC_COUNTERS) and bool(_LDC_NAME.match(name))
    if module == "tcp" and instance == "0":
        return (name == "tcpstat" and statistic in TCP_LSO_STATS) or (name == "tcp" and statistic == "outDataSegs")
    return False


def wanted(module: str, instance: str, name: str, statistic: str) -> bool:
    """What the rules and the rates read: the rules' statistics, and the counters and times rates need."""
    return for_rules(module, instance, name, statistic) or _for_rates(module, instance, name, statistic)


def _for_rates(module: str, instance: str, name: str, statistic: str) -> bool:
    if module == "vnet" or module == "vsw":
        return (statistic in LDC_RATE_COUNTERS or statistic in TIMES) and bool(_LDC_NAME.match(name))
    if module == "link":
        return instance == "0" and (statistic in LINK_STATS or statistic in TIMES)
    if module == "cpu":
        return name == "sys" and (statistic in CPU_STATS or statistic in TIMES)
    return module == "tcp" and instance == "0" and name in ("tcpstat", "tcp") and statistic in TIMES


def scan_output(output: RawOutput) -> kstat.Scan:
    """What the rules read; what the rates read too when the dump holds a second sample
    or is one (`kstat-p~2`). A bundle's first dump is read again by with_rates once its
    second is met."""
    scan = kstat.scan_file(output.path, for_rules, RULE_MODULES, RULE_STATISTICS)
    if scan.rounds > 1 or scan.blank_inside or output.command_id.endswith(SECOND):
        return kstat.scan_file(output.path, wanted, MODULES, STATISTICS)
    scan.path = output.path
    return scan


def with_rates(scan: kstat.Scan) -> kstat.Scan:
    """The dump read again for what the rates read too, if it was read for the rules alone."""
    return scan if scan.path is None else kstat.scan_file(scan.path, wanted, MODULES, STATISTICS)


__all__ = ["KstatKey", "KstatValue", "for_rules", "scan_output", "wanted", "with_rates"]
