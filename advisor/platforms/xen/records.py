"""The facts of a Xen dom0: its guests' vCPUs and the CPUs they are pinned to."""

from typing import cast

from advisor.facts.models import Fact, HostFacts, Record


class VcpuRef(Record):
    domain: str
    vcpu: int


class XenVcpu(Fact):
    """A guest vCPU as `xm|xl vcpu-list` shows it."""

    domain: str
    vcpu: int
    cpu: int | None = None
    hard: str
    hard_cpus: list[int] | None = None  # None: every CPU, or not expandable
    pinned_cpu: int | None = None  # hard affinity is exactly one CPU
    overlaps_dom0: list[int] = []  # dom0-pinned CPUs this vCPU may run on
    off_dom0: str | None = None  # when it overlaps: its CPUs without dom0's (all CPUs without them, if none are left)
    off_dom0_grows: bool = False  # off_dom0 has more CPUs than it has now (a hard partition would grow)


class PCpu(Fact):
    cpu: int
    pinned_guest_vcpus: list[VcpuRef] = []  # guest vCPUs hard-pinned to this CPU alone
    dom0_pinned: bool = False


class XenHost(Fact):
    """What a Xen dom0's facts add to a Linux host's."""

    xen_tool: str | None = None  # xl or xm, whichever answered
    xen_nr_cpus: int | None = None
    xen_dom0_pinned: list[int] | None = None
    xen_guest_cpus: str | None = None  # the CPUs guests may use: all, or every CPU but dom0's pinned ones (0,1,...)
    xen_guest_vcpus: list[XenVcpu] | None = None
    pcpus: list[PCpu] | None = None


class XenFacts(HostFacts, XenHost):
    """A host's facts as this pack's code reads them: the host's record mixes these fields in."""


def xen(facts: HostFacts) -> XenFacts:
    return cast(XenFacts, facts)
