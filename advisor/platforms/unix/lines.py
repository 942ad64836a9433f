"""Which output a typed `uname -a`, or a release file shown with cat, prints."""

from __future__ import annotations

from advisor.collect.command_line import Reading, flags

_RELEASE = {"/etc/release", "/etc/os-release", "/etc/*release", "/etc/*-release"}


def uname(args: list[str]) -> Reading | None:
    return Reading("uname-a") if "-a" in flags(args) else None


def shown_file(args: list[str]) -> Reading | None:
    return Reading("release") if args and args[-1] in _RELEASE else None
