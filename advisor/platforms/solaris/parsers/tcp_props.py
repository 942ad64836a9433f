"""TCP tunables: `ndd -get /dev/tcp` captures and `ipadm show-prop tcp`.

ndd captures are `name value` (or `name = value`) lines; Explorer's ndd files
give the name on one line and the value on the next. ipadm prints a table
(PROTO PROPERTY PERM CURRENT PERSISTENT DEFAULT POSSIBLE) whose POSSIBLE column
wraps onto indented lines, or `-c -o` parseable lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import ParseError
from advisor.parsers.text import Header, numbered

_NDD_PAIR = re.compile(r"^((?:tcp_)?[a-z]\w*+)(?:\s*+=\s*+|\s++)(-?\d++)\s*+$")  # `ndd -get` of a name: its value
_NDD_NAME = re.compile(r"^(tcp_\w++)(?:\s*+\(.*\))?\s*+$")


@dataclass
class TcpValue:
    value: str
    line: int
    persistent: str | None = None
    default: str | None = None


def parse_ndd(text: str) -> dict[str, TcpValue]:
    out: dict[str, TcpValue] = {}
    pending: str | None = None
    in_value = False  # Explorer style: a value may go on over several lines
    for ln in numbered(text):
        s = ln.text.strip()
        if not s:
            continue
        if m := _NDD_PAIR.match(s):
            out[m.group(1)] = TcpValue(m.group(2), ln.number)
            pending, in_value = None, False
        elif m := _NDD_NAME.match(s):
            pending, in_value = m.group(1), False
        elif pending and re.fullmatch(r"-?\d+", s):
            out[pending] = TcpValue(s, ln.number)
            pending, in_value = None, True
        elif pending or in_value:
            pending = None  # rest of a multi-line listing such as tcp_extra_priv_ports
        else:
            raise ParseError(f"not an ndd 'name value' line: {s[:40]!r}", line=ln.number)
    if not out:
        raise ParseError("no tcp_* values found")
    return out


def _none(v: str | None) -> str | None:
    return None if v in (None, "", "--", "?") else v


def parse_ipadm(text: str) -> dict[str, TcpValue]:
    lines = [ln for ln in numbered(text) if ln.text.strip()]
    if not lines:
        raise ParseError("empty output")
    out: dict[str, TcpValue] = {}
    if lines[0].text.split()[:2] == ["PROTO", "PROPERTY"]:
        header = Header.parse(lines[0].text)
        for ln in lines[1:]:
            if ln.text[0].isspace():
                continue  # POSSIBLE column wrapped onto the next line
            cells = header.split_words(ln.text)
            if len(cells) < 4:
                raise ParseError("expected PROTO PROPERTY PERM CURRENT ... columns", line=ln.number)
            if cells["PROTO"] != "tcp":
                continue
            out[cells["PROPERTY"]] = TcpValue(cells.get("CURRENT", ""), ln.number,
                                              _none(cells.get("PERSISTENT")), _none(cells.get("DEFAULT")))
        return out
    for ln in lines:  # ipadm show-prop -c -o property,current,persistent,default
        parts = ln.text.strip().split(":")
        if len(parts) < 2 or not re.fullmatch(r"[a-z_-]+", parts[0]):
            raise ParseError("not an ipadm show-prop line", line=ln.number)
        parts += [""] * (4 - len(parts))
        out[parts[0]] = TcpValue(parts[1], ln.number, _none(parts[2]), _none(parts[3]))
    return out
