"""The facts of an HP-UX host: its LAN interfaces and APA aggregates."""

from typing import cast

from advisor.facts.models import Fact, HostFacts, Record


class LanRef(Record):
    name: str
    ppa: int


class LanInterface(Fact):
    """An HP-UX LAN interface or APA aggregate."""

    name: str
    ppa: int
    driver: str | None = None
    state: str | None = None
    interface_type: str | None = None  # nwmgr's Interface Type: 1000Base-T, hp_apa, ...
    link_state: str | None = None
    speed_mbps: int | None = None
    duplex: str | None = None  # "full" or "half"
    autonegotiation: bool | None = None
    vmtu: int | None = None
    tso_supported: bool | None = None
    tx_cko: bool | None = None  # transmit checksum offload (TSO needs it on)
    rx_cko: bool | None = None
    cko_attribute: str | None = None  # the name nwmgr printed for transmit CKO
    is_aggregate: bool = False
    members: list[str] | None = None  # aggregates: member interfaces (None: lanscan -q not read)
    members_tso_off: list[LanRef] = []
    aggregate: str | None = None  # the APA aggregate this port is a member of (lanscan -q)


class HpuxHost(Fact):
    """What an HP-UX host's facts add to any host's."""

    hpux_release: str | None = None  # B.11.31 (11i v3), B.11.23 (v2), B.11.11 (v1)
    lan_interfaces: list[LanInterface] | None = None


class HpuxFacts(HostFacts, HpuxHost):
    """A host's facts as this pack's code reads them: the host's record mixes these fields in."""


def hpux(facts: HostFacts) -> HpuxFacts:
    return cast(HpuxFacts, facts)
