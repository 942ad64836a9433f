"""Which output a typed Linux command line prints: brctl, ip, ethtool (IF, -k, -c, -i, -S ...), sysctl, lspci,
cat /proc/net/dev."""

from __future__ import annotations

from advisor.collect.command_line import Reading, flags, plain

_ETHTOOL = {"-k": "k", "--show-features": "k", "--show-offload": "k", "-c": "c", "--show-coalesce": "c",
            "-i": "i", "--driver": "i",
            # recognised, read by no rule yet: pause, ring sizes, channels (set aside as unused)
            "-a": "a", "--show-pause": "a", "-g": "g", "--show-ring": "g", "-l": "l", "--show-channels": "l"}


def brctl(args: list[str]) -> Reading | None:
    return Reading("brctl-show", narrowed=len(args) > 1) if args[:1] == ["show"] else None


def ip(args: list[str]) -> Reading | None:
    if "link" in args[:3] or "l" in args[:1]:
        return Reading("ip-link", narrowed="dev" in args or len(plain(args)) > 2)
    return None


def ethtool(args: list[str]) -> Reading | None:
    if len(args) == 1 and not args[0].startswith("-"):
        return Reading(f"ethtool@{args[0]}")  # `ethtool eth0`: speed, duplex, link
    if len(args) == 2 and args[0] in ("-S", "--statistics"):
        return Reading(f"ethtool-stats@{args[1]}")  # not `ethtool-s`: -S is no feature letter like -k, -c, -i
    if len(args) == 2 and args[0] in _ETHTOOL:
        return Reading(f"ethtool-{_ETHTOOL[args[0]]}@{args[1]}")
    return None


def shown_file(args: list[str]) -> Reading | None:
    """`cat /proc/net/dev`."""
    return Reading("proc-net-dev") if args and args[-1] == "/proc/net/dev" else None


def sysctl(args: list[str]) -> Reading | None:
    return Reading("sysctl-net", narrowed="-a" not in flags(args))


def lspci(args: list[str]) -> Reading | None:
    if "-vv" in args or "-vvv" in args:
        return Reading("lspci-vv", narrowed="-s" in flags(args) or "-d" in flags(args))
    return None
