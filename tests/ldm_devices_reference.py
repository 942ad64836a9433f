"""A reference copy of ldm_devices.parse as it was before it was reworked for speed
(session 42): the property tests in test_ldm_parsers_match_reference.py hold the
reworked one to what this returns and raises. Not used by advisor."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
    table: _Columns | None = None  # the text table's header, once read
    for number, line in enumerate(text.splitlines(), start=1):  # numbered's lines, without a Line for each
        stripped = line.strip()
        if not stripped:
            if table is not None:  # a text table ends at a blank line
                section, table = None, None
            continue
        if stripped[0].isupper() and _SECTION.fullmatch(stripped):  # the first test spares most rows the regex
            section, table = stripped, None
            continue
        if section is None:
            continue
        if stripped.startswith("|"):
            _parseable_row(devices, section, dict(f.split("=", 1) for f in stripped.split("|") if "=" in f), number)
        elif table is None:
            table = _Columns(stripped.split())
        else:
            _text_row(devices, section, table, stripped.split(), number)
    if devices.free_cores is None and devices.free_memory_bytes is None and devices.free_vcpus is None:
        raise ParseError("no CORE, VCPU or MEMORY section of ldm list-devices")
    return devices


class _Columns:
    """The positions of a text table's %FREE, SIZE and BOUND columns (the first
    of each name), found once per table rather than once per row."""

    def __init__(self, header: list[str]):
        self.free = header.index("%FREE") if "%FREE" in header else None
        self.size = header.index("SIZE") if "SIZE" in header else None
        self.bound = header.index("BOUND") if "BOUND" in header else None


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


def _text_row(devices: Devices, section: str, table: _Columns, cells: list[str], line: int) -> None:
    free, size, at = table.free, table.size, table.bound
    if section == "CORE" and free is not None and len(cells) > free:
        _add_core(devices, cells[free], line)
    elif section == "VCPU" and free is not None and len(cells) > free:
        _add_vcpu(devices, cells[free])
    elif section == "MEMORY" and size is not None and len(cells) > size:
        bound = cells[at] if at is not None and len(cells) > at and _NAME.match(cells[at]) else None
        _add_memory(devices, parse_size(cells[size]), bound, line)


def _parseable_row(devices: Devices, section: str, fields: dict[str, str], line: int) -> None:
    if section == "CORE" and "free" in fields:
        _add_core(devices, fields["free"], line)
    elif section == "VCPU" and "free" in fields:
        _add_vcpu(devices, fields["free"])
    elif section == "MEMORY" and "size" in fields:
        size = int(fields["size"]) if digits(fields["size"]) and len(fields["size"]) < 20 else None
        _add_memory(devices, size, fields.get("bound") or None, line)
