"""The records both forms of `ldm list -l` are read into.

The human form (`ldm list -l`) and the parseable form (`ldm list -l -p`) carry
the same information with different spellings; both parsers produce these
records, keyed by the parseable form's attribute names, so that facts built
from either are identical.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.parsers.text import digits, parse_size

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


@dataclass(eq=False)
class Record:
    """One row or attribute line: its values and the line it was on."""

    values: dict[str, str]
    line: int
    peers: list["Record"] = field(default_factory=list)

    def get(self, key: str) -> str | None:
        value = self.values.get(key)
        return value if value not in (None, "") else None

    def __eq__(self, other: object) -> bool:  # a TableRow is equal to the Record of the same values
        if not isinstance(other, Record):
            return NotImplemented
        return (self.values, self.line, self.peers) == (other.values, other.line, other.peers)


class TableRow(Record):
    """A row of a human-form table: its cells are split from its text when first
    read. Most never are (a VCPU table's rows are counted, a VCONS table's not
    kept), and splitting a row is most of what reading it costs."""

    def __init__(self, split: Callable[[str], dict[str, str]], text: str, line: int):
        self.line = line
        self.peers = []
        self._split = split
        self._text = text

    def __getattr__(self, name: str) -> Any:  # called only for attributes not set: `values` until first read
        if name != "values":
            raise AttributeError(name)
        self.values = self._split(self._text)
        return self.values


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
    core_count: int | None = None  # CORE COUNT of `ldm list-constraints`
    # False when sections may be missing (a short `ldm list` row, an excerpt
    # elided with `...`): a section not shown is then not known to be empty
    complete: bool = True
    elided: set[str] = field(default_factory=set)  # sections with rows elided by `...`

    def knows(self, *sections: str) -> bool:
        """Whether the listing says all this domain has of a section (VSW, NETWORK, IO...)."""
        shown = [s for s in sections if s in self.sections]
        return (self.complete or bool(shown)) and not any(s in self.elided for s in shown)

    def take_count(self, section: str, values: dict[str, str]) -> bool:
        """`VCPU`/`CORE` COUNT and `MEMORY` SIZE lines of `ldm list-constraints`."""
        if section in ("VCPU", "CORE") and set(values) == {"count"}:
            count = _int(values["count"])
            if section == "VCPU":
                self.ncpu = count
            else:
                self.core_count = count
            return True
        if section == "MEMORY" and set(values) == {"size"}:
            self.memory_bytes = parse_size(values["size"])
            return True
        return False


@dataclass
class LdmListing:
    domains: list[LdmDomain]
    form: str  # "human", "parseable", "short" (`ldm list`), "constraints" or "list-io"
    format_version: str | None = None
    # sections this output says all of for every domain, listed or not (list-io: who owns what I/O)
    covers: frozenset[str] = frozenset()


def _int(text: str) -> int | None:
    return int(text) if digits(text.strip()) else None
