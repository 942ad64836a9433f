"""Oracle Explorer archives: the files advisor reads and the command each holds.

Each platform pack names its outputs' paths in an Explorer; outputs Explorer
is not known to keep (dladm show-linkprop, ipadm show-prop) are not read.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from advisor import platform_registry as platforms
from advisor.collect.archive_names import ends_with


@cache
def explorer_files() -> dict[str, str]:
    """The files advisor reads in an Explorer, each by the command id it holds."""
    return {path: cid for cid, k in platforms.outputs().items() for path in k.output.explorer}


_NAME = re.compile(r"^explorer\.[0-9a-fA-F]+\.(.+?)-\d{4}\.\d{2}\.\d{2}\.\d{2}\.\d{2}(?:\.tar\.gz|\.tgz)?$")


def is_explorer_root(path: Path) -> bool:
    return (path / "sysconfig").is_dir() and ((path / "netinfo").is_dir() or (path / "etc").is_dir())


def wanted(member: str) -> bool:
    """An archive member advisor reads; an Explorer's other thousands are not unpacked."""
    return ends_with(member, explorer_files())


def host_from_name(name: str) -> str | None:
    m = _NAME.match(name)
    return m.group(1) if m else None

