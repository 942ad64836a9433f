"""Linux changes: offloads (`ethtool -K`) and MTUs (`ip link`). Neither
survives a reboot by itself: each says where it is made persistent."""

from __future__ import annotations

from advisor.changes import Change, Rendered, Undo, effect, operation, undo, was
from advisor.facts.models import HostFacts
from advisor.platforms.linux.records import linux, Interface
from advisor.shell import shell_word


def _resets_for(change: Change, facts: HostFacts) -> str | None:
    """ixgbe and most drivers reset the adapter to change LRO."""
    return f"the link of {change.target}, for a few seconds (the driver resets the adapter)" \
        if change.prop == "lro" else None


def _interface(facts: HostFacts, name: str) -> Interface | None:
    return next((i for i in linux(facts).interfaces or [] if i.name == name), None)


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
    bridge = next((b for b in linux(facts).bridges or [] if b.name == change.target), None)
    return was(change, iface.mtu if iface is not None else bridge.mtu if bridge is not None else None)


@effect("set-ip-mtu")
def _set_ip_mtu_effect(change: Change, facts: HostFacts) -> str | None:
    if not change.value.isdigit():
        return f"{change.value!r} is not an MTU"
    # imported here: every review loads each pack's operations to check its rules, and the
    # facts module is needed only to model an MTU change
    from advisor.platforms.linux.facts import relate_ports

    mtu, found = int(change.value), False
    for iface in linux(facts).interfaces or []:
        if iface.name == change.target:
            iface.mtu, found = mtu, True
    for br in linux(facts).bridges or []:
        if br.name == change.target:
            br.mtu, found = mtu, True
        for port in br.ports:
            if port.name == change.target:
                port.mtu, found = mtu, True
        relate_ports(br)
    return None if found else f"no interface {change.target}"
