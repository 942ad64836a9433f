"""Plain-text layout for the terminal: display widths, word wrapping, columns
and ANSI styles, in the few forms the reports use.

The terminal report is the default output of every review, so it is laid out
here rather than by rich: rich's import and its measuring of every table cell
cost a review about a sixth of its work. Wrapping follows the rules rich
applies elsewhere in advisor: words are kept whole where they fit, a word
wider than the line is folded at the line's width, and no line ends in blanks.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_CODES = {"bold": "1", "dim": "2", "italic": "3", "red": "31", "green": "32", "yellow": "33", "cyan": "36",
          "white": "37"}
_WORD = re.compile(r"\s*\S+\s*")

Span = tuple[str, str]  # text, style ("" for none)


def sgr(style: str) -> str:
    """The ANSI codes of a style such as 'bold white on red'."""
    words = style.split()
    codes = [str(int(_CODES[w]) + 10) if i and words[i - 1] == "on" else _CODES[w]
             for i, w in enumerate(words) if w != "on"]
    return ";".join(codes)


def paint(text: str, style: str, color: bool) -> str:
    return f"\x1b[{sgr(style)}m{text}\x1b[0m" if color and style and text else text


def cells(text: str) -> int:
    """Columns the text takes on a terminal: East Asian wide characters two, combining marks none."""
    if text.isascii():
        return len(text)
    return sum(_char_cells(c) for c in text)


def _char_cells(char: str) -> int:
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _chop(word: str, width: int) -> list[str]:
    """A word cut into pieces of at most `width` columns."""
    pieces, piece, used = [], "", 0
    for char in word:
        size = _char_cells(char) if not char.isascii() else 1
        if used + size > width and piece:
            pieces.append(piece)
            piece, used = "", 0
        piece += char
        used += size
    return pieces + [piece]


def wrap(text: str, width: int) -> list[str]:
    """The text's lines at most `width` columns wide (tabs as 8 columns)."""
    width = max(width, 1)
    out: list[str] = []
    for paragraph in text.expandtabs(8).split("\n"):
        out += _wrap_paragraph(paragraph, width)
    return out


def _wrap_paragraph(text: str, width: int) -> list[str]:
    if text.isascii() and len(text.rstrip()) <= width:  # it fits: most paragraphs, no word to measure
        return [text.rstrip()]
    lines: list[str] = []
    line, used = "", 0
    for word in _WORD.findall(text):
        size = cells(word.rstrip())
        if used + size <= width:
            line += word
            used += cells(word)
        elif size > width:  # on a line of its own, folded
            if line:
                lines.append(line)
            *whole, line = _chop(word, width)
            lines += whole
            used = cells(line)
        else:
            lines.append(line)
            line, used = word, cells(word)
    lines.append(line)
    return [ln.rstrip() for ln in lines]


def paragraph(spans: list[Span], width: int, color: bool) -> list[str]:
    """Styled text wrapped to `width`, each span painted in its style on every line it reaches."""
    if any("\t" in t for t, _ in spans):
        spans = _tabs_expanded(spans)
    plain = "".join(t for t, _ in spans)
    lines = wrap(plain, width)
    if not color:
        return lines
    ends, at = [], 0  # where each span ends in the plain text
    for t, _ in spans:
        at += len(t)
        ends.append(at)
    out, position = [], 0
    for line in lines:  # each wrapped line is a piece of the plain text, in order
        start = plain.find(line, position) if line else position
        position = start + len(line)
        out.append(_painted(plain, spans, ends, start, position))
    return out


def _tabs_expanded(parts: list[Span]) -> list[Span]:
    """Tabs as the spaces they take in the joined text (8-column stops), so that
    every wrapped line is a piece of the text the spans index."""
    column, out = 0, []
    for text, style in parts:
        pieces = []
        for char in text:
            if char == "\t":
                pieces.append(" " * (8 - column % 8))
                column += 8 - column % 8
            else:
                pieces.append(char)
                column = 0 if char == "\n" else column + 1
        out.append(("".join(pieces), style))
    return out


def _painted(plain: str, parts: list[Span], ends: list[int], start: int, stop: int) -> str:
    """Characters start..stop of the plain text, each span's share painted in its style."""
    out, begin = [], 0
    for (_text, style), end in zip(parts, ends):
        lo, hi = max(begin, start), min(end, stop)
        if lo < hi:
            out.append(paint(plain[lo:hi], style, True))
        begin = end
    return "".join(out)


@dataclass(frozen=True)
class Column:
    wrap: bool = True  # else never narrower than its widest value
    right: bool = False  # right-justified
    style: str = ""


def _text(cell: str | Span) -> str:
    return cell if isinstance(cell, str) else cell[0]


def column_widths(columns: list[Column], rows: list[list[str | Span]], width: int, gap: int) -> list[int]:
    """Each column as wide as its widest value; while the whole is wider than
    `width`, the widest column that may wrap gives up a column."""
    widths = [max((cells(_text(r[i])) for r in rows), default=0) for i in range(len(columns))]
    excess = sum(widths) + gap * (len(columns) - 1) - width
    while excess > 0:
        wrapping = [i for i, c in enumerate(columns) if c.wrap and widths[i] > 1]
        if not wrapping:
            break
        widest = max(wrapping, key=lambda i: widths[i])
        widths[widest] -= 1
        excess -= 1
    return widths


def table(columns: list[Column], rows: list[list[str | Span]], width: int, color: bool, gap: int = 1,
          indent: str = "", widths: list[int] | None = None) -> list[str]:
    """Rows laid out in columns (of `widths`, else as column_widths gives), each cell wrapped to its column."""
    plain = [[_text(cell) for cell in row] for row in rows]
    widths = widths or column_widths(columns, rows, width - cells(indent), gap)
    out: list[str] = []
    for row, texts in zip(rows, plain):
        styles = [columns[i].style or ("" if isinstance(cell, str) else cell[1]) for i, cell in enumerate(row)]
        cell_lines = [wrap(t, w) if columns[i].wrap else [t] for i, (t, w) in enumerate(zip(texts, widths))]
        for n in range(max(len(c) for c in cell_lines)):
            parts = []
            for i, lines in enumerate(cell_lines):
                text = lines[n] if n < len(lines) else ""
                pad = " " * max(widths[i] - cells(text), 0)
                parts.append(pad + paint(text, styles[i], color) if columns[i].right
                             else paint(text, styles[i], color) + pad)
            out.append((indent + (" " * gap).join(parts)).rstrip())
    return out
