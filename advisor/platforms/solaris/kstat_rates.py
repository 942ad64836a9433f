"""Rates from two samples of `kstat -p` (issue #29): per link (`link:0:<link>`),
per virtual switch port and virtual network channel (`vsw:<i>:vswldc0x<id>`,
`vnet:<i>:vnetldc0x<id>`), per CPU of the captured domain (`cpu:<n>:sys`), and
the share of TCP sends that used LSO (`tcp:0:tcpstat`, `tcp:0:tcp`).

Each object is timed by its own `snaptime` and known by its `crtime`: a
changed crtime means the kstat was deleted and created again, its counters
restarted, so it has no rate. Widths (illumos dls_stat.c, vgen_stats.c,
cpu.c, tcp_stats.c): the *64 traffic counters and the CPU times are 64-bit,
the loss counters 32-bit (they wrap), outDataSegs 32-bit; lso_opackets is
not public and is read as 32-bit, the safer guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.facts import rates as arithmetic
from advisor.facts.traffic import CpuRate, Rates, TrafficRate, median, per_second, set_line_rate, set_value
from advisor.parsers.text import parse_int
from advisor.platforms.solaris.parsers.kstat import KstatKey, KstatValue, Scan

Kstats = dict[KstatKey, KstatValue]
Object = tuple[str, int, str]

LINK_WIDTHS: dict[str, arithmetic.Width] = {"norcvbuf": 32, "noxmtbuf": 32, "ierrors": 32, "oerrors": 32}
PORT_WIDTHS: dict[str, arithmetic.Width] = {"norcvbuf": 32, "noxmtbuf": 32, "tx_no_desc": 32, "rx_allocb_fail": 32,
                                            "rx_lost_pkts": 32, "lso_opackets": 32}
LINK_DROPS = ("ierrors", "oerrors")
PORT_DROPS = ("tx_no_desc", "rx_allocb_fail", "rx_lost_pkts")
NO_BUFFER = ("norcvbuf", "noxmtbuf")
TRAFFIC = ("rbytes64", "obytes64", "ipackets64", "opackets64")
# kstat cpu:N:sys names; both kinds are 64-bit. cpu_stat:N:cpu_statN's idle/user/kernel are 32-bit ticks.
NSEC = ("cpu_nsec_idle", ("cpu_nsec_kernel", "cpu_nsec_user"))
TICKS = ("cpu_ticks_idle", ("cpu_ticks_kernel", "cpu_ticks_user", "cpu_ticks_wait"))
VALUES = ("in_bps", "out_bps", "line_bps", "in_line_share", "out_line_share", "in_pps", "out_pps", "drops_per_s",
          "no_buffer_per_s", "lso_share")


def samples_of(*scans: Kstats | None) -> list[Kstats]:
    """Every sample the outputs hold, in order: a dump of several rounds gives its first and last."""
    found: list[Kstats] = []
    for scan in scans:
        if scan is None:
            continue
        held = getattr(scan, "samples", None)
        found += held if held else [scan]
    return found


def build(first: Kstats | None, second: Kstats | None = None, evidence: str | None = None) -> Rates | None:
    """The rates two samples give, or None with fewer than two samples."""
    found = samples_of(first, second)
    if len(found) < 2:
        return None
    before, after = _objects(found[0]), _objects(found[-1])
    if _earlier(after, before):  # the second file holds the earlier sample
        before, after = after, before
    out = Rates()
    if evidence:
        out.evidence["samples"] = evidence
    intervals: list[float] = []
    for key in sorted(before.keys() | after.keys(), key=lambda k: (k[0], k[1], k[2])):
        module, _instance, name = key
        if module == "link":
            out.links.append(_traffic(name, "link", before.get(key), after.get(key), LINK_WIDTHS, LINK_DROPS, intervals))
        elif module in ("vnet", "vsw"):
            out.ports.append(_traffic(f"{module}:{key[1]}:{name}", "port", before.get(key), after.get(key),
                                      PORT_WIDTHS, PORT_DROPS, intervals))
        elif module == "cpu":
            out.cpus.append(_cpu(key[1], before.get(key), after.get(key), intervals))
    out.interval_s = median(intervals)
    if out.interval_s is None:
        out.reasons["interval_s"] = "no object had a time (snaptime) in both samples"
    _cpu_total(out, before, after)
    _tcp_lso(out, before, after)
    return out


def _objects(kstats: Kstats) -> dict[Object, dict[str, str]]:
    held: dict[Object, dict[str, str]] = {}
    for key, val in kstats.items():
        held.setdefault((key.module, key.instance, key.name), {})[key.statistic] = val.value
    return held


def _time(stats: dict[str, str], name: str) -> float | None:
    try:
        value = float(stats[name])
    except (KeyError, ValueError):
        return None
    return value if value == value and abs(value) != float("inf") else None


def _earlier(a: dict[Object, dict[str, str]], b: dict[Object, dict[str, str]]) -> bool:
    """Most objects of both were read earlier in `a` than in `b`."""
    votes = 0
    for key in a.keys() & b.keys():
        ta, tb = _time(a[key], "snaptime"), _time(b[key], "snaptime")
        if ta is not None and tb is not None and ta != tb:
            votes += 1 if ta < tb else -1
    return votes > 0


def _sample(stats: dict[str, str]) -> arithmetic.Sample | None:
    when = _time(stats, "snaptime")
    if when is None:
        return None
    counters = {k: n for k, v in stats.items() if k not in ("snaptime", "crtime") and (n := parse_int(v)) is not None}
    return arithmetic.Sample(when, counters, _time(stats, "crtime"))


def _pair(before: dict[str, str] | None, after: dict[str, str] | None) -> tuple[Any, Any, str | None]:
    if before is None or after is None:
        which = "second" if before is None else "first"
        return None, None, f"in the {which} sample only: created or removed between the samples"
    a, b = _sample(before), _sample(after)
    if a is None or b is None:
        return None, None, "no snaptime: the kstat selector left the times out"
    return a, b, None


def _traffic(name: str, kind: str, before: dict[str, str] | None, after: dict[str, str] | None,
             widths: dict[str, arithmetic.Width], drops: Sequence[str], intervals: list[float]) -> TrafficRate:
    entry = TrafficRate(name=name, kind=kind)
    a, b, why = _pair(before, after)
    if why is None:
        entry.interval_s = b.time - a.time
        names = [*TRAFFIC, *drops, *NO_BUFFER] + (["lso_opackets"] if kind == "port" else [])
        got = arithmetic.rates(a, b, widths, names=names)
        if entry.interval_s > 0:
            intervals.append(entry.interval_s)
        entry.wrapped = sorted(r.counter for r in got.values() if r.wrapped)
        for field, counters, scale in (("in_bps", ["rbytes64"], 8.0), ("out_bps", ["obytes64"], 8.0),
                                       ("in_pps", ["ipackets64"], 1.0), ("out_pps", ["opackets64"], 1.0),
                                       ("drops_per_s", list(drops), 1.0), ("no_buffer_per_s", list(NO_BUFFER), 1.0)):
            set_value(entry, field, *per_second(got, counters, scale))
        _line_rate(entry, kind, b.counters.get("ifspeed"))
        if kind == "port":
            share = arithmetic.share_of(got["lso_opackets"], got["opackets64"]) if "lso_opackets" in b.counters \
                else arithmetic.Share(None, "the channel has no lso_opackets (LSO not offered at this level)")
            set_value(entry, "lso_share", share.value, share.reason)
        else:
            entry.reasons["lso_share"] = "the link kstat does not count LSO sends"
    _explain(entry, VALUES, why or "no rate")
    return entry


def _line_rate(entry: TrafficRate, kind: str, speed: int | None) -> None:
    if kind != "link":
        for field in ("line_bps", "in_line_share", "out_line_share"):
            entry.reasons[field] = "a virtual switch port or channel has no line rate"
        return
    if not speed:
        for field in ("line_bps", "in_line_share", "out_line_share"):
            entry.reasons[field] = "the link reports no line rate (ifspeed 0 or absent: down, or virtual)"
        return
    set_line_rate(entry, speed)


def _cpu(instance: int, before: dict[str, str] | None, after: dict[str, str] | None,
         intervals: list[float]) -> CpuRate:
    entry = CpuRate(name=f"cpu{instance}")
    a, b, why = _pair(before, after)
    if why is None:
        entry.interval_s = b.time - a.time
        if entry.interval_s > 0:
            intervals.append(entry.interval_s)
        idle, others = _cpu_names(a, b)
        share = arithmetic.cpu_busy(a, b, idle, others)
        set_value(entry, "busy", share.value, share.reason)
    _explain(entry, ("busy",), why or "no rate")
    return entry


def _cpu_names(a: arithmetic.Sample, b: arithmetic.Sample) -> tuple[str, Sequence[str]]:
    """Nanoseconds where both samples have them (Solaris 10 8/07 and later), else ticks."""
    if NSEC[0] in a.counters and NSEC[0] in b.counters:
        return NSEC
    return TICKS


def _cpu_total(out: Rates, before: dict[Object, dict[str, str]], after: dict[Object, dict[str, str]]) -> None:
    """All the domain's CPUs together: idle time against all time counted, over the CPUs that have a rate."""
    idle = total = 0
    for entry in out.cpus:
        if entry.busy is None:
            continue
        key = ("cpu", int(entry.name[3:]), "sys")
        a, b = _sample(before[key]), _sample(after[key])
        assert a is not None and b is not None
        idle_name, others = _cpu_names(a, b)
        got = arithmetic.rates(a, b, names=[idle_name, *others])
        idle += got[idle_name].delta or 0
        total += sum(r.delta or 0 for r in got.values())
    if total:
        out.cpu_busy = 1 - idle / total
    else:
        out.reasons["cpu_busy"] = (next(iter(out.cpus[0].reasons.values()), "no CPU time was counted")
                                   if out.cpus else "no cpu:<n>:sys kstat in both samples")


def _tcp_lso(out: Rates, before: dict[Object, dict[str, str]], after: dict[Object, dict[str, str]]) -> None:
    """tcp_lso_times (64-bit) against outDataSegs (32-bit): two kstats, each with its own times."""
    got: dict[str, arithmetic.Rate] = {}
    widths: tuple[tuple[Object, str, arithmetic.Width], ...] = (
        (("tcp", 0, "tcpstat"), "tcp_lso_times", 64), (("tcp", 0, "tcp"), "outDataSegs", 32))
    for key, counter, width in widths:
        a, b, why = _pair(before.get(key), after.get(key))
        if why is not None:
            out.reasons["tcp_lso_share"] = f"{key[0]}:{key[1]}:{key[2]}: {why}"
            return
        got[counter] = arithmetic.rates(a, b, {counter: width}, names=[counter])[counter]
    share = arithmetic.share_of(got["tcp_lso_times"], got["outDataSegs"])
    set_value(out, "tcp_lso_share", share.value, share.reason)


def _explain(entry: TrafficRate | CpuRate, fields: Sequence[str], why: str) -> None:
    """Every value left None has its reason."""
    for field in fields:
        if getattr(entry, field) is None and field not in entry.reasons:
            entry.reasons[field] = why


__all__ = ["Scan", "build", "samples_of"]
