"""A pasted terminal session split into one output per command.

A line that starts with a shell prompt and a command starts a segment; the
lines up to the next prompt are that command's output. Prompts seen in the
wild: `root@host:~# `, `host# `, `# `, `$ `, `bash-3.2# `, `-bash-4.1$ `,
`[root@host dir]# `, `host:/root # `, `{0} root@host:/ # ` (HP-UX). A bare `# `
or `$ ` is taken as a prompt only before a command advisor knows, so that a
comment line in an output is not mistaken for one. The prompt names the host
when it shows one; a new host starts when it changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from advisor.collect.cleanup import Line, clean
from advisor.collect.command_line import Command, identify_command
from advisor.collect.commands import command_line
from advisor.collect.identify import identify_text

_HOST = r"[A-Za-z0-9][\w.-]*"
_PROMPTS = [
    re.compile(rf"^\{{\d+\}}\s+\w+@(?P<host>{_HOST}):\S*\s*[#$]\s?"),  # HP-UX {0} root@host:/ #
    re.compile(rf"^\[\w+@(?P<host>{_HOST})(?:\s[^\]]*)?\][#$]\s?"),  # [root@host dir]#
    re.compile(rf"^\[\w+@(?P<host>{_HOST})\]\s?[^\s#$]{{0,40}}\s?[#$]\s"),  # [root@host] ~ #
    re.compile(rf"^\w[\w.-]*@(?P<host>{_HOST}):[^\s#$]*\s?[#$]\s?"),  # root@host:~#
    re.compile(rf"^\w[\w.-]*@(?P<host>{_HOST})\s?[#$%>]\s?"),  # root@host#
    re.compile(rf"^(?P<host>{_HOST}):[/~][^\s#$]*\s[#$]\s?"),  # host:/root #
    re.compile(r"^-?(?:ba|k|z)?sh-\d+(?:\.\d+)*[#$]\s?"),  # bash-3.2#
    re.compile(rf"^(?P<host>{_HOST})\s?[#$%]\s"),  # primary# , example$
]
_BARE = re.compile(r"^[#$%>]\s?")
_ANY_PROMPT_END = re.compile(r"[#$%>]\s+")  # the end of any other prompt: `└─[0] <> `, `host/opt> `
_EMPTY_PROMPT = re.compile(rf"^(?:\w[\w.-]*@{_HOST}(?::\S*)?|\[\w+@{_HOST}[^\]]*\]|{_HOST}|-?bash-[\d.]+)\s?[#$%]\s*$")
_NOT_HOSTS = {"root", "bash", "sh", "ksh", "zsh", "localhost", "tcsh", "csh"}
_SCRIPT_NOTE = re.compile(r"^Script (?:started|done) on ")
_LABEL = re.compile(r"^\s*output (?:from|of) [`'\"]?(?P<command>[^`'\"]+?)[`'\"]?\s*:\s*$", re.I)  # Output from /etc/lanscan -v:


@dataclass
class Segment:
    command: Command
    host: str | None  # from the prompt
    prompt_line: int
    lines: list[Line] = field(default_factory=list)

    @property
    def span(self) -> str:
        last = self.lines[-1].number if self.lines else self.prompt_line
        return f"{self.prompt_line}-{last}" if last != self.prompt_line else str(self.prompt_line)


@dataclass
class Transcript:
    segments: list[Segment]
    skipped: list[str]  # "lines 1-3: not command output" and commands advisor does not read


def _prompt(text: str) -> tuple[str | None, str] | None:
    """(host or None, command) when the line is a prompt and a command."""
    for pattern in _PROMPTS:
        if m := pattern.match(text):
            command = text[m.end():].strip()
            host = m.groupdict().get("host")
            if not command:
                return None
            if pattern is _PROMPTS[-1] and not _of_a_tool(command):
                return None  # `word# text` only as a prompt before a command of the tools advisor reads
            return (host if host and host.lower() not in _NOT_HOSTS else None), command
    if m := _BARE.match(text):
        command = text[m.end():].strip()
        if command and _of_a_tool(command):
            return None, command
    for m in _ANY_PROMPT_END.finditer(text):  # any other prompt, before a command advisor reads
        command = text[m.end():].strip()
        if m.start() < 80 and command and identify_command(command) is not None:
            host = re.search(rf"(?:@|^|\[)({_HOST})(?=[:/\]\s])", text[:m.start()])
            name = host.group(1) if host else None
            return (name if name and name.lower() not in _NOT_HOSTS else None), command
    return None


_PRIVILEGE = {"sudo", "pfexec"}
_VIEWERS = {"cat", "more", "less"}  # show a file advisor reads; any other file they show is not a command of its tools


def _tool(line: str) -> str:
    """The program a command line starts with, without its folder (`/usr/sbin/ldm` -> `ldm`)."""
    return line.split()[0].rsplit("/", 1)[-1]


def _of_a_tool(command: str) -> bool:
    """A command advisor reads, or another use of one of its tools (listed as skipped, never read as output)."""
    return identify_command(command) is not None or _tool(command) in _pack_tools()


@cache
def _pack_tools() -> frozenset[str]:
    """The tools the platform packs name typed command lines of (Pack.lines), and sudo and pfexec."""
    from advisor import platform_registry as platforms

    return frozenset({tool for p in platforms.packs() for tool, _ref in p.lines} - _VIEWERS | _PRIVILEGE)


@cache
def _other_lines() -> tuple[re.Pattern[str], ...]:
    """Command lines of the packs' tools whose output advisor does not read (Pack.other_lines)."""
    from advisor import platform_registry as platforms

    return tuple(pat.compiled for p in platforms.packs() for pat in p.other_lines)


def _bare_command(text: str, previous: str) -> str | None:
    """A command line pasted without its prompt: at the start, after a blank
    line, or after another command line of the same tools."""
    after = not previous.strip() or _tool(previous) in _pack_tools()
    line = text.strip()
    if after and text[:1].isalpha() and (identify_command(line) is not None
                                         or any(pat.match(line) for pat in _other_lines())):
        return line
    return None


def _labelled_command(text: str) -> str | None:
    """A command named by a line of its own before its output, as report scripts
    and mails do (`Output from /etc/lanscan -v:`): only a command advisor reads."""
    m = _LABEL.match(text)
    if m and identify_command(m.group("command")) is not None:
        return m.group("command")
    return None


MAX_COMMANDS = 100_000  # command lines in one pasted file; a session holds tens, a fleet's paste thousands


class TooManyCommands(ValueError):
    """A pasted file with more command lines than MAX_COMMANDS; `line` is the first past it."""

    def __init__(self, line: int):
        super().__init__(f"more than {MAX_COMMANDS:,} command lines in one pasted file; split it")
        self.line = line


def split(text: str) -> Transcript | None:
    """The segments of a transcript, or None when no line is a prompt before a
    command advisor knows (then the file is one output, judged by content).
    More than MAX_COMMANDS command lines: TooManyCommands."""
    lines = clean(text)
    segments: list[Segment] = []
    skipped: list[str] = []
    current: Segment | None = None
    loose: list[int] = []
    before = ""
    for ln in lines:
        previous, before = before, ln.text
        if _SCRIPT_NOTE.match(ln.text):
            skipped.append(f"line {ln.number}: {ln.text[:60]}")
            continue
        if _EMPTY_PROMPT.match(ln.text):  # a prompt with nothing typed ends the output before it
            current = None
            continue
        found = _prompt(ln.text)
        if found is None and (bare := _bare_command(ln.text, previous) or _labelled_command(ln.text)) is not None:
            found = (None, bare)
        if found is not None:
            host, command_text = found
            command = identify_command(command_text)
            if command is None and "|" in command_text:
                skipped.append(f"line {ln.number}: `{command_text[:60]}` (not a command advisor reads)")
                current = None
                continue
            current = Segment(command or Command("", command_text), host, ln.number)  # "": judged by content
            segments.append(current)
            if len(segments) > MAX_COMMANDS:
                raise TooManyCommands(ln.number)
        elif current is not None:
            current.lines.append(ln)
        elif ln.text.strip():
            loose.append(ln.number)
    for seg in segments:
        _trim(seg)
    segments = [seg for seg in segments if _by_content(seg, skipped)]
    if not segments:
        commands = [s for s in skipped if "not a command advisor reads" in s]
        return Transcript([], commands) if commands else None
    if loose:
        skipped.insert(0, f"{_ranges(loose)}: not command output (text around the commands)")
    return Transcript(segments, skipped)


def _by_content(seg: Segment, skipped: list[str]) -> bool:
    """Another form of a tool advisor reads (plain `virtinfo`): its output is judged by content,
    and set aside as skipped when it is none advisor reads."""
    if seg.command.command_id:
        return True
    cid = identify_text("\n".join(ln.text for ln in seg.lines[:2000]) + "\n")
    if cid is None:
        skipped.append(f"line {seg.prompt_line}: `{seg.command.line[:60]}` (not a command advisor reads)")
        return False
    seg.command = Command(cid, seg.command.line)
    return True


def one_output(text: str) -> Transcript | None:
    """A single output that mail or a web page changed (quoting, CRLF, an
    indent, elisions): cleaned and identified by content; None when nothing
    needed undoing (it is read as it is) or it cannot be identified."""
    lines = clean(text)
    if [ln.text for ln in lines] == text.split("\n")[: len(lines)] and len(lines) == len(text.rstrip("\n").split("\n")):
        return None
    cid = identify_text("\n".join(ln.text for ln in lines[:2000]) + "\n")
    if cid is None:
        return None
    seg = Segment(Command(cid, command_line(cid)), None, lines[0].number if lines else 1, lines)
    _trim(seg)
    return Transcript([seg], [])


def _trim(seg: Segment) -> None:
    """Blank lines at either end are not output; nor is prose after the last blank line."""
    while seg.lines and not seg.lines[-1].text.strip():
        seg.lines.pop()
    while seg.lines and not seg.lines[0].text.strip():
        seg.lines.pop(0)
    blanks = [i for i, ln in enumerate(seg.lines) if not ln.text.strip()]
    if blanks:
        tail = seg.lines[blanks[-1] + 1:]
        if tail and all(_prose(ln.text) for ln in tail):
            del seg.lines[blanks[-1]:]


def _prose(text: str) -> bool:
    """A line of a mail (greeting, signature, sentence), not a row of output."""
    words = [w.strip(".,;:!?()'\"") for w in text.split()]
    return bool(words) and sum(w.isalpha() for w in words) >= len(words) * 0.7 and "=" not in text \
        and "\t" not in text and not re.search(r"\s{3,}", text.strip())


def _ranges(numbers: list[int]) -> str:
    parts: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:] + [None]:  # type: ignore[list-item]
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(f"{start}" if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return "lines " + ", ".join(parts) if len(numbers) > 1 else f"line {numbers[0]}"
