"""Which output a typed Solaris command line prints: kstat, dladm, ipadm, ndd,
psrinfo, pkg, showrev, and the files cat shows."""

from __future__ import annotations

import re

from advisor.collect.command_line import Reading, flags, option_values, plain


def kstat(args: list[str]) -> Reading | None:
    if "-p" not in flags(args):
        return None
    return Reading("kstat-p", narrowed=bool(plain(args)) or bool({"-m", "-i", "-n", "-s", "-c"} & flags(args)))


_DLADM = {"show-phys": "dladm-show-phys", "show-link": "dladm-show-link", "show-dev": "dladm-show-dev",
          "show-linkprop": "dladm-show-linkprop", "show-phys -H": "dladm-show-phys-h"}


def dladm(args: list[str]) -> Reading | None:
    """The command id, and whether options narrow it to some links or properties."""
    if not args:
        return None
    sub, rest = args[0], args[1:]
    if sub != "show-linkprop" and {"-p", "-o"} & flags(rest):
        return None  # parseable or chosen fields: only show-linkprop's -c -o form is read
    narrowed = bool(plain([a for a in rest if a not in option_values(rest)])) or "-p" in flags(rest)
    if sub == "show-phys" and "-H" in flags(rest):
        sub = "show-phys -H"  # the rings and groups of each link, not its speed
    cid = _DLADM.get(sub)
    return Reading(cid, narrowed=narrowed) if cid else None


def ipadm(args: list[str]) -> Reading | None:
    if args[:1] == ["show-prop"] and "tcp" in args:
        return Reading("ipadm-show-prop-tcp", narrowed="-p" in flags(args))
    return None


def ndd(args: list[str]) -> Reading | None:
    if "/dev/tcp" not in args or "?" in args or "\\?" in args:  # `?` lists names
        return None
    props = [a for a in plain(args) if a != "/dev/tcp"]
    return Reading("ndd-tcp", argument=" ".join(props) or None)


def shown_file(args: list[str]) -> Reading | None:
    """`cat /etc/system`, `cat /kernel/drv/ixgbe.conf` (more and less alike)."""
    if not args:
        return None
    if args[-1] == "/etc/system":
        return Reading("etc-system")
    if m := re.fullmatch(r"/kernel/drv/(\w+)\.conf", args[-1]):
        return Reading(f"driver-{m.group(1)}")
    return None


def psrinfo(args: list[str]) -> Reading | None:
    return Reading("psrinfo-pv") if {"-p", "-v"} <= flags(args) else None


def pkg(args: list[str]) -> Reading | None:
    if args[:1] in (["info"], ["list"]) and "entire" in args:  # list: the FMRI or a table row
        return Reading("pkg-entire")
    return None


def patches(args: list[str]) -> Reading | None:
    return Reading("showrev-p") if "-p" in flags(args) else None  # patchadd -p prints the same Patch: lines
