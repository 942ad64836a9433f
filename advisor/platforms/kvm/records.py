"""The facts of a KVM host: its guests, the host CPUs each guest vCPU may run
on, and the host device behind each guest NIC."""

from typing import cast

from advisor.facts.models import Fact, HostFacts, Record


class GuestNic(Record):
    device: str | None  # the host's tap or macvtap device; None while the guest is down
    type: str  # bridge, network, direct ...
    source: str  # the bridge, network or host interface it is attached to
    model: str | None  # virtio, e1000 ...
    mac: str


class KvmGuest(Fact):
    name: str
    state: str | None = None  # as virsh list says: running, shut off ...
    vcpu_cpus: dict[str, str] | None = None  # vCPU -> the host CPUs it may run on, as virsh prints them (0-3)
    nics: list[GuestNic] | None = None  # None: virsh domiflist of the guest was not read


class KvmHost(Fact):
    """What a KVM host's facts add to a Linux host's."""

    kvm_guests: list[KvmGuest] | None = None


class KvmFacts(HostFacts, KvmHost):
    """A host's facts as this pack's code reads them: the host's record mixes these fields in."""


def kvm(facts: HostFacts) -> KvmFacts:
    return cast(KvmFacts, facts)
