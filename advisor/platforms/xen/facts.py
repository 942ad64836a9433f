"""Facts of Xen dom0s (Oracle VM for x86 and upstream Xen): vCPU pinning."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from advisor.platforms.xen.records import XenFacts, PCpu, VcpuRef, XenVcpu
from advisor.platforms.xen.parsers.xen import cpu_set


def _ev(files: dict[str, str], cid: str, line: int) -> str:
    return f"{files[cid]}:{line}"


def build(facts: XenFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    tool = "xl" if "xl-vcpu-list" in parsed else "xm" if "xm-vcpu-list" in parsed else None
    info_id = "xl-info" if "xl-info" in parsed else "xm-info" if "xm-info" in parsed else None
    if info_id:
        info = parsed[info_id]
        facts.xen_nr_cpus = info.int("nr_cpus")
        tool = tool or info_id[:2]
    if tool is None:
        return
    facts.xen_tool = tool
    version = parsed[info_id].get("xen_version") if info_id else None
    facts.roles = [f"xen dom0 (Xen {version}, {tool})" if version else f"xen dom0 ({tool})"]
    vcpus = parsed.get(f"{tool}-vcpu-list")
    if vcpus is None:
        return
    cid = f"{tool}-vcpu-list"
    nr = facts.xen_nr_cpus
    dom0 = [v for v in vcpus if v.domid == 0]
    pin_all = info_id is not None and "dom0_vcpus_pin" in (parsed[info_id].get("xen_commandline") or "")
    dom0_pins: set[int] = set()
    for v in dom0:
        cpus = cpu_set(v.hard, nr)
        if pin_all:
            dom0_pins.add(v.vcpu)
        elif cpus is not None and len(cpus) == 1 and (nr is None or len(cpus) < nr):
            dom0_pins |= cpus
    facts.xen_dom0_pinned = sorted(dom0_pins)
    if not dom0_pins:
        facts.xen_guest_cpus = "all"
    elif nr is not None and set(range(nr)) - dom0_pins:
        facts.xen_guest_cpus = ",".join(str(c) for c in sorted(set(range(nr)) - dom0_pins))
    guests: list[XenVcpu] = []
    pcpus: dict[int, PCpu] = {}
    for v in vcpus:
        if v.domid == 0:
            continue
        g = XenVcpu(domain=v.domain, vcpu=v.vcpu, cpu=v.cpu, hard=v.hard)
        set_affinity(g, v.hard, dom0_pins, nr)
        g.evidence["hard"] = g.evidence["pinned_cpu"] = g.evidence["overlaps_dom0"] = _ev(files, cid, v.line)
        guests.append(g)
        if g.pinned_cpu is not None and v.online:  # a parked vCPU does not compete for its CPU
            p = pcpus.get(g.pinned_cpu)
            if p is None:  # not setdefault: it would build a PCpu for every vCPU and drop most
                p = pcpus[g.pinned_cpu] = PCpu(cpu=g.pinned_cpu, dom0_pinned=g.pinned_cpu in dom0_pins)
            p.pinned_guest_vcpus.append(VcpuRef(domain=v.domain, vcpu=v.vcpu))
            p.evidence["pinned_guest_vcpus"] = ", ".join(filter(None, [p.evidence.get("pinned_guest_vcpus"), _ev(files, cid, v.line)]))
    facts.xen_guest_vcpus = guests
    facts.pcpus = sorted(pcpus.values(), key=lambda p: p.cpu)


def set_affinity(g: XenVcpu, hard: str, dom0_pins: set[int], nr: int | None) -> None:
    """A guest vCPU's hard affinity and what follows from it: the CPU it is
    pinned to alone, dom0's pinned CPUs it may run on, its CPUs without them."""
    cpus = cpu_set(hard, nr)
    restricted = cpus is not None and (nr is None or len(cpus) < nr)
    g.hard = hard
    g.hard_cpus = sorted(cpus) if cpus is not None else None
    g.pinned_cpu = next(iter(cpus)) if restricted and cpus and len(cpus) == 1 else None
    g.overlaps_dom0 = sorted(cpus & dom0_pins) if restricted and cpus else []
    off = _off_dom0(cpus, dom0_pins, nr) if g.overlaps_dom0 else set()
    g.off_dom0 = ",".join(str(c) for c in sorted(off)) or None
    g.off_dom0_grows = len(off) > len(cpus or ())


def _off_dom0(cpus: AbstractSet[int] | None, dom0: AbstractSet[int], nr: int | None) -> set[int]:
    """A vCPU's CPUs without dom0's; when none are left, every CPU of the host
    without dom0's (none when the host's CPU count is not known, or dom0 has them all)."""
    left = set(cpus or ()) - dom0
    if not left and nr is not None:
        left = set(range(nr)) - dom0
    return left
