"""Per-second rates from two samples of cumulative counters (issue #29).

A sample is one object's counters read at one time: a link, a virtual switch
port or LDC, a CPU. Its `time` is in seconds (kstat's snaptime, which
`kstat -p` prints as seconds since boot, or a wall clock for sources without
one); `created` is the kstat's crtime when the source has one. Two samples give
a rate per counter, or None with the reason when no honest rate exists:

- the interval is not positive (the same sample twice, samples swapped, clocks
  from two hosts);
- the object was re-created between the samples (crtime changed): its counters
  restarted, so a difference means nothing;
- a counter went down. A 32-bit counter that went down wrapped once when the
  growth that implies (2^32 - before + after) is under half its range, and
  that growth is the delta; any other fall is a reset. A 64-bit counter does
  not wrap in practice (2^64 bytes at 400 Gb/s take over 11 years), so it
  going down is always a reset;
- a 32-bit counter that can go round its whole range within the interval (a
  byte counter at 1 Gb/s does in 34 s) has an ambiguous delta: d and d + 2^32
  read the same. The caller makes this known by giving the counter's ceiling,
  the most it can count per second.

Nothing here imports advisor: the module is pure arithmetic on plain values.
"""

import math
from collections.abc import Mapping, Sequence
from typing import Literal, NamedTuple

Width = Literal[32, 64]


# NamedTuples, not frozen dataclasses: as immutable, without compiling generated methods at import
# (about 3.5 M instructions a class, 14 M of every review for these four).
class Sample(NamedTuple):
    """One object's counters at one time; `created` is the kstat crtime, if any."""

    time: float
    counters: Mapping[str, int]
    created: float | None = None


class Delta(NamedTuple):
    """How much a counter grew: None, with the reason, when that is unknowable."""

    value: int | None
    wrapped: bool = False
    reason: str | None = None


class Rate(NamedTuple):
    counter: str
    delta: int | None
    per_second: float | None
    wrapped: bool = False
    reason: str | None = None


class Share(NamedTuple):
    """A fraction in [0, 1] (LSO sends among all sends, CPU busy), or None and why."""

    value: float | None
    reason: str | None = None


def counter_delta(before: int, after: int, width: Width = 64, most: float | None = None) -> Delta:
    """The growth of a `width`-bit counter from `before` to `after`.

    `most` is the largest growth possible between the two readings (the
    counter's ceiling per second times the interval), if known.
    """
    span = 1 << width
    if not (0 <= before < span and 0 <= after < span):
        return Delta(None, reason=f"a value is outside the range of a {width}-bit counter")
    if most is not None and width == 32 and most >= span:
        return Delta(None, reason="a 32-bit counter can go round its whole range in this interval")
    if after >= before:
        grown, wrapped = after - before, False
    elif width == 32 and span - before + after < span // 2:
        grown, wrapped = span - before + after, True
    else:
        return Delta(None, reason=f"the counter went down ({before} -> {after}): it was reset")
    if most is not None and grown > most:
        return Delta(None, reason=f"it grew by {grown}, more than the {most:.0f} possible in the interval")
    return Delta(grown, wrapped)


def unusable(before: Sample, after: Sample) -> str | None:
    """Why two samples give no rate at all (no interval, the object re-created), or None."""
    interval = after.time - before.time
    if not math.isfinite(interval) or interval <= 0:
        return f"the samples are {interval:g} s apart: no interval to divide by"
    if before.created is not None and after.created is not None and before.created != after.created:
        return f"the object was re-created between the samples (crtime {before.created} -> {after.created})"
    return None


def rates(before: Sample, after: Sample, widths: Mapping[str, Width] | None = None,
          ceilings: Mapping[str, float] | None = None, names: Sequence[str] | None = None) -> dict[str, Rate]:
    """A Rate per counter in `names` (by default, every counter either sample has).

    `widths` gives each counter's width (64 when absent); `ceilings` the most a
    counter can count per second (bytes/s at line rate, say), when known.
    """
    widths = widths or {}
    ceilings = ceilings or {}
    wanted = sorted(before.counters.keys() | after.counters.keys()) if names is None else list(names)
    interval = after.time - before.time
    why = unusable(before, after)
    out: dict[str, Rate] = {}
    for name in wanted:
        old, new = before.counters.get(name), after.counters.get(name)
        if why is not None:
            out[name] = Rate(name, None, None, reason=why)
        elif old is None or new is None:
            which = "first" if old is None else "second"
            out[name] = Rate(name, None, None, reason=f"{name} is missing from the {which} sample")
        else:
            ceiling = ceilings.get(name)
            step = counter_delta(old, new, widths.get(name, 64), None if ceiling is None else ceiling * interval)
            per_second = None if step.value is None else step.value / interval
            out[name] = Rate(name, step.value, per_second, step.wrapped, step.reason)
    return out


def share_of(part: Rate, whole: Rate) -> Share:
    """part's growth as a fraction of whole's: the share of sends that used LSO, say."""
    if part.delta is None or whole.delta is None:
        return Share(None, part.reason or whole.reason)
    if whole.delta == 0:
        return Share(None, f"{whole.counter} did not grow in the interval")
    if part.delta > whole.delta:
        return Share(None, f"{part.counter} grew by more than {whole.counter} ({part.delta} > {whole.delta})")
    return Share(part.delta / whole.delta)


def cpu_busy(before: Sample, after: Sample, idle: str, others: Sequence[str], width: Width = 64) -> Share:
    """The CPU's busy share over the interval: 1 - d(idle) / d(idle + others), by the
    names its source gives those counters."""
    got = rates(before, after, {name: width for name in (idle, *others)}, names=[idle, *others])
    missing = next((r.reason for r in got.values() if r.delta is None), None)
    if missing is not None:
        return Share(None, missing)
    total = sum(r.delta or 0 for r in got.values())
    if total == 0:
        return Share(None, "no CPU time was counted in the interval")
    return Share(1 - (got[idle].delta or 0) / total)
