"""Where the lines of an output cut from a pasted file came from, and the
messages and evidence that name them, mapped back to the pasted file's lines."""

from __future__ import annotations

import re


class Origin:
    """Where a scratch output's lines came from."""

    __slots__ = ("shown", "lines", "command", "span")  # a plain class, not a dataclass: ~2 M instructions less at import

    def __init__(self, shown: str, lines: list[int], command: str, span: str) -> None:
        self.shown = shown
        self.lines = lines
        self.command = command
        self.span = span

    def line(self, n: int) -> int:
        return self.lines[n - 1] if 0 < n <= len(self.lines) else self.lines[-1] if self.lines else 0


_TOKEN = re.compile(r"\S+")
_AT = re.compile(r"@(\d+)(?::(\d{1,9})(?!\d))?")


def _origin_at(token: str, origins: dict, longest: int) -> tuple[Origin, str | None, int] | None:
    """The origin a token starts with (`ticket.txt@3` or `ticket.txt@3:12`): the
    origin, the line given and where the match ends. Only the `@N` within the
    longest origin name's reach are tried, so the cost is linear."""
    for m in _AT.finditer(token):
        if m.start() >= longest:
            break
        if (origin := origins.get(token[:m.end(1)])) is not None:
            return origin, m.group(2), m.end()
    return None


def locate(text: str, origins: dict) -> str:
    """`ticket.txt@3:12: msg` -> `ticket.txt:57: msg (lines 46-80, `ldm ls -l`)`."""
    if not origins or "@" not in text:
        return text
    note: list[str] = []
    longest = max(map(len, origins))

    def repl(m: re.Match[str]) -> str:
        token = m.group(0)
        found = _origin_at(token, origins, longest) if "@" in token else None
        if found is None:
            return token
        origin, line, end = found
        if not note:
            note.append(f" (lines {origin.span}: `{origin.command}`)")
        where = origin.line(int(line)) if line else origin.span.split('-')[0]
        return f"{origin.shown}:{where}{token[end:]}"

    out = _TOKEN.sub(repl, text)
    return out + note[0] if note and not _NOTED.search(text) else out


_NOTED = re.compile(r"\(lines [^`]*`[^`]*`\)$")  # a message that already ends with its segment's note


def locate_evidence(item: str, origins: dict) -> str:
    """Evidence names a line only: no command note."""
    found = _origin_at(item, origins, max(map(len, origins))) if origins and "@" in item else None
    if found is None or found[2] != len(item):
        return item
    origin, line, _end = found
    return f"{origin.shown}:{origin.line(int(line))}" if line else origin.shown
