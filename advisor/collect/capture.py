"""What every way in produces: one host's raw command outputs, keyed by command id."""

from __future__ import annotations

import os
import re

from datetime import datetime

from pathlib import Path
from typing import Iterator

from advisor.errors import ParseError, readable

MAX_TEXT_BYTES = 64 << 20  # `ldm list -l` of the largest system is a few MiB
MAX_DIGITS = 4_300  # the longest run of digits Python's int() reads (sys.get_int_max_str_digits())
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1}}}")


# RawOutput, Missing and Capture are plain slotted classes, not dataclasses: each
# dataclass cost ~2 M instructions at import to compile its generated methods.
class RawOutput:
    __slots__ = ("command_id", "file", "path", "command", "exit_status", "stderr", "filtered", "grep", "taken_at")

    def __init__(self, command_id: str, file: str, path: Path, command: str | None = None,
                 exit_status: int | None = None, stderr: str = "", filtered: str | None = None,
                 grep: str | None = None, taken_at: float | None = None) -> None:
        self.command_id = command_id
        self.file = file  # as shown to the user, relative to what they named
        self.path = path
        self.command = command
        self.exit_status = exit_status
        self.stderr = stderr
        self.filtered = filtered  # the command line, when a filter (grep, head) made the output partial
        self.grep = grep  # its grep pattern, when that was the one filter
        self.taken_at = taken_at  # POSIX seconds its manifest says it was run (a sampled output's `taken_at`)

    def text(self) -> str:
        """The whole output, for parsers that read it at once (all but kstat's,
        which streams): refused past MAX_TEXT_BYTES, so memory stays bounded."""
        with self.path.open("rb") as fh:  # one open, its size from it: not a stat, then a text-mode reader
            size = os.fstat(fh.fileno()).st_size
            if size > MAX_TEXT_BYTES:
                raise ParseError(f"{size:,} bytes, more than the {MAX_TEXT_BYTES >> 20} MiB advisor reads of one "
                                 f"such output; refused")
            text = fh.read().decode("utf-8", errors="replace")
        if "\r" in text:  # as text mode reads it: \r\n, and a lone \r, end a line as \n
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if (run := long_number(text)) is not None:  # int() refuses it: no command prints such a number
            raise ParseError(f"a number of more than {MAX_DIGITS:,} digits; not one any command prints",
                             line=text.count("\n", 0, run.start()) + 1)
        return text

    def lines(self) -> Iterator[str]:
        with self.path.open(encoding="utf-8", errors="replace") as fh:
            yield from fh


def long_number(text: str) -> re.Match[str] | None:
    """_LONG_NUMBER's first match. Its search tries a match at every
    character (about 2 M instructions for a host's 20 kB of `ldm` listings),
    so it is made only when one of the text's aligned slices of half its
    length (2,150 characters) is all digits: a run of 4,301 digits wholly
    holds one of them (\\d is what str.isdecimal is true of)."""
    half = (MAX_DIGITS + 1) // 2
    if any(text[at:at + half].isdecimal() for at in range(0, len(text) - half + 1, half)):
        return _LONG_NUMBER.search(text)
    return None


def _second_sample(command_id: str) -> str | None:
    """`kstat-p~2` for an output read twice (--sample), else None."""
    from advisor import platform_registry as platforms
    from advisor.platform_spec import SECOND

    found = platforms.known(command_id)
    return command_id + SECOND if found is not None and found[0].output.sampled and not found[1] else None


class Missing:
    """A command that was run but gave no usable output."""

    __slots__ = ("command_id", "command", "reason", "unfinished")

    def __init__(self, command_id: str, command: str | None, reason: str, unfinished: bool = False) -> None:
        self.command_id = command_id
        self.command = command
        self.reason = reason
        self.unfinished = unfinished  # it never finished (timed out): the collection is incomplete


class Capture:
    __slots__ = ("host", "source", "outputs", "missing", "errors", "skipped", "origins", "not_collected",
                 "collected_at")

    def __init__(self, host: str, source: str) -> None:
        self.host, self.source = readable(host), readable(source)
        self.outputs: dict[str, RawOutput] = {}
        self.missing: dict[str, Missing] = {}
        self.errors: list[str] = []
        self.skipped: list[str] = []  # text of a pasted file that is not an output advisor reads
        self.origins: dict = {}  # a pasted output's display name -> the lines it came from
        self.not_collected: str | None = None  # a bundle that records why its host could not be collected
        self.collected_at: datetime | None = None  # when its manifest says the bundle was collected (or the attempt failed)

    def add(self, output: RawOutput) -> None:
        output.file = readable(output.file)
        if output.command_id in self.outputs and (second := _second_sample(output.command_id)) is not None \
                and second not in self.outputs:  # two dumps of counters in one bundle: the second is a sample
            output.command_id = second
        if output.command_id in self.outputs:
            self.errors.append(
                f"{output.file}: a second {output.command_id} output "
                f"(already read {self.outputs[output.command_id].file}); ignored")
            return
        self.outputs[output.command_id] = output
