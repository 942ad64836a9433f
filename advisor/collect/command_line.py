"""Which output a command line prints: `ldm ls -l ldg1`, `kstat -p | grep lso`,
`ethtool -k eth1`, `sudo /usr/sbin/ldm list -l -p` ...

The arguments carry meaning (the interface of `ethtool -k eth1`, the property
of `ndd -get`), and a pipe through grep, egrep, head or tail makes the output
partial: what it shows is read, and the filter is kept so that rules needing
what was filtered out say so.
"""

from __future__ import annotations

import shlex
from functools import lru_cache
from typing import NamedTuple

FILTERS = {"grep", "egrep", "fgrep", "head", "tail", "more", "less", "sort", "cat"}
_PRIVILEGE = {"sudo", "pfexec", "doas"}


class Command(NamedTuple):  # a NamedTuple, not a frozen dataclass: ~3 M instructions less at import
    command_id: str
    line: str  # as typed, without the prompt
    filtered: str | None = None  # the filter stages (`grep dring_mode`), when the output is partial
    grep: str | None = None  # the pattern of a plain grep filter
    argument: str | None = None  # ndd's properties (space-separated), ldm's domain


def _stages(line: str) -> list[list[str]]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|;&<>")
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:  # an unbalanced quote: take the words as they are
        tokens = line.replace("|", " | ").split()
    stages: list[list[str]] = [[]]
    for tok in tokens:
        if tok in ("|", "||"):
            stages.append([])
        elif tok in (";", "&&", "&", ">", ">>", "<", "2>", "2>&1"):
            break
        else:
            stages[-1].append(tok)
    return [s for s in stages if s]


def _words(argv: list[str]) -> list[str]:
    while argv and (argv[0] in _PRIVILEGE or argv[0].startswith("-") and argv[0] in ("-n", "-E")):
        argv = argv[1:]
    if argv[:3] == ["ip", "netns", "exec"] and len(argv) > 4:  # the command run in a network namespace
        argv = argv[4:]
    if argv:
        argv = [argv[0].rsplit("/", 1)[-1], *argv[1:]]
    return argv


def flags(args: list[str]) -> set[str]:
    """-lp and -l -p alike: the set of single-letter flags, and long options whole."""
    out: set[str] = set()
    for a in args:
        if a.startswith("--"):
            out.add(a)
        elif a.startswith("-") and len(a) > 1:
            out.update(f"-{c}" for c in a[1:])
    return out


def plain(args: list[str]) -> list[str]:
    return [a for a in args if not a.startswith("-")]


def option_values(args: list[str]) -> set[str]:
    """Values given to options that take one (-p PROP, -o FIELDS)."""
    values: set[str] = set()
    for i, a in enumerate(args[:-1]):
        if a in ("-p", "-o", "-P", "-c", "-A", "-I", "-S") or (a.startswith("-") and a[-1] in "po" and len(a) > 2):
            values.add(args[i + 1])
    return values


def option(args: list[str], option: str) -> str | None:
    """The value given to this option (`-c lan0`), or None."""
    for i, a in enumerate(args[:-1]):
        if a == option:
            return args[i + 1]
    return None


class Reading(NamedTuple):
    """What a pack's `lines` function says of a command line of its tool."""

    id: str  # the command id of the output it prints
    narrowed: bool = False  # it prints part of that output (one domain of several, some properties)
    argument: str | None = None  # ndd's properties (space-separated), ldm's domain


def _read_by_packs(cmd: str, args: list[str]) -> Reading | None:
    """The output a platform pack says a command line of its tool prints (Pack.lines)."""
    from advisor import platform_registry as platforms

    for reader in platforms.line_readers(cmd):
        found = reader(args)
        if found is not None:
            return found if isinstance(found, Reading) else Reading(str(found))
    return None


@lru_cache(maxsize=4096)  # a pasted session repeats its commands; each line is asked about more than once
def identify_command(line: str) -> Command | None:
    stages = _stages(line)
    if not stages:
        return None
    argv = _words(stages[0])
    if not argv:
        return None
    reading = _read_by_packs(argv[0], argv[1:])
    if reading is None:
        return None
    cid, narrowed, argument = reading.id, reading.narrowed, reading.argument
    filters = stages[1:]
    grep = None
    if filters:
        names = [_words(s)[0] if _words(s) else "" for s in filters]
        if any(n not in FILTERS for n in names):
            return None  # piped into something else: its output is not this command's
        if len(filters) == 1 and names[0] in ("grep", "egrep", "fgrep"):
            words = [w for w in filters[0][1:] if not w.startswith("-")]
            grep = words[0] if words else None
        narrowed = True
    shown = " | ".join(" ".join(s) for s in filters) or None
    if narrowed and shown is None:
        shown = " ".join(argv)
    return Command(cid, line.strip(), shown if narrowed else None, grep, argument)
