"""A KVM host's guests from `virsh list --all`, `virsh vcpupin` and `virsh domiflist`."""

from __future__ import annotations

from typing import Any

from advisor.platforms.kvm.records import GuestNic, KvmFacts, KvmGuest


def build(facts: KvmFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    guests: dict[str, KvmGuest] = {}
    for dom in parsed.get("virsh-list") or []:
        guests[dom.name] = KvmGuest(name=dom.name, state=dom.state)
        guests[dom.name].evidence["state"] = f"{files['virsh-list']}:{dom.line}"
    for cid, rows in sorted(parsed.items()):
        base, _, name = cid.partition("@")
        if base not in ("virsh-vcpupin", "virsh-domiflist"):
            continue
        guest = guests.get(name)
        if guest is None:  # not setdefault: it would build a KvmGuest even for a guest already known
            guest = guests[name] = KvmGuest(name=name)
        if base == "virsh-vcpupin":
            guest.vcpu_cpus = {str(p.vcpu): p.affinity for p in rows}
            guest.evidence["vcpu_cpus"] = files[cid]
        else:
            guest.nics = [GuestNic(device=n.interface, type=n.type, source=n.source, model=n.model, mac=n.mac) for n in rows]
            guest.evidence["nics"] = files[cid]
    if guests:
        facts.kvm_guests = sorted(guests.values(), key=lambda g: g.name)
