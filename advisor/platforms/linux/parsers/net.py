"""Linux host and dom0 network outputs: `brctl show`, `ip -o link` / `ip link`,
`ethtool IF` / `ethtool -k` / `ethtool -c` / `ethtool -i`, `sysctl -a` (net.), `lspci -vv`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from advisor.errors import ParseError
from advisor.parsers.text import Line, digits, numbered


@dataclass
class Bridge:
    name: str
    stp: str | None
    ports: list[str]
    line: int


def parse_brctl(text: str) -> list[Bridge]:
    """Tab-separated (or spaces, when copied from a page); a bridge's further
    ports sit alone on continuation lines, indented past the bridge names. A
    page may indent the whole table: the header's indent is the left edge."""
    lines = [ln for ln in numbered(text) if ln.text.strip()]
    if not lines or not lines[0].text.strip().lower().startswith("bridge name"):
        raise ParseError("expected a 'bridge name  bridge id  STP enabled  interfaces' header",
                         line=lines[0].number if lines else None)
    edge = len(lines[0].text) - len(lines[0].text.lstrip())
    bridges: list[Bridge] = []
    for ln in lines[1:]:
        parts = ln.text.split()
        if len(ln.text) - len(ln.text.lstrip()) > edge:
            if not bridges or len(parts) != 1:
                raise ParseError("port continuation line outside a bridge", line=ln.number)
            bridges[-1].ports.append(parts[0])
            continue
        if len(parts) < 3 or not re.fullmatch(r"[0-9a-fA-F]{4}\.[0-9a-fA-F]{12}", parts[1]):
            raise ParseError("expected 'name  id  stp  [interface]'", line=ln.number)
        bridges.append(Bridge(parts[0], parts[2], parts[3:4], ln.number))
    return bridges


@dataclass
class IpLink:
    name: str
    mtu: int | None
    master: str | None
    state: str | None
    flags: frozenset[str]
    line: int


_IP_HEAD = re.compile(r"^\d+:\s+(?P<name>[^:@\s]+)(?:@[^:\s]+)?:\s+<(?P<flags>[^>]*)>(?P<rest>.*)$")


def parse_ip_link(text: str) -> list[IpLink]:
    """`ip -o link` (one line per link, `\\` joins), `ip link` or `ip -d address`
    (indented detail lines follow); the attributes needed are on the first line."""
    out: list[IpLink] = []
    for ln in numbered(text):
        s = ln.text.strip()
        if not s:
            continue
        m = _IP_HEAD.match(s)
        if not m:
            if out and ln.text[:1] in (" ", "\t"):
                continue  # detail lines of `ip link` / `ip -d address` (link/ether, inet, bridge_slave ...)
            raise ParseError("not an 'N: name: <FLAGS> mtu ...' line", line=ln.number)
        attrs = m.group("rest").split("\\")[0].split()
        pairs = dict(zip(attrs[::2], attrs[1::2]))
        mtu = pairs.get("mtu")
        out.append(IpLink(m.group("name"), int(mtu) if mtu and digits(mtu) else None, pairs.get("master"),
                          pairs.get("state"), frozenset(f for f in m.group("flags").split(",") if f), ln.number))
    if not out:
        raise ParseError("no links")
    return out


@dataclass
class Feature:
    value: str  # on, off, n/a
    fixed: bool
    requested: str | None
    line: int


_FEATURE = re.compile(r"^(?P<name>[a-z0-9][a-z0-9 _-]*?):\s*(?P<value>on|off|n/a)(?:\s*\[(?P<note>[^\]]*)\])?\s*$", re.I)


_CANNOT_GET = re.compile(r"^Cannot get device .+")  # `... udp large send offload settings: Operation not supported`


def parse_ethtool_k(text: str) -> dict[str, Feature]:
    """`Features for eth0:` (or older `Offload parameters for eth0:`) and one
    `name: on|off [fixed] [requested on]` line each, indented with tabs,
    spaces or not at all. Older ethtool spells names with spaces.

    Older ethtool says `Cannot get device X settings: <error>` for a feature
    the driver cannot report (it is then unknown, not listed), and `no offload
    info available` when it could read none: an empty result, not an error.
    """
    features: dict[str, Feature] = {}
    started = False
    unknown = False
    after_error = False
    for ln in numbered(text):
        s = ln.text.strip()
        if not s:
            continue
        if re.match(r"^(Features|Offload parameters) for \S+:$", s):
            started = True
            continue
        if started and (_CANNOT_GET.match(s) or s == "no offload info available"):
            unknown = after_error = True
            continue
        if after_error and re.fullmatch(r"[a-z]+(?: [a-z]+)*", s):
            continue  # the error message's end, wrapped by a mail client (`Operation not` / `supported`)
        after_error = False
        m = _FEATURE.match(s)
        if not m:
            if not started:
                raise ParseError("expected 'Features for IF:'", line=ln.number)
            raise ParseError(f"not a 'feature: on|off' line: {s[:40]!r}", line=ln.number)
        note = (m.group("note") or "").lower()
        name = re.sub(r"[ _]+", "-", m.group("name").strip().lower())
        features[name] = Feature(m.group("value").lower(), note == "fixed",
                                 note.removeprefix("requested ") if note.startswith("requested") else None, ln.number)
    if not features and not unknown:
        raise ParseError("no features listed")
    return features


@dataclass
class DriverInfo:
    """`ethtool -i IF`: the interface's driver and, for a PCI device, its
    function's address (`bus-info: 0000:04:00.1`)."""

    driver: str | None
    bus_info: str | None
    line: int  # of bus-info, else of driver


_INFO_LINE = re.compile(r"^([a-z][a-z-]*):(?:\s+(.*))?$")
_INFO_KEYS = ("driver", "version", "firmware-version", "expansion-rom-version", "bus-info")


def parse_ethtool_i(text: str) -> DriverInfo:
    """`key: value` lines (driver, version, firmware-version, bus-info,
    supports-...), the value possibly empty; older ethtool prints fewer keys.
    A device with no driver information (the loopback) says `Cannot get
    driver information: ...`: nothing known, not an error."""
    found: dict[str, tuple[str, int]] = {}
    for ln in numbered(text):
        s = ln.text.strip()
        if not s:
            continue
        if s.startswith("Cannot get driver information") and not found:
            return DriverInfo(None, None, ln.number)
        m = _INFO_LINE.match(s)
        if not m or not (m.group(1) in _INFO_KEYS or m.group(1).startswith("supports-")):
            raise ParseError(f"not an 'ethtool -i' line ('driver: ...', 'bus-info: ...'): {s[:40]!r}", line=ln.number)
        found.setdefault(m.group(1), ((m.group(2) or "").strip(), ln.number))
    if "driver" not in found:
        raise ParseError("no 'driver:' line")
    driver, at = found["driver"]
    bus = found.get("bus-info")
    return DriverInfo(driver or None, (bus[0] or None) if bus else None, bus[1] if bus else at)


@dataclass
class LinkSettings:
    """`ethtool IF`: the link's speed, duplex and state as the driver reports them.
    None where ethtool printed no such line (a virtio NIC may print only
    `Link detected`; a user without privileges gets `Cannot get link status`)."""

    speed_mbps: int | None  # None also for `Speed: Unknown!` (no link, or a device that reports none)
    speed: str | None  # as printed: `10000Mb/s`, `Unknown!`, `Unknown! (65535)`
    duplex: str | None  # full, half, unknown
    link_detected: bool | None
    speed_line: int | None
    link_line: int | None


_SETTINGS_HEAD = re.compile(r"^Settings for \S+:$")
_SETTING = re.compile(r"^([A-Za-z][A-Za-z0-9 ./()-]*?):(?:\s+(.*))?$")
_SPEED = re.compile(r"^(\d{1,9})\s*Mb/s$")
# what ethtool says of what it could not read: the rest of the settings still follow
_SETTINGS_ERROR = re.compile(r"^(?:Cannot get .+|No data available|netlink error: .+)$")


def parse_ethtool_settings(text: str) -> LinkSettings:
    """`Settings for eth0:` then `key: value` lines, indented with a tab or
    spaces (or not at all, pasted); a value may go on over indented lines
    (link modes, message level names). `Speed: 1000Mb/s` is the negotiated
    speed; `Speed: Unknown!` (older ethtool: `Unknown! (65535)`) says there is
    none: the link is down or the device reports none."""
    started = False
    values: dict[str, tuple[str, int]] = {}
    last_indent: int | None = None
    for ln in numbered(text):
        s = ln.text.strip()
        if not s:
            continue
        indent = len(ln.text) - len(ln.text.lstrip())
        if _SETTINGS_HEAD.match(s):
            started, last_indent = True, None
            continue
        if _SETTINGS_ERROR.match(s):
            continue
        m = _SETTING.match(s)
        if m:
            values.setdefault(m.group(1).strip().lower(), ((m.group(2) or "").strip(), ln.number))
            last_indent = indent
            continue
        if last_indent is not None and indent > last_indent:
            continue  # a value's further lines: `100baseT/Half 100baseT/Full`, `drv probe link`
        raise ParseError(f"not an 'ethtool IF' line ('Speed: ...', 'Link detected: ...'): {s[:40]!r}", line=ln.number)
    if not started and not ({"speed", "duplex", "link detected"} & values.keys()):
        raise ParseError("expected 'Settings for IF:'")
    speed = values.get("speed")
    mbps = _SPEED.match(speed[0]) if speed else None
    duplex = values.get("duplex")
    link = values.get("link detected")
    return LinkSettings(
        speed_mbps=int(mbps.group(1)) or None if mbps else None,
        speed=speed[0] or None if speed else None,
        duplex=(duplex[0].split() or [""])[0].rstrip("!").lower() or None if duplex else None,
        link_detected={"yes": True, "no": False}.get(link[0].lower()) if link else None,
        speed_line=speed[1] if speed else None,
        link_line=link[1] if link else None)


def parse_ethtool_c(text: str) -> dict[str, tuple[str, int]]:
    """`Coalesce parameters for eth0:` then `key: value` lines; `Adaptive RX: on  TX: off`
    holds two. A driver without coalescing makes ethtool print `Cannot get device
    coalesce settings: <error>` (and maybe the heading): no values, not an error."""
    values: dict[str, tuple[str, int]] = {}
    unsupported = False
    for ln in numbered(text):
        s = ln.text.strip()
        if not s or s.startswith("Coalesce parameters for"):
            continue
        if re.match(r"^Cannot get device coalesce settings:", s):
            unsupported = True
            continue
        if s.startswith("Adaptive"):
            for side, val in re.findall(r"(RX|TX):\s*(\S+)", s):
                values[f"adaptive-{side.lower()}"] = (val, ln.number)
            continue
        key, sep, value = s.partition(":")
        if not sep:
            raise ParseError(f"not a 'key: value' line: {s[:40]!r}", line=ln.number)
        values[key.strip().lower()] = (value.strip(), ln.number)
    if not values and not unsupported:
        raise ParseError("no coalescing parameters")
    return values


def parse_sysctl(text: str) -> dict[str, tuple[str, int]]:
    values: dict[str, tuple[str, int]] = {}
    for ln in numbered(text):
        s = ln.text.strip()
        if not s or s.startswith("sysctl: "):  # sysctl's own complaints about unreadable keys
            continue
        key, sep, value = s.partition("=")
        if not sep or not re.fullmatch(r"[\w.\-/]+", key.strip()):
            raise ParseError(f"not a 'name = value' line: {s[:40]!r}", line=ln.number)
        values[key.strip()] = (value.strip(), ln.number)
    if not values:
        raise ParseError("empty output")
    return values


@dataclass
class PciFunction:
    address: str  # 0000:02:00.0 or 02:00.0
    kind: str  # "Ethernet controller"
    description: str
    link_cap: str | None = None
    link_sta: str | None = None
    driver: str | None = None
    line: int = 0
    attrs: dict[str, str] = field(default_factory=dict)
    link_sta_line: int | None = None

    @property
    def card(self) -> str:
        """Bus and device: the functions of one card share it."""
        return self.address.rsplit(".", 1)[0]

    def speed(self, which: str) -> float | None:
        """GT/s per lane of LnkCap or LnkSta (`Speed 5GT/s (ok)`); None for `Speed unknown`."""
        text = self.link_sta if which == "sta" else self.link_cap
        m = re.search(r"Speed\s+(\d+(?:\.\d+)?)GT/s", text or "")
        return float(m.group(1)) if m else None

    def width(self, which: str) -> int | None:
        text = self.link_sta if which == "sta" else self.link_cap
        m = re.search(r"Width\s+x(\d+)", text or "")
        return int(m.group(1)) if m else None


_PCI_HEAD = re.compile(r"^(?P<addr>(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7])\s+(?P<kind>[^:]+):\s*(?P<desc>.*)$", re.I)


_WRAP_WIDTH = 60  # a mail client wraps lines longer than this (72 or so, tabs counted its own way)


def _unwrap_mail(lines: list[Line]) -> list[Line]:
    """Join back a line a mail client wrapped: lspci indents every detail line
    and starts each device line with its address, so an unindented line that is
    neither, right after a long line, is the end of that line."""
    out: list[Line] = []
    physical = ""  # the line before, as printed (its width says whether it was wrapped)
    for ln in lines:
        if (out and ln.text.strip() and not ln.text[0].isspace() and not _PCI_HEAD.match(ln.text)
                and len(physical.expandtabs(8)) + 1 + len(ln.text.split()[0]) > _WRAP_WIDTH):
            out[-1] = Line(out[-1].number, f"{out[-1].text} {ln.text.strip()}")
        else:
            out.append(ln)
        physical = ln.text
    return out


def parse_lspci(text: str) -> list[PciFunction]:
    out: list[PciFunction] = []
    for ln in _unwrap_mail(numbered(text)):
        if not ln.text.strip():
            continue
        m = _PCI_HEAD.match(ln.text)
        if m:
            out.append(PciFunction(m.group("addr"), m.group("kind").strip(), m.group("desc").strip(), line=ln.number))
            continue
        if not out or not ln.text[0].isspace():
            raise ParseError("not an lspci device line or its indented detail", line=ln.number)
        s = ln.text.strip()
        fn = out[-1]
        if s.startswith("LnkCap:"):
            fn.link_cap = s[len("LnkCap:"):].strip()
        elif s.startswith("LnkSta:"):
            fn.link_sta = s[len("LnkSta:"):].strip()
            fn.link_sta_line = ln.number
        elif s.startswith("Kernel driver in use:"):
            fn.driver = s.split(":", 1)[1].strip()
    if not out:
        raise ParseError("no PCI devices")
    return out
