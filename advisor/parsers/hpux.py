"""HP-UX LAN outputs: `lanscan` (with `lanscan -q` appended), `lanscan -v`,
`nwmgr -g -A vmtu -c lanN` (11i v3) and `lanadmin -x vmtu PPA` (11i v1/v2).

lanscan rows are read by pattern: long hardware paths push the columns right,
APA aggregates show `LinkAgg<N>` instead of a path. `lanscan -q` prints one
line per PPA, an aggregate's PPA followed by its members' PPAs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from advisor.errors import ParseError
from advisor.parsers.text import numbered

_ROW = re.compile(r"^(?P<path>\S+)\s+(?P<mac>0x[0-9A-Fa-f]{12})\s+(?P<card>\d+)\s+(?P<state>UP|DOWN|\S+)\s+"
                  r"(?P<name>lan\d+)(?:\s+(?P<snap>snap\d+))?\s+(?P<nmid>\d+)\s+(?P<type>\S+)\s+(?P<dlpi>\S+)\s+(?P<major>\d+)\s*$")
_QUIET = re.compile(r"^\d+(?:\s+\d+)*$")


@dataclass
class LanCard:
    name: str  # lanN: its PPA is N
    ppa: int
    hw_path: str
    state: str
    is_aggregate: bool
    line: int


@dataclass
class Lanscan:
    cards: list[LanCard]
    members: dict[int, list[int]] = field(default_factory=dict)  # aggregate PPA -> member PPAs (lanscan -q)
    quiet_line: dict[int, int] = field(default_factory=dict)


def parse_lanscan(text: str) -> Lanscan:
    lines = [ln for ln in numbered(text) if ln.text.strip()]
    if not lines or not lines[0].text.split()[:2] == ["Hardware", "Station"]:
        raise ParseError("expected the 'Hardware Station  Crd Hdw  Net-Interface ...' header",
                         line=lines[0].number if lines else None)
    result = Lanscan(cards=[])
    for ln in lines[1:]:
        s = ln.text.strip()
        if s.startswith("Path") and "Address" in s:
            continue
        if m := _ROW.match(s):
            name = m.group("name")
            path = m.group("path")
            result.cards.append(LanCard(name, int(name[3:]), path, m.group("state"),
                                        path.startswith("LinkAgg") or int(name[3:]) >= 900, ln.number))
        elif _QUIET.match(s):
            ppas = [int(p) for p in s.split()]
            if len(ppas) > 1:
                result.members[ppas[0]] = ppas[1:]
                result.quiet_line[ppas[0]] = ln.number
        else:
            raise ParseError(f"not a lanscan row: {s[:40]!r}", line=ln.number)
    if not result.cards:
        raise ParseError("no LAN interfaces listed")
    return result


def parse_lanscan_v(text: str) -> dict[str, tuple[str, int]]:
    """lanN -> (driver, line): the name under 'Driver Specific Information',
    such as `iether0` or `btlan3`, without its instance number."""
    drivers: dict[str, tuple[str, int]] = {}
    current: str | None = None
    expect_driver = False
    seen_header = False
    for ln in numbered(text):
        s = ln.text.strip()
        if not s or set(s) == {"-"}:
            continue
        if s.startswith("Hardware Station"):
            seen_header = True
            continue
        if m := _ROW.match(s):
            current, expect_driver = m.group("name"), False
            continue
        if s.startswith("Driver Specific Information"):
            expect_driver = True
            continue
        if expect_driver and current:
            m = re.match(r"^([a-z][a-z0-9_]*?)\d*$", s)
            if m:
                drivers[current] = (m.group(1), ln.number)
            expect_driver = False
    if not seen_header:
        raise ParseError("expected lanscan -v blocks ('Hardware Station ...')")
    return drivers


@dataclass
class Vmtu:
    vmtu: int | None
    tso_supported: bool | None
    line: int


def parse_vmtu(text: str) -> Vmtu:
    """nwmgr: 'Driver/Hardware supports TCP Segmentation Offload. Current VMTU = 32160';
    lanadmin prints the same kind of sentence. 0 means TSO is off."""
    supported: bool | None = None
    for ln in numbered(text):
        s = ln.text.strip()
        if re.search(r"does not support TCP Segmentation Offload|TSO (?:is )?not supported", s, re.I):
            supported = False
        elif re.search(r"supports TCP Segmentation Offload", s, re.I):
            supported = True
        if m := re.search(r"VMTU\s*[=:]\s*(\d+)", s, re.I):
            return Vmtu(int(m.group(1)), supported, ln.number)
    if supported is False:
        return Vmtu(None, False, 1)
    raise ParseError("no 'VMTU = N' value")
