"""The facts of a Linux host: its bridges, interfaces and PCIe cards."""

from typing import cast

from advisor.facts.models import Fact, HostFacts, Record


class Port(Record):
    name: str
    kind: str  # vif, tap, physical
    mtu: int | None = None


class LinuxBridge(Fact):
    name: str
    mtu: int | None = None
    ports: list[Port] = []
    uplinks: list[Port] = []  # physical ports (eth, bond, em, ...)
    vifs_above: list[Port] = []  # vif/tap ports with an MTU above the bridge's
    uplink_mtu: int | None = None
    target_mtu: int | None = None  # the largest MTU a port asks for: what the chain should carry


class Interface(Fact):
    name: str
    kind: str = "physical"  # vif, tap (tun, vnet, veth) or physical (a NIC, bond or VLAN)
    mtu: int | None = None
    tso: str | None = None
    tso_fixed: bool = False
    tso_requested: str | None = None  # `off [requested on]`: asked for, and the device kept it off
    lro: str | None = None
    lro_fixed: bool = False
    bridge_port: bool = False


class PciCard(Fact):
    card: str  # bus:device
    description: str
    functions: list[str]
    ten_gig: bool = False
    link_gts: float | None = None  # negotiated speed per lane (LnkSta)
    link_width: int | None = None  # negotiated lanes (LnkSta)
    link_gbps: float | None = None  # usable Gbit/s per direction: GT/s x lanes x 8b/10b (below 8 GT/s) or 128b/130b
    functions_in_use: int = 0  # with a kernel driver bound
    ports_up: int | None = None  # functions whose interface has link (ethtool -i bus-info, ip link LOWER_UP)


class LinuxHost(Fact):
    """What a Linux host's facts add to any host's."""

    bridges: list[LinuxBridge] | None = None
    interfaces: list[Interface] | None = None
    ip_forward: bool | None = None
    pci_cards: list[PciCard] | None = None


class LinuxFacts(HostFacts, LinuxHost):
    """A host's facts as this pack's code reads them: the host's record mixes these fields in."""


def linux(facts: HostFacts) -> LinuxFacts:
    return cast(LinuxFacts, facts)
