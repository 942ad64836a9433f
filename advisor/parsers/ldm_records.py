"""The records both forms of `ldm list -l` are read into.

The human form (`ldm list -l`) and the parseable form (`ldm list -l -p`) carry
the same information with different spellings; both parsers produce these
records, keyed by the parseable form's attribute names, so that facts built
from either are identical.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Human-form column headers -> parseable-form keys.
COLUMN_KEYS = {
    "NAME": "name",
    "MAC": "mac-addr",
    "NET-DEV": "net-dev",
    "ID": "id",
    "DEVICE": "dev",
    "LINKPROP": "linkprop",
    "DEFAULT-VLAN-ID": "default-vlan-id",
    "PVID": "pvid",
    "VID": "vid",
    "MTU": "mtu",
    "MODE": "mode",
    "INTER-VNET-LINK": "inter-vnet-link",
    "INTERVNETLINK": "inter-vnet-link",
    "SERVICE": "service",
    "MAXBW": "maxbw",
    "PEER": "peer",
    "CID": "cid",
    "CPUSET": "cpuset",
    "PID": "pid",
    "UTIL": "util",
    "STRAND": "strand",
    "PSEUDONYM": "alias",
    "OPTIONS": "options",
    "SIZE": "size",
    "RA": "ra",
    "PA": "pa",
}

# Letter flags of the human form, by position (ldm(1M) "Flag Definitions").
FLAG_LETTERS = (
    {"s": "starting"},
    {"n": "normal", "t": "transition", "d": "degraded"},
    {"d": "delayed-reconfig", "r": "memory-dr"},
    {"c": "control"},
    {"v": "vio-service"},
    {"s": "source", "t": "target", "e": "error"},
)


def flags_from_letters(letters: str) -> frozenset[str]:
    words = set()
    for pos, ch in enumerate(letters):
        if pos < len(FLAG_LETTERS) and ch in FLAG_LETTERS[pos]:
            words.add(FLAG_LETTERS[pos][ch])
    return frozenset(words)


def column_key(header: str) -> str:
    return COLUMN_KEYS.get(header, header.lower())


@dataclass
class Record:
    """One row or attribute line: its values and the line it was on."""

    values: dict[str, str]
    line: int
    peers: list["Record"] = field(default_factory=list)

    def get(self, key: str) -> str | None:
        value = self.values.get(key)
        return value if value not in (None, "") else None


@dataclass
class LdmDomain:
    name: str
    line: int
    state: str | None = None
    flags: frozenset[str] = frozenset()
    ncpu: int | None = None
    memory_bytes: int | None = None
    control: dict[str, Record] = field(default_factory=dict)
    constraint: dict[str, Record] = field(default_factory=dict)
    vcpus: list[Record] = field(default_factory=list)
    cores: list[Record] = field(default_factory=list)
    io: list[Record] = field(default_factory=list)
    vsws: list[Record] = field(default_factory=list)
    vnets: list[Record] = field(default_factory=list)
    vds: list[Record] = field(default_factory=list)
    vdisks: list[Record] = field(default_factory=list)
    sections: set[str] = field(default_factory=set)


@dataclass
class LdmListing:
    domains: list[LdmDomain]
    form: str  # "human" or "parseable"
    format_version: str | None = None
