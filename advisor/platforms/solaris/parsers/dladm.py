"""`dladm show-phys` (and Solaris 10 `dladm show-dev`) and `dladm show-linkprop`.

show-linkprop comes as a table (LINK PROPERTY PERM VALUE [EFFECTIVE] DEFAULT
POSSIBLE; EFFECTIVE since 11.1, no PERM on Solaris 10) or as `-c -o field,...`
parseable lines split on unescaped `:` with `\\:` and `\\\\` escapes (Solaris 10's
`-c` prints `LINK="..." PROPERTY="..."` pairs instead). Solaris 11.0 prints
separate `*-effective` properties; 11.4 renames properties (`rx-fanout`, ...):
both are kept as printed and resolved by the facts layer.

Guides and mails print these tables with rows left out (`...` lines), a long
POSSIBLE list carried onto a line of its own, and zone links (`zone1/net0`)
wider than the LINK column that push the later cells right: cells are split on
white space, never by column position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.collect.capture import RawOutput
from advisor.errors import ParseError
from advisor.parsers.text import Header, Line, numbered, parse_int


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


_ELISION = re.compile(r"^\s*(?:\.{3,}|\u2026)\s*$")  # `...` where a guide leaves rows out
_RINGS = re.compile(r"^\s*LINK\s+(?:RINGTYPE|GROUP)\s")  # show-phys -H (11: RINGTYPE; OpenSolaris: GROUP)


def _rows(text: str) -> list[Line]:
    """The non-blank lines, less the `...` lines that stand for rows left out."""
    # the regex only where the line can be one (a row never starts with a dot)
    return [ln for ln in numbered(text) if (stripped := ln.text.strip())
            and not (stripped[0] in ".\u2026" and _ELISION.match(ln.text))]


def _speed(cell: str) -> int | None:
    """SPEED in Mb/s: `1000`, or `100Mb` as the Solaris 11.2 networking guides print it."""
    return parse_int(cell[:-2] if cell.endswith("Mb") else cell)


def parse_show_phys(text: str) -> list[PhysLink]:
    lines = _rows(text)
    if not lines:
        raise ParseError("empty output")
    if _RINGS.match(lines[0].text):
        raise ParseError("looks like `dladm show-phys -H` (the rings of each link), not the links' speeds: "
                         "run dladm show-phys", line=lines[0].number)
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
                            _speed(cells.get("SPEED", "")), cells.get("DUPLEX"), cells.get("DEVICE"), ln.number))
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


_BLANK = frozenset(("", "--", "?"))  # how a table or -c prints a value not set
_OPTIONAL = ("perm", "value", "effective", "default", "possible")


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


def _prop(cells: dict[str, str], line: int) -> LinkProp:
    """A row from its cells, keyed by lower-case field name."""
    get = cells.get  # locals: a listing's every row comes here
    perm, value, effective, default, possible = [None if (v := get(k)) is None or v in _BLANK else v for k in _OPTIONAL]
    return LinkProp(cells["link"], cells["property"], perm, value, effective, default, possible, line)


def _table(lines: list[Line]) -> list[LinkProp]:
    header = Header.parse(lines[0].text)
    unknown = set(header.names) - set(_TABLE_FIELDS)
    if unknown:
        raise ParseError(f"unknown column(s) {sorted(unknown)}", line=lines[0].number)
    names = [n.lower() for n in header.names]
    out: list[LinkProp] = []
    open_possible = False  # the last row's POSSIBLE may go on, on a line of its own
    for ln in lines[1:]:
        parts = ln.text.split()
        if len(parts) == 1 and open_possible and out:
            out[-1].possible = (out[-1].possible or "") + parts[0]
            open_possible = parts[0].endswith(",")
            continue
        if len(parts) < len(names) - 1:  # POSSIBLE may be blank on some rows
            raise ParseError(f"expected {len(names)} columns", line=ln.number)
        # split again only when the last column holds spaces: split(None, n - 1) is `parts` otherwise
        cells = dict(zip(names, parts if len(parts) <= len(names) else ln.text.strip().split(None, len(names) - 1)))
        out.append(_prop(cells, ln.number))
        possible = cells.get("possible", "")
        open_possible = names[-1] == "possible" and (not possible or possible.endswith(","))
    return out


_PAIR = re.compile(r'(?<![A-Za-z])([A-Za-z]+)="([^"]*)"')  # starts only at a name's first letter: linear in a long word


def _pairs(lines: list[Line]) -> list[LinkProp]:
    """Solaris 10's `show-linkprop -c`: `LINK="e1000g0" PROPERTY="mtu" VALUE="1500" ...`."""
    out = []
    for ln in lines:
        cells = {k.lower(): v for k, v in _PAIR.findall(ln.text)}
        if "link" not in cells or "property" not in cells:
            raise ParseError('expected LINK="..." PROPERTY="..." pairs', line=ln.number)
        out.append(_prop(cells, ln.number))
    return out


def _parseable(lines: list[Line], command: str | None) -> list[LinkProp]:
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
        out.append(_prop(dict(zip(names, parts)), ln.number))
    return out


def parse_show_linkprop(text: str, command: str | None = None) -> list[LinkProp]:
    lines = _rows(text)
    if not lines:
        raise ParseError("empty output")
    first = lines[0].text.split()
    if first[:2] == ["LINK", "PROPERTY"]:
        return _table(lines)
    if lines[0].text.lstrip().startswith('LINK="'):
        return _pairs(lines)
    return _parseable(lines, command)


def parse_linkprop_output(output: RawOutput) -> list[LinkProp]:
    """`dladm show-linkprop` read with its command line, which says which columns `-o` chose."""
    return parse_show_linkprop(output.text(), output.command)
