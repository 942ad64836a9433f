"""The facts of a host of Oracle VM Server for SPARC: the captured domain, the
machine's domains, switches, vnets and LDC channels, and what it has free."""

from typing import cast

from advisor.facts.models import Domain, Fact, HostFacts, LdcChannel, VNet, VSwitch
from advisor.platforms.solaris.records import SolarisFacts


class LdomsHost(Fact):
    """What a Solaris host's facts gain from its logical domains."""

    ldm_version: str | None = None
    free_cores: int | None = None  # whole cores no domain holds (ldm list-devices); None: not collected
    free_memory_gb: float | None = None  # memory no domain holds (ldm list-devices)
    ldom_name: str | None = None  # its name in `ldm list` (virtinfo "Domain name")
    control_host: str | None = None  # the control domain's host name (virtinfo "Control domain")
    is_control_domain: bool | None = None
    is_guest_domain: bool | None = None
    local_mapin: str | None = None  # extended-mapin-space of the captured domain, where its listing shows it
    vnet_software: bool | None = None  # the captured domain runs the levels with the vnet rework and LSO
    domains: list[Domain] | None = None
    vswitches: list[VSwitch] | None = None
    vnets: list[VNet] | None = None
    ldcs: list[LdcChannel] | None = None


class LdomsFacts(SolarisFacts, LdomsHost):
    """A host's facts as this pack's code reads them: the host's record mixes these fields in,
    beside the Solaris pack's (an LDoms host is a Solaris host)."""


def ldoms(facts: HostFacts) -> LdomsFacts:
    return cast(LdomsFacts, facts)
