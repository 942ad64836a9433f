"""Xen dom0 changes: vCPU pinning (`xm` or `xl vcpu-pin`, whichever the host
answered to). It does not survive a reboot by itself: it says where it is made persistent."""

from __future__ import annotations

from advisor.changes import Change, Rendered, Undo, effect, operation, undo, was
from advisor.facts.models import HostFacts
from advisor.platforms.xen.records import xen, PCpu, VcpuRef, XenVcpu
from advisor.shell import shell_word


@operation("pin-vcpu", "host")
def _pin_vcpu(change: Change, facts: HostFacts) -> Rendered:
    tool = xen(facts).xen_tool or "<xl or xm>"
    return Rendered(f"{tool} vcpu-pin {shell_word(change.domain or '<domain>')} {shell_word(change.target)} "
                    f"{shell_word(change.value)}", comment="persist with cpus= in the guest's vm.cfg")


def _vcpu(facts: HostFacts, change: Change) -> XenVcpu | None:
    return next((v for v in xen(facts).xen_guest_vcpus or [] if v.domain == change.domain and str(v.vcpu) == change.target),
                None)


@undo("pin-vcpu")
def _pin_vcpu_undo(change: Change, facts: HostFacts) -> Undo:
    g = _vcpu(facts, change)
    return was(change, g.hard) if g is not None else None


@effect("pin-vcpu")
def _pin_vcpu_effect(change: Change, facts: HostFacts) -> str | None:
    g = _vcpu(facts, change)
    if g is None:
        return f"no vCPU {change.target} of {change.domain}"
    # imported here: every review loads each pack's operations to check its rules, and the
    # facts module (with the vcpu-list parser's patterns) is needed only to model a pin
    from advisor.platforms.xen.facts import set_affinity

    dom0 = set(xen(facts).xen_dom0_pinned or [])
    was = g.pinned_cpu
    set_affinity(g, change.value, dom0, xen(facts).xen_nr_cpus)
    pcpus = {p.cpu: p for p in xen(facts).pcpus or []}
    ref = VcpuRef(domain=g.domain, vcpu=g.vcpu)
    if was is not None and was in pcpus:
        pcpus[was].pinned_guest_vcpus = [r for r in pcpus[was].pinned_guest_vcpus if r != ref]
    if g.pinned_cpu is not None:
        p = pcpus.setdefault(g.pinned_cpu, PCpu(cpu=g.pinned_cpu, dom0_pinned=g.pinned_cpu in dom0))
        p.pinned_guest_vcpus.append(ref)
    xen(facts).pcpus = sorted((p for p in pcpus.values() if p.pinned_guest_vcpus), key=lambda p: p.cpu)
    return None
