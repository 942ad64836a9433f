"""Facts of HP-UX hosts: LAN interfaces, their drivers, TSO (VMTU) and APA aggregates."""

from __future__ import annotations

from typing import Any

from advisor.facts.models import HostFacts, LanInterface, LanRef

# Drivers that cannot do TSO (HP-UX 11i v3 Ethernet Support Guide; domain-facts 6).
NO_TSO_DRIVERS = {"btlan", "gelan"}


def build(facts: HostFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    lanscan = parsed.get("lanscan")
    if lanscan is None:
        return
    drivers = parsed.get("lanscan-v") or {}
    out: dict[str, LanInterface] = {}
    for card in lanscan.cards:
        lan = LanInterface(name=card.name, ppa=card.ppa, state=card.state, is_aggregate=card.is_aggregate)
        lan.evidence["state"] = lan.evidence["is_aggregate"] = f"{files['lanscan']}:{card.line}"
        if card.name in drivers:
            lan.driver, line = drivers[card.name]
            lan.evidence["driver"] = f"{files['lanscan-v']}:{line}"
        for cid in (f"nwmgr-vmtu@{card.name}", f"lanadmin-vmtu@{card.ppa}"):
            if (v := parsed.get(cid)) is not None:
                lan.vmtu, lan.tso_supported = v.vmtu, v.tso_supported
                lan.evidence["vmtu"] = lan.evidence["tso_supported"] = f"{files[cid]}:{v.line}"
        if lan.tso_supported is None and lan.driver in NO_TSO_DRIVERS:
            lan.tso_supported = False
        out[card.name] = lan
    by_ppa = {lan.ppa: lan for lan in out.values()}
    for agg_ppa, members in lanscan.members.items():
        agg = by_ppa.get(agg_ppa)
        if agg is None:
            continue
        agg.is_aggregate = True
        agg.members = [by_ppa[m].name for m in members if m in by_ppa]
        agg.members_tso_off = [LanRef(name=by_ppa[m].name, ppa=m) for m in members if m in by_ppa and by_ppa[m].vmtu == 0]
        agg.evidence["members_tso_off"] = f"{files['lanscan']}:{lanscan.quiet_line[agg_ppa]}"
    facts.lan_interfaces = sorted(out.values(), key=lambda lan: lan.ppa)
