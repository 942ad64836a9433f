"""`dladm show-phys` (and Solaris 10 `dladm show-dev`) and `dladm show-linkprop`.

show-linkprop comes as a table (LINK PROPERTY PERM VALUE [EFFECTIVE] DEFAULT
POSSIBLE; EFFECTIVE since 11.1) or as `-c -o field,...` parseable lines split on
unescaped `:` with `\\:` and `\\\\` escapes. Solaris 11.0 prints separate
`*-effective` properties; 11.4 renames properties (`rx-fanout`, ...): both are
kept as printed and resolved by the facts layer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import ParseError
from advisor.parsers.text import Header, numbered, parse_int


@dataclass
class PhysLink:
    link: str
    media: str | None
    state: str | None
    speed_mbps: int | None
    duplex: str | None
    device: str | None
    line: int


_SHOW_DEV = re.compile(r"^(\S+)\s+link:\s*(\S+)\s+speed:\s*(\d+)\s*Mbps\s+duplex:\s*(\S+)")


def parse_show_phys(text: str) -> list[PhysLink]:
    lines = [ln for ln in numbered(text) if ln.text.strip()]
    if not lines:
        raise ParseError("empty output")
    if _SHOW_DEV.match(lines[0].text):
        out = []
        for ln in lines:
            m = _SHOW_DEV.match(ln.text)
            if not m:
                raise ParseError("not a 'dladm show-dev' line", line=ln.number)
            dev = m.group(1)
            out.append(PhysLink(dev, "Ethernet", m.group(2), int(m.group(3)), m.group(4), dev, ln.number))
        return out
    header = Header.parse(lines[0].text)
    if header.names[:1] != ("LINK",) or "DEVICE" not in header.names:
        raise ParseError("expected a 'LINK MEDIA STATE SPEED DUPLEX DEVICE' header", line=lines[0].number)
    out = []
    for ln in lines[1:]:
        cells = header.split_words(ln.text)
        if len(cells) != len(header.names):
            raise ParseError(f"expected {len(header.names)} columns", line=ln.number)
        out.append(PhysLink(cells["LINK"], cells.get("MEDIA"), cells.get("STATE"),
                            parse_int(cells.get("SPEED", "")), cells.get("DUPLEX"), cells.get("DEVICE"), ln.number))
    return out


@dataclass
class LinkProp:
    link: str
    name: str
    perm: str | None
    value: str | None
    effective: str | None
    default: str | None
    possible: str | None
    line: int


_TABLE_FIELDS = ("LINK", "PROPERTY", "PERM", "VALUE", "EFFECTIVE", "DEFAULT", "POSSIBLE")
_DEFAULT_C_FIELDS = ("link", "property", "perm", "value", "default", "possible")


def _none(value: str | None) -> str | None:
    return None if value in (None, "", "--", "?") else value


def _split_escaped(text: str) -> list[str]:
    fields, cur, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            cur.append(text[i + 1])
            i += 2
            continue
        if ch == ":":
            fields.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    fields.append("".join(cur))
    return fields


def _c_fields(command: str | None, count: int) -> tuple[str, ...]:
    if command:
        m = re.search(r"-o\s+(\S+)", command)
        if m:
            return tuple(f.strip().lower() for f in m.group(1).split(","))
    if count == 7:
        return ("link", "property", "perm", "value", "effective", "default", "possible")
    return _DEFAULT_C_FIELDS


def parse_show_linkprop(text: str, command: str | None = None) -> list[LinkProp]:
    lines = [ln for ln in numbered(text) if ln.text.strip()]
    if not lines:
        raise ParseError("empty output")
    first = lines[0].text.split()
    if first[:2] == ["LINK", "PROPERTY"]:
        header = Header.parse(lines[0].text)
        unknown = set(header.names) - set(_TABLE_FIELDS)
        if unknown:
            raise ParseError(f"unknown column(s) {sorted(unknown)}", line=lines[0].number)
        out = []
        for ln in lines[1:]:
            parts = ln.text.split()
            if len(parts) < len(header.names) - 1:  # POSSIBLE may be blank on some rows
                raise ParseError(f"expected {len(header.names)} columns", line=ln.number)
            cells = dict(zip(header.names, ln.text.split(None, len(header.names) - 1)))
            out.append(LinkProp(cells["LINK"], cells["PROPERTY"], _none(cells.get("PERM")), _none(cells.get("VALUE")),
                                _none(cells.get("EFFECTIVE")), _none(cells.get("DEFAULT")),
                                _none(cells.get("POSSIBLE")), ln.number))
        return out
    out = []
    names: tuple[str, ...] | None = None
    for ln in lines:
        parts = _split_escaped(ln.text.strip())
        if names is None:
            names = _c_fields(command, len(parts))
            if "link" not in names or "property" not in names:
                raise ParseError("parseable show-linkprop needs the link and property fields", line=ln.number)
        if len(parts) != len(names):
            raise ParseError(f"expected {len(names)} ':'-separated fields, found {len(parts)}", line=ln.number)
        cells = dict(zip(names, parts))
        out.append(LinkProp(cells["link"], cells["property"], _none(cells.get("perm")), _none(cells.get("value")),
                            _none(cells.get("effective")), _none(cells.get("default")),
                            _none(cells.get("possible")), ln.number))
    return out
