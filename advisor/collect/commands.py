"""The command outputs advisor knows, by the names a bundle gives their files
and the command lines they are the output of; made from the platform packs."""

from __future__ import annotations

import re
from functools import cache

from advisor import platform_registry as platforms
from advisor.platform_spec import SECOND

_ITEM = r"[\w.:-]+"


@cache
def commands() -> dict[str, str]:
    """command id -> the command line it is the output of (DESIGN.md, capture bundle): every
    output of one file a host (a `<id>@<item>` output is one file per interface)."""
    return {cid: k.output.line for cid, k in platforms.outputs().items() if not k.output.per_item and k.template is None}


@cache
def _names() -> tuple[dict[str, str], re.Pattern[str], list[tuple[re.Pattern[str], str]]]:
    files = {k.output.file: cid for cid, k in platforms.outputs().items() if k.output.file and k.template is None}
    per_item = sorted(cid for cid, k in platforms.outputs().items() if k.output.per_item)
    per_interface = re.compile(rf"^({'|'.join(map(re.escape, per_item))})@({_ITEM})\.txt$")
    templated = [(re.compile(re.escape(k.output.file or f"{cid}.txt").replace(re.escape("{name}"), "([a-z0-9_]+)") + "$"),
                  cid) for cid, k in platforms.outputs().items() if k.template is not None]
    return files, per_interface, templated


def command_id_for_name(name: str) -> str | None:
    """The command id a canonical bundle file name stands for, or None."""
    files, per_interface, templated = _names()
    for pattern, cid in templated:
        if m := pattern.match(name):
            return cid.replace("{name}", m.group(1))
    if m := per_interface.match(name):
        return f"{m.group(1)}@{m.group(2)}"
    if name in files:
        return files[name]
    if name.endswith(".txt") and name[:-4] in commands():
        return name[:-4]
    if name.endswith(SECOND + ".txt") and (first := command_id_for_name(name[:-len(SECOND + ".txt")] + ".txt")) \
            and platforms.known(first + SECOND) is not None:
        return first + SECOND  # kstat-p~2.txt: the second sample of kstat-p
    return None


def command_line(command_id: str) -> str:
    if command_id.endswith(SECOND) and platforms.known(command_id) is not None:
        return command_line(command_id[:-len(SECOND)])
    found = platforms.known(command_id)
    if found is not None and found[0].template is not None and found[1] is not None:
        return found[0].output.line.replace("{name}", found[1])
    if found is not None and found[0].output.per_item and found[1] is not None:
        return _per_item_line(found[0].output.id, found[0].output.line, found[1])
    return commands().get(command_id, command_id)


@cache
def _loops() -> dict[str, str]:
    """Per-item output id -> the command its loop runs for one item ($i), from the packs' collection."""
    out: dict[str, str] = {}
    for p in platforms.packs():
        for c in p.collect:
            for cid, run in ((c.id, c.item), (c.fallback_id or c.id, c.fallback_item)):
                if run is not None:
                    out.setdefault(cid, run)
    return out


def _per_item_line(output_id: str, line: str, item: str) -> str:
    """`ethtool -k bond0` for ethtool-k@bond0, `nwmgr -g -A vmtu -c lan0` for nwmgr-vmtu@lan0:
    the command the collection's loop runs for the item, else the output's command and the item."""
    run = _loops().get(output_id)
    if run is None:
        return f"{line} {item}"
    return run.replace('"$i"', item).replace("$i", item)
