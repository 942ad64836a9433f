"""What a platform pack declares, once: the outputs it reads, the commands that
print them, how a loose or pasted output is recognised, which output gives
each fact, and where its parsers, facts builder, change operations and rules
are. Declarations name their code by module path, so reading them imports no
parser: a review of a Solaris bundle never loads the HP-UX parsers."""

# No `from __future__ import annotations`: a NamedTuple turns each text annotation into
# a ForwardRef, one compile() per field (59 here), where a type is taken as it is.
import re
from typing import Any, Callable, Literal, NamedTuple

# Per-interface outputs come from one fixed loop over the host's own interfaces;
# each section starts with this marker and the interface name, and becomes the
# file <id>@<interface>.txt. Names are checked against ITEM before use as file names.
MARKER = "@@advisor "
EXIT_MARKER = "@@advisor-exit "
ITEM = r"[A-Za-z0-9_.:-]{1,64}"
# An output read twice (`--sample 30s`: counters, for rates) keeps its first
# reading as `<id>.txt`, what every rule reads, and its second as
# `<id>~2.txt`, command id `<id>~2`: `~` is in no command id or ITEM, so the
# name says which output it is the second sample of; and it sorts after `.`,
# so an older advisor reading a bundle without its manifest (by content, in
# name order) still takes `<id>.txt` as the output and sets the second aside.
SECOND = "~2"


class Pattern:
    """A regular expression compiled when first tried: a file is known by one
    of the first few, and compiling all forty cost a review a few percent of its start."""

    __slots__ = ("_args", "_compiled", "last")

    def __init__(self, *args: object, last: bool = False) -> None:
        self._args = args
        self._compiled: re.Pattern[str] | None = None
        self.last = last  # tried after every other output's patterns: it knows a file nothing else knew

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(*self._args)  # type: ignore[call-overload]
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)


# The declarations are NamedTuples, immutable and compared by value as frozen dataclasses
# are: a dataclass compiles its generated methods at import, some 4 M instructions a class
# (25 M of a review's start for these six), a NamedTuple a tenth of that.
class Output(NamedTuple):
    """A command output advisor knows. Its bundle file is `<id>.txt` unless
    `file` says otherwise; an output `per_item` is kept once per interface (or
    driver) as `<id>@<item>.txt`, and its `recognised_by` patterns capture the item."""

    id: str
    line: str  # the command line it is the output of, as docs and reports name it
    parser: str | None = None  # "module:function" in the pack's parsers; None: known, read by no rule yet
    given: Literal["text", "output"] = "text"  # the parser reads the text alone, or the output with its command line
    family: str | None = None  # how a rule's missing input names the command, where not `line`
    recognised_by: tuple[Pattern, ...] = ()  # a loose or pasted output is this one when a pattern matches
    per_item: bool = False
    file: str | None = None
    proves_family: bool = False  # its presence says which family the host is, whatever else it holds
    plan: bool = False  # a planned configuration, not a running host's output
    joinable: bool = False  # pasted parts of it (lines, or domains) may be joined into one output
    part_ends_blank: bool = False  # a pasted part of it is kept with a blank line after it (ldm list -l: sections)
    form_of: str | None = None  # another form of this output: a file named for one may hold the other
    explorer: tuple[str, ...] = ()  # its paths in an Oracle Explorer archive
    sosreport: tuple[str, ...] = ()  # its paths in a sosreport
    sampled: bool = False  # cumulative counters: `--sample` reads it a second time, kept as `<id>~2.txt` (SECOND)


class Command(NamedTuple):
    """What the live audit, the collector script and the Ansible collection send."""

    id: str  # command id: the bundle file is <id>.txt (DESIGN.md)
    line: str  # exactly what is sent
    fallback: str | None = None  # sent instead when `line` fails (older releases, xm for xl)
    fallback_id: str | None = None  # the fallback's own command id, when its output differs
    sampled: bool = False  # run again after `--sample` DURATION: its second output is `<id>~2` (SECOND)
    item: str | None = None  # what a per-item command (Command.each) runs for one item ($i): `ethtool -k "$i"`
    fallback_item: str | None = None  # the same, of its fallback

    @classmethod
    def each(cls, id: str, loop: "Loop", fallback: "Loop | None" = None, fallback_id: str | None = None,
             sampled: bool = False) -> "Command":
        """A per-item command: its loop as the line sent, and what it runs for one item kept as declared."""
        return cls(id, loop.line, fallback.line if fallback else None, fallback_id, sampled=sampled,
                   item=loop.command, fallback_item=fallback.command if fallback else None)

    @property
    def per_item(self) -> bool:
        """Its output is MARKER-separated sections, one file per interface or domain."""
        return self.item is not None

    @property
    def file(self) -> str:
        return f"{self.id}.txt"

    @property
    def tool(self) -> str:
        return self.line.split()[0]


class Subject(NamedTuple):
    """What a rule may judge one by one (`subject: domain`): the host fact that lists them,
    how `rules show` calls one (`<domain>`), and how a finding names one (`domain ldg1`)."""

    name: str
    field: str
    noun: str
    label: Callable[[Any], str]


class Family(NamedTuple):
    """An operating system family: what `uname -s` prints there, and how it reboots."""

    name: str  # the host's `platform`: solaris, linux, hpux
    uname: str
    reboot: str
    privileged: frozenset[str] = frozenset()  # read-only tools that need privileges (sudo -n or pfexec)
    path: tuple[str, ...] = ()  # folders its tools may be in besides the usual ones, for the collector script


class Pack(NamedTuple):
    name: str
    title: str
    family: Family | None = None  # the family this pack defines
    extends: str | None = None  # or the pack it builds on (ldoms on solaris, xen on linux)
    outputs: tuple[Output, ...] = ()
    collect: tuple[Command, ...] = ()  # run on hosts of its family, in this order
    reads: tuple[tuple[str, str], ...] = ()  # fact path prefix -> the output that gives it; the first match wins
    plan_keys: tuple[tuple[str, str], ...] = ()  # fact path prefix -> the plan key that gives it
    lines: tuple[tuple[str, str], ...] = ()  # tool -> "module:function" naming the output a typed command line prints
    # command lines of its tools whose output advisor does not read, known pasted without a prompt: each ends the output before it
    other_lines: tuple[Pattern, ...] = ()
    facts: str | None = None  # "module:function" adding the pack's facts to a host of its family
    record: str | None = None  # "module:Class", a Fact whose fields a host's facts gain (host.<field> in rules)
    subjects: tuple[Subject, ...] = ()  # what its rules may judge one by one
    plans: str | None = None  # "module:function" building a host's facts from a planned configuration
    changes: str | None = None  # module declaring its change operations
    changed: tuple[str, ...] = ()  # the host facts its change operations write: copied for each simulation
    # a report's `detected` field, the host fact that gives it, and how the terminal shows it ({} is the value)
    detected: tuple[tuple[str, str, str], ...] = ()
    domain_name: str | None = None  # the host fact naming the domain the captured host is, as its manager names it
    kind: str | None = None  # a host of its family is reported as this kind, not as its family, when a role of it begins so
    counters: str | None = None  # "module:function", the counters `advisor diff` compares, by (subject, counter)
    restarts: str | None = None  # "module:object", its restart strategy: how a change plan stops, restarts and saves
    script: str | None = None  # "module:object", what its remediation scripts guard against (half-done restarts)
    rules: bool = True  # rules.yaml beside the declaration

    @property
    def common(self) -> bool:
        """Of no family and built on none: what every host says of itself (unix)."""
        return self.family is None and self.extends is None


class Loop(NamedTuple):
    """A per-item command: `command`, which names the item as $i, run for each
    item `items` lists, in MARKER-separated sections with their exit status.
    `by_line`: one item a line of what `items` prints, for names that may hold
    blanks (a libvirt domain). `guard` runs first in the same shell: its
    `exit 1` ends the loop before it starts (nwmgr on HP-UX 11i v3 only)."""

    items: str
    command: str
    by_line: bool = False
    guard: str = ""

    @property
    def line(self) -> str:
        """What is sent. Bourne shell: `read` without -r (Solaris 10 /bin/sh has
        none), and in a line-by-line loop the command reads no standard input,
        which holds the rest of the list."""
        if not self.by_line:
            return (f"{self.guard}for i in `{self.items}`; do echo \"{MARKER}$i\"; {self.command} 2>&1; "
                    f"echo \"{EXIT_MARKER}$?\"; done")
        return (f"{self.guard}{self.items} | while read i; do [ -n \"$i\" ] || continue; echo \"{MARKER}$i\"; "
                f"{self.command} < /dev/null 2>&1; echo \"{EXIT_MARKER}$?\"; done")
