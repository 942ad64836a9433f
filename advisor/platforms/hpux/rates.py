"""Rates from two readings of HP-UX `lanadmin -g PPA` (issue #29).

The display's MIB-II counters (RFC 1213) are 32-bit and wrap: Inbound and
Outbound Octets go round in 34 s at 1 Gb/s. Each is given its ceiling, the
most it can count in a second at the display's Speed (octets: Speed / 8;
packets: Speed / 672, a minimum frame with preamble and gap), so a wrap is
taken only when one wrap is the sole reading possible; an interval in which
a counter could go round its whole range gives no rate, with the reason.
Time: the display's own date line (local time, whole seconds), else the
manifest's `taken_at`; with neither, no rate. `Last Change` (the uptime at
the interface's last change of state) differing between the readings while a
counter went down says the interface went down and up and its counters
restarted: no rate. No-buffer events and LSO sends are not in the display.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from advisor.facts import rates as arithmetic
from advisor.facts.traffic import TRAFFIC_VALUES, Rates, TrafficRate, link_rate, median
from advisor.platform_spec import SECOND

MIB = "lanadmin-g"
COUNTERS = ("Inbound Octets", "Outbound Octets", "Inbound Unicast Packets", "Inbound Non-Unicast Packets",
            "Outbound Unicast Packets", "Outbound Non-Unicast Packets", "Inbound Discards", "Outbound Discards",
            "Inbound Errors", "Outbound Errors")
WIDTHS: dict[str, arithmetic.Width] = dict.fromkeys(COUNTERS, 32)
FRAME_BITS = 84 * 8  # the least a frame takes on the wire: 64 bytes, preamble and inter-frame gap
_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
                                       "Dec"), 1)}
# `Mon, May 23,2011  12:01:08`, `Tue , Feb 9,2010  14:22:27`
_DATE = re.compile(r"(?P<mon>[A-Z][a-z]{2})[ \t]+(?P<day>\d{1,2})[ \t]*,[ \t]*(?P<year>\d{4})[ \t]+"
                   r"(?P<h>\d{1,2}):(?P<m>\d{2}):(?P<s>\d{2})")
WHY = {"no_buffer_per_s": "lanadmin -g counts no no-buffer events",
       "lso_share": "lanadmin -g does not count LSO sends"}


def display_time(date: str | None) -> float | None:
    """The date line as seconds (its local time read as if UTC: only differences are used), or None."""
    m = _DATE.search(date or "")
    if m is None or m.group("mon") not in _MONTHS:
        return None
    try:
        when = datetime(int(m.group("year")), _MONTHS[m.group("mon")], int(m.group("day")), int(m.group("h")),
                        int(m.group("m")), int(m.group("s")), tzinfo=timezone.utc)
    except ValueError:
        return None
    return when.timestamp()


def _times(first: Any, second: Any) -> tuple[float | None, float | None, str]:
    a, b = display_time(first.date), display_time(second.date)
    if a is not None and b is not None:
        return a, b, "the displays' date lines"
    if first.taken_at is not None and second.taken_at is not None:
        return first.taken_at, second.taken_at, "the manifest's taken_at"
    return None, None, ""


def build(parsed: dict[str, Any], files: dict[str, str]) -> Rates | None:
    """The rates two readings of `lanadmin -g` give per interface, or None with no interface read twice."""
    pairs = sorted((cid, parsed[cid + SECOND]) for cid in parsed
                   if cid.startswith(MIB + "@") and cid + SECOND in parsed)
    if not pairs:
        return None
    out = Rates()
    out.evidence["samples"] = ", ".join(f"{files[cid]}, {files[cid + SECOND]}" for cid, _ in pairs)
    for cid, second in pairs:
        out.links.append(_link(parsed[cid], second))
    out.links.sort(key=lambda e: int(e.name[3:]) if e.name[3:].isdigit() else 0)
    out.interval_s = median([e.interval_s for e in out.links if e.interval_s is not None and e.interval_s > 0])
    if out.interval_s is None:
        out.reasons["interval_s"] = next(iter(out.links[0].reasons.values()), "no interface had an interval")
    return out


def _link(first: Any, second: Any) -> TrafficRate:
    name = f"lan{first.ppa}"
    t1, t2, _source = _times(first, second)
    if t1 is None or t2 is None:
        untimed = "no time for the readings: no date line in the displays and no taken_at in the manifest"
        return TrafficRate(name=name, reasons=dict.fromkeys(TRAFFIC_VALUES, untimed))
    a = arithmetic.Sample(t1, {c: n for c in COUNTERS if (n := first.number(c)) is not None})
    b = arithmetic.Sample(t2, {c: n for c in COUNTERS if (n := second.number(c)) is not None})
    restarted = _restarted(first, second, a, b)
    if restarted:
        return TrafficRate(name=name, interval_s=t2 - t1, reasons=dict.fromkeys(TRAFFIC_VALUES, restarted))
    speed = second.number("Speed") or first.number("Speed")
    ceilings: dict[str, float] = {}
    if speed:
        for c in COUNTERS:
            ceilings[c] = speed / 8 if c.endswith("Octets") else speed / FRAME_BITS
    lacking = dict(WHY)
    if not speed:
        lacking.update(dict.fromkeys(("line_bps", "in_line_share", "out_line_share"), "the display gives no Speed"))
    return link_rate(name, a, b, in_bytes=["Inbound Octets"], out_bytes=["Outbound Octets"],
                     in_packets=["Inbound Unicast Packets", "Inbound Non-Unicast Packets"],
                     out_packets=["Outbound Unicast Packets", "Outbound Non-Unicast Packets"],
                     drops=["Inbound Discards", "Outbound Discards", "Inbound Errors", "Outbound Errors"],
                     line_bps=speed or None, widths=WIDTHS, ceilings=ceilings, why=lacking)


def _restarted(first: Any, second: Any, a: arithmetic.Sample, b: arithmetic.Sample) -> str | None:
    """Why the counters restarted: the interface changed state and a counter went down."""
    before, after = first.number("Last Change"), second.number("Last Change")
    if before is None or after is None or before == after:
        return None
    fell = sorted(c for c in a.counters.keys() & b.counters.keys() if b.counters[c] < a.counters[c])
    if not fell:
        return None
    return (f"the interface changed state between the readings (Last Change {before} -> {after}) and its "
            f"counters went down ({fell[0]} {a.counters[fell[0]]} -> {b.counters[fell[0]]}): they restarted")
