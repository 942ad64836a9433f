"""Rates from two samples of a host's counters (issue #29), as host facts.

A platform pack that finds two samples of its counters (`kstat -p` twice, say)
pairs each object's two readings (advisor.facts.rates) and fills a `Rates`:
one `TrafficRate` per link and per virtual switch port or channel, one
`CpuRate` per CPU of the captured domain, and the host's totals. Every value
is None when no honest rate exists (a counter reset, an object re-created
between the samples, a counter missing, no interval), and `reasons` then says
why under the value's name. Nothing here names a platform.

Units: bits and packets per second; shares are fractions in [0, 1].
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from advisor.facts import rates as arithmetic
from advisor.facts.record import Fact


class TrafficRate(Fact):
    """A link, or a virtual switch port / channel, over the interval."""

    name: str  # as the source names it: `net0`, `vsw:0:vswldc0x3`
    kind: str = "link"  # link, or port (a virtual switch port or a virtual network channel)
    interval_s: float | None = None
    in_bps: float | None = None
    out_bps: float | None = None
    line_bps: float | None = None  # the line rate, where the source says it
    in_line_share: float | None = None  # in_bps / line_bps
    out_line_share: float | None = None
    in_pps: float | None = None
    out_pps: float | None = None
    drops_per_s: float | None = None  # packets lost or refused, both directions (the counters: see the pack)
    no_buffer_per_s: float | None = None  # receive and send no-buffer events
    lso_share: float | None = None  # the share of packets sent that went by large send offload
    wrapped: list[str] = []  # 32-bit counters that went round once in the interval (their delta is still right)
    reasons: dict[str, str] = {}  # value name -> why it is None


class CpuRate(Fact):
    name: str  # cpu0
    interval_s: float | None = None
    busy: float | None = None  # 1 - idle share over the interval
    reasons: dict[str, str] = {}


class Rates(Fact):
    """What two samples say, for the captured host or domain."""

    interval_s: float | None = None  # the samples' interval (the median of the objects' own, which differ by ms)
    links: list[TrafficRate] = []
    ports: list[TrafficRate] = []
    cpus: list[CpuRate] = []
    cpu_busy: float | None = None  # all its CPUs together: the service domain's CPU busy
    tcp_lso_share: float | None = None  # TCP sends that went by LSO, host-wide
    reasons: dict[str, str] = {}


def per_second(got: Mapping[str, arithmetic.Rate], names: Sequence[str], scale: float = 1.0) -> tuple[float | None, str | None]:
    """The sum of these counters' rates (times `scale`: 8 for bytes to bits), or None and the first reason."""
    total = 0.0
    for name in names:
        r = got.get(name)
        if r is None:
            return None, f"{name} was not read"
        if r.per_second is None:
            return None, r.reason or f"{name}: no rate"
        total += r.per_second
    return total * scale, None


def set_value(record: TrafficRate | CpuRate | Rates, field: str, value: float | None, reason: str | None) -> None:
    """Sets a value, or records why it is None."""
    setattr(record, field, value)
    if value is None and reason:
        record.reasons[field] = reason


def median(values: Sequence[float]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


TRAFFIC_VALUES = ("in_bps", "out_bps", "line_bps", "in_line_share", "out_line_share", "in_pps", "out_pps",
                  "drops_per_s", "no_buffer_per_s", "lso_share")


def set_line_rate(entry: TrafficRate, line_bps: float) -> None:
    """The link's line rate, and the share of it each direction carries (or why it is not known)."""
    entry.line_bps = float(line_bps)
    for field, bps in (("in_line_share", entry.in_bps), ("out_line_share", entry.out_bps)):
        if bps is None:
            entry.reasons[field] = entry.reasons.get(field.split("_")[0] + "_bps", "no rate")
        else:
            setattr(entry, field, bps / line_bps)


def link_rate(name: str, before: arithmetic.Sample | None, after: arithmetic.Sample | None, *,
              in_bytes: Sequence[str], out_bytes: Sequence[str], in_packets: Sequence[str],
              out_packets: Sequence[str], drops: Sequence[str], no_buffer: Sequence[str] | None = None,
              lso: tuple[str, str] | None = None, line_bps: float | None = None,
              widths: Mapping[str, arithmetic.Width] | None = None, ceilings: Mapping[str, float] | None = None,
              why: Mapping[str, str] | None = None) -> TrafficRate:
    """A link's rates from two samples of its counters, by the counters' names in the source.

    `no_buffer` None: the source counts no such events; `lso` (sent by LSO, all
    sent) None: it counts no LSO sends; `line_bps` None: it gives no line rate.
    `why` says, under a value's name, why a value the source lacks is None.
    """
    entry = TrafficRate(name=name)
    why = why or {}
    reason: str | None
    if before is None or after is None:
        which = "second" if before is None else "first"
        reason = f"in the {which} sample only: created or removed between the samples"
    elif (reason := arithmetic.unusable(before, after)) is None:
        entry.interval_s = after.time - before.time
        names = [*in_bytes, *out_bytes, *in_packets, *out_packets, *drops, *(no_buffer or ()), *(lso or ())]
        got = arithmetic.rates(before, after, widths, ceilings, names=list(dict.fromkeys(names)))
        entry.wrapped = sorted(r.counter for r in got.values() if r.wrapped)
        for field, counters, scale in (("in_bps", in_bytes, 8.0), ("out_bps", out_bytes, 8.0),
                                       ("in_pps", in_packets, 1.0), ("out_pps", out_packets, 1.0),
                                       ("drops_per_s", drops, 1.0)):
            set_value(entry, field, *per_second(got, counters, scale))
        if no_buffer is not None:
            set_value(entry, "no_buffer_per_s", *per_second(got, no_buffer, 1.0))
        if lso is not None:
            share = arithmetic.share_of(got[lso[0]], got[lso[1]])
            set_value(entry, "lso_share", share.value, share.reason)
        if line_bps:
            set_line_rate(entry, line_bps)
        reason = None
    for field, text in ({} if reason else why).items():  # no rate at all: that reason first
        if getattr(entry, field) is None and field not in entry.reasons:
            entry.reasons[field] = text
    for field in TRAFFIC_VALUES:
        if getattr(entry, field) is None and field not in entry.reasons:
            entry.reasons[field] = reason or "no rate"
    return entry
