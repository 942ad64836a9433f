"""`kstat -p`: `module:instance:name:statistic<TAB>value` per line.

Dumps run to hundreds of thousands of lines, so they are streamed and only the
statistics a caller asks for are kept. Lines copied through a terminal may have
spaces instead of the tab. A line without a key continues the string value of
the line above it (kstat prints multi-line strings as they are).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from advisor.errors import ParseError

_KEY = re.compile(r"^([A-Za-z_][\w.,-]*):(\d+):([^:\t]*):([^\t]+?)(?:\t|\s{2,}|\s(?=\S+$))(.*)$")


@dataclass(frozen=True)
class KstatKey:
    module: str
    instance: int
    name: str
    statistic: str


@dataclass
class KstatValue:
    value: str
    line: int


Wanted = Callable[[KstatKey], bool]


def parse_stream(lines: Iterable[str], wanted: Wanted) -> dict[KstatKey, KstatValue]:
    kept: dict[KstatKey, KstatValue] = {}
    number = 0
    matched = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip("\r\n")
        if not text.strip():
            continue
        m = _KEY.match(text)
        if not m:
            if matched == 0:
                raise ParseError("not a 'module:instance:name:statistic<TAB>value' line", line=number)
            continue  # continuation of a multi-line string value
        matched += 1
        key = KstatKey(m.group(1), int(m.group(2)), m.group(3), m.group(4))
        if wanted(key):
            kept[key] = KstatValue(m.group(5).strip(), number)
    if matched == 0:
        raise ParseError("no kstat lines found" if number else "empty output")
    if m is None and ":" in text and "\t" not in text:
        raise ParseError("last line has no value (truncated file?)", line=number)
    return kept


def parse(text: str, wanted: Wanted = lambda k: True) -> dict[KstatKey, KstatValue]:
    return parse_stream(text.splitlines(), wanted)
