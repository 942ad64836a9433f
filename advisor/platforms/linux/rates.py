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
a huge rate); `ethtool -S` prints u64 values. Line rate: the `Speed` that
`ethtool IFACE` printed, read once (the negotiated speed, not a counter);
without it, or with `Speed: Unknown!` (no link, or a virtual NIC that
reports no speed), there is no share of the line rate, and the reason says which.
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
SETTINGS = "ethtool"
NO_LINE = "no line rate: `ethtool IFACE` (its Speed) was not read"


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
        mbps, said = _line_rate(parsed.get(f"{SETTINGS}@{name}"), files.get(f"{SETTINGS}@{name}"))
        entry = link_rate(name, a, b, in_bytes=["rx_bytes"], out_bytes=["tx_bytes"], in_packets=["rx_packets"],
                          out_packets=["tx_packets"], drops=["rx_drop", "tx_drop"],
                          line_bps=mbps * 1_000_000 if mbps else None,
                          why=None if mbps else dict.fromkeys(("line_bps", "in_line_share", "out_line_share"), said))
        if mbps and entry.line_bps is not None:
            entry.evidence["line_bps"] = said  # the ethtool file and line of its Speed
        if a is not None and b is not None and entry.interval_s is not None:
            _driver(entry, parsed.get(f"{STATS}@{name}"), parsed.get(f"{STATS}@{name}{SECOND}"))
        out.links.append(entry)
    out.interval_s = median([e.interval_s for e in out.links if e.interval_s is not None and e.interval_s > 0])
    if out.interval_s is None:
        out.reasons["interval_s"] = NO_TIME if not timed else "no interface had a usable interval"
    return out


def _line_rate(settings: Any, file: str | None) -> tuple[int | None, str]:
    """The link's speed in Mb/s from its `ethtool IFACE`, and where it was read (or why there is none)."""
    if settings is None or file is None:
        return None, NO_LINE
    if settings.speed_mbps:
        return settings.speed_mbps, f"{file}:{settings.speed_line}"
    if settings.speed is None:
        return None, "no line rate: `ethtool IFACE` printed no Speed"
    link = {True: " (link detected)", False: " (no link detected)", None: ""}[settings.link_detected]
    return None, f"no line rate: `ethtool IFACE` says Speed: {settings.speed}{link}"


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
