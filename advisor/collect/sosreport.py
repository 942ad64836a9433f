"""Linux sosreport archives (`sosreport-<host>-<date>.tar.xz`): the files
advisor reads and the command each holds.

Paths follow the sos layout that insights-core's SosSpecs reads
(sos_commands/networking/ethtool_-k_<if>, kernel/sysctl_-a, pci/lspci_-nnvv,
kernel/uname_-a, networking/ip_-d_address). brctl_show is the name sos gives
`brctl show` in its networking plugin (not confirmed by a second source).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from advisor import platform_registry as platforms
from advisor.collect import safefs
from advisor.collect.archive_names import ends_with

_ITEM = r"([A-Za-z0-9_.:][A-Za-z0-9_.:-]*)"  # not `-k_eth0`: `ethtool_{item}` is no `ethtool_-k_{item}`
_HOSTNAME_FILES = ("sos_commands/general/hostname", "sos_commands/host/hostname", "etc/hostname")


@cache
def sos_files() -> list[tuple[str, str]]:
    """(path in the sosreport, command id) of every output a pack names there; a path with
    {item} is one file per interface."""
    return [(path, cid) for cid, k in platforms.outputs().items() for path in k.output.sosreport]


@cache
def _per_item() -> dict[str, list[tuple[re.Pattern[str], str]]]:
    """folder -> (file name pattern, command id) of the per-interface outputs kept there."""
    by_folder: dict[str, list[tuple[re.Pattern[str], str]]] = {}
    for path, cid in sos_files():
        if "{item}" in path:
            folder, _, name = path.rpartition("/")
            by_folder.setdefault(folder, []).append((re.compile(re.escape(name).replace(re.escape("{item}"), _ITEM) + "$"),
                                                     cid))
    return by_folder


def _item(folder: str, name: str) -> str | None:
    """The command id of a per-interface file (`ethtool-k@eth0`), or None."""
    return next((f"{cid}@{m.group(1)}" for pattern, cid in _per_item().get(folder, []) if (m := pattern.match(name))), None)


def wanted(member: str) -> bool:
    """An archive member advisor reads; a sosreport's logs and the rest are not unpacked."""
    parent, _, name = member.rpartition("/")
    if any((parent == folder or parent.endswith("/" + folder)) and _item(folder, name) for folder in _per_item()):
        return True
    return ends_with(member, [rel for rel, _ in sos_files() if "{item}" not in rel] + list(_HOSTNAME_FILES))


def is_sos_root(path: Path) -> bool:
    return (path / "sos_commands").is_dir()


def files(root: Path) -> list[tuple[Path, str]]:
    """(file, command id) pairs present in this sosreport, first match per id."""
    found: list[tuple[Path, str]] = []
    taken: set[str] = set()
    for rel, command_id in sos_files():
        path = root / rel
        if "{item}" not in rel and path.is_file() and command_id not in taken:
            found.append((path, command_id))
            taken.add(command_id)
    for folder in _per_item():
        if (root / folder).is_dir():
            found += [(path, cid) for path in sorted((root / folder).iterdir()) if (cid := _item(folder, path.name))]
    return found


def host_name(root: Path) -> str:
    for rel in _HOSTNAME_FILES:
        path = root / rel
        if path.is_file() and safefs.refusal(path, root) is None:
            with path.open(encoding="utf-8", errors="replace") as fh:
                name = fh.read(256).strip().split(".")[0]
            if name and name.isprintable() and " " not in name:
                return name
    m = re.match(r"sosreport-([^-]+(?:-[^-\d][^-]*)*)-", root.name)
    return m.group(1) if m else root.name
