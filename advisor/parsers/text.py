"""Helpers shared by the parsers: numbered lines, fixed-width tables, sizes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Line:
    number: int
    text: str


def numbered(text: str) -> list[Line]:
    return [Line(i, t.rstrip("\r\n")) for i, t in enumerate(text.splitlines(), start=1)]


# What str.splitlines ends a line at.
_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def each_line(text: str) -> Iterator[Line]:
    """numbered's lines, one at a time: a parser that keeps few of a large
    output's lines need not hold an object for each (2 million: 250 MiB)."""
    start = number = 0
    for number, end in enumerate(_BREAK.finditer(text), start=1):
        yield Line(number, text[start:end.start()])
        start = end.end()
    if start < len(text):
        yield Line(number + 1, text[start:])


_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Header:
    """A table header: column names and where each starts."""

    names: tuple[str, ...]
    starts: tuple[int, ...]
    indent: int

    @classmethod
    def parse(cls, text: str) -> "Header":
        tokens = list(_TOKEN.finditer(text))
        return cls(tuple(t.group() for t in tokens), tuple(t.start() for t in tokens), tokens[0].start() if tokens else 0)

    def split_aligned(self, row: str) -> dict[str, str]:
        """Cells of a row printed under this header with left-aligned columns.

        Empty cells are allowed (blank under their header). A value wider than
        its column pushes every later column right by the overflow, as printf
        does with `%-16s`; that shift is tracked so later cells still land in
        the right column.
        """
        names, starts = self.names, self.starts  # locals: a listing's every table row comes here
        last = len(names) - 1
        cells: dict[str, list[str]] = {}
        shift = 0
        col = -1
        for tok in _TOKEN.finditer(row):
            start, end = tok.span()
            pos = start - shift
            target = col + 1 if col < last else col
            # Advance to the last column starting at or before this token.
            while target < last and starts[target + 1] <= pos:
                target += 1
            if target < 0:
                target = 0
            if target > col:
                col = target
            name = names[col]
            if name in cells:
                cells[name].append(tok.group())
            else:
                cells[name] = [tok.group()]
            if col < last:
                overflow = (end - shift) - (starts[col + 1] - 1)
                if overflow > 0:
                    shift += overflow
        return {name: " ".join(cells[name]) for name in names if name in cells}

    def split_words(self, row: str) -> dict[str, str]:
        """Cells of a row whose cells are never empty: split on white space, the
        last column takes the rest of the line."""
        parts = row.split(None, len(self.names) - 1)
        return dict(zip(self.names, parts))


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGTP]?)(?:B|iB)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "P": 1 << 50}


def parse_size(text: str) -> int | None:
    """'32G', '768M', '17179869184' -> bytes; None when it is not a size (one
    too large for a float, 400 digits, is none a machine has)."""
    m = _SIZE.match(text)
    if not m:
        return None
    try:
        return int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    except OverflowError:  # float('9' * 400) is infinity
        return None


def digits(text: str) -> bool:
    """ASCII digits only: str.isdigit() also takes '²' and '①', which int() refuses."""
    return text.isascii() and text.isdigit()


def parse_int(text: str) -> int | None:
    text = text.strip()
    try:
        return int(text, 0) if text.lower().startswith("0x") else int(text)
    except ValueError:
        return None

