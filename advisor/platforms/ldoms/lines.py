"""Which output a typed `ldm` or `virtinfo` command line prints."""

from __future__ import annotations

from advisor.collect.command_line import Reading, flags, plain


def _ldm(args: list[str]) -> tuple[str | None, str | None]:
    if not args:
        return None, None
    sub, rest = args[0], args[1:]
    given, named = flags(rest), plain(rest)
    if sub in ("-V", "--version", "version"):
        return "ldm-version", None
    if sub in ("list", "ls", "list-domain", "ls-dom"):
        domain = named[0] if len(named) == 1 else None
        if "-p" in given:
            return ("ldm-list-l-p" if "-l" in given else None), domain
        if {"-o", "-e", "-S"} & given and "-l" not in given:
            return None, None  # chosen sections, or the short form with more columns: not read
        return ("ldm-list-l" if "-l" in given else "ldm-list"), domain
    if sub in ("list-bindings", "ls-bindings"):  # the same sections as `ldm list -l`, with the bindings
        domain = named[0] if len(named) == 1 else None
        return ("ldm-list-l-p" if "-p" in given else "ldm-list-l"), domain
    if sub in ("list-constraints", "ls-constraints"):
        domain = named[0] if len(named) == 1 else None
        return ("ldm-list-constraints-x" if "-x" in given else "ldm-list-constraints-p" if "-p" in given
                else "ldm-list-constraints"), (None if "-x" in given else domain)
    if sub in ("list-io", "ls-io") and not {"-p", "-d"} & given:  # -p and device properties (-d): not read
        return "ldm-list-io", None
    if sub in ("list-devices", "ls-devices"):  # -a, -p and a resource type (core, cpu, memory) all read alike
        return "ldm-list-devices", None
    return None, None


def ldm(args: list[str]) -> Reading | None:
    cid, domain = _ldm(args)
    if cid is None:
        return None
    return Reading(cid, narrowed=domain is not None and cid != "ldm-list-devices", argument=domain)  # one domain of several


def virtinfo(args: list[str]) -> Reading | None:
    return Reading("virtinfo") if {"-a", "-p"} & flags(args) else None  # plain virtinfo lists environments
