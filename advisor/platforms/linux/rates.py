"""Rates from two readings of a Linux host's counters (issue #29).

Per interface, `/proc/net/dev` gives bits and packets per second and drops
(rx and tx "drop"; rx drop already holds rx_missed_errors); `ethtool -S IFACE`
gives, where the driver counts them, no-buffer events and the share of sends
that went by TSO. Neither output carries a time: each reading is timed by the
manifest's `taken_at` (whole seconds, as live collection and the collector
script write it), and `ethtool -S` by its own, since the per-interface loop
runs after `/proc/net/dev`. Without times there is no rate, and the reason
says so. `/proc/net/dev` prints 64-bit counters on current kernels
(`unsigned long` on old 32-bit ones: a wrap there reads as a reset, never as
a huge rate); `ethtool -S` prints u64 values. Line rate: advisor reads no
`ethtool IFACE` (its Speed) yet, so no share of the line rate.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.facts import rates as arithmetic
from advisor.facts.traffic import TRAFFIC_VALUES, Rates, TrafficRate, link_rate, median, per_second, set_value
from advisor.platform_spec import SECOND

NET_DEV = "proc-net-dev"
STATS = "ethtool-stats"
# ethtool -S names, by driver (FACTS.md 3.7): the first pair both readings hold is used
NO_BUFFER = (("rx_out_of_buffer",),  # mlx5
             ("rx_no_buffer_count",),  # ixgbe, igb
             ("port.rx_dropped",))  # i40e
_QUEUE_DISCARDS = re.compile(r"\[\d+\]: rx_discards")  # bnx2x, per queue: summed
LSO = (("tx_tso_packets", "tx_packets"),  # mlx5
       ("tx_tcp_seg_good", "tx_packets"))  # igb
NO_TIME = "no time for the readings: /proc/net/dev prints none, and the manifest gives no taken_at"
NO_LINE = "no line rate: advisor does not read `ethtool IFACE` (Speed) yet"


def build(parsed: dict[str, Any], files: dict[str, str]) -> Rates | None:
    """The rates two readings of /proc/net/dev give, or None with fewer than two."""
    first, second = parsed.get(NET_DEV), parsed.get(NET_DEV + SECOND)
    if first is None or second is None:
        return None
    out = Rates()
    out.evidence["samples"] = ", ".join(files[c] for c in (NET_DEV, NET_DEV + SECOND))
    timed = first.taken_at is not None and second.taken_at is not None
    for name in dict.fromkeys([*first.interfaces, *second.interfaces]):
        before, after = first.interfaces.get(name), second.interfaces.get(name)
        if not timed:
            out.links.append(TrafficRate(name=name, reasons=dict.fromkeys(TRAFFIC_VALUES, NO_TIME)))
            continue
        a = None if before is None else arithmetic.Sample(first.taken_at, before)
        b = None if after is None else arithmetic.Sample(second.taken_at, after)
        entry = link_rate(name, a, b, in_bytes=["rx_bytes"], out_bytes=["tx_bytes"], in_packets=["rx_packets"],
                          out_packets=["tx_packets"], drops=["rx_drop", "tx_drop"],
                          why={"line_bps": NO_LINE, "in_line_share": NO_LINE, "out_line_share": NO_LINE})
        if a is not None and b is not None and entry.interval_s is not None:
            _driver(entry, parsed.get(f"{STATS}@{name}"), parsed.get(f"{STATS}@{name}{SECOND}"))
        out.links.append(entry)
    out.interval_s = median([e.interval_s for e in out.links if e.interval_s is not None and e.interval_s > 0])
    if out.interval_s is None:
        out.reasons["interval_s"] = NO_TIME if not timed else "no interface had a usable interval"
    return out


def _driver(entry: TrafficRate, first: Any, second: Any) -> None:
    """No-buffer events and the TSO share, from two readings of the driver's `ethtool -S`."""
    if first is None or second is None:
        why = "ethtool -S of the interface was not read twice: no driver counters"
        entry.reasons["no_buffer_per_s"] = entry.reasons["lso_share"] = why
        return
    if first.taken_at is None or second.taken_at is None:
        entry.reasons["no_buffer_per_s"] = entry.reasons["lso_share"] = \
            "no time for the ethtool -S readings: the manifest gives no taken_at"
        return
    a, b = arithmetic.Sample(first.taken_at, first.stats), arithmetic.Sample(second.taken_at, second.stats)
    both = a.counters.keys() & b.counters.keys()
    no_buffer = next((list(names) for names in NO_BUFFER if set(names) <= both), None) \
        or sorted(n for n in both if _QUEUE_DISCARDS.fullmatch(n))
    lso = next((pair for pair in LSO if set(pair) <= both), None)
    got = arithmetic.rates(a, b, names=[*no_buffer, *(lso or ())])
    entry.reasons.pop("no_buffer_per_s", None)
    entry.reasons.pop("lso_share", None)
    if no_buffer:
        set_value(entry, "no_buffer_per_s", *per_second(got, no_buffer))
    else:
        entry.reasons["no_buffer_per_s"] = "the driver's ethtool -S has no no-buffer counter advisor knows"
    if lso is not None:
        share = arithmetic.share_of(got[lso[0]], got[lso[1]])
        set_value(entry, "lso_share", share.value, share.reason)
    else:
        entry.reasons["lso_share"] = "the driver's ethtool -S does not count TSO sends"
    entry.wrapped = sorted({*entry.wrapped, *(r.counter for r in got.values() if r.wrapped)})
