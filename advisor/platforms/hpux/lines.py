"""Which output a typed HP-UX command line prints: lanscan, nwmgr, lanadmin."""

from __future__ import annotations

from advisor.collect.command_line import Reading, flags, option


def lanscan(args: list[str]) -> Reading | None:
    given = flags(args)
    return Reading("lanscan-v" if "-v" in given else "lanscan-iap" if {"-a", "-i", "-p"} & given else "lanscan")


def _nwmgr(args: list[str], given: set[str]) -> str | None:
    card = option(args, "-c")
    if card is None and option(args, "-S") == "apa" and (instance := option(args, "-I")):
        card = f"lan{instance}"  # an APA aggregate by its instance number
    if not args or (card is None and set(args) <= {"-g", "--get"}):  # the interface listing
        return "nwmgr"
    if "-s" in given or "--set" in args or "--sa" in args:
        return None
    attrs = option(args, "-A")
    if card and attrs == "vmtu":
        return f"nwmgr-vmtu@{card}"
    if card and (attrs or "-v" in given):  # -g (get) is the default action
        return f"nwmgr-attrs@{card}"
    if option(args, "-S") == "apa" and set(args) - {option(args, "-I")} <= {"-g", "--get", "-S", "apa", "-I"}:
        return "nwmgr-apa"  # the APA table: every aggregate, or the one -I names
    return None


def nwmgr(args: list[str]) -> Reading | None:
    cid = _nwmgr(args, flags(args))
    return Reading(cid) if cid else None


def lanadmin(args: list[str]) -> Reading | None:
    if len(args) >= 3 and args[0] == "-x" and args[1] == "vmtu":
        return Reading(f"lanadmin-vmtu@{args[2]}")
    if len(args) >= 2 and args[0] == "-g" and args[1:-1] in ([], ["mibstats"]):
        return Reading(f"lanadmin-g@{args[-1]}")
    if len(args) == 3 and args[0] == "-x" and args[1] in ("-i", "-v", "-m"):
        return Reading(f"lanadmin-apa@{args[2]}")  # HP APA's displays: one aggregate's ports (-i, -v), every aggregate's (-m)
    return None
