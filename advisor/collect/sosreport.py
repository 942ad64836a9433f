"""Linux sosreport archives (`sosreport-<host>-<date>.tar.xz`): the files
advisor reads and the command each holds.

Paths follow the sos layout that insights-core's SosSpecs reads
(sos_commands/networking/ethtool_-k_<if>, kernel/sysctl_-a, pci/lspci_-nnvv,
kernel/uname_-a, networking/ip_-d_address). brctl_show is the name sos gives
`brctl show` in its networking plugin (not confirmed by a second source).
"""

from __future__ import annotations

import re
from pathlib import Path

from advisor.collect import safefs, safetar

SOS_FILES: list[tuple[str, str]] = [
    ("sos_commands/kernel/uname_-a", "uname-a"),
    ("etc/os-release", "release"),
    ("sos_commands/kernel/sysctl_-a", "sysctl-net"),
    ("sos_commands/pci/lspci_-nnvv", "lspci-vv"),
    ("sos_commands/pci/lspci_-nvv", "lspci-vv"),
    ("sos_commands/networking/ip_-d_address", "ip-link"),
    ("sos_commands/networking/ip_address", "ip-link"),
    ("sos_commands/networking/brctl_show", "brctl-show"),
]
_PER_INTERFACE = re.compile(r"^ethtool_-([kci])_([A-Za-z0-9_.:-]+)$")


_HOSTNAME_FILES = ("sos_commands/general/hostname", "sos_commands/host/hostname", "etc/hostname")
_READ = tuple(rel for rel, _ in SOS_FILES) + _HOSTNAME_FILES


def wanted(member: str) -> bool:
    """An archive member advisor reads; a sosreport's logs and the rest are not unpacked."""
    parent, _, name = member.rpartition("/")
    if _PER_INTERFACE.match(name) and (parent == "sos_commands/networking" or parent.endswith("/sos_commands/networking")):
        return True
    return safetar.ends_with(member, _READ)


def is_sos_root(path: Path) -> bool:
    return (path / "sos_commands").is_dir()


def files(root: Path) -> list[tuple[Path, str]]:
    """(file, command id) pairs present in this sosreport, first match per id."""
    found: list[tuple[Path, str]] = []
    taken: set[str] = set()
    for rel, command_id in SOS_FILES:
        path = root / rel
        if path.is_file() and command_id not in taken:
            found.append((path, command_id))
            taken.add(command_id)
    networking = root / "sos_commands" / "networking"
    if networking.is_dir():
        for path in sorted(networking.iterdir()):
            if m := _PER_INTERFACE.match(path.name):
                found.append((path, f"ethtool-{m.group(1)}@{m.group(2)}"))
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
