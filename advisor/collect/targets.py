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


MAX_NAME = 253  # a DNS name; a user name is far shorter (32 on most systems)


def parse_spec(spec: str, where: str = "host") -> Target:
    if len(spec) > MAX_NAME + 33:
        raise InputError(f"{where}: a host name of {len(spec):,} characters; at most {MAX_NAME} (a DNS name)")
    if not _HOST.match(spec):
        raise InputError(f"{where}: {spec!r} is not a host name, [user@]host")
    return Target(spec)


def from_hosts_file(path: Path) -> list[Target]:
    text = datafile.read_text(path, InputError)
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
    meta = data.get("_meta", {})
    hostvars = meta.get("hostvars", {}) if isinstance(meta, dict) else None
    if not isinstance(hostvars, dict):
        raise InputError(f"{path}: _meta.hostvars is not a mapping of host names")
    names: list[str] = []
    for group, body in data.items():
        if group == "_meta" or not isinstance(body, dict):
            continue
        hosts = body.get("hosts", [])
        if not isinstance(hosts, list) or not all(isinstance(n, str) and n for n in hosts):
            raise InputError(f"{path}: {group}.hosts is not a list of host names")
        names += [n for n in hosts if n not in names]
    names += [n for n in hostvars if n not in names]
    return [_inventory_target(path, name, hostvars.get(name, {})) for name in names]


def _port_number(value: object) -> bool:
    """1-65535, as a JSON number or a string of ASCII digits (inventories hold either)."""
    digits = str(value) if isinstance(value, (int, str)) and not isinstance(value, bool) else ""
    return digits.isascii() and digits.isdigit() and 0 < int(digits) < 65536


def _inventory_target(path: Path, name: str, hv: object) -> Target:
    if not isinstance(hv, dict):
        raise InputError(f"{path}: _meta.hostvars.{name} is not a mapping")
    port = hv.get("ansible_port")
    if port is not None and not _port_number(port):
        raise InputError(f"{path}: _meta.hostvars.{name}.ansible_port {str(port)[:20]!r} is not a port number")
    for key in ("ansible_host", "ansible_user"):
        if hv.get(key) is not None and not isinstance(hv.get(key), str):
            raise InputError(f"{path}: _meta.hostvars.{name}.{key} is not a string")
    return Target(parse_spec(name, str(path)).spec, hostname=hv.get("ansible_host"),
                  port=int(port) if port else None, user=hv.get("ansible_user"))
