"""A planned configuration to the facts a built control domain would give.

The domains, switches and vnets are cross-referenced by the same code as a
live listing (ldoms.link_network). What only a running system can show
(kstat counters, effective link properties) is absent; HostFacts.kind tells
the engine, which reports those rules as not applicable to a plan.
"""

from __future__ import annotations

from typing import Any

from advisor.platforms.ldoms import facts as ldoms
from advisor.platforms.solaris import facts as solaris_facts
from advisor.platforms.ldoms.records import Domain, LdomsFacts, VNet, VSwitch
from advisor.platforms.solaris.records import Link
from advisor.platforms.ldoms.plans.located import LocatedPlan
from advisor.platforms.ldoms.plans.schema import PlanDomain, PlanLink, PlanVnet, PlanVsw
from advisor.versions import version_ge


def build_planned(facts: LdomsFacts, parsed: dict[str, Any], files: dict[str, str]) -> bool:
    """A host given as a planned configuration (a plan, or constraints XML), unless the
    listing of a built system is there too, which says more: whether it was taken as one."""
    planned = parsed.get("plan") or parsed.get("ldm-list-constraints-x")
    if planned is None or {"ldm-list-l", "ldm-list-l-p"} & parsed.keys():
        return False
    build(facts, planned)
    ldoms.software_facts(facts)
    solaris_facts.name_release(facts)
    return True


def build(facts: LdomsFacts, located: LocatedPlan, auto_limit: int = ldoms.AUTO_LIMIT) -> None:
    plan = located.plan
    facts.kind = "plan"
    facts.platform = "solaris"
    facts.arch = "sparc"
    facts.host = plan.host or facts.host
    _software(facts, located)
    tpc = plan.hardware.threads_per_core or ldoms.threads_per_core_for_model(plan.hardware.model)
    facts.threads_per_core = tpc
    domains = [_domain(d, located, tpc) for d in plan.domains]
    vswitches = [_vswitch(v, d.name, "control" in d.roles, located) for d in plan.domains for v in d.vsws]
    vnets = [_vnet(n, d.name, vswitches, located) for d in plan.domains for n in d.vnets]
    all_links = {d.name: _links(d, located) for d in plan.domains}
    # Bandwidth served is known for the domains that own NIC ports; a VF is not one.
    links = {name: own for name, own in all_links.items() if any(lk.is_physical for lk in own)}
    _default_inter_vnet_link(vswitches, facts.ldm_version)
    control = next((d for d in domains if d.is_control), None)
    if control is not None:
        control.is_local = True
        facts.ldom_name = control.name
        facts.roles = sorted(_roles(control))
        facts.vcpus = control.vcpus
    facts.is_control_domain = True
    solaris_4080 = {d.name: ldoms.allows_4080(facts.solaris_minor, facts.sru) for d in domains}
    ldoms.link_network(domains, vswitches, vnets, links, solaris_4080, facts.cpu_model, auto_limit)
    facts.domains, facts.vswitches, facts.vnets = domains, vswitches, vnets
    facts.links = sorted((lk for own in all_links.values() for lk in own), key=lambda lk: (lk.domain or "", lk.name))


def _software(facts: LdomsFacts, located: LocatedPlan) -> None:
    hw, sw = located.plan.hardware, located.plan.software
    facts.cpu_model = hw.model
    facts.ldm_version = sw.ldm
    facts.sru = sw.sru
    facts.patches = sw.patches
    if sw.solaris is not None:
        major, _, minor = sw.solaris.partition(".")
        facts.solaris_major = int(major)
        facts.solaris_minor = int(minor) if minor else None
        facts.os_name = f"Solaris {sw.solaris}"
    for name, key in (("ldm_version", "ldm"), ("solaris_major", "solaris"), ("solaris_minor", "solaris"),
                      ("sru", "sru"), ("patches", "patches")):
        facts.evidence[name] = located.at("software", key)
    facts.evidence["cpu_model"] = located.at("hardware", "model")


def _roles(dom: Domain) -> set[str]:
    return {r for r, on in (("control", dom.is_control), ("service", dom.is_service), ("i/o", dom.is_io)) if on}


def _domain(d: PlanDomain, located: LocatedPlan, tpc: int | None) -> Domain:
    at = lambda field: located.at("domain", d.name, field)  # noqa: E731
    dom = Domain(name=d.name, state="planned")
    dom.is_control = "control" in d.roles
    dom.is_service = "service" in d.roles or bool(d.vsws) or d.vds_volumes > 0
    dom.io_devices = list(d.io) + [vf.name for vf in d.vfs]  # ldm lists a domain's VFs among its I/O
    dom.is_io = "io" in d.roles or bool(dom.io_devices)
    dom.is_guest = not (dom.is_control or dom.is_service or dom.is_io)
    if d.cores is not None:
        dom.whole_cores = d.cores
        dom.whole_core_constraint = True
        dom.vcpus = d.cores * tpc if tpc else None
        dom.cores = float(d.cores)
    elif d.vcpus is not None:
        # Threads alone do not say which cores the domain will own: decided at bind time.
        dom.vcpus = d.vcpus
        dom.whole_core_constraint = False
        dom.cores = round(d.vcpus / tpc, 2) if tpc else None
    dom.max_cores = str(d.max_cores) if d.max_cores is not None else None
    dom.memory_gb = round(d.memory / (1 << 30), 2) if d.memory is not None else None
    dom.extended_mapin_space = d.extended_mapin_space
    dom.vsw_names = [v.name for v in d.vsws]
    dom.vnet_names = [n.name for n in d.vnets]
    dom.ldc_estimate = d.vdisks + len(d.vnets) + d.vds_volumes
    dom.evidence = {"name": located.at("domain", d.name), "vcpus": at("cores" if d.cores else "vcpus"),
                    "whole_cores": at("cores" if d.cores else "vcpus"), "memory_gb": at("memory"),
                    "whole_core_constraint": at("cores" if d.cores else "vcpus"),
                    "extended_mapin_space": at("extended_mapin_space"), "ldc_estimate": located.at("domain", d.name)}
    return dom


def _vswitch(v: PlanVsw, domain: str, in_control: bool, located: LocatedPlan) -> VSwitch:
    vsw = VSwitch(name=v.name, domain=domain, in_control_domain=in_control, net_dev=v.net_dev, mtu=v.mtu,
                  inter_vnet_link=v.inter_vnet_link, mode=v.mode)
    vsw.evidence = {f: located.at("vsw", domain, v.name) for f in ("name", "net_dev", "mtu", "inter_vnet_link")}
    return vsw


def _vnet(n: PlanVnet, domain: str, vswitches: list[VSwitch], located: LocatedPlan) -> VNet:
    name, _, vsw_domain = n.vsw.partition("@")
    if not vsw_domain:  # vsw names are unique across the system
        vsw_domain = next((s.domain for s in vswitches if s.name == name), "")
    vsw_mtu = next((s.mtu for s in vswitches if s.name == name and s.domain == vsw_domain), None)
    # A vnet without an MTU of its own takes its switch's, as `ldm list -l` then shows.
    vnet = VNet(name=n.name, domain=domain, vsw=name, vsw_domain=vsw_domain or None, mtu=n.mtu or vsw_mtu,
                mode=n.mode)
    vnet.evidence = {f: located.at("vnet", domain, n.name) for f in ("name", "mtu", "mode", "vsw")}
    return vnet


def _default_inter_vnet_link(vswitches: list[VSwitch], ldm_version: str | None) -> None:
    """What ldm add-vsw sets when the plan does not say: on, or auto from 3.4 (domain-facts 1.2)."""
    if ldm_version is None:
        return
    default = "auto" if version_ge(ldm_version, "3.4") else "on"
    for vsw in vswitches:
        if vsw.inter_vnet_link is None:
            vsw.inter_vnet_link = default


def _links(d: PlanDomain, located: LocatedPlan) -> list[Link]:
    """The domain's NIC ports, those its switches name with a speed, and its VFs."""
    stated = {p.name: (p, located.at("link", d.name, p.name)) for p in d.links}
    for v in d.vsws:
        if v.net_dev and v.net_dev not in stated and (v.net_dev_speed or v.net_dev_mtu):
            short = PlanLink(name=v.net_dev, speed=v.net_dev_speed, mtu=v.net_dev_mtu)
            stated[v.net_dev] = (short, located.at("vsw", d.name, v.name))
    out = []
    for p, where in stated.values():
        lk = Link(name=p.name, domain=d.name, device=p.device, driver=solaris_facts.driver_of(p.device), state="up",
                  speed_mbps=p.speed, mtu=p.mtu, mtu_max=p.mtu_max, is_physical=True)
        lk.evidence = {"speed_mbps": where, "mtu": where, "mtu_max": where, "device": where}
        out.append(lk)
    for vf in d.vfs:
        lk = Link(name=vf.name, domain=d.name, driver=vf.driver, mtu=vf.mtu, is_vf=True)
        lk.evidence = {"mtu": located.at("vf", d.name, vf.name), "device": located.at("vf", d.name, vf.name)}
        out.append(lk)
    return out
