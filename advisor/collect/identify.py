"""Which command printed a file, judged from its content (for loose files)."""

from __future__ import annotations

from pathlib import Path

from advisor import platform_registry as platforms

_SNIFF_BYTES = 64 * 1024


def identify_text(head: str) -> str | None:
    """The command that printed a text, by the patterns its platform pack declares;
    a per-interface output's id names the interface its pattern found."""
    for output, pattern in platforms.patterns():
        if m := pattern.search(head):
            return f"{output.id}@{m.group(1)}" if output.per_item else output.id
    return None


def _head(path: Path) -> str | None:
    with path.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    return None if b"\0" in head else head.decode("utf-8", errors="replace")


def identify(path: Path) -> str | None:
    head = _head(path)
    return None if head is None else identify_text(head)


def identify_among(path: Path, choices: set[str]) -> str | None:
    """Which of these commands printed the file, trying only their patterns."""
    head = _head(path)
    if head is None:
        return None
    return next((output.id for output, pattern in platforms.patterns()
                 if output.id in choices and not output.per_item and pattern.search(head)), None)
