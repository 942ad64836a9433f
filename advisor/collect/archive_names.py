"""What tells an archive and its members by their names alone.

Apart from safetar, which unpacks archives: a review of bundle folders asks
these of every path it is given, and need not load tarfile to do so.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def ends_with(member: str, paths: Iterable[str]) -> bool:
    """The member's name is one of `paths`, at the archive's top or under one folder or more."""
    name = member.removeprefix("./")
    return any(name == rel or name.endswith("/" + rel) for rel in paths)


def is_archive(path: Path) -> bool:
    return is_archive_name(path.name)


def is_archive_name(name: str) -> bool:
    return name.lower().endswith((".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tar.xz", ".txz"))
