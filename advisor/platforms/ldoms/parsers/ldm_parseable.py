"""`ldm list -l -p` (parseable form).

First line `VERSION 1.n`; then records `KEYWORD|key=value|...`, bare keyword
lines (`VCPU`, `MEMORY`, `IO`, ...) whose records follow as `|key=value|...`
continuation lines, and continuation lines under a keyword record (the peers
of a VSW or VNET). Multi-line values (`nvramrc`) only occur in VARIABLES.
"""

from __future__ import annotations

import re

from advisor.errors import ParseError
from advisor.platforms.ldoms.parsers.ldm_records import LdmDomain, LdmListing, Record
from advisor.parsers.text import parse_int

_VERSION = re.compile(r"^VERSION\s+(\d+(?:\.\d+)*)\s*$")
_KEYWORD = re.compile(r"^([A-Z][A-Z0-9_-]*)(\|.*)?$")


def _attributes(text: str, line: int) -> dict[str, str]:
    values: dict[str, str] = {}
    for part in text.split("|")[1:]:
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep:
            raise ParseError(f"attribute without '=': {part[:40]!r}", line=line)
        values[key.strip()] = value.strip()
    return values


def _domain(rec: Record) -> LdmDomain:
    name = rec.get("name")
    if not name:
        raise ParseError("DOMAIN record without name=", line=rec.line)
    flags = frozenset(f for f in (rec.get("flags") or "").split(",") if f)
    mem = rec.get("mem")
    memory = parse_int(mem) if mem else None
    if memory is not None and memory >= 1 << 62:  # a float, which sizes become, holds no 400-digit number
        raise ParseError(f"mem= of {len(str(memory)):,} digits; no machine has that memory", line=rec.line)
    return LdmDomain(
        name=name,
        line=rec.line,
        state=rec.get("state"),
        flags=flags,
        ncpu=parse_int(rec.get("ncpu") or ""),
        memory_bytes=memory,
    )


def _lists(domain: LdmDomain) -> dict[str, list[Record]]:
    return {"VCPU": domain.vcpus, "CORE": domain.cores, "IO": domain.io, "VSW": domain.vsws,
            "VNET": domain.vnets, "VDS": domain.vds, "VDISK": domain.vdisks}


def _unwrap(lines: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """A page that wrapped a long record after one of its `|`: the next line,
    when it is neither a keyword nor a `|` continuation, is the rest of it.
    Lines are (number, text stripped)."""
    out: list[tuple[int, str]] = []
    for number, text in lines:
        if out and out[-1][1].endswith("|") and not text.startswith("|") and not _KEYWORD.match(text):
            out[-1] = (out[-1][0], out[-1][1] + text)
        else:
            out.append((number, text))
    return out


def parse(text: str) -> LdmListing:
    # numbered's lines, stripped, without a Line for each
    lines = _unwrap([(number, stripped) for number, line in enumerate(text.splitlines(), start=1)
                     if (stripped := line.strip())])
    if not lines:
        raise ParseError("empty output")
    m = _VERSION.match(lines[0][1])
    if not m:
        raise ParseError("expected a 'VERSION 1.n' first line", line=lines[0][0])
    domains: list[LdmDomain] = []
    domain: LdmDomain | None = None
    keyword: str | None = None
    parent: Record | None = None  # keyword record that continuation lines are peers of
    rows: list[Record] | None = None  # the domain's list the keyword's continuation lines go to
    for number, text in lines[1:]:
        if text.startswith("|"):
            if domain is None or keyword is None:
                raise ParseError("continuation line outside any record", line=number)
            rec = Record(_attributes(text, number), number)
            if parent is not None:
                parent.peers.append(rec)
            elif keyword in ("CONTROL", "CONSTRAINT"):
                _merge(domain, keyword, rec)
            elif rows is not None:
                rows.append(rec)
            continue
        km = _KEYWORD.match(text)
        if not km:
            if keyword == "VARIABLES":
                continue  # rest of a multi-line variable value
            raise ParseError(f"not a parseable ldm record: {text[:40]!r}", line=number)
        keyword = km.group(1)
        rec = Record(_attributes(km.group(2) or "", number), number)
        parent = rows = None
        if keyword == "DOMAIN":
            domain = _domain(rec)
            domains.append(domain)
            continue
        if domain is None:
            raise ParseError(f"{keyword} record before any DOMAIN record", line=number)
        domain.sections.add(keyword)
        rows = _lists(domain).get(keyword)  # once per keyword record, not once per line under it
        if keyword in ("CONTROL", "CONSTRAINT"):
            _merge(domain, keyword, rec)
        elif domain.take_count(keyword, rec.values):
            continue
        elif rows is not None and rec.values:
            rows.append(rec)
            parent = rec
    if not domains:
        raise ParseError("no DOMAIN record found")
    return LdmListing(domains=domains, form="parseable", format_version=m.group(1))


def _merge(domain: LdmDomain, keyword: str, rec: Record) -> None:
    target = domain.control if keyword == "CONTROL" else domain.constraint
    for key, value in rec.values.items():
        target[key] = Record({key: value}, rec.line)


def parse_constraints(text: str) -> LdmListing:
    """`ldm list-constraints -p`: the records of `ldm list -l -p` without the bindings
    (`VCPU|count=`, `CORE|count=`, `MEMORY|size=`); only the sections shown are known."""
    listing = parse(text)
    for d in listing.domains:
        d.complete = False
    listing.form = "constraints"
    return listing
