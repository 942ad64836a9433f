"""The facts of a Solaris host: its release and patch level, processors, links,
TCP properties and LSO counters, /etc/system and its driver files."""

from typing import cast

from advisor.facts.models import Fact, HostFacts, Record


class Link(Fact):
    name: str
    domain: str | None = None  # set in plans, which state the links of several domains
    device: str | None = None
    driver: str | None = None
    media: str | None = None
    state: str | None = None
    speed_mbps: int | None = None
    mtu: int | None = None
    mtu_max: int | None = None
    rxfanout_effective: int | None = None
    cpus_effective: str | None = None
    is_vnet: bool = False
    is_vf: bool = False
    is_physical: bool = False  # a NIC port: not a vnet, vsw, VF, VNIC or aggregation


class TcpLso(Fact):
    enabled: int | None = None
    disabled: int | None = None
    times: int | None = None
    pkt_out: int | None = None
    out_data_segs: int | None = None


class TcpProp(Record):
    current: str | None = None
    persistent: str | None = None
    default: str | None = None


class TcpDrift(Record):
    name: str
    current: str | None
    persistent: str


class SolarisHost(Fact):
    """What a host's facts gain on Solaris (an LDoms host is one: its pack builds on this one)."""

    solaris_major: int | None = None
    solaris_minor: int | None = None
    solaris_update: str | None = None
    solaris_update_yymm: int | None = None  # Solaris 10 update as a number: 1/13 is 1301, 8/11 is 1108
    sru: int | None = None
    threads_per_core: int | None = None
    vcpus: int | None = None
    patches: dict[str, int] | None = None
    system: dict[str, int | str] | None = None
    tcp: dict[str, TcpProp] | None = None
    tcp_recv_buf: int | None = None
    tcp_drift: list[TcpDrift] | None = None
    tcp_lso: TcpLso | None = None
    driver_conf: dict[str, dict[str, str]] = {}
    links: list[Link] | None = None


class SolarisFacts(HostFacts, SolarisHost):
    """A host's facts as this pack's code reads them: the host's record mixes these fields in."""


def solaris(facts: HostFacts) -> SolarisFacts:
    return cast(SolarisFacts, facts)
