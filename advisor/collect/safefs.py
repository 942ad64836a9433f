"""Reading a folder someone else made as carefully as an archive: only the
regular files that are its own.

A bundle, Explorer or sosreport folder may have been unpacked or copied by
anyone. A symbolic link in it could point at /etc/shadow, a FIFO would block a
read forever, a device could be read without end, and a hard link is a second
name for a file that may live anywhere. So a file is read only when it is a
regular file, reached directly or by a symbolic link that stays inside the
folder, and, when it has other names (hard links), owned by the folder's owner:
someone who can link a file they do not own (where the kernel lets them) must
not make advisor read it for them. Folders are walked without following
links, and a walk stops at MAX_FILES files.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_FILES = 10_000  # a capture bundle holds a few dozen


def refusal(path: Path, root: Path) -> str | None:
    """Why `path` (inside the folder `root`) must not be read, or None when it may."""
    try:
        # every component, not only the last: a linked folder above the file
        # (sos_commands/networking, an Explorer's etc/) leads outside as well;
        # a file directly in the folder that is no link cannot (and costs no resolving)
        if not _plain_child(path, root) and not path.resolve().is_relative_to(root.resolve()):
            return "a symbolic link to outside the bundle (the file, or a folder above it); not read"
        info = os.stat(path)
    except (OSError, RuntimeError):
        return "cannot be read (a broken or looping link, or no permission)"
    if stat.S_ISDIR(info.st_mode):
        return "a folder, not an output file"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file (a device, FIFO or socket); not read"
    if info.st_nlink > 1 and info.st_uid != _owner(root):
        return f"a hard link to a file of another user (uid {info.st_uid}); not read"
    return None


def _plain_child(path: Path, folder: Path) -> bool:
    """`path` is an entry of `folder` itself, and not a symbolic link."""
    try:
        return path.parent == folder and not stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def inside(path: Path, folder: Path) -> bool:
    """`path`, followed through every link, stays inside `folder`."""
    try:
        return _plain_child(path, folder) or path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return False


def _owner(root: Path) -> int | None:
    try:
        return os.stat(root).st_uid
    except OSError:
        return None


def walk(root: Path) -> tuple[list[Path], bool]:
    """Every entry under `root` that is not a folder (sorted), without entering
    linked folders; and whether the walk stopped at MAX_FILES."""
    found: list[Path] = []
    pending = [root]
    while pending:
        folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                pending.append(Path(entry.path))
            else:
                found.append(Path(entry.path))
                if len(found) >= MAX_FILES:
                    return sorted(found), True
    return sorted(found), False
