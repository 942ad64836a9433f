"""Where the lines of an output cut from a pasted file came from, and the
messages and evidence that name them, mapped back to the pasted file's lines."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass
class Origin:
    """Where a scratch output's lines came from."""

    shown: str
    lines: list[int]
    command: str
    span: str

    def line(self, n: int) -> int:
        return self.lines[n - 1] if 0 < n <= len(self.lines) else self.lines[-1] if self.lines else 0


_LOCATED = re.compile(r"(\S+@\d+)(?::(\d+))?")


def locate(text: str, origins: dict) -> str:
    """`ticket.txt@3:12: msg` -> `ticket.txt:57: msg (lines 46-80, `ldm ls -l`)`."""
    note: list[str] = []

    def repl(m: re.Match[str]) -> str:
        origin = origins.get(m.group(1))
        if origin is None:
            return m.group(0)
        if not note:
            note.append(f" (lines {origin.span}: `{origin.command}`)")
        if m.group(2):
            return f"{origin.shown}:{origin.line(int(m.group(2)))}"
        return f"{origin.shown}:{origin.span.split('-')[0]}"

    out = _LOCATED.sub(repl, text)
    return out + note[0] if note and not text.endswith(")") else out


def locate_evidence(item: str, origins: dict) -> str:
    """Evidence names a line only: no command note."""
    m = _LOCATED.fullmatch(item)
    if m and (origin := origins.get(m.group(1))) is not None:
        return f"{origin.shown}:{origin.line(int(m.group(2)))}" if m.group(2) else origin.shown
    return item
