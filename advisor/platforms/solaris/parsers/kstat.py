"""`kstat -p`: `module:instance:name:statistic<TAB>value` per line.

Dumps run to hundreds of thousands of lines, so they are streamed and only the
statistics a caller asks for are kept. Lines copied through a terminal may have
spaces instead of the tab. A line without a key continues the string value of
the line above it (kstat prints multi-line strings as they are).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple, TextIO

from advisor.errors import ParseError

# For lines whose tab became spaces; tab-separated lines take a faster path.
_SPACED = re.compile(r"^([A-Za-z_][\w.,-]*):(\d+):([^:\t]*):(\S.*?)(?:\s{2,}|\s(?=\S+$))(.*)$")


class KstatKey(NamedTuple):
    module: str
    instance: int
    name: str
    statistic: str


# A kept (module, instance, name, statistic) as a KstatKey, made in C: NamedTuple's
# own __new__ (Python) and a frozen dataclass's __init__ cost several times more a key.
_as_key = partial(tuple.__new__, KstatKey)


@dataclass
class KstatValue:
    value: str
    line: int


class Scan(dict[KstatKey, KstatValue]):
    """What a dump holds: each kept statistic's last value (what the rules read).
    A dump of several samples (`kstat -p ... 30 2`, or two runs one after the
    other) also keeps its first and its last sample apart, in `samples`: a
    statistic read again before the sample it is in has ended starts the next."""

    samples: list[dict[KstatKey, KstatValue]]
    rounds: int
    blank_inside: bool
    path: Path | None

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.samples = []  # [first, last] when the dump holds two samples or more
        self.rounds = 1
        self.blank_inside = False  # an empty line between kstat lines: interval mode's next sample, of any module
        self.path = None  # the file, when what it keeps is a part of what could be read again


# wanted(module, instance, name, statistic) decides what is kept.
Wanted = Callable[[str, str, str, str], bool]


def _spaced(text: str) -> tuple[str, ...] | None:
    m = _SPACED.match(text)
    return m.groups() if m else None


_TIMESTAMP = re.compile(r"^\s*(?:\d{9,11}|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} [ \d]\d \d\d:\d\d:\d\d (?:\w+ )?\d{4})\s*$")


# kstats (module:instance:name) of one module whose statistics a filter keeps:
# a domain has at most 4,080 LDC channels (SPARC T5 and later), each one vnet
# or vsw kstat (the two counted together), at most 4,096 CPUs (cpu:N:sys), a
# few links, and tcp has two. Each is a subject the rules judge and a finding
# it may fail, so a dump of more is refused as it is read, not judged for minutes.
MAX_KSTATS = 4_096


class _Reader:
    """The line-by-line reading both entry points share: what is kept, how many
    kstat lines were seen, and whether the last line was whole. What a filter
    keeps is bounded (`limit` kstats, MAX_KSTATS): a dump of more is not one host's."""

    def __init__(self, wanted: Wanted, modules: frozenset[str] | None, limit: int = MAX_KSTATS):
        self.wanted, self.modules = wanted, modules
        self.limit = None if wanted is everything else limit
        self.kstats: set[tuple[str, int, str]] = set()
        # (module, instance, name, statistic) -> (value, line): tuples hash and
        # compare in C, a dump may repeat a statistic millions of times (rounds);
        # the third item is the round (sample) the value was read in
        self.kept: dict[tuple[str, int, str, str], tuple[str, int, int]] = {}
        self.per_module: dict[str, int] = {}
        self.round = 0  # a kept key read again in the same round starts the next one
        self.first: dict[tuple[str, int, str, str], tuple[str, int, int]] | None = None  # the first round's, once a second began
        self.matched = 0
        self.last_ok = True
        self.text = ""

    def feed(self, raw: str, number: int) -> None:
        key, tab, value = raw.partition("\t")
        if tab:
            parts = key.split(":", 3)
            if len(parts) == 4 and parts[1].isascii() and parts[1].isdigit() and parts[3]:
                self.matched += 1
                self.last_ok = True
                self._keep(parts[0], parts[1], parts[2], parts[3], value, number)
                return
        self.text = raw.rstrip("\r\n")
        if not self.text.strip() or _TIMESTAMP.match(self.text):  # `kstat -T u` / `-T d` print the time before each round
            return
        fields = _spaced(self.text)
        self.last_ok = fields is not None
        if fields is None:
            if self.matched == 0:
                raise ParseError("not a 'module:instance:name:statistic<TAB>value' line", line=number)
            return  # continuation of a multi-line string value
        self.matched += 1
        module, instance, name, statistic, value = fields
        self._keep(module, instance, name, statistic, value, number)

    def _keep(self, module: str, instance: str, name: str, statistic: str, value: str, number: int) -> None:
        if (self.modules is None or module in self.modules) and self.wanted(module, instance, name, statistic):
            if len(instance) > 18:  # an instance is a small number; int() refuses 4,301 digits
                raise ParseError(f"instance {instance[:20]}... of {len(instance):,} digits; not a kstat instance",
                                 line=number)
            key = (module, int(instance), name, statistic)
            old = self.kept.get(key)
            if old is None:
                if self.limit is not None:
                    self._count(key, number)
            elif old[2] == self.round:  # seen in this round already: a second run, or interval mode's next sample
                if self.first is None:
                    self.first = dict(self.kept)
                self.round += 1
            self.kept[key] = (value, number, self.round)

    def _count(self, key: tuple[str, int, str, str], number: int) -> None:
        """Kstats are counted per module: a domain's CPUs and its channels each stay under the limit."""
        kstat = key[:3]
        if kstat not in self.kstats:
            group = "vnet" if key[0] == "vsw" else key[0]  # a domain's channels, of either module
            held = self.per_module.get(group, 0)
            if self.limit is not None and held >= self.limit:
                what = ("vnet and vsw channels: a domain has at most 4,080" if group == "vnet"
                        else f"{group} kstats; a domain has at most 4,096 CPUs")
                raise ParseError(f"more than {self.limit:,} of the kstats advisor reads ({what}); "
                                 f"not the dump of one host", line=number)
            self.per_module[group] = held + 1
            self.kstats.add(kstat)

    def result(self, number: int) -> Scan:
        if self.matched == 0:
            raise ParseError("no kstat lines found" if number else "empty output")
        if not self.last_ok and ":" in self.text and "\t" not in self.text:
            raise ParseError("last line has no value (truncated file?)", line=number)
        scan = Scan({_as_key(key): KstatValue(value.strip(), line) for key, (value, line, _r) in self.kept.items()})
        if self.first is not None:
            last = self.round
            scan.samples = [{_as_key(key): KstatValue(value.strip(), line) for key, (value, line, _r) in held}
                            for held in (self.first.items(),
                                         ((k, v) for k, v in self.kept.items() if v[2] == last))]
            scan.rounds = last + 1
        return scan


def parse_stream(lines: Iterable[str], wanted: Wanted, modules: frozenset[str] | None = None,
                 limit: int = MAX_KSTATS) -> Scan:
    """`modules`, when given, lists every module `wanted` can accept: lines of
    other modules are checked for form but not offered to `wanted`."""
    reader = _Reader(wanted, modules, limit)
    number = 0
    for number, raw in enumerate(lines, start=1):
        reader.feed(raw, number)
    return reader.result(number)


CHUNK = 1 << 20
MAX_LINE = 1 << 20  # a kstat -p line is a name and a value: a few hundred bytes at most


def scan_file(path: Path, wanted: Wanted, modules: frozenset[str], statistics: frozenset[str] | None = None,
              limit: int = MAX_KSTATS) -> Scan:
    """parse_stream's result for a file, without reading every line as Python:
    the rules want a few hundred of a dump's hundred thousand lines. Once the
    file has shown a kstat line, each 1 MiB block is searched for lines that
    start with one of `modules` (the only lines `wanted` can accept) and, when
    `statistics` lists every statistic `wanted` can accept, name one of them
    (a dump of ten million lines of those modules is otherwise read line by
    line, a minute); line numbers are counted with the newlines between them,
    and the file's last lines are read as parse_stream reads them, to judge
    whether it is whole. Memory stays at one block whatever the dump's size. A
    file with lone carriage returns (which text mode reads as line ends) takes
    parse_stream."""
    reader = _Reader(wanted, modules, limit)
    first, starts = _patterns(modules, statistics)
    number = 0  # lines before the block being read
    tail: list[bytes] = []  # the file's last substantive line and the lines after it
    blank_inside = False
    blank_before = False  # the blocks read so far end in a blank line: inside if a line follows
    after_block = False  # a block has been read: the next begins after its last line end
    with path.open("rb") as fh:
        carry = b""
        while True:
            data = fh.read(CHUNK)
            block = carry + data
            cut = len(block) if not data else block.rfind(b"\n") + 1
            block, carry = block[:cut], block[cut:]
            if b"\r" in block and block.count(b"\r") != block.count(b"\r\n"):
                return _slow(path, wanted, modules, statistics, limit)
            offset = 0
            while reader.matched == 0 and offset < len(block):  # the head: every line, until one is kstat
                end = block.find(b"\n", offset) + 1 or len(block)
                number += 1
                reader.feed(_line(block[offset:end]), number)
                offset = end
            at = offset
            if offset == 0 and first.match(block):  # a block's first line has no newline before it
                reader.feed(_line(block[:block.find(b"\n") + 1 or len(block)]), number + 1)
            for match in starts.finditer(block, _first_lead(block, _leads(modules), max(offset - 1, 0))):
                start = match.start() + 1
                number += block.count(b"\n", at, start)
                at = start
                reader.feed(_line(match.group()[1:]), number + 1)
            number += block.count(b"\n", at)
            if offset < len(block) and not block.endswith(b"\n"):
                number += 1  # the file's last line, without its newline
            tail = _tail(tail, block, offset)
            if not blank_inside:
                # a block begins after a line end: one it begins with closes a blank line
                blank_before = blank_before or (after_block and block.startswith(b"\n"))
                blank_inside, blank_before = _blank_inside(block, blank_before)
            after_block = True
            if not data:
                break
            if len(carry) > MAX_LINE:  # kept whole it would be copied again with every block read
                if carry.count(b"\r") != carry.count(b"\r\n"):  # lone carriage returns end lines in text mode
                    return _slow(path, wanted, modules, statistics, limit)
                raise ParseError(f"a line of more than {MAX_LINE >> 20} MiB; not a kstat -p line", line=number + 1)
    if reader.matched:
        _judge_tail(reader, tail, number)
    scan = reader.result(number)
    scan.blank_inside = blank_inside
    return scan


@cache
def _patterns(modules: frozenset[str], statistics: frozenset[str] | None) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """A line that `wanted` can accept, at a block's start and led by a newline:
    made once for each filter, as the pattern's text costs more to make than to find."""
    names = b"|".join(re.escape(m.encode()) for m in sorted(modules))
    key = rb"(?:" + names + rb"):"
    if statistics:  # `instance:name:statistic`, the statistic one of them and not the start of a longer word
        stats = b"|".join(re.escape(m.encode()) for m in sorted(statistics))
        key += rb"[^:\n]*:[^:\n]*:(?:" + stats + rb")(?![\w:])"
    return re.compile(key), re.compile(rb"\n" + key + rb"[^\n]*")  # led by a literal newline: found fast


@cache
def _leads(modules: frozenset[str]) -> tuple[bytes, ...]:
    """What every line `starts` finds begins with: a newline and one of the modules."""
    return tuple(b"\n" + m.encode() + b":" for m in sorted(modules))


def _first_lead(block: bytes, leads: tuple[bytes, ...], start: int) -> int:
    """Where the first line `starts` can find begins (its newline), or the block's end.
    sre tries the pattern at every newline (~350 instructions a line); bytes.find
    skips a dump's lines of other modules (most are cpu's) for a few a byte. Each
    search stops where the nearest found so far begins, so none reads further."""
    first = len(block)
    for lead in leads:
        at = block.find(lead, start, first + len(lead) - 1)  # a lead that begins before `first`
        if at >= 0:
            first = at
    return first


def _blank_inside(block: bytes, blank_before: bool) -> tuple[bool, bool]:
    """Whether the dump has a blank line with a line after it, once this block is read
    (a blank line before it counts when it holds a line), and whether it ends in a blank line."""
    lines_end = _unended(block)
    if lines_end == 0:  # only line ends: blank lines, or nothing
        return False, blank_before or block.startswith(b"\n\n")
    return blank_before or block.find(b"\n\n", 0, lines_end) >= 0, block.endswith(b"\n\n")


def _unended(block: bytes) -> int:
    """len(block.rstrip(b"\n")), without copying the block where it ends in one newline or none."""
    return len(block) - block.endswith(b"\n") if not block.endswith(b"\n\n") else len(block.rstrip(b"\n"))


def _line(raw: bytes) -> str:
    """A line as text mode gives it: decoded, its CRLF read as LF."""
    text = raw.decode("utf-8", errors="replace")
    return text[:-2] + "\n" if text.endswith("\r\n") else text[:-1] + "\n" if text.endswith("\r") else text


def _substantive(raw: bytes) -> bool:
    text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
    return bool(text.strip()) and not _TIMESTAMP.match(text)


def _tail(previous: list[bytes], block: bytes, offset: int = 0) -> list[bytes]:
    """The lines from the last substantive one (neither blank nor a timestamp) to the end, of block[offset:]."""
    lines: list[bytes] = []
    end = len(block)
    while end > offset:
        start = max(block.rfind(b"\n", offset, end - 1) + 1, offset)
        lines.append(block[start:end])
        if _substantive(lines[-1]):
            return lines[::-1]
        end = start
    return previous + lines[::-1]


def _judge_tail(reader: _Reader, tail: list[bytes], number: int) -> None:
    """Reads the file's last lines as parse_stream reads them last, so that
    `last_ok` and `text` are what reading every line would have left."""
    first = number - len(tail) + 1
    if tail and _substantive(tail[0]):
        probe = _Reader(lambda *_: False, frozenset())
        probe.matched = reader.matched
        for i, raw in enumerate(tail):
            probe.feed(_line(raw), first + i)
        reader.last_ok, reader.text = probe.last_ok, probe.text
        return
    for i, raw in enumerate(tail):  # blank lines and timestamps after the head: they only set `text`
        reader.feed(_line(raw), first + i)


def _slow(path: Path, wanted: Wanted, modules: frozenset[str], statistics: frozenset[str] | None = None,
          limit: int = MAX_KSTATS) -> Scan:
    """scan_file's result, every line read as Python (`statistics` need not be given: `wanted` decides)."""
    with path.open(encoding="utf-8", errors="replace") as fh:
        return parse_stream(_bounded(fh), wanted, modules, limit)


def _bounded(fh: TextIO) -> Iterator[str]:
    """The lines of a text file, each read at most MAX_LINE characters at a
    time: a line of 256 MiB read whole took 800 MiB."""
    number = 0
    while line := fh.readline(MAX_LINE + 1):
        number += 1
        if len(line) > MAX_LINE:
            raise ParseError(f"a line of more than {MAX_LINE >> 20} MiB; not a kstat -p line", line=number)
        yield line


def everything(module: str, instance: str, name: str, statistic: str) -> bool:
    return True


def parse(text: str, wanted: Wanted = everything) -> Scan:
    return parse_stream(text.splitlines(), wanted)
