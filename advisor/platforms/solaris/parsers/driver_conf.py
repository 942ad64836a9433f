"""`/kernel/drv/<driver>.conf`: `name = value;` properties (driver.conf(4)).

Comments start with `#`. A statement ends with `;` and may span lines.
Per-instance entries (`name="pciex8086,10fb" parent=... prop=value;`) are
kept as global properties too: rules only read driver-wide switches.
"""

from __future__ import annotations

import re

from advisor.errors import ParseError
from advisor.parsers.text import numbered

# possessive, and a name only where a word starts: linear even on a line of one long word
_ASSIGN = re.compile(r'(?<![\w-])([A-Za-z_][\w-]*+)\s*+=\s*+("[^"]*+"|[^\s;,]++(?:\s*+,\s*+[^\s;,]++)*+)')


def parse(text: str) -> dict[str, tuple[str, int]]:
    props: dict[str, tuple[str, int]] = {}
    statement: list[tuple[str, int]] = []
    for ln in numbered(text):
        body = ln.text.split("#", 1)[0].strip()
        if not body:
            continue
        statement.append((body, ln.number))
        if not body.endswith(";"):
            continue
        joined = " ".join(part for part, _ in statement).rstrip(";")
        first = statement[0][1]
        statement = []
        assignments = _ASSIGN.findall(joined)
        if not assignments:
            raise ParseError(f"not a 'name = value;' statement: {joined[:40]!r}", line=first)
        for name, value in assignments:
            props[name] = (value.strip('"'), first)
    if statement:
        raise ParseError("statement without a closing ';' (truncated?)", line=statement[0][1])
    return props
