"""Oracle Explorer archives: the files advisor reads and the command each holds.

Paths follow `shared/reference/explorer-layout.md`; those marked there as not
found in any source (dladm show-linkprop, ipadm show-prop) are not read.
"""

from __future__ import annotations

import re
from pathlib import Path

from advisor.collect import safetar

EXPLORER_FILES: dict[str, str] = {
    "sysconfig/ldm_-V.out": "ldm-version",
    "sysconfig/ldm_list_-l_-p.out": "ldm-list-l-p",
    "etc/system": "etc-system",
    "netinfo/kstat-p.out": "kstat-p",
    "netinfo/ndd/tcp.out": "ndd-tcp",
    "patch+pkg/pkg_info-l.out": "pkg-entire",
}

_NAME = re.compile(r"^explorer\.[0-9a-fA-F]+\.(.+?)-\d{4}\.\d{2}\.\d{2}\.\d{2}\.\d{2}(?:\.tar\.gz|\.tgz)?$")


def is_explorer_root(path: Path) -> bool:
    return (path / "sysconfig").is_dir() and ((path / "netinfo").is_dir() or (path / "etc").is_dir())


def wanted(member: str) -> bool:
    """An archive member advisor reads; an Explorer's other thousands are not unpacked."""
    return safetar.ends_with(member, EXPLORER_FILES)


def host_from_name(name: str) -> str | None:
    m = _NAME.match(name)
    return m.group(1) if m else None

