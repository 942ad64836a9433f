"""libvirt's virsh: `virsh vcpupin DOMAIN`, `virsh domiflist DOMAIN`, `virsh list --all`.

`virsh vcpupin` prints one row per vCPU with the host CPUs it may run on. Before
libvirt 5.x (RHEL 6/7 guides) the rows read `   0: 0-3` under `VCPU: CPU Affinity`;
later ones are a table, ` 0      0-3` under ` VCPU   CPU Affinity`. Both put a
dashed rule under the header. `virsh domiflist` is a table `Interface Type
Source Model MAC`; a domain that is not running shows `-` for its interface.
`virsh list --all` is `Id Name State`, with `-` for the id of a domain that is
shut off, and states of two words (`shut off`, `in shutdown`).

Rows are read by splitting on blanks, never by column position: a long name
pushes the rest right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import ParseError
from advisor.parsers.text import Line, numbered

_RULE = re.compile(r"^-{4,}$")
_MAC = re.compile(r"^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}$")


def _table(text: str, header: str) -> tuple[Line, list[Line]]:
    """The header line and the rows below its dashed rule; an `error:` from virsh is refused."""
    lines = [ln for ln in numbered(text) if ln.text.strip()]
    if not lines:
        raise ParseError("empty output")
    if lines[0].text.strip().startswith("error:"):
        raise ParseError(f"virsh said: {lines[0].text.strip()[:80]}", line=lines[0].number)
    if "".join(lines[0].text.split()).replace(":", "") != header:
        raise ParseError(f"expected a '{header}' header", line=lines[0].number)
    rows = lines[1:]
    if rows and _RULE.match(rows[0].text.strip()):
        rows = rows[1:]
    return lines[0], rows


@dataclass
class VcpuPin:
    vcpu: int
    affinity: str  # as printed: "0-3", "0,2-3", "7,9,11"
    line: int


_PIN_ROW = re.compile(r"^(?P<vcpu>\d+)(?::[ \t]*|[ \t]+)(?P<affinity>[\d,^-]+)$")


def parse_vcpupin(text: str) -> list[VcpuPin]:
    _header, rows = _table(text, "VCPUCPUAffinity")
    out = []
    for ln in rows:
        m = _PIN_ROW.match(ln.text.strip())
        if not m:
            raise ParseError("not a 'VCPU  CPU-list' row", line=ln.number)
        out.append(VcpuPin(int(m.group("vcpu")), m.group("affinity"), ln.number))
    return out


@dataclass
class DomainInterface:
    interface: str | None  # the host's tap or macvtap device (vnet0); None when the domain is not running
    type: str  # bridge, network, direct, vhostuser ...
    source: str  # the bridge, network or host device it is attached to
    model: str | None  # virtio, e1000, rtl8139; None when shown as `-`
    mac: str
    line: int


def parse_domiflist(text: str) -> list[DomainInterface]:
    _header, rows = _table(text, "InterfaceTypeSourceModelMAC")
    out = []
    for ln in rows:
        words = ln.text.split()
        if len(words) != 5 or not _MAC.match(words[4]):
            raise ParseError("not an 'Interface Type Source Model MAC' row", line=ln.number)
        iface, kind, source, model, mac = words
        out.append(DomainInterface(None if iface == "-" else iface, kind, source, None if model == "-" else model,
                                   mac.lower(), ln.number))
    return out


@dataclass
class Domain:
    id: int | None  # None when it is not running (`-`)
    name: str
    state: str
    line: int


_LIST_ROW = re.compile(r"^(?P<id>\d+|-)[ \t]+(?P<name>\S+)[ \t]+(?P<state>[a-z][a-z ]*)$")


def parse_list(text: str) -> list[Domain]:
    _header, rows = _table(text, "IdNameState")
    out = []
    for ln in rows:
        m = _LIST_ROW.match(ln.text.strip())
        if not m:
            raise ParseError("not an 'Id Name State' row", line=ln.number)
        domid = m.group("id")
        out.append(Domain(None if domid == "-" else int(domid), m.group("name"), m.group("state"), ln.number))
    return out
