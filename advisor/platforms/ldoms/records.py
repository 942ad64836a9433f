"""The facts of a host of Oracle VM Server for SPARC: the captured domain, the
machine's domains, switches, vnets and LDC channels, and what it has free."""

from typing import cast

from advisor.facts.models import Fact, HostFacts, Record
from advisor.platforms.solaris.records import SolarisFacts


class Domain(Fact):
    name: str
    state: str | None = None
    is_control: bool = False
    is_service: bool = False
    is_io: bool | None = False  # None: the output does not show its I/O (`ldm list` without -l)
    is_guest: bool | None = False
    is_local: bool = False  # the captured host is this domain
    vcpus: int | None = None
    cores: float | None = None
    whole_cores: int | None = None
    whole_core_constraint: bool | None = None
    max_cores: str | None = None
    memory_gb: float | None = None
    extended_mapin_space: str | None = None
    vsw_names: list[str] | None = []  # None: the output does not show them (`ldm list`, an excerpt)
    vnet_names: list[str] | None = []
    io_devices: list[str] | None = []
    ten_gbe_ports: int | None = None  # 10 GbE data ports it serves (links behind its vsws, owned links up)
    beyond_10gbe: list[str] = []  # its data ports faster than 10 GbE: outside what the study measured
    ten_gbe_links: int | None = None  # distinct >= 10 GbE physical links its vnets reach through vsws
    ten_gbe_links_at_least: int | None = None  # those of them known, where a switch's link speed is not
    uses_10gbe: bool | None = None  # serves or uses 10 GbE (None: cannot tell)
    ldc_estimate: int | None = None
    ldc_limit: int | None = None
    ldc_limit_basis: str | None = None


class VNetRef(Record):
    name: str
    domain: str
    mtu: int | None = None


class VSwitch(Fact):
    name: str
    domain: str
    in_control_domain: bool = False
    net_dev: str | None = None
    mtu: int | None = None
    inter_vnet_link: str | None = None
    relay_mode: str | None = None  # vsw-relay-mode (ldm 3.5): remote sends guest-to-guest traffic out on purpose
    mode: str | None = None
    vnet_count: int = 0
    vnet_domains: list[str] = []  # domains with a vnet on it (they restart for an MTU change)
    instance: int | None = None  # N of its device switch@N: the vsw kstat instance
    mismatched_vnets: list[VNetRef] = []  # vnets whose MTU differs from the vsw's
    net_dev_speed_mbps: int | None = None
    net_dev_mtu: int | None = None
    net_dev_mtu_max: int | None = None


class VNet(Fact):
    name: str
    domain: str
    vsw: str | None = None
    vsw_domain: str | None = None
    mtu: int | None = None
    vsw_mtu: int | None = None
    mode: str | None = None


class LdcChannel(Fact):
    module: str  # vnet or vsw
    instance: int
    name: str
    dring_mode: int | None = None
    lso_enabled: int | None = None
    lso_max_len: int | None = None
    lso_opackets: int | None = None
    counters: dict[str, int] = {}  # traffic and loss counters, for advisor diff
    peer_domains: list[str] | None = None  # vsw channels: the domains with a vnet on that switch


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
