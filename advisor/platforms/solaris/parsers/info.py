"""Small Solaris identity outputs: `psrinfo -pv`, `pkg info entire`, `showrev -p`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from advisor.errors import ParseError
from advisor.parsers.text import digits, numbered


@dataclass
class PsrInfo:
    vcpus: int
    cores: int | None
    threads_per_core: int | None
    model: str | None
    line: int


# "The physical processor has 2 cores and 16 virtual processors" (Solaris 10 8/07 and later);
# "The UltraSPARC-IIIi physical processor has 1 virtual processor (0)" (Solaris 9 and early 10).
# The second form names the processor in the sentence, with no model line under it (glpi-agent reads it as the type).
_PHYS = re.compile(r"The (?:(?P<named>\S+) )?physical processor has (?:(?P<cores>\d+) cores? and )?(?P<vcpus>\d+) virtual processors?")
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
            cores += int(m.group("cores") or 0)
            vcpus += int(m.group("vcpus"))
            first = first or ln.number
            model = model or m.group("named")
        elif m := _CORE.search(ln.text):
            tpc = max(tpc or 0, int(m.group(1)))
        elif m := _MODEL.match(ln.text):
            model = model or m.group(1)
    if not first:
        raise ParseError("no 'The physical processor has ...' line")
    return PsrInfo(vcpus, cores or None, tpc, model, first)


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
