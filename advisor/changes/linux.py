"""Linux and Xen dom0 changes: offloads (`ethtool -K`), MTUs (`ip link`) and
vCPU pinning (`xm` or `xl vcpu-pin`, whichever the host answered to). None of
them survives a reboot by itself: each says where it is made persistent."""

from __future__ import annotations

from advisor.changes import Change, Rendered, Undo, effect, operation, undo, was
from advisor.facts.linux import relate_ports, set_affinity
from advisor.facts.models import HostFacts, Interface, PCpu, VcpuRef, XenVcpu
from advisor.shell import shell_word


def _resets_for(change: Change, facts: HostFacts) -> str | None:
    """ixgbe and most drivers reset the adapter to change LRO."""
    return f"the link of {change.target}, for a few seconds (the driver resets the adapter)" \
        if change.prop == "lro" else None


def _interface(facts: HostFacts, name: str) -> Interface | None:
    return next((i for i in facts.interfaces or [] if i.name == name), None)


@operation("set-offload", "host", interrupts=_resets_for)
def _set_offload(change: Change, facts: HostFacts) -> Rendered:
    dev, what = shell_word(change.target), f"{change.prop} {change.value}"
    return Rendered(f"ethtool -K {dev} {shell_word(change.prop or '<feature>')} {shell_word(change.value)}",
                    comment=f"persist with ETHTOOL_OPTS=\"-K {change.target} {what}\" in ifcfg-{change.target}")


@undo("set-offload")
def _set_offload_undo(change: Change, facts: HostFacts) -> Undo:
    iface = _interface(facts, change.target)
    return was(change, getattr(iface, change.prop)) if iface is not None and change.prop in ("tso", "lro") else None


@effect("set-offload")
def _set_offload_effect(change: Change, facts: HostFacts) -> str | None:
    iface = _interface(facts, change.target)
    if iface is None or change.prop not in ("tso", "lro"):
        return f"no model of {change.prop} on {change.target}"
    setattr(iface, change.prop, change.value)
    if change.prop == "tso":
        iface.tso_requested = None
    return None


@operation("set-ip-mtu", "host")
def _set_ip_mtu(change: Change, facts: HostFacts) -> Rendered:
    return Rendered(f"ip link set dev {shell_word(change.target)} mtu {shell_word(change.value)}",
                    comment=f"persist with MTU={change.value} in ifcfg-{change.target} (and mtu= in a vif's config)")


@undo("set-ip-mtu")
def _set_ip_mtu_undo(change: Change, facts: HostFacts) -> Undo:
    iface = _interface(facts, change.target)
    bridge = next((b for b in facts.bridges or [] if b.name == change.target), None)
    return was(change, iface.mtu if iface is not None else bridge.mtu if bridge is not None else None)


@effect("set-ip-mtu")
def _set_ip_mtu_effect(change: Change, facts: HostFacts) -> str | None:
    if not change.value.isdigit():
        return f"{change.value!r} is not an MTU"
    mtu, found = int(change.value), False
    for iface in facts.interfaces or []:
        if iface.name == change.target:
            iface.mtu, found = mtu, True
    for br in facts.bridges or []:
        if br.name == change.target:
            br.mtu, found = mtu, True
        for port in br.ports:
            if port.name == change.target:
                port.mtu, found = mtu, True
        relate_ports(br)
    return None if found else f"no interface {change.target}"


@operation("pin-vcpu", "host")
def _pin_vcpu(change: Change, facts: HostFacts) -> Rendered:
    tool = facts.xen_tool or "<xl or xm>"
    return Rendered(f"{tool} vcpu-pin {shell_word(change.domain or '<domain>')} {shell_word(change.target)} "
                    f"{shell_word(change.value)}", comment="persist with cpus= in the guest's vm.cfg")


def _vcpu(facts: HostFacts, change: Change) -> XenVcpu | None:
    return next((v for v in facts.xen_guest_vcpus or [] if v.domain == change.domain and str(v.vcpu) == change.target),
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
    dom0 = set(facts.xen_dom0_pinned or [])
    was = g.pinned_cpu
    set_affinity(g, change.value, dom0, facts.xen_nr_cpus)
    pcpus = {p.cpu: p for p in facts.pcpus or []}
    ref = VcpuRef(domain=g.domain, vcpu=g.vcpu)
    if was is not None and was in pcpus:
        pcpus[was].pinned_guest_vcpus = [r for r in pcpus[was].pinned_guest_vcpus if r != ref]
    if g.pinned_cpu is not None:
        p = pcpus.setdefault(g.pinned_cpu, PCpu(cpu=g.pinned_cpu, dom0_pinned=g.pinned_cpu in dom0))
        p.pinned_guest_vcpus.append(ref)
    facts.pcpus = sorted((p for p in pcpus.values() if p.pinned_guest_vcpus), key=lambda p: p.cpu)
    return None
