"""`ldm list-devices -a` (or `ldm ls-devices`, with or without -a, text or -p):
what the machine has free for a plan that adds cores or memory to a domain.

Text form (Logical Domains 1.2 and 1.3 Administration Guides, "List Devices";
Oracle VM Server for SPARC 2.0 on Solaris 10): a section keyword alone on a
line (CORE, VCPU, MAU, MEMORY, IO ...), a header, rows, a blank line.
  CORE    ID %FREE CPUSET            a core is free when %FREE is 100
  MEMORY  PA SIZE [BOUND]            with -a, a block is free when BOUND is empty;
                                     without -a only free blocks are listed
Parseable form (-p): `VERSION 1.n`, the section keyword alone, then
`|key=value|...` rows: `|pid=8|free=100|pm=` (VCPU) and
`|pa=0x...|size=BYTES|bound=NAME` (MEMORY), as the 1.3 guide and published
samples print them. A CORE row's keys in -p are INFERRED from the VCPU rows
(`free=`); no published sample of that section was found.
Releases before CORE existed (Logical Domains 1.x) list vCPUs only: their free
whole cores are not known here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from advisor.errors import ParseError
from advisor.parsers.text import digits, parse_size

_SECTION = re.compile(r"[A-Z][A-Z0-9_]*")  # CORE, VCPU, MEMORY ...: the whole of a line, stripped
_NAME = re.compile(r"^[A-Za-z0-9_][\w.+#:;~()-]*$")  # a domain name, or _sys_; annotations start otherwise


@dataclass
class Devices:
    free_cores: int | None  # cores with every strand free; None without a CORE section
    free_memory_bytes: int | None  # None without a MEMORY section
    free_vcpus: int | None = None  # None without a VCPU section
    core_line: int | None = None
    memory_line: int | None = None


def parse(text: str) -> Devices:
    devices = Devices(None, None)
    section: str | None = None
    read_row: _RowReader | None = None  # of the text table, once its header is read
    for number, line in enumerate(text.splitlines(), start=1):  # numbered's lines, without a Line for each
        stripped = line.strip()
        if not stripped:
            if read_row is not None:  # a text table ends at a blank line
                section, read_row = None, None
            continue
        mark = stripped[0]
        if mark.isupper() and _SECTION.fullmatch(stripped):  # the first test spares most rows the regex
            section, read_row = stripped, None
        elif section is None:
            continue
        elif mark == "|":
            _parseable_row(devices, section, dict(f.split("=", 1) for f in stripped.split("|") if "=" in f), number)
        elif read_row is None:
            read_row = _row_reader(section, stripped.split())
        else:
            read_row(devices, stripped, number)
    if devices.free_cores is None and devices.free_memory_bytes is None and devices.free_vcpus is None:
        raise ParseError("no CORE, VCPU or MEMORY section of ldm list-devices")
    return devices


_RowReader = Callable[[Devices, str, int], None]  # what a text table's row (stripped, and its line) adds


def _row_reader(section: str, header: list[str]) -> _RowReader:
    """What each row of a text table adds, worked out once per table from its header:
    where its %FREE, SIZE and BOUND columns stand (the first of each name)."""
    free, size, bound = (header.index(name) if name in header else None for name in ("%FREE", "SIZE", "BOUND"))
    # a row is split no further than its last column read: a CORE row's CPUSET is a word per strand
    maxsplit = max((i for i in (free, size, bound) if i is not None), default=0) + 1
    if section == "CORE" and free is not None:
        return partial(_core_row, free, maxsplit)
    if section == "VCPU" and free is not None:
        return partial(_vcpu_row, free, maxsplit)
    if section == "MEMORY" and size is not None:
        return partial(_memory_row, size, bound, maxsplit)
    return _ignore


def _core_row(free: int, maxsplit: int, devices: Devices, row: str, line: int) -> None:
    cells = row.split(None, maxsplit)
    if len(cells) > free:
        _add_core(devices, cells[free], line)


def _vcpu_row(free: int, maxsplit: int, devices: Devices, row: str, line: int) -> None:
    cells = row.split(None, maxsplit)
    if len(cells) > free:  # _add_vcpu's sum, kept here: this runs for each of a T5's 256 strands
        devices.free_vcpus = (devices.free_vcpus or 0) + (1 if cells[free] == "100" else 0)


def _memory_row(size: int, bound: int | None, maxsplit: int, devices: Devices, row: str, line: int) -> None:
    cells = row.split(None, maxsplit)
    if len(cells) > size:
        owner = cells[bound] if bound is not None and len(cells) > bound and _NAME.match(cells[bound]) else None
        _add_memory(devices, parse_size(cells[size]), owner, line)


def _ignore(devices: Devices, row: str, line: int) -> None:
    pass


def _add_core(devices: Devices, free: str | None, line: int) -> None:
    devices.free_cores = (devices.free_cores or 0) + (1 if free == "100" else 0)
    devices.core_line = devices.core_line or line


def _add_memory(devices: Devices, size: int | None, bound: str | None, line: int) -> None:
    if size is None:
        raise ParseError("not a memory size in a MEMORY row of ldm list-devices", line=line)
    devices.free_memory_bytes = (devices.free_memory_bytes or 0) + (0 if bound else size)
    devices.memory_line = devices.memory_line or line


def _add_vcpu(devices: Devices, free: str | None) -> None:
    devices.free_vcpus = (devices.free_vcpus or 0) + (1 if free == "100" else 0)


def _parseable_row(devices: Devices, section: str, fields: dict[str, str], line: int) -> None:
    if section == "CORE" and "free" in fields:
        _add_core(devices, fields["free"], line)
    elif section == "VCPU" and "free" in fields:
        _add_vcpu(devices, fields["free"])
    elif section == "MEMORY" and "size" in fields:
        size = int(fields["size"]) if digits(fields["size"]) and len(fields["size"]) < 20 else None
        _add_memory(devices, size, fields.get("bound") or None, line)
