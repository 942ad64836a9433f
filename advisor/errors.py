"""Errors that reach the user as one line, never as a traceback."""

from __future__ import annotations

import re


class AdvisorError(Exception):
    """Base class: the message is shown to the user as is."""


class InputError(AdvisorError):
    """A path, file or option the user gave cannot be used (exit status 2)."""


class ParseError(AdvisorError):
    """A command output could not be read; names the file and the line."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.message = message
        self.file = file
        self.line = line
        super().__init__(self.location_message())

    def location_message(self) -> str:
        where = self.file or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"

    def located(self, file: str) -> "ParseError":
        """The same error, naming the file it came from (unless it names one already:
        a plan's error can lie in the constraints file it refers to)."""
        return ParseError(self.message, file=self.file or file, line=self.line)


class RulePackError(AdvisorError):
    """A rule file is invalid (exit status 2)."""


EXCERPT = 60  # characters of an offending input line an error may quote
MESSAGE = 4096  # characters of one error message, whatever it quotes (a path is at most 4,096 bytes)


_SURROGATE = re.compile("[\ud800-\udfff]")


def readable(name: str) -> str:
    """A file or folder name as text that any report can hold: bytes that were
    not UTF-8 (which Python keeps as lone surrogates) shown as \\xNN."""
    if name.isascii() or not _SURROGATE.search(name):
        return name
    return _SURROGATE.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}" if 0xDC80 <= ord(m.group()) <= 0xDCFF
                          else f"\\u{ord(m.group()):04x}", name)


def printable(text: str) -> str:
    """The text with every character that is not printable (escape sequences,
    NUL, line breaks, invisible and bidi characters) shown as its Python escape."""
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """A short, printable quotation of input, long text cut with an ellipsis."""
    return printable(text[:limit]) + ("..." if len(text) > limit else "")


def clipped(message: str) -> str:
    """A message cut to MESSAGE characters before anything else reads it: one
    that quotes a 1 MiB line must not cost what that line costs."""
    return message if len(message) <= MESSAGE else message[:MESSAGE] + "..."


def brief(exc: BaseException) -> str:
    """An unexpected failure in words: its kind and a short excerpt of its message."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, MemoryError):
        return "too large to hold in memory"
    first = str(exc).splitlines()[0] if str(exc) else ""
    if isinstance(exc, AdvisorError) and first:  # its message is in words already
        return excerpt(first, 160)
    return f"{type(exc).__name__}: {excerpt(first, 120)}" if first else type(exc).__name__
