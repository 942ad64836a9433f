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

# For lines whose tab became spaces; tab-separated lines take a faster path.
_SPACED = re.compile(r"^([A-Za-z_][\w.,-]*):(\d+):([^:\t]*):(\S.*?)(?:\s{2,}|\s(?=\S+$))(.*)$")


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


# wanted(module, instance, name, statistic) decides what is kept.
Wanted = Callable[[str, str, str, str], bool]


def _spaced(text: str) -> tuple[str, ...] | None:
    m = _SPACED.match(text)
    return m.groups() if m else None


_TIMESTAMP = re.compile(r"^\s*(?:\d{9,11}|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} [ \d]\d \d\d:\d\d:\d\d (?:\w+ )?\d{4})\s*$")


def parse_stream(lines: Iterable[str], wanted: Wanted,
                 modules: frozenset[str] | None = None) -> dict[KstatKey, KstatValue]:
    """`modules`, when given, lists every module `wanted` can accept: lines of
    other modules are checked for form but not offered to `wanted`."""
    kept: dict[KstatKey, KstatValue] = {}
    number = matched = 0
    last_ok = True
    text = ""
    for number, raw in enumerate(lines, start=1):
        key, tab, value = raw.partition("\t")
        if tab:
            parts = key.split(":", 3)
            if len(parts) == 4 and parts[1].isdigit() and parts[3]:
                matched += 1
                last_ok = True
                module = parts[0]
                if (modules is None or module in modules) and wanted(module, parts[1], parts[2], parts[3]):
                    kept[KstatKey(module, int(parts[1]), parts[2], parts[3])] = KstatValue(value.strip(), number)
                continue
        text = raw.rstrip("\r\n")
        if not text.strip() or _TIMESTAMP.match(text):  # `kstat -T u` / `-T d` print the time before each round
            continue
        fields = _spaced(text)
        last_ok = fields is not None
        if fields is None:
            if matched == 0:
                raise ParseError("not a 'module:instance:name:statistic<TAB>value' line", line=number)
            continue  # continuation of a multi-line string value
        matched += 1
        module, instance, name, statistic, value = fields
        if (modules is None or module in modules) and wanted(module, instance, name, statistic):
            kept[KstatKey(module, int(instance), name, statistic)] = KstatValue(value.strip(), number)
    if matched == 0:
        raise ParseError("no kstat lines found" if number else "empty output")
    if not last_ok and ":" in text and "\t" not in text:
        raise ParseError("last line has no value (truncated file?)", line=number)
    return kept


def everything(module: str, instance: str, name: str, statistic: str) -> bool:
    return True


def parse(text: str, wanted: Wanted = everything) -> dict[KstatKey, KstatValue]:
    return parse_stream(text.splitlines(), wanted)
