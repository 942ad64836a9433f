"""Unpacking archives without letting any member out of its folder."""

from __future__ import annotations

import shutil
import tarfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from advisor.collect.pax_headers import CheckedPaxTarInfo, UnsafePaxHeader
from advisor.errors import InputError

MAX_MEMBER_BYTES = 2 << 30  # a kstat dump of a large host is far below this
MAX_TOTAL_BYTES = 4 << 30  # everything unpacked from one archive
MAX_MEMBERS = 100_000  # a large sosreport holds a few tens of thousands
MAX_UNPACKED = 2_000  # files unpacked from one archive: a bundle holds a few dozen (a few hundred with many interfaces)
SPARE_BYTES = 256 << 20  # left free on the scratch disk after unpacking
MAX_READ_BYTES = 8 << 30  # everything decompressed to get through one archive, skipped members too
MAX_HEADER_BYTES = 1 << 20  # a long name or pax header: real ones are a few hundred bytes
MAX_HEADERS_BYTES = 64 << 20  # all of them: tarfile keeps every member, unpacked or skipped, with its name
_EXTENDED = (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE, tarfile.XGLTYPE,
             tarfile.SOLARIS_XHDTYPE)


class _HeaderTooLarge(ValueError):  # not a tarfile.HeaderError: tarfile rewraps those in a header that follows another
    pass


class _BoundedTarInfo(CheckedPaxTarInfo):
    """tarfile reads a long name or a pax header into memory whole, at the size
    its header gives, before advisor sees the member, and keeps every member:
    a 1.5 MB archive can ask for a 1.5 GiB name, or hold 400 names of 700 KiB
    (326 MB of memory). Such headers above MAX_HEADER_BYTES each, or
    MAX_HEADERS_BYTES in all, are refused first; a pax header is then checked
    before tarfile parses it (pax_headers)."""

    def _proc_member(self, tarfile_):  # tarfile's own dispatch (stable since Python 2), bounded
        if self.type in _EXTENDED:
            if self.size > MAX_HEADER_BYTES:
                raise _HeaderTooLarge(f"a member's name or extended header is {self.size:,} bytes")
            total = tarfile_.__dict__.get("_extended_bytes", 0) + self.size
            if total > MAX_HEADERS_BYTES:
                raise _HeaderTooLarge(f"its names and extended headers take more than {MAX_HEADERS_BYTES >> 20} MiB")
            tarfile_._extended_bytes = total
        return super()._proc_member(tarfile_)


def _member_target(root: Path, member: tarfile.TarInfo, shown: str) -> Path | None:
    """Where a member goes under `root` (already resolved), or None if it is not unpacked."""
    name = PurePosixPath(member.name)
    if name.is_absolute() or ".." in name.parts:
        raise InputError(f"{shown}: member {member.name!r} would be written outside the bundle; refused")
    if not member.isfile() and not member.isdir():
        return None  # links, devices and fifos carry no command output
    if member.isfile() and member.size > MAX_MEMBER_BYTES:
        raise InputError(f"{shown}: member {member.name!r} is larger than {MAX_MEMBER_BYTES} bytes; refused")
    target = (root / Path(*name.parts)).resolve()
    if not target.is_relative_to(root):
        raise InputError(f"{shown}: member {member.name!r} would be written outside the bundle; refused")
    return target


class _Budget:
    """What one archive may still write: members, bytes, and the scratch disk's room.

    Sizes are read from each member's header before any of its data is
    decompressed, so a bomb is refused before it is written."""

    def __init__(self, dest: Path, shown: str) -> None:
        self.dest, self.shown = dest, shown
        self.members = 0
        self.files = 0
        self.written = 0
        self.read = 0

    def count(self, member: tarfile.TarInfo) -> None:
        """Every member, unpacked or skipped: skipping one still decompresses its data."""
        self.members += 1
        if self.members > MAX_MEMBERS:
            raise InputError(f"{self.shown}: more than {MAX_MEMBERS:,} members; refused")
        self.read += member.size
        if self.read > MAX_READ_BYTES:
            raise InputError(f"{self.shown}: holds more than {MAX_READ_BYTES >> 30} GiB; refused")

    def take(self, member: tarfile.TarInfo) -> None:
        self.files += 1
        if self.files > MAX_UNPACKED:  # each file written costs a create, whatever its size
            raise InputError(f"{self.shown}: more than {MAX_UNPACKED:,} files to unpack; refused (a capture bundle "
                             f"holds a few dozen)")
        self.written += member.size
        if self.written > MAX_TOTAL_BYTES:
            raise InputError(f"{self.shown}: unpacks to more than {MAX_TOTAL_BYTES >> 30} GiB; refused")
        if shutil.disk_usage(self.dest).free - member.size < SPARE_BYTES:
            raise InputError(f"{self.shown}: not enough free disk in {self.dest.parent} to unpack "
                             f"member {member.name!r} ({member.size:,} bytes); refused")


def extract(archive: Path, dest: Path, shown: str, wanted: Callable[[str], bool] | None = None) -> None:
    """Regular files only; absolute names, `..` and links are refused or skipped.

    `wanted`, when given, says which member names are worth unpacking (the few
    files advisor reads of an Explorer or a sosreport); the others are skipped."""
    budget = _Budget(dest, shown)
    root = dest.resolve()
    try:
        with tarfile.open(archive, mode="r:*", tarinfo=_BoundedTarInfo) as tar:
            for member in tar:
                budget.count(member)
                target = _member_target(root, member, shown)
                if target is not None and member.isdir():
                    target.mkdir(parents=True, exist_ok=True)  # an Explorer or sosreport is known by its folders
                    continue
                if target is None or (wanted is not None and not wanted(member.name)):
                    continue
                budget.take(member)
                _write(tar, member, target)
    except (_HeaderTooLarge, UnsafePaxHeader) as exc:
        raise InputError(f"{shown}: {exc}; refused") from None
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise InputError(f"{shown}: {_in_words(archive, exc)}") from None


def _write(tar: tarfile.TarFile, member: tarfile.TarInfo, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    src = tar.extractfile(member)
    if src is None:
        return
    with src, target.open("wb") as out:
        while chunk := src.read(1 << 20):
            out.write(chunk)


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
