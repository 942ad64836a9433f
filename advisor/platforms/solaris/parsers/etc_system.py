"""`/etc/system`: `set [module:]variable = value` lines.

Comments start with `*` or `#`. Values are decimal, hex (`0x...`) or octal, or
strings in double quotes. Other directives (forceload, exclude, moddir, rootfs,
rootdev, include) are accepted and not kept. Later settings of a variable
override earlier ones, as the kernel applies them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import ParseError
from advisor.parsers.text import each_line

_SET = re.compile(r"^set\s+(?:([A-Za-z_][\w]*):)?([A-Za-z_][\w]*)\s*([=|&])\s*(\S+)\s*$")
_DIRECTIVE = re.compile(r"^(?:forceload|exclude|moddir|rootfs|rootdev|include)\s*:")


@dataclass
class SystemSetting:
    module: str | None
    variable: str
    raw: str
    value: int | str
    line: int

    @property
    def key(self) -> str:
        return f"{self.module}:{self.variable}" if self.module else self.variable


def _value(raw: str) -> int | str:
    if raw.startswith('"') and raw.endswith('"'):
        return raw[1:-1]
    try:
        if raw.lower().startswith("0x"):
            return int(raw, 16)
        if len(raw) > 1 and raw.startswith("0"):
            return int(raw, 8)
        return int(raw)
    except ValueError:
        return raw


_TRAILING_COMMENT = re.compile(r"(?<=\s)[*#]")

# Variables set: an /etc/system sets a few dozen. Every rule that reads the
# settings is given all of them, each time it runs: 1.8 million (63 MB) took
# 100 s and 2 GiB, and 4 GiB before rules were given only what they read.
MAX_SETTINGS = 10_000


def parse(text: str, limit: int = MAX_SETTINGS) -> dict[str, SystemSetting]:
    settings: dict[str, SystemSetting] = {}
    for ln in each_line(text):
        s = ln.text.strip()
        if not s or s.startswith(("*", "#")):
            continue
        if comment := _TRAILING_COMMENT.search(s):  # a lookbehind: `\s+[*#]` is quadratic on a long run of spaces
            s = s[:comment.start()].strip()
        if _DIRECTIVE.match(s):
            continue
        m = _SET.match(s)
        if not m:
            raise ParseError(f"not an /etc/system directive: {s[:40]!r}", line=ln.number)
        if m.group(3) != "=":
            continue  # '|' and '&' modify bit masks; no rule reads them
        setting = SystemSetting(m.group(1), m.group(2), m.group(4), _value(m.group(4)), ln.number)
        if len(settings) >= limit and setting.key not in settings:
            raise ParseError(f"more than {limit:,} variables set; not an /etc/system advisor reads "
                             f"(one sets a few dozen)", line=ln.number)
        settings[setting.key] = setting
    return settings
