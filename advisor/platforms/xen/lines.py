"""Which output a typed `xm` or `xl` command line prints."""

from __future__ import annotations

from advisor.collect.command_line import Reading, plain


def xen(tool: str, args: list[str]) -> Reading | None:
    if not args:
        return None
    cid = {"vcpu-list": f"{tool}-vcpu-list", "info": f"{tool}-info", "list": f"{tool}-list",
           "li": f"{tool}-list"}.get(args[0])
    if cid is None:
        return None
    if cid.endswith("info") and len(plain(args[1:])) == 1:
        return Reading(cid, narrowed=True, argument=plain(args[1:])[0])  # `xl info nr_cpus` prints that field's value alone
    return Reading(cid, narrowed=cid.endswith("vcpu-list") and len(args) > 1)


def xm(args: list[str]) -> Reading | None:
    return xen("xm", args)


def xl(args: list[str]) -> Reading | None:
    return xen("xl", args)
