"""Unpacking archives without letting any member out of its folder."""

from __future__ import annotations

import tarfile
from pathlib import Path, PurePosixPath

from advisor.errors import InputError

MAX_MEMBER_BYTES = 2 << 30  # a kstat dump of a large host is far below this


def _member_target(root: Path, member: tarfile.TarInfo, shown: str) -> Path | None:
    name = PurePosixPath(member.name)
    if name.is_absolute() or ".." in name.parts:
        raise InputError(f"{shown}: member {member.name!r} would be written outside the bundle; refused")
    if member.isdir():
        return None
    if not member.isfile():
        return None  # links, devices and fifos carry no command output
    if member.size > MAX_MEMBER_BYTES:
        raise InputError(f"{shown}: member {member.name!r} is larger than {MAX_MEMBER_BYTES} bytes; refused")
    target = (root / Path(*name.parts)).resolve()
    if not target.is_relative_to(root.resolve()):
        raise InputError(f"{shown}: member {member.name!r} would be written outside the bundle; refused")
    return target


def extract(archive: Path, dest: Path, shown: str) -> None:
    """Regular files only; absolute names, `..` and links are refused or skipped."""
    try:
        with tarfile.open(archive, mode="r:*") as tar:
            for member in tar:
                target = _member_target(dest, member, shown)
                if target is None:
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                src = tar.extractfile(member)
                if src is None:
                    continue
                with src, target.open("wb") as out:
                    while chunk := src.read(1 << 20):
                        out.write(chunk)
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise InputError(f"{shown}: {_in_words(archive, exc)}") from None


_MAGIC = {b"\x1f\x8b": "gzip", b"BZh": "bzip2", b"\xfd7zXZ\x00": "xz"}


def _in_words(path: Path, exc: BaseException) -> str:
    """What went wrong with an archive, without the library's internals."""
    if isinstance(exc, OSError) and not isinstance(exc, (EOFError, tarfile.TarError)) and exc.strerror:
        return f"cannot read the archive ({exc.strerror.lower()})"
    try:
        with path.open("rb") as fh:
            head = fh.read(6)
    except OSError:
        head = b""
    if not head:
        return "the archive is empty"
    kind = next((name for magic, name in _MAGIC.items() if head.startswith(magic)), None)
    if kind is not None:
        return f"the {kind} archive is corrupt or cut short"
    return "not a tar archive (plain, or compressed with gzip, bzip2 or xz)"


def is_archive(path: Path) -> bool:
    name = path.name.lower()
    return name.endswith((".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tar.xz", ".txz"))
