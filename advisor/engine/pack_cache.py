"""Parsed rule packs kept between runs, so a review does not parse YAML it parsed before.

An entry is keyed by the file's content and advisor's version, so an edited
pack or another release never reads a stale entry. Entries are JSON (never
pickles: loading one runs no code) and the rules read from one are validated
exactly as if read from YAML. The cache lives in the user's own cache folder,
created private; a folder that someone else owns or can write to is not used.
Any failure to read or write the cache is silent: it only ever costs the parse.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from advisor import __version__

FORMAT = 1


def folder() -> Path | None:
    """$ADVISOR_CACHE_DIR, else $XDG_CACHE_HOME/advisor, else ~/.cache/advisor; None when off (ADVISOR_NO_CACHE)."""
    if os.environ.get("ADVISOR_NO_CACHE"):
        return None
    chosen = os.environ.get("ADVISOR_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "advisor"


def _private(directory: Path) -> bool:
    """Ours and writable by no one else (a shared /tmp folder could be filled by another user)."""
    try:
        info = directory.lstat()
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISDIR(info.st_mode) and mine and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _entry(text: str) -> Path | None:
    base = folder()
    if base is None:
        return None
    key = hashlib.sha256(f"{__version__}\0{FORMAT}\0{text}".encode()).hexdigest()
    return base / "rules" / f"{key}.json"


def get(text: str) -> Any | None:
    """The data parsed before from exactly this text by this version, or None."""
    entry = _entry(text)
    if entry is None or not _private(entry.parent):
        return None
    try:
        return json.loads(entry.read_bytes())["data"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def put(text: str, data: Any) -> None:
    """Keep `data` for `text` when JSON holds it unchanged (dates, say, it does not)."""
    entry = _entry(text)
    if entry is None:
        return
    try:
        encoded = json.dumps({"format": FORMAT, "version": __version__, "data": data})
        if json.loads(encoded)["data"] != data:
            return
        entry.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(entry.parent):
            return
        partial = entry.with_suffix(f".{os.getpid()}.part")
        partial.write_text(encoded, encoding="utf-8")
        os.replace(partial, entry)
    except (OSError, TypeError, ValueError, RecursionError):
        return
