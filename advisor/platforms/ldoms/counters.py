"""The LDC channel counters `advisor diff` compares between two captures: LSO
sends, traffic and the per-channel loss counters."""

from __future__ import annotations

from advisor.facts.models import HostFacts
from advisor.platforms.ldoms.records import ldoms


def ldc_counters(facts: HostFacts) -> dict[tuple[str, str], int] | None:
    """None: the capture has no vnet or vsw kstat."""
    ldcs = ldoms(facts).ldcs
    if ldcs is None:
        return None
    values: dict[tuple[str, str], int] = {}
    for ch in ldcs:
        subject = f"ldc {ch.module}:{ch.instance}:{ch.name}"
        if ch.lso_opackets is not None:
            values[(subject, "lso_opackets")] = ch.lso_opackets
        for name, value in ch.counters.items():
            values[(subject, name)] = value
    return values
