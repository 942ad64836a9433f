"""The kstat statistics rules read, and the facts made of them."""

from __future__ import annotations

import re

from advisor.facts.models import LdcChannel, TcpLso
from advisor.parsers.kstat import KstatKey, KstatValue
from advisor.parsers.text import parse_int

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


def ldc_channels(stats: dict[KstatKey, KstatValue], file: str) -> list[LdcChannel]:
    channels: dict[tuple[str, int, str], LdcChannel] = {}
    for key, val in stats.items():
        if key.module not in ("vnet", "vsw"):
            continue
        ch = channels.setdefault((key.module, key.instance, key.name),
                                 LdcChannel(module=key.module, instance=key.instance, name=key.name))
        value = parse_int(val.value)
        if key.statistic in LDC_COUNTERS:
            if value is not None:
                ch.counters[key.statistic] = value
            continue
        setattr(ch, key.statistic, value)
        ch.evidence[key.statistic] = f"{file}:{val.line}"
    return sorted(channels.values(), key=lambda c: (c.module, c.instance, c.name))


def tcp_lso(stats: dict[KstatKey, KstatValue], file: str) -> TcpLso | None:
    lso = TcpLso()
    found = False
    for key, val in stats.items():
        if key.module != "tcp":
            continue
        field = "out_data_segs" if key.statistic == "outDataSegs" else key.statistic.removeprefix("tcp_lso_")
        setattr(lso, field, parse_int(val.value))
        lso.evidence[field] = f"{file}:{val.line}"
        found = True
    return lso if found else None
