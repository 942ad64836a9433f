"""A reference copy of ldm_list.parse as it was before it was reworked for speed
(session 42): the property tests in test_ldm_parsers_match_reference.py hold the
reworked one to what this returns and raises. Not used by advisor."""

from __future__ import annotations

import re

from advisor.errors import ParseError
from advisor.platforms.ldoms.parsers.ldm_records import LdmDomain, LdmListing, Record, column_key, flags_from_letters
from advisor.parsers.text import Header, Line, parse_int, parse_size

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
    tokens = text.split()
    return tokens[:3] == ["NAME", "STATE", "FLAGS"]


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


class _Section:
    def __init__(self, name: str, line: int):
        self.name = name
        self.line = line
        self.lines: list[Line] = []
        self.elided = False


def _table(section: _Section) -> list[Record]:
    """Rows of a tabular section, with PEER-style sub-tables attached."""
    rows: list[Record] = []
    header: Header | None = None
    child: Header | None = None
    for ln in section.lines:
        text = ln.text
        if header is None:
            header = Header.parse(text)
            continue
        if _is_header(text) and len(words := text.split()) >= 2:  # a one-word row ("UART") is data
            if words[0] == header.names[0]:
                header, child = Header.parse(text), None
            elif rows:
                child = Header.parse(text)
            else:
                raise ParseError(f"sub-table header before any row in {section.name}", line=ln.number)
            continue
        if child is not None and _indent(text) >= child.indent:
            cells = child.split_aligned(text)
            rows[-1].peers.append(Record({column_key(k): v for k, v in cells.items()}, ln.number))
            continue
        child = None
        cells = header.split_aligned(text)
        rows.append(Record({column_key(k): v for k, v in cells.items()}, ln.number))
    return rows


def _key_values(section: _Section) -> dict[str, Record]:
    """`key=value` lines; a bare word (3.4's `whole-core`) counts as `word=true`.
    In VARIABLES a line without `=` continues the value above it (nvramrc)."""
    out: dict[str, Record] = {}
    for ln in section.lines:
        text = ln.text.strip()
        key, sep, value = text.partition("=")
        if sep and _KEY.fullmatch(key):
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


# The tables kept, by section: the LdmDomain list each one's rows go to.
_TARGETS = {"VCPU": "vcpus", "CORE": "cores", "IO": "io", "VSW": "vsws", "NETWORK": "vnets", "VDS": "vds",
            "DISK": "vdisks"}


def _apply(domain: LdmDomain, section: _Section) -> None:
    domain.sections.add(section.name)
    if section.elided:
        domain.elided.add(section.name)
    if not section.lines:
        return
    name = section.name
    if name in ("VCPU", "CORE", "MEMORY") and len(section.lines) == 2 and \
            domain.take_count(name, {section.lines[0].text.strip().lower(): section.lines[1].text.strip()}):
        return
    if name in ("CONTROL", "CONSTRAINT", "DEPENDENCY", "VARIABLES"):
        target = {"CONTROL": domain.control, "CONSTRAINT": domain.constraint}.get(name)
        if target is not None:  # DEPENDENCY and VARIABLES are not read
            target.update(_key_values(section))
        return
    if not _is_header(section.lines[0].text):
        if name in _TARGETS:  # a table the rules read, in a layout not known here: never read as empty
            raise ParseError(f"{name} of domain {domain.name} is in a layout advisor does not read "
                             f"({' '.join(section.lines[0].text.split())[:60]!r}); "
                             f"`ldm list -l -p` gives the same facts in every release", line=section.lines[0].number)
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

    def elision(self, ln: Line) -> None:
        """A `...` line: what the guide left out of the listing."""
        if ln.text[0].isspace() and self.section is not None:
            self.section.elided = True
            return
        self.close_section()
        if self.domain is not None:
            self.domain.complete = False

    def excerpt_domain(self, ln: Line) -> LdmDomain:
        """The domain of a listing that starts at one of its sections (`ldm list -l ldg1` as
        the guides cut it): the one its command line names."""
        if self.domain_name is None:
            raise ParseError("an excerpt of `ldm list -l` without its `NAME STATE FLAGS` header: which domain "
                             "it shows is not known; paste it with its command line (`ldm list -l DOMAIN`)",
                             line=ln.number)
        domain = LdmDomain(name=self.domain_name, line=ln.number, complete=False)
        self.start_domain(domain)
        return domain

    def flush_left(self, ln: Line, stripped: str) -> None:
        if self.awaiting_name:
            self.awaiting_name = False
            self.start_domain(LdmDomain(name=stripped.split()[0], line=ln.number, complete=False))
            return
        if _SECTION.match(stripped):
            self.close_section()
            if stripped == "DOMAIN" and (self.domain is None or self.domain.sections):
                self.awaiting_name, self.domain = True, None
                return
            if self.domain is None:
                self.excerpt_domain(ln)
            self.section = _Section(stripped, ln.number)
            return
        domain = self.domain
        if self.header is not None and domain is not None and self.section is None and not domain.sections:
            self.start_domain(_summary(self.header, ln))  # another row of the short `ldm list`
            return
        if self.section is not None and not self.section.lines:  # a value printed flush left (1.x SOFTSTATE)
            self.section.lines.append(Line(ln.number, "    " + stripped))
            return
        if domain is None:
            raise ParseError("expected a 'NAME STATE FLAGS ...' domain header", line=ln.number)
        raise ParseError(f"unexpected line in domain {domain.name}: {stripped[:40]!r}", line=ln.number)

    def line(self, ln: Line, stripped: str) -> None:
        """A line that is not blank, and the line stripped."""
        mark = stripped[0]  # the regexes below are tried only on the lines they can match
        if mark == "-" and _DASHES.match(stripped):
            self.close_section()
            self.domain = None
        elif mark in ".…" and _ELIDED.match(stripped):
            self.elision(ln)
        elif not ln.text[0].isspace() and _is_domain_header(ln.text):
            self.close_section()
            self.header, self.awaiting_summary, self.domain = Header.parse(ln.text), True, None
        elif self.awaiting_summary:
            assert self.header is not None
            self.start_domain(_summary(self.header, ln))
            self.awaiting_summary = False
        elif self.awaiting_name:
            self.flush_left(ln, stripped)
        elif not ln.text[0].isspace():
            self.flush_left(ln, stripped)
        elif self.section is None:
            raise ParseError("indented line outside any section", line=ln.number)
        else:
            self.section.lines.append(Line(ln.number, ln.text.expandtabs(8)) if "\t" in ln.text else ln)


def parse(text: str, domain: str | None = None) -> LdmListing:
    """A listing of `ldm list -l`, `ldm list-bindings`, `ldm list` (no sections) or
    `ldm list-constraints`; `domain` is the one its command line names, if any."""
    reader = _Reader(domain)
    for number, line in enumerate(text.splitlines(), start=1):  # numbered's lines
        if stripped := line.strip():
            reader.line(Line(number, line), stripped)
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


