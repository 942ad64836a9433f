"""What any Unix host says of itself: `uname -a` and its release file (`/etc/release`, `/etc/os-release`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import ParseError
from advisor.parsers.text import numbered


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
