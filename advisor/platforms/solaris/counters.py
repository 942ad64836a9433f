"""The TCP LSO counters `advisor diff` compares between two captures of a Solaris host."""

from __future__ import annotations

from advisor.facts.models import HostFacts
from advisor.platforms.solaris.records import solaris


def tcp_counters(facts: HostFacts) -> dict[tuple[str, str], int] | None:
    """None: the capture has no tcp kstat."""
    lso = solaris(facts).tcp_lso
    if lso is None:
        return None
    values: dict[tuple[str, str], int] = {}
    for field, name in (("times", "tcp_lso_times"), ("pkt_out", "tcp_lso_pkt_out"), ("out_data_segs", "outDataSegs")):
        tcp: int | None = getattr(lso, field)
        if tcp is not None:
            values[("tcp", name)] = tcp
    return values
