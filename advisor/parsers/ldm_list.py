"""`ldm list -l` (human form), 1.x to 3.x layouts.

Each domain starts with a `NAME STATE FLAGS ...` header and its summary row,
followed by sections: a name in column 0 (`CONTROL`, `VCPU`, `VSW`, ...) and
indented content that is a table (an upper-case header line), `key=value`
lines, or bare values. Domains may be separated by a line of dashes. Columns
are read from each table's own header, so the column sets of every release
are handled alike; PEER sub-tables attach to the row above them.
"""

from __future__ import annotations

import re

from advisor.errors import ParseError
from advisor.parsers.ldm_records import LdmDomain, LdmListing, Record, column_key, flags_from_letters
from advisor.parsers.text import Header, Line, numbered, parse_int, parse_size

_SECTION = re.compile(r"^[A-Z][A-Z0-9_-]*$")
_HEADER_TOKEN = re.compile(r"^[A-Z][A-Z0-9()_/-]*$")
_DASHES = re.compile(r"^-{8,}$")


def _is_header(text: str) -> bool:
    tokens = text.split()
    return bool(tokens) and "=" not in text and all(_HEADER_TOKEN.match(t) for t in tokens)


def _is_domain_header(text: str) -> bool:
    tokens = text.split()
    return tokens[:3] == ["NAME", "STATE", "FLAGS"]


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


class _Section:
    def __init__(self, name: str, line: int):
        self.name = name
        self.line = line
        self.lines: list[Line] = []


def _table(section: _Section) -> list[Record]:
    """Rows of a tabular section, with PEER-style sub-tables attached."""
    rows: list[Record] = []
    header: Header | None = None
    child: Header | None = None
    for ln in section.lines:
        if header is None:
            header = Header.parse(ln.text)
            continue
        if _is_header(ln.text) and len(ln.text.split()) >= 2:  # a one-word row ("UART") is data
            if ln.text.split()[0] == header.names[0]:
                header, child = Header.parse(ln.text), None
            elif rows:
                child = Header.parse(ln.text)
            else:
                raise ParseError(f"sub-table header before any row in {section.name}", line=ln.number)
            continue
        if child is not None and _indent(ln.text) >= child.indent:
            cells = child.split_aligned(ln.text)
            rows[-1].peers.append(Record({column_key(k): v for k, v in cells.items()}, ln.number))
            continue
        child = None
        cells = header.split_aligned(ln.text)
        rows.append(Record({column_key(k): v for k, v in cells.items()}, ln.number))
    return rows


def _key_values(section: _Section) -> dict[str, Record]:
    """`key=value` lines; a bare word (3.4's `whole-core`) counts as `word=true`.
    In VARIABLES a line without `=` continues the value above it (nvramrc)."""
    out: dict[str, Record] = {}
    for ln in section.lines:
        text = ln.text.strip()
        key, sep, value = text.partition("=")
        if sep and re.fullmatch(r"[A-Za-z0-9?_.-]+", key):
            out[key] = Record({key: value}, ln.number)
        elif section.name != "VARIABLES":
            out[text] = Record({text: "true"}, ln.number)
    return out


def _summary(header: Header, ln: Line) -> LdmDomain:
    cells = header.split_aligned(ln.text)
    name = cells.get("NAME")
    if not name:
        raise ParseError("domain summary row has no NAME", line=ln.number)
    return LdmDomain(
        name=name,
        line=ln.number,
        state=cells.get("STATE"),
        flags=flags_from_letters(cells.get("FLAGS", "")),
        ncpu=parse_int(cells.get("VCPU", "")),
        memory_bytes=parse_size(cells.get("MEMORY", "")),
    )


def _apply(domain: LdmDomain, section: _Section) -> None:
    domain.sections.add(section.name)
    if not section.lines:
        return
    name = section.name
    if name in ("CONTROL", "CONSTRAINT", "DEPENDENCY", "VARIABLES"):
        target = {"CONTROL": domain.control, "CONSTRAINT": domain.constraint}.get(name)
        values = _key_values(section)
        if target is not None:
            target.update(values)
        return
    targets = {
        "VCPU": domain.vcpus, "CORE": domain.cores, "IO": domain.io, "VSW": domain.vsws,
        "NETWORK": domain.vnets, "VDS": domain.vds, "DISK": domain.vdisks,
    }
    if not _is_header(section.lines[0].text):
        if name in targets:  # a table the rules read, in a layout not known here: never read as empty
            raise ParseError(f"{name} of domain {domain.name} is in a layout advisor does not read "
                             f"({' '.join(section.lines[0].text.split())[:60]!r}); "
                             f"`ldm list -l -p` gives the same facts in every release", line=section.lines[0].number)
        return  # UUID, MAC, HOSTID, SOFTSTATE: single values, not used by rules
    rows = _table(section)
    if name in targets:
        targets[name].extend(rows)


def parse(text: str) -> LdmListing:
    domains: list[LdmDomain] = []
    header: Header | None = None
    awaiting_summary = False
    domain: LdmDomain | None = None
    section: _Section | None = None

    def close_section() -> None:
        nonlocal section
        if section is not None and domain is not None:
            _apply(domain, section)
        section = None

    for ln in numbered(text):
        stripped = ln.text.strip()
        if not stripped:
            continue
        if _DASHES.match(stripped):
            close_section()
            domain = None
            continue
        if not ln.text[0].isspace() and _is_domain_header(ln.text):
            close_section()
            header, awaiting_summary, domain = Header.parse(ln.text), True, None
            continue
        if awaiting_summary:
            assert header is not None
            domain = _summary(header, ln)
            domains.append(domain)
            awaiting_summary = False
            continue
        if domain is None:
            raise ParseError("expected a 'NAME STATE FLAGS ...' domain header", line=ln.number)
        if not ln.text[0].isspace():
            if not _SECTION.match(stripped):
                if section is not None and not section.lines:  # a value printed flush left (1.x SOFTSTATE)
                    section.lines.append(Line(ln.number, "    " + stripped))
                    continue
                raise ParseError(f"unexpected line in domain {domain.name}: {stripped[:40]!r}", line=ln.number)
            close_section()
            section = _Section(stripped, ln.number)
            continue
        if section is None:
            raise ParseError("indented line outside any section", line=ln.number)
        section.lines.append(Line(ln.number, ln.text.expandtabs(8)))
    close_section()
    if awaiting_summary:
        raise ParseError("domain header without a summary row (truncated?)")
    if not domains:
        raise ParseError("no domain listing found")
    return LdmListing(domains=domains, form="human")
