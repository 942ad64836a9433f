"""Every command live collection can ever send, per platform.

Command lines are constants: nothing from the user or from captured output is
ever put into them, so no shell string is built from input. The same table
writes the offline collector script.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from advisor import platform_registry as platforms
from advisor.platform_spec import EXIT_MARKER, ITEM, MARKER, Command

__all__ = ["EXIT_MARKER", "ITEM", "MARKER", "Command", "DETECT", "PRIVILEGED", "Section", "every_line", "file_name",
           "platforms_by_uname", "privileged", "split_sections", "wrapped"]

# Read-only tools that need privileges (solaris.ldoms.read, root), on any family.
PRIVILEGED = frozenset(t for f in platforms.families().values() for t in f.privileged)

DETECT = Command("uname-s", "uname -s")


def platforms_by_uname() -> dict[str, tuple[str, tuple[Command, ...]]]:
    """`uname -s` -> the host's family -> the commands collected there."""
    return {f.uname: (name, platforms.collected(name)) for name, f in platforms.families().items()}


def privileged(command: Command) -> bool:
    return command.tool in PRIVILEGED


@dataclass(frozen=True)
class Section:
    item: str  # interface name or PPA
    text: bytes
    exit_status: int | None


def split_sections(output: bytes) -> list[Section]:
    """The per-interface sections of a per_item command's output. Sections
    whose name is not a plain interface name are dropped."""
    name_ok = re.compile(ITEM).fullmatch
    sections: list[Section] = []
    item: str | None = None
    body: list[bytes] = []
    status: int | None = None
    for line in output.splitlines(keepends=True):
        text = line.decode("utf-8", "replace").rstrip("\n")
        if text.startswith(MARKER):
            if item is not None:
                sections.append(Section(item, b"".join(body), status))
            name = text[len(MARKER):].strip()
            item, body, status = (name if name_ok(name) else None), [], None
        elif text.startswith(EXIT_MARKER):
            value = text[len(EXIT_MARKER):].strip()
            status = int(value) if value.isascii() and value.isdigit() and len(value) <= 10 else None  # not '²'
        elif item is not None:
            body.append(line)
    if item is not None:
        sections.append(Section(item, b"".join(body), status))
    return sections


def file_name(command: Command) -> str:
    """The bundle file of a command's output: `<id>.txt`, unless its output declares
    another name (driver configuration files keep their `driver-<name>.conf` names)."""
    found = platforms.known(command.id)
    if found is None or found[0].output.file is None:
        return command.file
    return found[0].output.file.replace("{name}", found[1] or "")


def wrapped(command: Command, line: str, privilege: str | None) -> str:
    """The line as sent: each privileged tool it runs gets `sudo -n` or `pfexec` when asked,
    wherever the line starts it (`ldm list -l -p`, or ndd inside the loop over TCP
    properties). `sudo -n` never waits for a password: it fails at once instead."""
    if privilege is None:
        return line
    prefix = {"sudo": "sudo -n", "pfexec": "pfexec"}[privilege]
    return _started(PRIVILEGED).sub(lambda m: f"{m.group(1)}{prefix} {m.group(2)}", line)


@cache
def _started(tools: frozenset[str]) -> re.Pattern[str]:
    """A tool where a shell starts a command: the line's start, after a backquote, `;`, `|`, `&&` or `do`."""
    names = "|".join(sorted(re.escape(t) for t in tools))
    return re.compile(rf"(^|[`;|&(][ \t]*|\bdo[ \t]+)({names})(?=[ \t]|$)")


def every_line() -> set[str]:
    """All command lines advisor may send, in every privilege mode."""
    lines = {DETECT.line}
    for commands in platforms.script_platforms().values():
        for c in commands:
            for line in filter(None, (c.line, c.fallback)):
                for privilege in (None, "sudo", "pfexec"):
                    lines.add(wrapped(c, line, privilege))
    return lines
