"""The facts made of the kstat statistics the rules read: the TCP LSO counters."""

from __future__ import annotations

from advisor.platforms.solaris.parsers.kstat import KstatKey, KstatValue
from advisor.platforms.solaris.parsers.kstat_wanted import TCP_LSO_STATS
from advisor.platforms.solaris.records import TcpLso
from advisor.parsers.text import parse_int


def tcp_lso(stats: dict[KstatKey, KstatValue], file: str) -> TcpLso | None:
    lso = TcpLso()
    found = False
    for key, val in stats.items():
        if key.module != "tcp" or (key.statistic not in TCP_LSO_STATS and key.statistic != "outDataSegs"):
            continue
        field = "out_data_segs" if key.statistic == "outDataSegs" else key.statistic.removeprefix("tcp_lso_")
        setattr(lso, field, parse_int(val.value))
        lso.evidence[field] = f"{file}:{val.line}"
        found = True
    return lso if found else None
