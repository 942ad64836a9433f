"""Helpers shared by the parsers: numbered lines, fixed-width tables, sizes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple


class Line(NamedTuple):
    number: int
    text: str


# Line from a (number, text) pair, made in C: a frozen dataclass's __init__ cost ~4 k instructions a line.
_as_line = partial(tuple.__new__, Line)


def numbered(text: str) -> list[Line]:
    return list(map(_as_line, enumerate(text.splitlines(), start=1)))  # splitlines leaves no line end


# What str.splitlines ends a line at.
_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def each_line(text: str) -> Iterator[Line]:
    """numbered's lines, one at a time: a parser that keeps few of a large
    output's lines need not hold an object for each (2 million: 250 MiB)."""
    start = number = 0
    for number, end in enumerate(_BREAK.finditer(text), start=1):
        yield _as_line((number, text[start:end.start()]))
        start = end.end()
    if start < len(text):
        yield Line(number + 1, text[start:])


@dataclass(frozen=True)
class Header:
    """A table header: column names and where each starts."""

    names: tuple[str, ...]
    starts: tuple[int, ...]
    indent: int
    unique: bool = field(init=False, repr=False, compare=False)  # no name held twice

    def __post_init__(self) -> None:
        object.__setattr__(self, "unique", len(set(self.names)) == len(self.names))  # a frozen dataclass's way

    @classmethod
    def parse(cls, text: str) -> "Header":
        names = tuple(text.split())  # the `\S+` runs of the line
        starts: list[int] = []
        end = 0
        for name in names:  # where each stands: only white space lies between one and the next
            start = text.find(name, end)
            starts.append(start)
            end = start + len(name)
        return cls(names, tuple(starts), starts[0] if starts else 0)

    def split_aligned(self, row: str) -> dict[str, str]:
        """Cells of a row printed under this header with left-aligned columns.

        Empty cells are allowed (blank under their header). A value wider than
        its column pushes every later column right by the overflow, as printf
        does with `%-16s`; that shift is tracked so later cells still land in
        the right column.
        """
        names, starts = self.names, self.starts  # locals: a listing's every table row comes here
        last = len(names) - 1
        cells: dict[str, str] = {}
        shift = 0
        col = -1
        end = 0
        for token in row.split():  # found as parse() finds the names (a regex's finditer cost twice as much)
            start = row.find(token, end)
            end = start + len(token)
            if col < last:
                # Each word opens the next column, or a later one: the last
                # starting at or before where it would stand without the shift.
                col += 1
                pos = start - shift
                while col < last and starts[col + 1] <= pos:
                    col += 1
                if col < last:
                    overflow = (end - shift) - (starts[col + 1] - 1)
                    if overflow > 0:
                        shift += overflow
            elif col < 0:  # a header of no names: names[0] fails, as it always has
                col = 0
            name = names[col]
            if name in cells:  # the last column's words, or a name the header holds twice
                cells[name] += " " + token
            else:
                cells[name] = token
        # Cells were met in the columns' order; a name held twice is placed where it first stands.
        return cells if self.unique else {name: cells[name] for name in names if name in cells}

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

