"""Linux and Xen dom0 changes: offloads (`ethtool -K`), MTUs (`ip link`) and
vCPU pinning (`xm` or `xl vcpu-pin`, whichever the host answered to). None of
them survives a reboot by itself: each says where it is made persistent."""

from __future__ import annotations

from advisor.changes import Change, Rendered, effect, operation
from advisor.facts.linux import relate_ports, set_affinity
from advisor.facts.models import HostFacts, VcpuRef, PCpu
from advisor.shell import shell_word


@operation("set-offload", "host")
def _set_offload(change: Change, facts: HostFacts) -> Rendered:
    dev, what = shell_word(change.target), f"{change.prop} {change.value}"
    return Rendered(f"ethtool -K {dev} {shell_word(change.prop or '<feature>')} {shell_word(change.value)}",
                    comment=f"persist with ETHTOOL_OPTS=\"-K {change.target} {what}\" in ifcfg-{change.target}")


@effect("set-offload")
def _set_offload_effect(change: Change, facts: HostFacts) -> str | None:
    iface = next((i for i in facts.interfaces or [] if i.name == change.target), None)
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


@effect("pin-vcpu")
def _pin_vcpu_effect(change: Change, facts: HostFacts) -> str | None:
    g = next((v for v in facts.xen_guest_vcpus or [] if v.domain == change.domain and str(v.vcpu) == change.target),
             None)
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
