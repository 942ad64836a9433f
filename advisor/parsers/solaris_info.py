"""Small identity outputs: `ldm -V`, `virtinfo -a`, `psrinfo -pv`, `/etc/release`,
`pkg info entire`, `showrev -p`, `uname -a`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from advisor.errors import ParseError
from advisor.parsers.text import digits, numbered


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


@dataclass
class PsrInfo:
    vcpus: int
    cores: int | None
    threads_per_core: int | None
    model: str | None
    line: int


# "The physical processor has 2 cores and 16 virtual processors" (Solaris 10 8/07 and later);
# "The UltraSPARC-IIIi physical processor has 1 virtual processor (0)" (Solaris 9 and early 10).
_PHYS = re.compile(r"The (?:\S+ )?physical processor has (?:(\d+) cores? and )?(\d+) virtual processors?")
_CORE = re.compile(r"The core has (\d+) virtual processors?")
_MODEL = re.compile(r"^\s++(\S++(?>\s++(?:[^\s(]|\((?!chipid|cpuid|portid))\S*+)*+)"  # atomic: linear on long blank runs
                    r"\s++\((?:chipid|cpuid|portid)")


def parse_psrinfo(text: str) -> PsrInfo:
    vcpus = cores = 0
    tpc: int | None = None
    model: str | None = None
    first = 0
    for ln in numbered(text):
        if m := _PHYS.search(ln.text):
            cores += int(m.group(1) or 0)
            vcpus += int(m.group(2))
            first = first or ln.number
        elif m := _CORE.search(ln.text):
            tpc = max(tpc or 0, int(m.group(1)))
        elif m := _MODEL.match(ln.text):
            model = model or m.group(1)
    if not first:
        raise ParseError("no 'The physical processor has ...' line")
    return PsrInfo(vcpus, cores or None, tpc, model, first)


@dataclass
class Release:
    name: str  # e.g. "Oracle Solaris 11.4 SPARC"
    major: int | None  # 10, 11
    minor: int | None  # 11.x
    update: str | None  # Solaris 10 "1/13"
    arch: str | None
    line: int


_SOL_REL = re.compile(r"(?:Oracle\s+)?Solaris\s+(\d+)(?:\.(\d+))?(?:\s+(\d{1,2}/\d{2}))?.*?\b(SPARC|X86|x86)?\s*$")


def _os_release_name(text: str) -> str | None:
    """/etc/os-release: PRETTY_NAME, else NAME and VERSION."""
    values = {}
    for line in text.splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key.isupper():
            values[key] = value.strip().strip('"').strip("'")
    return values.get("PRETTY_NAME") or " ".join(v for v in (values.get("NAME"), values.get("VERSION")) if v) or None


def parse_release(text: str) -> Release:
    for ln in numbered(text):
        s = ln.text.strip()
        if not s:
            continue
        m = _SOL_REL.search(s)
        if m and "Solaris" in s:
            arch = m.group(4)
            if arch is None:
                arch = "SPARC" if "SPARC" in s else ("x86" if re.search(r"x86|X86", s) else None)
            return Release(s, int(m.group(1)), int(m.group(2)) if m.group(2) else None, m.group(3), arch, ln.number)
        if s.startswith(("NAME=", "PRETTY_NAME=", "ID=")):
            return Release(_os_release_name(text) or s, None, None, None, None, ln.number)
        if re.match(r"(?:OpenSolaris|OpenIndiana|OmniOS|SmartOS)\b", s):  # illumos and its forerunner: not Oracle Solaris
            arch = "SPARC" if "SPARC" in s else ("x86" if re.search(r"x86|X86", s) else None)
            return Release(s, None, None, None, arch, ln.number)
        raise ParseError(f"not an /etc/release line: {s[:40]!r}", line=ln.number)
    raise ParseError("empty release file")


@dataclass
class SolarisPkgEntire:
    release: str  # "11.1", "11.4"
    sru: int | None
    version_text: str
    line: int


def _pkg_blocks(text: str) -> list[dict[str, tuple[str, int]]]:
    """`pkg info` prints one block of `Key: value` lines per package."""
    blocks: list[dict[str, tuple[str, int]]] = [{}]
    for ln in numbered(text):
        if not ln.text.strip():
            if blocks[-1]:
                blocks.append({})
            continue
        key, sep, value = ln.text.partition(":")
        if sep and re.fullmatch(r"[A-Z][A-Za-z ]*", key.strip()):
            blocks[-1][key.strip()] = (value.strip(), ln.number)
    return [b for b in blocks if b]


def _from_branch(branch: str) -> tuple[str, int] | None:
    """(release, SRU) of entire's branch. 11.4: 11.4.42.0.1.111.0; 11.0-11.3: 0.175.<minor>.<sru>...."""
    parts = branch.split(".")
    if parts[:2] == ["0", "175"] and len(parts) >= 4 and digits(parts[2]) and digits(parts[3]):
        return f"11.{parts[2]}", int(parts[3])
    if parts[0] == "11" and len(parts) >= 3 and digits(parts[1]) and digits(parts[2]):
        return f"11.{parts[1]}", int(parts[2])
    return None


# `pkg list -v entire`: pkg://solaris/entire@0.5.11,5.11-0.175.2.8.0.5.0:20150325T200338Z i--
# `pkg list entire`:    entire    0.5.11-0.175.1.4.0.5.0    i--   (under NAME (PUBLISHER) VERSION IFO)
_FMRI = re.compile(r"^\s*(?:pkg://[\w.-]+/)?entire@(?P<version>[\d.]+(?:,[\d.]+)?-(?P<branch>[\d.]+))(?::\S*)?(?:\s|$)")
_LISTED = re.compile(r"^\s*entire(?:\s+\([\w.-]+\))?\s+(?P<version>[\d.]+-(?P<branch>[\d.]+))\s+[-\w]{3}\s*$")


def _pkg_list_entire(text: str) -> SolarisPkgEntire | None:
    for ln in numbered(text):
        if m := _FMRI.match(ln.text) or _LISTED.match(ln.text):
            found = _from_branch(m.group("branch"))
            if found:
                return SolarisPkgEntire(found[0], found[1], m.group("version"), ln.number)
    return None


def parse_pkg_entire(text: str) -> SolarisPkgEntire:
    """`pkg info entire`, or the FMRI or table row `pkg list [-v] entire` prints."""
    fields = next((b for b in _pkg_blocks(text)
                   if b.get("Name", ("",))[0].rsplit("/", 1)[-1] == "entire"), None)
    if fields is None:
        listed = _pkg_list_entire(text)
        if listed is None:
            raise ParseError("not 'pkg info entire' output (no 'Name: entire') nor an entire@ version of 'pkg list'")
        return listed
    branch = fields.get("Branch")
    version = fields.get("Version", ("", 0))
    if branch and (found := _from_branch(branch[0])):
        return SolarisPkgEntire(found[0], found[1], version[0], branch[1])
    m = re.search(r"Solaris (11\.\d+)(?:\.(\d+))?", version[0])
    if m:
        return SolarisPkgEntire(m.group(1), int(m.group(2)) if m.group(2) else None, version[0], version[1])
    raise ParseError("no Branch or Version line that names a Solaris 11 release")


@dataclass
class Patches:
    revisions: dict[str, tuple[int, int]] = field(default_factory=dict)  # "150031" -> (rev, line)


_PATCH = re.compile(r"^Patch:\s*(\d{6})-(\d{2})")


def parse_showrev(text: str) -> Patches:
    out = Patches()
    seen_any = False
    for ln in numbered(text):
        s = ln.text.strip()
        if not s:
            continue
        m = _PATCH.match(s)
        if not m:
            if s.startswith("No patches are installed"):
                seen_any = True
                continue
            raise ParseError(f"not a 'Patch: NNNNNN-NN' line: {s[:40]!r}", line=ln.number)
        seen_any = True
        rev = int(m.group(2))
        if rev >= out.revisions.get(m.group(1), (-1, 0))[0]:
            out.revisions[m.group(1)] = (rev, ln.number)
    if not seen_any:
        raise ParseError("empty showrev -p output")
    return out


@dataclass
class Uname:
    system: str
    node: str
    release: str
    version: str
    machine: str
    line: int


_LINUX_MACHINES = {"x86_64", "i386", "i486", "i586", "i686", "aarch64", "armv7l", "armv6l", "ppc64le", "ppc64",
                   "s390x", "sparc64", "mips64", "riscv64", "ia64"}


def parse_uname(text: str) -> Uname:
    for ln in numbered(text):
        parts = ln.text.split()
        if not parts:
            continue
        if len(parts) < 5:
            raise ParseError("uname -a line has fewer than 5 fields", line=ln.number)
        if parts[0] == "Linux":  # Linux host release #N SMP <date> machine processor platform GNU/Linux
            machine = next((p for p in reversed(parts) if p in _LINUX_MACHINES), parts[-2] if len(parts) > 5 else parts[4])
            return Uname(parts[0], parts[1], parts[2], " ".join(parts[3:-3]), machine, ln.number)
        return Uname(parts[0], parts[1], parts[2], parts[3], parts[4], ln.number)
    raise ParseError("empty uname output")
