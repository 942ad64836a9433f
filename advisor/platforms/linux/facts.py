"""Facts of Linux hosts: bridges, offloads, PCIe cards."""

from __future__ import annotations

import re
from typing import Any

from advisor.platforms.linux import rates as traffic_rates
from advisor.platforms.linux.records import LinuxFacts, Interface, LinuxBridge, PciCard, Port

_VIRTUAL_PORT = re.compile(r"^(vif|tap|vnet|veth)")
# The kernel features `ethtool -K IF tso on` turns on: tx-tcp-segmentation,
# tx-tcp-ecn-segmentation, tx-tcp-mangleid-segmentation, tx-tcp6-segmentation.
_TSO_PART = re.compile(r"tx-tcp[a-z0-9-]*-segmentation")


def _ev(files: dict[str, str], cid: str, line: int) -> str:
    return f"{files[cid]}:{line}"


def build(facts: LinuxFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    if (u := parsed.get("uname-a")) is not None and u.system == "Linux":
        facts.os_name = facts.os_name if facts.os_name is not None else f"Linux {u.release}"
        facts.arch = u.machine if len(u.machine) < 16 else None
    links = {lk.name: lk for lk in parsed.get("ip-link", [])}
    _bridges(facts, parsed, files, links)
    _interfaces(facts, parsed, files, links)
    if (sysctl := parsed.get("sysctl-net")) is not None:
        v4 = sysctl.get("net.ipv4.ip_forward")
        v6 = sysctl.get("net.ipv6.conf.all.forwarding")
        known = [v for v in (v4, v6) if v is not None]
        if known:
            facts.ip_forward = any(v[0] == "1" for v in known)
            facts.evidence["ip_forward"] = _ev(files, "sysctl-net", (v4 or v6)[1])  # type: ignore[index]
    if (pci := parsed.get("lspci-vv")) is not None:
        facts.pci_cards = _pci_cards(pci, files)
        _ports_up(facts.pci_cards, pci, parsed, files, links if "ip-link" in parsed else None)
    if (rates := traffic_rates.build(parsed, files)) is not None:
        facts.rates = rates


def _kind(name: str) -> str:
    return "vif" if name.startswith("vif") else "tap" if _VIRTUAL_PORT.match(name) else "physical"


def _port(name: str, links: dict) -> Port:
    link = links.get(name)
    return Port(name=name, kind=_kind(name), mtu=link.mtu if link else None)


def _bridges(facts: LinuxFacts, parsed: dict[str, Any], files: dict[str, str], links: dict) -> None:
    brctl = parsed.get("brctl-show")
    if brctl is None and not links:
        return
    members: dict[str, list[str]] = {}
    for b in brctl or []:
        members[b.name] = list(b.ports)
    for lk in links.values():  # `master xenbr0` names bridge ports; a SLAVE's master is a bond
        if lk.master and "SLAVE" not in lk.flags:
            members.setdefault(lk.master, [])
            if lk.name not in members[lk.master]:
                members[lk.master].append(lk.name)
    bridges = []
    for name, ports in members.items():
        link = links.get(name)
        br = LinuxBridge(name=name, mtu=link.mtu if link else None, ports=[_port(p, links) for p in ports])
        relate_ports(br)
        if link:
            br.evidence["mtu"] = _ev(files, "ip-link", link.line)
        for p in ports:
            if p in links:
                br.evidence.setdefault("vifs_above", _ev(files, "ip-link", links[p].line))
                if _port(p, links).kind == "physical":
                    br.evidence["uplink_mtu"] = _ev(files, "ip-link", links[p].line)
        bridges.append(br)
    facts.bridges = bridges  # ip link names every bridge port (`master`): none listed, no bridges


def relate_ports(br: LinuxBridge) -> None:
    """A bridge's uplinks and the MTUs its ports ask of the chain."""
    br.uplinks = [p for p in br.ports if p.kind == "physical"]
    known_uplinks = [p.mtu for p in br.uplinks if p.mtu is not None]
    br.uplink_mtu = min(known_uplinks) if known_uplinks else None
    br.vifs_above, br.target_mtu = [], None
    if br.mtu is not None:
        br.vifs_above = [p for p in br.ports if p.kind != "physical" and p.mtu is not None and p.mtu > br.mtu]
        br.target_mtu = max([br.mtu] + [p.mtu for p in br.vifs_above if p.mtu is not None])


def _interfaces(facts: LinuxFacts, parsed: dict[str, Any], files: dict[str, str], links: dict) -> None:
    ports = {p.name for b in facts.bridges or [] for p in b.ports}
    # a bond's slaves forward what the bond, a bridge port, forwards
    ports |= {lk.name for lk in links.values() if "SLAVE" in lk.flags and lk.master in ports}
    out = []
    for cid, features in parsed.items():
        if not cid.startswith("ethtool-k@"):
            continue
        name = cid.split("@", 1)[1]
        link = links.get(name)
        iface = Interface(name=name, kind=_kind(name), mtu=link.mtu if link else None, bridge_port=name in ports)
        for attr, key in (("tso", "tcp-segmentation-offload"), ("lro", "large-receive-offload")):
            f = features.get(key)
            if f is not None:
                setattr(iface, attr, f.value)
                setattr(iface, f"{attr}_fixed", f.fixed)
                iface.evidence[attr] = _ev(files, cid, f.line)
        if (tso := features.get("tcp-segmentation-offload")) is not None:
            iface.tso_requested = tso.requested
        subs = [f for name, f in features.items() if _TSO_PART.fullmatch(name)]
        if iface.tso is not None and not iface.tso_fixed and subs and all(f.fixed for f in subs):
            iface.tso_fixed = True  # ethtool 3.x and later mark the parts, not the tcp-segmentation-offload line
            iface.evidence["tso_fixed"] = _ev(files, cid, subs[0].line)
        out.append(iface)
    if out:
        facts.interfaces = sorted(out, key=lambda i: i.name)


def link_gbps(gts: float, lanes: int) -> float:
    """Usable Gbit/s per direction of a PCIe link: 2.5 and 5 GT/s lanes carry
    8b/10b code (seed 004: x8 at 2.5 GT/s is 16 Gbit/s, 4 Gbit/s per lane at
    5 GT/s), 8 GT/s and faster 128b/130b."""
    return round(gts * lanes * (128 / 130 if gts >= 8 else 8 / 10), 2)


def _pci_cards(functions: list, files: dict[str, str]) -> list[PciCard]:
    cards: dict[str, PciCard] = {}
    for fn in functions:
        if "ethernet" not in fn.kind.lower():
            continue
        card = cards.get(fn.card)
        if card is None:  # not setdefault: it would build a PciCard for every function and drop most
            card = cards[fn.card] = PciCard(card=fn.card, description=fn.description, functions=[])
        card.functions.append(fn.address)
        card.ten_gig = card.ten_gig or bool(re.search(r"10[- ]?(?:Gigabit|GbE|G\b)|82599|82598|X520|X540", fn.description, re.I))
        speed, width = fn.speed("sta"), fn.width("sta")
        where = _ev(files, "lspci-vv", fn.link_sta_line or fn.line)
        if speed is not None and (card.link_gts is None or speed < card.link_gts):
            card.link_gts = speed
            card.evidence["link_gts"] = where
        if width is not None and (card.link_width is None or width < card.link_width):
            card.link_width = width
            card.evidence["link_width"] = where
        if speed is not None and width:  # a function's own link: the slowest decides for the card
            gbps = link_gbps(speed, width)
            if card.link_gbps is None or gbps < card.link_gbps:
                card.link_gbps = gbps
                card.evidence["link_gbps"] = where
        card.functions_in_use += 1 if fn.driver else 0
        card.evidence.setdefault("functions_in_use", _ev(files, "lspci-vv", fn.line))
    return sorted(cards.values(), key=lambda c: c.card)


def pci_address(text: str) -> str:
    """`03:00.0` and `0000:03:00.0` name one function: lspci leaves out domain 0000."""
    text = text.strip().lower()
    return text if text.count(":") == 2 else f"0000:{text}"


def _ports_up(cards: list[PciCard], functions: list, parsed: dict[str, Any], files: dict[str, str],
              links: dict | None) -> None:
    """How many of each card's ports have link: each PCI function's interface
    (ethtool -i's bus-info names it) as ip link shows it (LOWER_UP: carrier).
    A function with no driver bound has no link here. Unknown when a bound
    function's interface, or its link state, was not captured (no ethtool -i;
    a function given to a guest)."""
    by_address: dict[str, tuple[str, str]] = {}
    for cid, info in parsed.items():
        if cid.startswith("ethtool-i@") and info.bus_info:
            by_address[pci_address(info.bus_info)] = (cid.split("@", 1)[1], _ev(files, cid, info.line))
    for card in cards:
        up, known, where = 0, True, []
        for fn in (f for f in functions if f.card == card.card):
            if not fn.driver:
                continue
            iface = by_address.get(pci_address(fn.address))
            link = links.get(iface[0]) if iface is not None and links is not None else None
            if iface is None or link is None:
                known = False
                continue
            if "LOWER_UP" in link.flags or (link.state or "").upper() == "UP":
                up += 1
                where += [iface[1], _ev(files, "ip-link", link.line)]
        card.ports_up = up if known else None
        if where:
            card.evidence["ports_up"] = ", ".join(where)
