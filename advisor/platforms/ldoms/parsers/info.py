"""What an LDoms host says of itself: `ldm -V`, `virtinfo -a`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import ParseError
from advisor.parsers.text import numbered


@dataclass
class Versioned:
    """A version string and the line it was read from."""

    value: str
    line: int


@dataclass
class LdmVersion:
    version: Versioned
    hypervisor: str | None = None


_LDM_V = re.compile(r"Logical Domains? Manager \(v\s*([0-9][0-9.]*)")


def parse_ldm_version(text: str) -> LdmVersion:
    for ln in numbered(text):
        m = _LDM_V.search(ln.text)
        if m:
            hyp = re.search(r"@\(#\)Hypervisor\s+([\w.]+)", text)
            return LdmVersion(Versioned(m.group(1).rstrip("."), ln.number), hyp.group(1) if hyp else None)
    raise ParseError("no 'Logical Domains Manager (v N)' line")


@dataclass
class VirtInfo:
    roles: frozenset[str]
    line: int
    domain_name: str | None = None
    control_domain: str | None = None


_ROLE_KEYS = {"control": "control", "io": "i/o", "service": "service", "root": "root"}


def _parseable_virtinfo(text: str) -> VirtInfo:
    """`virtinfo -a -p`: VERSION 1.n, then DOMAINROLE|impl=LDoms|control=true|io=...|service=...|root=...,
    DOMAINNAME|name=..., DOMAINCONTROL|name=... records."""
    records: dict[str, tuple[dict[str, str], int]] = {}
    for ln in numbered(text)[1:]:
        keyword, _, rest = ln.text.strip().partition("|")
        if not keyword:
            continue
        if not re.fullmatch(r"[A-Z]+", keyword):
            raise ParseError(f"not a parseable virtinfo record: {ln.text.strip()[:40]!r}", line=ln.number)
        records[keyword] = (dict(p.partition("=")[::2] for p in rest.split("|") if p), ln.number)
    if "DOMAINROLE" not in records:
        raise ParseError("no DOMAINROLE record")
    role, line = records["DOMAINROLE"]
    if role.get("impl") != "LDoms":
        raise ParseError(f"not an LDoms domain role: impl={role.get('impl')!r}", line=line)
    roles = frozenset(name for key, name in _ROLE_KEYS.items() if role.get(key) == "true") or frozenset({"guest"})
    return VirtInfo(roles, line, records.get("DOMAINNAME", ({}, 0))[0].get("name"),
                    records.get("DOMAINCONTROL", ({}, 0))[0].get("name"))


def parse_virtinfo(text: str) -> VirtInfo:
    if re.match(r"\s*VERSION\s+\d+\.\d+\s*\n\s*DOMAINROLE\|", text):
        return _parseable_virtinfo(text)
    roles: frozenset[str] | None = None
    line = 0
    values: dict[str, str] = {}
    for ln in numbered(text):
        key, sep, value = ln.text.partition(":")
        if not sep:
            continue
        values[key.strip().lower()] = value.strip()
        if key.strip().lower() == "domain role":
            words = value.split()
            if not words or words[0] != "LDoms":
                raise ParseError(f"not an LDoms domain role: {value.strip()!r}", line=ln.number)
            roles = frozenset(w.lower() for w in words[1:])
            line = ln.number
    if roles is None:
        if "virtual machine" in text.lower() or "non-global zone" in text.lower():
            return VirtInfo(frozenset(), 1)
        raise ParseError("no 'Domain role:' line")
    return VirtInfo(roles, line, values.get("domain name"), values.get("control domain"))
