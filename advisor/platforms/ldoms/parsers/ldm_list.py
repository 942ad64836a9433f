"""`ldm list -l` (human form), 1.x to 3.x layouts; `ldm list`, its excerpts and `ldm list-constraints`.

Each domain starts with a `NAME STATE FLAGS ...` header and its summary row,
followed by sections: a name in column 0 (`CONTROL`, `VCPU`, `VSW`, ...) and
indented content that is a table (an upper-case header line), `key=value`
lines, or bare values. Domains may be separated by a line of dashes. Columns
are read from each table's own header, so the column sets of every release
are handled alike; PEER sub-tables attach to the row above them.

The short `ldm list` is the header and one row per domain, no section. The
guides cut `ldm list -l DOMAIN` with `...` lines, or start it at a section:
then the domain is the one the command line names, and a section not shown
is not known to be empty. `ldm list-constraints` opens each domain with a
`DOMAIN` line and its name.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache, partial
from typing import NamedTuple

from advisor.collect.capture import RawOutput
from advisor.errors import ParseError
from advisor.platforms.ldoms.parsers.ldm_records import (LdmDomain, LdmListing, Record, TableRow, column_key,
                                                         flags_from_letters)
from advisor.parsers.text import Header, parse_int, parse_size

_SECTION = re.compile(r"^[A-Z][A-Z0-9_-]*$")
# A table header: upper-case words (`NAME`, `NET-DEV`; `%FREE` is not one), read
# in one pass over the line rather than split and each word matched (every row is asked).
_TABLE_HEADER = re.compile(r"^\s*[A-Z][A-Z0-9()_/-]*(?:\s+[A-Z][A-Z0-9()_/-]*)*\s*$")
_DASHES = re.compile(r"^-{8,}$")
_KEY = re.compile(r"[A-Za-z0-9?_.-]+")  # of a `key=value` line
_ELIDED = re.compile(r"^(?:\.{3,}|…)$")


def _is_header(text: str) -> bool:
    return _TABLE_HEADER.match(text) is not None


def _is_domain_header(text: str) -> bool:
    return text.startswith("NAME") and text.split()[:3] == ["NAME", "STATE", "FLAGS"]


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


class _Section:
    def __init__(self, name: str, line: int):
        self.name = name
        self.line = line
        self.lines: list[tuple[int, str]] = []  # each line's number and text (tabs expanded)
        self.elided = False


class _Columns(NamedTuple):
    """A table header as _table reads its rows."""

    first: str  # the header's first name: a line starting with it opens the table again
    indent: int
    split: Callable[[str], dict[str, str]]  # a row's cells, keyed as records are (column_key)


@lru_cache(maxsize=256)
def _columns(text: str) -> _Columns:
    """Read once per header text: every domain's tables repeat the same few headers."""
    header = Header.parse(text)
    keys = tuple(column_key(name) for name in header.names)
    first = header.names[0] if header.names else ""
    if len(set(keys)) == len(set(header.names)):  # split straight into cells named by their keys
        return _Columns(first, header.indent, Header(keys, header.starts, header.indent).split_aligned)
    return _Columns(first, header.indent, partial(_renamed_cells, header))  # two names share a key


def _renamed_cells(header: Header, text: str) -> dict[str, str]:
    return {column_key(k): v for k, v in header.split_aligned(text).items()}


_parse_header = lru_cache(maxsize=64)(Header.parse)  # a domain header, read once per text


def _table(section: _Section) -> list[Record]:
    """Rows of a tabular section, with PEER-style sub-tables attached."""
    rows: list[Record] = []
    table = _columns(section.lines[0][1])
    child: _Columns | None = None
    for number, text in section.lines[1:]:
        if _is_header(text) and len(words := text.split()) >= 2:  # a one-word row ("UART") is data
            if words[0] == table.first:
                table, child = _columns(text), None
            elif rows:
                child = _columns(text)
            else:
                raise ParseError(f"sub-table header before any row in {section.name}", line=number)
            continue
        if child is not None and _indent(text) >= child.indent:
            rows[-1].peers.append(TableRow(child.split, text, number))
            continue
        child = None
        rows.append(TableRow(table.split, text, number))
    return rows


def _key_values(section: _Section) -> dict[str, Record]:
    """`key=value` lines; a bare word (3.4's `whole-core`) counts as `word=true`.
    In VARIABLES a line without `=` continues the value above it (nvramrc)."""
    out: dict[str, Record] = {}
    for number, text in section.lines:
        text = text.strip()
        key, sep, value = text.partition("=")
        if sep and _KEY.fullmatch(key):
            out[key] = Record({key: value}, number)
        elif section.name != "VARIABLES":
            out[text] = Record({text: "true"}, number)
    return out


def _summary(header: Header, number: int, text: str) -> LdmDomain:
    cells = header.split_aligned(text)
    name = cells.get("NAME")
    if not name:
        raise ParseError("domain summary row has no NAME", line=number)
    return LdmDomain(
        name=name,
        line=number,
        state=cells.get("STATE"),
        flags=flags_from_letters(cells.get("FLAGS", "")),
        ncpu=parse_int(cells.get("VCPU", "")),
        memory_bytes=parse_size(cells.get("MEMORY", "")),
    )


# The tables kept, by section: the LdmDomain list each one's rows go to.
_TARGETS = {"VCPU": "vcpus", "CORE": "cores", "IO": "io", "VSW": "vsws", "NETWORK": "vnets", "VDS": "vds",
            "DISK": "vdisks"}


def _apply(domain: LdmDomain, section: _Section) -> None:
    domain.sections.add(section.name)
    if section.elided:
        domain.elided.add(section.name)
    lines = section.lines
    if not lines:
        return
    name = section.name
    if name in ("VCPU", "CORE", "MEMORY") and len(lines) == 2 and \
            domain.take_count(name, {lines[0][1].strip().lower(): lines[1][1].strip()}):
        return
    if name in ("CONTROL", "CONSTRAINT", "DEPENDENCY", "VARIABLES"):
        target = {"CONTROL": domain.control, "CONSTRAINT": domain.constraint}.get(name)
        if target is not None:  # DEPENDENCY and VARIABLES are not read
            target.update(_key_values(section))
        return
    first_number, first = lines[0]
    if not _is_header(first):
        if name in _TARGETS:  # a table the rules read, in a layout not known here: never read as empty
            raise ParseError(f"{name} of domain {domain.name} is in a layout advisor does not read "
                             f"({' '.join(first.split())[:60]!r}); "
                             f"`ldm list -l -p` gives the same facts in every release", line=first_number)
        return  # UUID, MAC, HOSTID, SOFTSTATE: single values, not used by rules
    rows = _table(section)  # read whether kept or not: a table advisor cannot read is an error either way
    if name in _TARGETS:
        getattr(domain, _TARGETS[name]).extend(rows)


class _Reader:
    """The state of a listing being read, line by line."""

    def __init__(self, domain_name: str | None):
        self.domain_name = domain_name  # the domain its command line names, for an excerpt without a header
        self.domains: list[LdmDomain] = []
        self.header: Header | None = None
        self.awaiting_summary = False
        self.awaiting_name = False  # after list-constraints' `DOMAIN` line
        self.domain: LdmDomain | None = None
        self.section: _Section | None = None

    def close_section(self) -> None:
        if self.section is not None and self.domain is not None:
            _apply(self.domain, self.section)
        self.section = None

    def start_domain(self, domain: LdmDomain) -> None:
        self.domain = domain
        self.domains.append(domain)

    def elision(self, text: str) -> None:
        """A `...` line: what the guide left out of the listing."""
        if text[0].isspace() and self.section is not None:
            self.section.elided = True
            return
        self.close_section()
        if self.domain is not None:
            self.domain.complete = False

    def excerpt_domain(self, number: int) -> LdmDomain:
        """The domain of a listing that starts at one of its sections (`ldm list -l ldg1` as
        the guides cut it): the one its command line names."""
        if self.domain_name is None:
            raise ParseError("an excerpt of `ldm list -l` without its `NAME STATE FLAGS` header: which domain "
                             "it shows is not known; paste it with its command line (`ldm list -l DOMAIN`)",
                             line=number)
        domain = LdmDomain(name=self.domain_name, line=number, complete=False)
        self.start_domain(domain)
        return domain

    def flush_left(self, number: int, text: str, stripped: str) -> None:
        if self.awaiting_name:
            self.awaiting_name = False
            self.start_domain(LdmDomain(name=stripped.split()[0], line=number, complete=False))
            return
        if _SECTION.match(stripped):
            self.close_section()
            if stripped == "DOMAIN" and (self.domain is None or self.domain.sections):
                self.awaiting_name, self.domain = True, None
                return
            if self.domain is None:
                self.excerpt_domain(number)
            self.section = _Section(stripped, number)
            return
        domain = self.domain
        if self.header is not None and domain is not None and self.section is None and not domain.sections:
            self.start_domain(_summary(self.header, number, text))  # another row of the short `ldm list`
            return
        if self.section is not None and not self.section.lines:  # a value printed flush left (1.x SOFTSTATE)
            self.section.lines.append((number, "    " + stripped))
            return
        if domain is None:
            raise ParseError("expected a 'NAME STATE FLAGS ...' domain header", line=number)
        raise ParseError(f"unexpected line in domain {domain.name}: {stripped[:40]!r}", line=number)

    def line(self, number: int, text: str, stripped: str) -> None:
        """A line that is not blank, and the line stripped."""
        mark = stripped[0]  # the regexes below are tried only on the lines they can match
        if mark == "-" and _DASHES.match(stripped):
            self.close_section()
            self.domain = None
        elif mark in ".…" and _ELIDED.match(stripped):
            self.elision(text)
        elif text[0].isspace() and not (self.awaiting_summary or self.awaiting_name):  # most lines: a section's
            if self.section is None:
                raise ParseError("indented line outside any section", line=number)
            self.section.lines.append((number, text.expandtabs(8) if "\t" in text else text))
        elif not text[0].isspace() and _is_domain_header(text):
            self.close_section()
            self.header, self.awaiting_summary, self.domain = _parse_header(text), True, None
        elif self.awaiting_summary:
            assert self.header is not None
            self.start_domain(_summary(self.header, number, text))
            self.awaiting_summary = False
        else:  # flush left, or the name after list-constraints' `DOMAIN` line
            self.flush_left(number, text, stripped)


def parse(text: str, domain: str | None = None) -> LdmListing:
    """A listing of `ldm list -l`, `ldm list-bindings`, `ldm list` (no sections) or
    `ldm list-constraints`; `domain` is the one its command line names, if any."""
    reader = _Reader(domain)
    for number, line in enumerate(text.splitlines(), start=1):  # numbered's lines, without a Line for each
        if stripped := line.strip():
            reader.line(number, line, stripped)
    reader.close_section()
    if reader.awaiting_summary:
        raise ParseError("domain header without a summary row (truncated?)")
    domains = reader.domains
    if not domains:
        raise ParseError("no domain listing found")
    for d in domains:
        if not d.sections:
            d.complete = False  # a short `ldm list` row, or a domain cut off after its row
    return LdmListing(domains=domains, form="short" if not any(d.sections for d in domains) else "human")


def _named_domain(output: RawOutput) -> str | None:
    """The domain a single command line names (`ldm list -l ldg1`); None for several joined."""
    from advisor.collect.command_line import identify_command

    line = output.command or ""
    command = identify_command(line) if line and "; " not in line else None
    return command.argument if command is not None else None


def parse_output(output: RawOutput) -> LdmListing:
    return parse(output.text(), _named_domain(output))


def parse_constraints(output: RawOutput) -> LdmListing:
    """`ldm list-constraints`: `DOMAIN` and its name, then the sections of `ldm list -l`
    (VCPU and CORE as a COUNT, MEMORY as a SIZE); only the sections shown are known."""
    listing = parse(output.text(), _named_domain(output))
    for d in listing.domains:
        d.complete = False
    listing.form = "constraints"
    return listing
