"""Which output a typed virsh command line prints (Pack.lines): the domain it
names is the item of a per-domain output, as the bundle file name would give it."""

from __future__ import annotations

import re

from advisor.platform_spec import ITEM

_QUERY = {"--live", "--config", "--current", "--inactive"}  # still the whole listing, of one view of the domain
_LIST = {"--all", "--inactive", "--persistent", "--transient", "--autostart", "--no-autostart", "--state-running",
         "--state-paused", "--state-shutoff", "--state-other"}  # fewer rows, the same table (not --name, --uuid, --title)


def command_id(args: list[str]) -> str | None:
    """`vcpupin rhel6` -> virsh-vcpupin@rhel6; `domiflist vm1` -> virsh-domiflist@vm1; `list --all` -> virsh-list."""
    if not args:
        return None
    sub, rest = args[0], args[1:]
    flags = {a for a in rest if a.startswith("-")}
    plain = [a for a in rest if not a.startswith("-")]
    if sub in ("vcpupin", "domiflist") and len(plain) == 1 and flags <= _QUERY and re.fullmatch(ITEM, plain[0]):
        return f"virsh-{sub}@{plain[0]}"  # vcpupin with a vCPU or a CPU list shows one row or pins: not read
    if sub == "list" and not plain and flags <= _LIST:
        return "virsh-list"
    return None
