"""A reference copy of ldm_parseable.parse as it was before it was reworked for speed
(session 42): the property tests in test_ldm_parsers_match_reference.py hold the
reworked one to what this returns and raises. Not used by advisor."""

from __future__ import annotations

import re

from advisor.errors import ParseError
from advisor.platforms.ldoms.parsers.ldm_records import LdmDomain, LdmListing, Record
from advisor.parsers.text import numbered, parse_int

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


def _unwrap(lines: list) -> list:
    """A page that wrapped a long record after one of its `|`: the next line,
    when it is neither a keyword nor a `|` continuation, is the rest of it."""
    out: list = []
    for ln in lines:
        text = ln.text.strip()
        if out and out[-1].text.rstrip().endswith("|") and not text.startswith("|") and not _KEYWORD.match(text):
            out[-1] = type(ln)(out[-1].number, out[-1].text.rstrip() + text)
        else:
            out.append(ln)
    return out


def parse(text: str) -> LdmListing:
    lines = _unwrap([ln for ln in numbered(text) if ln.text.strip()])
    if not lines:
        raise ParseError("empty output")
    m = _VERSION.match(lines[0].text.strip())
    if not m:
        raise ParseError("expected a 'VERSION 1.n' first line", line=lines[0].number)
    domains: list[LdmDomain] = []
    domain: LdmDomain | None = None
    keyword: str | None = None
    parent: Record | None = None  # keyword record that continuation lines are peers of
    for ln in lines[1:]:
        text = ln.text.strip()
        if text.startswith("|"):
            if domain is None or keyword is None:
                raise ParseError("continuation line outside any record", line=ln.number)
            rec = Record(_attributes(text, ln.number), ln.number)
            if parent is not None:
                parent.peers.append(rec)
            elif keyword in ("CONTROL", "CONSTRAINT"):
                _merge(domain, keyword, rec)
            elif keyword in _lists(domain):
                _lists(domain)[keyword].append(rec)
            continue
        km = _KEYWORD.match(text)
        if not km:
            if keyword == "VARIABLES":
                continue  # rest of a multi-line variable value
            raise ParseError(f"not a parseable ldm record: {text[:40]!r}", line=ln.number)
        keyword = km.group(1)
        rec = Record(_attributes(km.group(2) or "", ln.number), ln.number)
        parent = None
        if keyword == "DOMAIN":
            domain = _domain(rec)
            domains.append(domain)
            continue
        if domain is None:
            raise ParseError(f"{keyword} record before any DOMAIN record", line=ln.number)
        domain.sections.add(keyword)
        if keyword in ("CONTROL", "CONSTRAINT"):
            _merge(domain, keyword, rec)
        elif domain.take_count(keyword, rec.values):
            continue
        elif keyword in _lists(domain) and rec.values:
            _lists(domain)[keyword].append(rec)
            parent = rec
    if not domains:
        raise ParseError("no DOMAIN record found")
    return LdmListing(domains=domains, form="parseable", format_version=m.group(1))


def _merge(domain: LdmDomain, keyword: str, rec: Record) -> None:
    target = domain.control if keyword == "CONTROL" else domain.constraint
    for key, value in rec.values.items():
        target[key] = Record({key: value}, rec.line)


