"""Facts of HP-UX hosts: LAN interfaces, their drivers, speed, TSO (VMTU),
checksum offload and APA aggregates.

The interfaces come from `lanscan` (or `lanscan -iap`, which has no state) or,
on 11i v3, from the plain `nwmgr` listing (lanscan is deprecated there); drivers
from `lanscan -v` or nwmgr's Subsystem column; speed and link state from nwmgr's
attributes or `lanadmin -g`; APA membership from `lanscan -q`, the `nwmgr -S apa` table,
`lanadmin -x -i|-v|-m` or the Membership attribute of `nwmgr -S apa -I N -v`. A lanscan file may hold
any lanscan form but -iap.
"""

from __future__ import annotations

import re
from typing import Any

from advisor.platforms.hpux.records import HpuxFacts, LanInterface, LanRef
from advisor.platforms.hpux import rates as traffic_rates
from advisor.platforms.hpux.parsers.lan import FIRST_APA_PPA, LanMib, NwmgrAttrs, parse_speed

# Drivers that cannot do TSO (HP-UX 11i v3 Ethernet Support Guide; domain-facts 6).
NO_TSO_DRIVERS = {"btlan", "gelan"}
APA_SUBSYSTEM = "hp_apa"
# Bundle files of lanscan output; each is read in the form its content shows
# (plain, -v, -q appended), whatever its name, so either may hold the rows,
# the drivers (-v) or the APA membership (-q).
_LANSCANS = ("lanscan", "lanscan-v", "lanscan-iap")

_LAN = re.compile(r"^lan(\d+)$")
_APA_ATTRS = re.compile(r"^nwmgr-attrs@lan(9\d\d)$")  # an aggregate's attributes (lan900 and up)
_CKO = re.compile(r"checksum|\bcko\b", re.I)
_MULTIFRAGMENT = re.compile(r"multi ?fragment|mf\b", re.I)  # udpmf_cko, txmf_cko, "Multifragment ..."
_TX = re.compile(r"\b(?:send|transmit|tx|outbound)\b", re.I)
_RX = re.compile(r"\b(?:recv|receive|rx|inbound)\b", re.I)
_ON = {"on", "enabled", "enable", "yes", "true", "1"}
_OFF = {"off", "disabled", "disable", "no", "false", "0"}


def build(facts: HpuxFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    if (u := parsed.get("uname-a")) is not None and u.system == "HP-UX":
        facts.hpux_release = u.release
        facts.os_name = f"HP-UX {u.release}"
        facts.evidence["hpux_release"] = f"{files['uname-a']}:{u.line}"
    if (rates := traffic_rates.build(parsed, files)) is not None:  # the interfaces need not be listed
        facts.rates = rates
    out = _from_lanscan(parsed, files) or _from_nwmgr(parsed, files)
    if out is None:
        return
    listing = {row.name: row for row in parsed.get("nwmgr") or []}
    for cid in _LANSCANS:  # drivers from whichever lanscan file holds the -v form
        for name, (driver, line) in (parsed[cid].drivers.items() if cid in parsed else ()):
            lan = out.get(name)
            if lan is not None and "driver" not in lan.evidence:
                lan.driver = driver
                lan.evidence["driver"] = f"{files[cid]}:{line}"
    for lan in out.values():
        if (row := listing.get(lan.name)) is not None:
            _apply_listing(lan, row, files["nwmgr"])
        for cid in (f"nwmgr-vmtu@{lan.name}", f"lanadmin-vmtu@{lan.ppa}"):
            if (v := parsed.get(cid)) is not None:
                lan.vmtu, lan.tso_supported = v.vmtu, v.tso_supported
                lan.evidence["vmtu"] = lan.evidence["tso_supported"] = f"{files[cid]}:{v.line}"
        if (attrs := parsed.get(f"nwmgr-attrs@{lan.name}")) is not None:
            _apply_attrs(lan, attrs, files[f"nwmgr-attrs@{lan.name}"])
        if (mib := parsed.get(f"lanadmin-g@{lan.ppa}")) is not None:
            _apply_mib(lan, mib, files[f"lanadmin-g@{lan.ppa}"])
        if lan.tso_supported is None and lan.driver in NO_TSO_DRIVERS:
            lan.tso_supported = False
    _aggregates(out, parsed, files)
    facts.lan_interfaces = sorted(out.values(), key=lambda lan: lan.ppa)


def _from_lanscan(parsed: dict[str, Any], files: dict[str, str]) -> dict[str, LanInterface] | None:
    """Both lanscan files list the interfaces, in whatever form each holds;
    `lanscan -iap` lists them too, without their state."""
    cid = next((c for c in _LANSCANS if c in parsed and parsed[c].cards), None)
    if cid is None:
        return None
    out: dict[str, LanInterface] = {}
    for card in parsed[cid].cards:
        lan = LanInterface(name=card.name, ppa=card.ppa, state=card.state, is_aggregate=card.is_aggregate)
        lan.evidence["is_aggregate"] = f"{files[cid]}:{card.line}"
        if card.state is not None:
            lan.evidence["state"] = lan.evidence["is_aggregate"]
        out[card.name] = lan
    return out


def _from_nwmgr(parsed: dict[str, Any], files: dict[str, str]) -> dict[str, LanInterface] | None:
    rows = parsed.get("nwmgr")
    if rows is None:
        return None
    out: dict[str, LanInterface] = {}
    for row in rows:
        if (m := _LAN.match(row.name)) is None:
            continue  # RDMA and other classes nwmgr also lists
        ppa = int(m.group(1))
        lan = LanInterface(name=row.name, ppa=ppa, state=row.state, is_aggregate=ppa >= FIRST_APA_PPA)
        lan.evidence["state"] = lan.evidence["is_aggregate"] = f"{files['nwmgr']}:{row.line}"
        # an hp_apa row is marked an aggregate by _apply_listing, as with lanscan
        out[row.name] = lan
    return out


def _apply_listing(lan: LanInterface, row: Any, file: str) -> None:
    lan.interface_type = row.type
    lan.evidence["interface_type"] = f"{file}:{row.line}"
    if row.subsystem == APA_SUBSYSTEM:
        lan.is_aggregate = True
        lan.evidence["is_aggregate"] = f"{file}:{row.line}"
    elif lan.driver is None:
        lan.driver = row.subsystem
        lan.evidence["driver"] = f"{file}:{row.line}"


def _apply_attrs(lan: LanInterface, attrs: NwmgrAttrs, file: str) -> None:
    values = {key.lower(): (key, value, line) for key, (value, line) in attrs.values.items()}
    if (state := values.get("link state")) is not None:
        lan.link_state = state[1]
        lan.evidence["link_state"] = f"{file}:{state[2]}"
    if (speed := values.get("speed")) is not None and (parsed := parse_speed(speed[1])) is not None:
        lan.speed_mbps, lan.duplex, lan.autonegotiation = parsed.mbps, parsed.duplex, parsed.autonegotiation
        lan.evidence["speed_mbps"] = lan.evidence["duplex"] = f"{file}:{speed[2]}"
    for key, value, line in values.values():
        cko = _cko_state(key, value)
        if cko is None:
            continue
        direction, on = cko
        if direction == "tx" and lan.tx_cko is None:
            lan.tx_cko, lan.cko_attribute = on, key
            lan.evidence["tx_cko"] = f"{file}:{line}"
        elif direction == "rx" and lan.rx_cko is None:
            lan.rx_cko = on
            lan.evidence["rx_cko"] = f"{file}:{line}"


def _apply_mib(lan: LanInterface, mib: LanMib, file: str) -> None:
    """`lanadmin -g`: ifSpeed in bit/s and ifOperStatus, where nwmgr gave none."""
    speed = mib.number("Speed")
    if lan.speed_mbps is None and speed:
        lan.speed_mbps = speed // 1_000_000
        lan.evidence["speed_mbps"] = f"{file}:{mib.line('Speed')}"
    if lan.link_state is None and (status := mib.status("Operation Status")) is not None:
        lan.link_state = status
        lan.evidence["link_state"] = f"{file}:{mib.line('Operation Status')}"


def _cko_state(key: str, value: str) -> tuple[str, bool] | None:
    """("tx"|"rx", on) for an attribute that names checksum offload and one
    direction. nwmgr's display name for basic CKO was not seen in a published
    output (domain-facts 6), so the name is matched loosely; multifragment
    CKO (udpmf_cko, txmf_cko, rxmf_cko) is a different feature."""
    words = re.sub(r"[_/-]+", " ", key)
    if not _CKO.search(words) or _MULTIFRAGMENT.search(words):
        return None
    tx, rx = bool(_TX.search(words)), bool(_RX.search(words))
    if tx == rx:
        return None
    word = value.strip().split()[0].lower() if value.strip() else ""
    if word in _ON or word in _OFF:
        return ("tx" if tx else "rx", word in _ON)
    return None


def _memberships(parsed: dict[str, Any], files: dict[str, str]) -> tuple[dict[int, tuple[list[int], str]], bool]:
    """Aggregate PPA -> (member PPAs, evidence), and whether every aggregate's
    membership is known (lanscan -q lists them all, an empty one alone on its
    line). The first source that names an aggregate gives its members."""
    out: dict[int, tuple[list[int], str]] = {}
    quiet = next((c for c in _LANSCANS if c in parsed and parsed[c].quiet_seen), None)
    if quiet is not None:
        for agg, members in parsed[quiet].members.items():
            out[agg] = (members, f"{files[quiet]}:{parsed[quiet].quiet_line[agg]}")
    for row in parsed.get("nwmgr-apa") or []:
        out.setdefault(int(row.name[3:]), (row.members, f"{files['nwmgr-apa']}:{row.line}"))
    for cid, value in parsed.items():
        if cid.startswith("lanadmin-apa@"):
            for group in value:
                out.setdefault(group.ppa, (group.members, f"{files[cid]}:{group.line}"))
        elif (m := _APA_ATTRS.match(cid)) and (member := value.values.get("Membership")) is not None:
            # `9,21,22,14,13*`: a star marks a port that is down; ` -` none
            out.setdefault(int(m.group(1)), ([int(p) for p in re.findall(r"\d+", member[0])], f"{files[cid]}:{member[1]}"))
    return out, quiet is not None


def _aggregates(out: dict[str, LanInterface], parsed: dict[str, Any], files: dict[str, str]) -> None:
    memberships, all_known = _memberships(parsed, files)
    by_ppa = {lan.ppa: lan for lan in out.values()}
    if all_known:
        for lan in out.values():
            if lan.is_aggregate:
                lan.members = []
    for agg_ppa, (members, evidence) in memberships.items():
        agg = by_ppa.get(agg_ppa)
        if agg is None:
            continue
        agg.is_aggregate = True
        agg.members = [by_ppa[m].name for m in members if m in by_ppa]
        for m in members:
            if m in by_ppa:
                by_ppa[m].aggregate = agg.name
                by_ppa[m].evidence["aggregate"] = evidence
        agg.members_tso_off = [LanRef(name=by_ppa[m].name, ppa=m) for m in members if m in by_ppa and by_ppa[m].vmtu == 0]
        agg.evidence["members"] = agg.evidence["members_tso_off"] = evidence
