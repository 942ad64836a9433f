"""Domains, virtual switches and vnets from an `ldm list -l` listing (either form)."""

from __future__ import annotations

import re

from typing import Any

from advisor.versions import version_ge
from advisor.platforms.ldoms.parsers.ldm_records import LdmDomain, LdmListing, Record
from advisor.platforms.ldoms.records import Domain, LdomsFacts, VNet, VNetRef, VSwitch
from advisor.parsers.text import parse_int
from advisor.platforms.ldoms import kstat_facts
from advisor.platforms.solaris.records import Link

# LDC endpoints per domain by platform (domain-facts 1.3); the control domain
# uses about 15 of its own for ldmd, the SP and friends.
CONTROL_DOMAIN_LDCS = 15


def _ev(file: str, line: int) -> str:
    return f"{file}:{line}"


def _cpuset_size(text: str) -> int:
    return len([p for p in re.split(r"[\s,()]+", text) if p.isdigit()])


def whole_cores(dom: LdmDomain, tpc: int | None) -> int | None:
    if dom.cores:
        sizes = [_cpuset_size(r.get("cpuset") or "") for r in dom.cores]
        if tpc:
            return sum(1 for s in sizes if s >= tpc)
        return None
    pids = [parse_int(r.get("pid") or "") for r in dom.vcpus]
    if tpc and pids and all(p is not None for p in pids):
        per_core: dict[int, int] = {}
        for pid in pids:
            per_core[pid // tpc] = per_core.get(pid // tpc, 0) + 1  # type: ignore[operator]
        return sum(1 for n in per_core.values() if n >= tpc)
    return None


def threads_per_core_for_model(model: str | None) -> int | None:
    """Hardware threads per core of the SPARC processors LDoms run on."""
    if not model:
        return None
    if re.search(r"SPARC64", model, re.I):
        return 2
    if re.search(r"SPARC-?T\d|UltraSPARC-T2|SPARC-M[5-8]|SPARC-S7", model, re.I):
        return 8
    return None


def threads_per_core_from_listing(listing: LdmListing) -> int | None:
    sizes = [_cpuset_size(r.get("cpuset") or "") for d in listing.domains for r in d.cores]
    return max(sizes) if sizes else None


def _constraint(dom: LdmDomain) -> tuple[bool | None, str | None, int | None]:
    if not dom.constraint:
        return None, None, None
    cpu = dom.constraint.get("cpu")
    bare = dom.constraint.get("whole-core")
    whole = (cpu is not None and cpu.get("cpu") == "whole-core") or bare is not None
    line = (cpu or bare or next(iter(dom.constraint.values()))).line
    max_cores = dom.constraint.get("max-cores")
    return whole, max_cores.get("max-cores") if max_cores else None, line


def build_domains(listing: LdmListing, file: str, tpc: int | None) -> tuple[list[Domain], list[VSwitch], list[VNet]]:
    domains: list[Domain] = []
    vswitches: list[VSwitch] = []
    vnets: list[VNet] = []
    for d in listing.domains:
        dom = Domain(name=d.name, state=d.state)
        dom.evidence["name"] = _ev(file, d.line)
        # a listing without the summary row (list-constraints, an excerpt) has no flags: the control domain
        # is the one named primary (ldm(1M))
        dom.is_control = "control" in d.flags or (d.state is None and d.name == "primary")
        dom.is_service = "vio-service" in d.flags or bool(d.vsws) or bool(d.vds)
        if d.knows("IO"):
            dom.io_devices = [r.get("dev") or r.get("alias") or r.get("name") or "" for r in d.io]
            dom.is_io = bool(d.io)
        else:
            dom.io_devices = dom.is_io = None
        set_roles(dom)
        dom.vcpus = d.ncpu if d.ncpu is not None else (len(d.vcpus) or None)
        if dom.vcpus is None and d.core_count is not None and tpc:
            dom.vcpus = d.core_count * tpc
        dom.evidence["vcpus"] = dom.evidence["memory_gb"] = _ev(file, d.line)
        if dom.vcpus is not None and tpc and dom.vcpus < 1 << 53:  # a float holds it (400 digits: no float does)
            dom.cores = round(dom.vcpus / tpc, 2)
        dom.whole_cores = whole_cores(d, tpc)
        if d.cores:
            dom.evidence["whole_cores"] = _ev(file, d.cores[0].line)
        elif d.vcpus:
            dom.evidence["whole_cores"] = _ev(file, d.vcpus[0].line)
        if d.memory_bytes is not None:
            dom.memory_gb = round(d.memory_bytes / (1 << 30), 2)
        emap = d.control.get("extended-mapin-space")
        if emap is not None:
            dom.extended_mapin_space = emap.get("extended-mapin-space") or None
            dom.evidence["extended_mapin_space"] = _ev(file, emap.line)
        whole, max_cores, cline = _constraint(d)
        dom.whole_core_constraint, dom.max_cores = whole, max_cores
        if cline:
            dom.evidence["whole_core_constraint"] = _ev(file, cline)
        if dom.whole_cores is None and whole and d.core_count is not None:
            dom.whole_cores = d.core_count  # list-constraints: CORE COUNT under the whole-core constraint
        own_vsws = [_vswitch(r, d.name, file) for r in d.vsws]
        own_vnets = [_vnet(r, d.name, file) for r in d.vnets]
        for vsw in own_vsws:
            vsw.in_control_domain = dom.is_control
        vswitches += own_vsws
        vnets += own_vnets
        dom.vsw_names = [v.name for v in own_vsws] if d.knows("VSW") else None
        dom.vnet_names = [v.name for v in own_vnets] if d.knows("NETWORK", "VNET") else None
        if d.complete:  # completed in link_network()
            dom.ldc_estimate = len(d.vdisks) + len(d.vnets) + _vds_volumes(d)
        domains.append(dom)
    return domains, vswitches, vnets


def set_roles(dom: Domain) -> None:
    """A guest is none of the other roles; not known while its I/O is not."""
    serves = dom.is_control or dom.is_service
    dom.is_guest = None if dom.is_io is None and not serves else not (serves or dom.is_io)


def shown(listing: LdmListing, section: str, items: list) -> list | None:
    """The vsws (or vnets) of a listing; None when no domain's section of them is known."""
    return items if items or all(d.knows(section, "VNET" if section == "NETWORK" else section)
                                 for d in listing.domains) else None


def merge_domains(base: list[Domain], other: list[Domain], covers: frozenset[str]) -> None:
    """What another output (list-constraints, list-io) says of the domains that the
    listing leaves unknown; list-io names all I/O, so a domain it does not name owns none."""
    by_name = {d.name: d for d in base}
    for o in other:
        d = by_name.get(o.name)
        if d is None:
            base.append(o)
            by_name[o.name] = o
            continue
        for name in Domain._defaults:
            if getattr(d, name) is None and getattr(o, name) is not None:
                setattr(d, name, getattr(o, name))
                if name in o.evidence:
                    d.evidence[name] = o.evidence[name]
        set_roles(d)
    if "IO" in covers:
        listed = {o.name for o in other}
        for d in base:
            if d.name not in listed and d.io_devices is None:
                d.io_devices, d.is_io = [], False
                set_roles(d)


def _vds_volumes(d: LdmDomain) -> int:
    """Volumes the domain's disk services export: one channel each. The human
    form lists them as rows, the parseable form as continuation records."""
    count = 0
    for r in d.vds:
        count += 1 if (r.get("volume") or r.get("vol")) else 0
        count += sum(1 for p in r.peers if p.get("vol") or p.get("volume"))
    return count


def _vswitch(r: Record, domain: str, file: str) -> VSwitch:
    vsw = VSwitch(name=r.get("name") or "?", domain=domain, net_dev=r.get("net-dev"),
                  mtu=parse_int(r.get("mtu") or ""), inter_vnet_link=r.get("inter-vnet-link"),
                  relay_mode=r.get("vsw-relay-mode"), mode=r.get("mode"))
    for field in ("name", "net_dev", "mtu", "inter_vnet_link"):
        vsw.evidence[field] = _ev(file, r.line)
    m = re.fullmatch(r"switch@(\d+)", r.get("dev") or r.get("device") or "")
    vsw.instance = int(m.group(1)) if m else None
    return vsw


def _vnet(r: Record, domain: str, file: str) -> VNet:
    service = r.get("service") or ""
    vsw_name, _, vsw_domain = service.partition("@")
    vnet = VNet(name=r.get("name") or "?", domain=domain, vsw=vsw_name or None, vsw_domain=vsw_domain or None,
                mtu=parse_int(r.get("mtu") or ""), mode=r.get("mode"))
    for field in ("name", "mtu", "mode", "vsw"):
        vnet.evidence[field] = _ev(file, r.line)
    return vnet


def _link_for(net_dev: str | None, links: list[Link] | None) -> Link | None:
    if not net_dev or not links:
        return None
    return next((lk for lk in links if net_dev in (lk.name, lk.device)), None)


def link_network(domains: list[Domain], vswitches: list[VSwitch], vnets: list[VNet],
                 links: dict[str, list[Link]], solaris_4080: dict[str, bool], cpu_model: str | None,
                 auto_limit: int) -> None:
    """Cross-references: vnets to their vsw, physical links behind vsws, bandwidth
    served and used per domain, LDC estimates and limits.

    `links` holds the datalinks of the domains whose links are known (a capture
    knows its own domain's; a plan states every domain's); `solaris_4080` says,
    for the domains whose Solaris level is known, whether it allows 4080 LDCs."""
    by_vsw = {(v.domain, v.name): v for v in vswitches}
    by_domain: dict[str, list[VNet]] = {}  # grouped once: a system may have a thousand domains of sixty vnets
    on_vsw: dict[tuple[str, str], set[str]] = {}
    for vnet in vnets:
        by_domain.setdefault(vnet.domain, []).append(vnet)
        key = (vnet.vsw_domain or "", vnet.vsw or "")
        vsw = by_vsw.get(key)
        if vsw is None:
            continue
        vsw.vnet_count += 1
        if vnet.domain not in on_vsw.setdefault(key, set(vsw.vnet_domains)):
            on_vsw[key].add(vnet.domain)
            vsw.vnet_domains.append(vnet.domain)
        vnet.vsw_mtu = vsw.mtu
        if vnet.mtu is not None and vsw.mtu is not None and vnet.mtu != vsw.mtu:
            vsw.mismatched_vnets.append(VNetRef(name=vnet.name, domain=vnet.domain, mtu=vnet.mtu))
    for vsw in vswitches:
        link = _link_for(vsw.net_dev, links.get(vsw.domain))
        if link is not None:
            vsw.net_dev_speed_mbps, vsw.net_dev_mtu, vsw.net_dev_mtu_max = link.speed_mbps, link.mtu, link.mtu_max
            for field, src in (("net_dev_speed_mbps", "speed_mbps"), ("net_dev_mtu", "mtu"), ("net_dev_mtu_max", "mtu_max")):
                if src in link.evidence:
                    vsw.evidence[field] = link.evidence[src]
    own_vsws: dict[str, list[VSwitch]] = {}
    for vsw in vswitches:
        own_vsws.setdefault(vsw.domain, []).append(vsw)
    for dom in domains:
        mine = by_domain.get(dom.name, [])
        _bandwidth(dom, mine, by_vsw, links.get(dom.name))
        _ldc_budget(dom, mine, by_vsw, own_vsws.get(dom.name, []), solaris_4080.get(dom.name), cpu_model, auto_limit)


MANAGEMENT_DRIVERS = {"usbecm"}  # the service processor's USB Ethernet link: no guest or host data


def _ports_of_10g(speed_mbps: int) -> int:
    """Whole 10 GbE ports a link is worth: 1 for 10 GbE, 4 for 40 GbE, none for 1 GbE."""
    return -(-speed_mbps // 10000) if speed_mbps >= 10000 else 0


def _bandwidth(dom: Domain, mine: list[VNet], by_vsw: dict[tuple[str, str], VSwitch],
               own_links: list[Link] | None) -> None:
    """Data ports a service domain serves: links backing its vsws, and links it
    owns that are up; never the SP's usbecm link, vsw pseudo-links or unused
    ports. A guest reaches one link per distinct physical link behind its vsws."""
    if own_links is not None:
        backing = {v.net_dev for (d, _n), v in by_vsw.items() if d == dom.name and v.net_dev}
        data = [lk for lk in own_links if lk.is_physical and lk.driver not in MANAGEMENT_DRIVERS
                and (lk.name in backing or lk.device in backing or lk.state == "up")]
        if all(lk.speed_mbps is not None for lk in data):
            dom.ten_gbe_ports = sum(_ports_of_10g(lk.speed_mbps or 0) for lk in data)
            dom.evidence["ten_gbe_ports"] = ", ".join(lk.evidence.get("speed_mbps", "") for lk in data)
            dom.beyond_10gbe = [lk.name for lk in data if (lk.speed_mbps or 0) > 10000]
    if dom.vnet_names is None:
        return  # its vnets are not shown: the links they reach are not known
    switches = [by_vsw.get((v.vsw_domain or "", v.vsw or "")) for v in mine]
    # a switch with no net-dev (internal) reaches no physical link: it counts as none; one whose link's
    # speed is not known (an etherstub, a link in another domain) leaves the count a lower bound
    reached = {(s.domain, s.net_dev) for s in switches if s is not None and (s.net_dev_speed_mbps or 0) >= 10000}
    dom.ten_gbe_links_at_least = len(reached)
    if mine and all(s is not None and (not s.net_dev or s.net_dev_speed_mbps is not None) for s in switches):
        dom.ten_gbe_links = len(reached)
    elif not mine:
        dom.ten_gbe_links = 0
    serves = dom.is_service or dom.is_io
    if (serves and dom.ten_gbe_ports) or dom.ten_gbe_links or dom.ten_gbe_links_at_least:
        dom.uses_10gbe = True
    elif dom.ten_gbe_links == 0 and (not serves or dom.ten_gbe_ports is not None):
        dom.uses_10gbe = False


def allows_4080(solaris_minor: int | None, sru: int | None) -> bool:
    """4080 LDC endpoints per domain need Solaris 11.3 SRU 8 or later in it (domain-facts 1.3)."""
    return solaris_minor is not None and (solaris_minor > 3 or (solaris_minor == 3 and (sru or 0) >= 8))


def ldc_limit(cpu_model: str | None, solaris_4080: bool | None) -> tuple[int, str]:
    model = (cpu_model or "").upper()
    if "T2+" in model or "T3" in model:
        return 768, f"{cpu_model}: 768 LDC endpoints per domain"
    if "T2" in model:
        return 512, f"{cpu_model}: 512 LDC endpoints per domain"
    if "T4" in model:
        return 1984, f"{cpu_model}: 1984 LDC endpoints per domain"
    if re.search(r"T[5-8]|M[5-8]|S7|M1[02]|SPARC64", model):
        if solaris_4080:
            return 4080, f"{cpu_model} with Solaris 11.3 SRU 8 or later: 4080 LDC endpoints per domain"
        return 1984, f"{cpu_model}: 4080 needs Solaris 11.3 SRU 8+ in the domain (not known here), so 1984 assumed"
    return 768, "platform unknown: 768 LDC endpoints per domain assumed (the lowest current limit)"


def _ldc_budget(dom: Domain, mine: list[VNet], by_vsw: dict[tuple[str, str], VSwitch], own: list[VSwitch],
                solaris_4080: bool | None, cpu_model: str | None, auto_limit: int) -> None:
    dom.ldc_limit, dom.ldc_limit_basis = ldc_limit(cpu_model, solaris_4080)
    if dom.ldc_estimate is None:
        return  # a listing that may not show all its devices
    count = dom.ldc_estimate  # its vdisks and vnets (one channel each to the service)
    for vnet in mine:
        vsw = by_vsw.get((vnet.vsw_domain or "", vnet.vsw or ""))
        if vsw is not None and _direct_links(vsw, auto_limit):
            count += max(vsw.vnet_count - 1, 0)
    for vsw in own:
        count += vsw.vnet_count
    if dom.is_control:
        count += CONTROL_DOMAIN_LDCS
    dom.ldc_estimate = count
    dom.evidence["ldc_estimate"] = dom.evidence.get("name", "")


def _direct_links(vsw: VSwitch, auto_limit: int) -> bool:
    mode = (vsw.inter_vnet_link or "on").lower()
    return mode == "on" or (mode == "auto" and vsw.vnet_count <= auto_limit)



def software_facts(facts: LdomsFacts) -> None:
    """Whether the captured domain runs what brought the vnet/vsw rework and LSO
    (seed 002: ldm 3.1 with Solaris 11.1 SRU 9, or Solaris 10 with 150031-07),
    its own extended-mapin-space, and the peers of its vsw channels."""
    local = next((d for d in facts.domains or [] if d.is_local), None)
    if local is None and facts.ldom_name:
        local = next((d for d in facts.domains or [] if d.name == facts.ldom_name), None)
    facts.local_mapin = local.extended_mapin_space if local is not None else None
    os_ok: bool | None = None
    if facts.solaris_major == 11 and facts.solaris_minor is not None:
        if facts.solaris_minor > 1:
            os_ok = True
        elif facts.solaris_minor == 1 and facts.sru is not None:
            os_ok = facts.sru >= 9
        elif facts.solaris_minor == 0:
            os_ok = False
    elif facts.solaris_major == 10 and facts.patches is not None:
        os_ok = facts.patches.get("150031", 0) >= 7
    ldm_ok: bool | None = True
    if facts.is_control_domain:
        ldm_ok = None if facts.ldm_version is None else version_ge(facts.ldm_version, "3.1")
    facts.vnet_software = False if False in (os_ok, ldm_ok) else (None if None in (os_ok, ldm_ok) else True)
    by_instance = {v.instance: v for v in facts.vswitches or [] if v.instance is not None and v.domain == (local.name if local else None)}
    for ch in facts.ldcs or []:
        if ch.module == "vsw" and ch.instance in by_instance:
            ch.peer_domains = list(by_instance[ch.instance].vnet_domains)


AUTO_LIMIT = 8  # ldm 3.4: inter-vnet-link=auto keeps direct links up to this many vnets on a switch


def _ev_at(files: dict[str, str], cid: str, line: int) -> str:
    return f"{files[cid]}:{line}"


def build(facts: LdomsFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    """The LDoms facts of a Solaris host: its role, the ldm level, what the machine has
    free, its domains, switches and vnets, and its LDC channels."""
    if (v := parsed.get("ldm-version")) is not None:
        facts.ldm_version = v.version.value
        facts.evidence["ldm_version"] = _ev_at(files, "ldm-version", v.version.line)
    if (dv := parsed.get("ldm-list-devices")) is not None:
        facts.free_cores = dv.free_cores
        if dv.core_line is not None:
            facts.evidence["free_cores"] = _ev_at(files, "ldm-list-devices", dv.core_line)
        if dv.free_memory_bytes is not None:
            facts.free_memory_gb = dv.free_memory_bytes / (1 << 30)
            facts.evidence["free_memory_gb"] = _ev_at(files, "ldm-list-devices", dv.memory_line or 1)
    if (vi := parsed.get("virtinfo")) is not None:
        facts.roles = sorted(vi.roles)
        facts.ldom_name = vi.domain_name
        facts.control_host = vi.control_domain
        facts.is_control_domain = "control" in vi.roles
        facts.is_guest_domain = bool(vi.roles) and not ({"control", "i/o", "service", "root"} & vi.roles)
        facts.evidence["roles"] = _ev_at(files, "virtinfo", vi.line)
    if facts.is_control_domain is None and ({*_LDM_LISTINGS, "ldm-version", "ldm-list-devices"} & parsed.keys()):
        facts.is_control_domain = True
    _listings(facts, parsed, files)
    if (stats := parsed.get("kstat-p")) is not None:
        facts.ldcs = kstat_facts.ldc_channels(stats, files["kstat-p"])
    software_facts(facts)


# LDoms outputs by what they say of the domains: the first present is the listing, the others fill in
# what it leaves unknown (the short `ldm list` shows no vsw, vnet, I/O or constraint).
_LDM_LISTINGS = ("ldm-list-l-p", "ldm-list-l", "ldm-list", "ldm-list-constraints-p", "ldm-list-constraints",
                 "ldm-list-io")


def _listings(facts: LdomsFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    present = [cid for cid in _LDM_LISTINGS if cid in parsed]
    if not present:
        if facts.is_control_domain is False:
            facts.domains, facts.vswitches, facts.vnets = [], [], []
        return
    listing = parsed[present[0]]
    # The processor model first: a domain with part of a core sees a core of fewer threads in its own psrinfo -pv,
    # and so does the listing where no domain has a whole core; the larger of those two otherwise.
    seen = [n for n in (facts.threads_per_core, threads_per_core_from_listing(listing)) if n]
    tpc = threads_per_core_for_model(facts.cpu_model) or (max(seen) if seen else None)
    domains, vswitches, vnets = build_domains(listing, files[present[0]], tpc)
    shown_vsws, shown_vnets = shown(listing, "VSW", vswitches), shown(listing, "NETWORK", vnets)
    for cid in present[1:]:
        more, more_vsws, more_vnets = build_domains(parsed[cid], files[cid], tpc)
        merge_domains(domains, more, parsed[cid].covers)
        shown_vsws = shown_vsws if shown_vsws is not None else shown(parsed[cid], "VSW", more_vsws)
        shown_vnets = shown_vnets if shown_vnets is not None else shown(parsed[cid], "NETWORK", more_vnets)
    for dom in domains:
        dom.is_local = dom.is_control and facts.is_control_domain is not False
    local = [d.name for d in domains if d.is_local]  # a capture knows its own domain's links and level
    own_links = {name: facts.links for name in local if facts.links is not None}
    solaris_4080 = {name: allows_4080(facts.solaris_minor, facts.sru) for name in local}
    link_network(domains, shown_vsws or [], shown_vnets or [], own_links, solaris_4080, facts.cpu_model, AUTO_LIMIT)
    facts.domains, facts.vswitches, facts.vnets = domains, shown_vsws, shown_vnets
