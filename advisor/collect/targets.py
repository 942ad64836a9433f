"""Which hosts to audit: names on the command line, a hosts file, or the JSON
that `ansible-inventory --list` prints."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from advisor import datafile
from advisor.errors import InputError

_HOST = re.compile(r"^(?:[A-Za-z0-9._-]+@)?(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])$")


@dataclass(frozen=True)
class Target:
    spec: str  # as given: [user@]alias
    hostname: str | None = None  # inventory ansible_host
    port: int | None = None
    user: str | None = None

    @property
    def alias(self) -> str:
        return self.spec.rpartition("@")[2]


def parse_spec(spec: str, where: str = "host") -> Target:
    if not _HOST.match(spec):
        raise InputError(f"{where}: {spec!r} is not a host name, [user@]host")
    return Target(spec)


def from_hosts_file(path: Path) -> list[Target]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    targets = []
    for number, line in enumerate(text.splitlines(), start=1):
        spec = line.split("#", 1)[0].strip()
        if spec:
            targets.append(parse_spec(spec, f"{path}:{number}"))
    return targets


def from_inventory(path: Path) -> list[Target]:
    data = datafile.load_json(path, InputError, "the inventory (`ansible-inventory --list` output)")
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected the JSON object `ansible-inventory --list` prints")
    hostvars = data.get("_meta", {}).get("hostvars", {})
    names: list[str] = []
    for group, body in data.items():
        if group == "_meta" or not isinstance(body, dict):
            continue
        for name in body.get("hosts", []):
            if name not in names:
                names.append(name)
    names += [n for n in hostvars if n not in names]
    targets = []
    for name in names:
        hv = hostvars.get(name, {})
        port = hv.get("ansible_port")
        targets.append(Target(parse_spec(name, str(path)).spec, hostname=hv.get("ansible_host"),
                              port=int(port) if port else None, user=hv.get("ansible_user")))
    return targets
