"""The LDC channels of a domain's vnets and vsws, from the kstat statistics the rules read."""

from __future__ import annotations

from advisor.parsers.text import parse_int
from advisor.platforms.ldoms.records import LdcChannel
from advisor.platforms.solaris.parsers.kstat import KstatKey, KstatValue
from advisor.platforms.solaris.parsers.kstat_wanted import LDC_COUNTERS, LDC_STATS


def ldc_channels(stats: dict[KstatKey, KstatValue], file: str) -> list[LdcChannel]:
    channels: dict[tuple[str, int, str], LdcChannel] = {}
    for key, val in stats.items():
        if key.module not in ("vnet", "vsw"):
            continue
        kstat = (key.module, key.instance, key.name)
        ch = channels.get(kstat)
        if ch is None:  # not setdefault: that would build a channel for each of its statistics
            ch = channels[kstat] = LdcChannel(module=key.module, instance=key.instance, name=key.name)
        if key.statistic in LDC_COUNTERS:
            value = parse_int(val.value)
            if value is not None:
                ch.counters[key.statistic] = value
            continue
        if key.statistic not in LDC_STATS:  # bytes and times: read for rates (facts/traffic)
            continue
        setattr(ch, key.statistic, parse_int(val.value))
        ch.evidence[key.statistic] = f"{file}:{val.line}"
    return sorted(channels.values(), key=lambda c: (c.module, c.instance, c.name))
