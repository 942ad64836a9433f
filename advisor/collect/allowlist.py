"""Every command live collection can ever send, per platform.

Command lines are constants: nothing from the user or from captured output is
ever put into them, so no shell string is built from input. The same table
writes the offline collector script.
"""

from __future__ import annotations

from dataclasses import dataclass

# Read-only tools that need privileges on Solaris (solaris.ldoms.read, root).
PRIVILEGED = {"ldm", "ndd"}


# Per-interface outputs come from one fixed loop over the host's own interfaces;
# each section starts with this marker and the interface name, and becomes the
# file <id>@<interface>.txt. Names are checked against ITEM before use as file names.
MARKER = "@@advisor "
EXIT_MARKER = "@@advisor-exit "
ITEM = r"[A-Za-z0-9_.:-]{1,64}"


@dataclass(frozen=True)
class Command:
    id: str  # command id: the bundle file is <id>.txt (DESIGN.md)
    line: str  # exactly what is sent
    fallback: str | None = None  # sent instead when `line` fails (older releases, xm for xl)
    fallback_id: str | None = None  # the fallback's own command id, when its output differs
    per_item: bool = False  # output is MARKER-separated sections, one file per interface

    @property
    def file(self) -> str:
        return f"{self.id}.txt"

    @property
    def tool(self) -> str:
        return self.line.split()[0]

    def privileged(self) -> bool:
        return self.tool in PRIVILEGED


NDD_TCP = ("for p in tcp_recv_hiwat tcp_xmit_hiwat tcp_max_buf; do "
           "v=`ndd -get /dev/tcp $p` || exit 1; echo \"$p $v\"; done")

DETECT = Command("uname-s", "uname -s")

SOLARIS: tuple[Command, ...] = (
    Command("uname-a", "uname -a"),
    Command("release", "cat /etc/release"),
    Command("virtinfo", "virtinfo -a"),
    Command("psrinfo-pv", "psrinfo -pv"),
    Command("pkg-entire", "pkg info entire"),
    Command("showrev-p", "showrev -p"),
    Command("ldm-version", "ldm -V"),
    Command("ldm-list-l-p", "ldm list -l -p"),
    Command("ldm-list-devices", "ldm list-devices -a"),
    Command("dladm-show-phys", "dladm show-phys"),
    Command("dladm-show-dev", "dladm show-dev"),
    Command("dladm-show-linkprop", "dladm show-linkprop -c -o link,property,perm,value,effective,default,possible",
            fallback="dladm show-linkprop"),
    Command("kstat-p", "kstat -p"),
    Command("etc-system", "cat /etc/system"),
    Command("ndd-tcp", NDD_TCP),
    Command("ipadm-show-prop-tcp", "ipadm show-prop tcp"),
    Command("driver-ixgbe", "cat /kernel/drv/ixgbe.conf"),
    Command("driver-nxge", "cat /kernel/drv/nxge.conf"),
    Command("driver-ixgbevf", "cat /kernel/drv/ixgbevf.conf"),
)

def _each(items: str, command: str) -> str:
    """One fixed loop: `command` (which names the item as $i) for each item
    `items` lists, in MARKER-separated sections with their exit status."""
    return f"for i in `{items}`; do echo \"{MARKER}$i\"; {command} 2>&1; echo \"{EXIT_MARKER}$?\"; done"


def _each_interface(command: str) -> str:
    """Over the interfaces `ip -o link` lists (peer suffixes dropped)."""
    return _each("ip -o link | awk -F': ' '{print $2}' | sed 's/@.*//'", f"{command} \"$i\"")


# Linux hosts and Xen dom0s (Oracle VM for x86 and upstream Xen): try xl, then xm.
LINUX: tuple[Command, ...] = (
    Command("uname-a", "uname -a"),
    Command("release", "cat /etc/os-release"),
    Command("ip-link", "ip -o link"),
    Command("brctl-show", "brctl show"),
    Command("sysctl-net", "sysctl -a 2>/dev/null | grep '^net\\.'"),
    Command("lspci-vv", "lspci -vv"),
    Command("xl-info", "xl info", fallback="xm info", fallback_id="xm-info"),
    Command("xl-list", "xl list", fallback="xm list", fallback_id="xm-list"),
    Command("xl-vcpu-list", "xl vcpu-list", fallback="xm vcpu-list", fallback_id="xm-vcpu-list"),
    Command("ethtool-k", _each_interface("ethtool -k"), per_item=True),
    Command("ethtool-c", _each_interface("ethtool -c"), per_item=True),
    Command("ethtool-i", _each_interface("ethtool -i"), per_item=True),
)

# HP-UX 11i: TSO state per interface with nwmgr (11i v3), else lanadmin per PPA (v1/v2).
# nwmgr is 11i v3's: its commands stop at once elsewhere (v1/v2 take the lanadmin fallback).
_V3_ONLY = "[ `uname -r` = B.11.31 ] || exit 1; "


def _each_lan(command: str) -> str:
    """Over the lanN interfaces lanscan lists, on 11i v3 only."""
    return _V3_ONLY + _each("lanscan -i | awk '{print $1}'", f"{command} -c $i")


HPUX: tuple[Command, ...] = (
    Command("uname-a", "uname -a"),
    Command("lanscan", "lanscan; lanscan -q"),
    Command("lanscan-v", "lanscan -v"),
    Command("nwmgr", f"{_V3_ONLY}nwmgr"),
    Command("nwmgr-vmtu", _each_lan("nwmgr -g -A vmtu"),
            fallback=_each("lanscan -p", "lanadmin -x vmtu $i"),
            fallback_id="lanadmin-vmtu", per_item=True),
    Command("nwmgr-attrs", _each_lan("nwmgr -g -A all"), per_item=True),  # speed, link state, checksum offload
)

# `uname -s` -> platform -> the commands collected there.
PLATFORMS: dict[str, tuple[str, tuple[Command, ...]]] = {
    "SunOS": ("solaris", SOLARIS),
    "Linux": ("linux", LINUX),
    "HP-UX": ("hpux", HPUX),
}
# The collector script's --platform names: a Xen dom0 is a Linux host.
SCRIPT_PLATFORMS = {"solaris": SOLARIS, "linux": LINUX, "xen": LINUX, "hpux": HPUX}


@dataclass(frozen=True)
class Section:
    item: str  # interface name or PPA
    text: bytes
    exit_status: int | None


def split_sections(output: bytes) -> list[Section]:
    """The per-interface sections of a per_item command's output. Sections
    whose name is not a plain interface name are dropped."""
    import re

    name_ok = re.compile(ITEM).fullmatch
    sections: list[Section] = []
    item: str | None = None
    body: list[bytes] = []
    status: int | None = None
    for line in output.splitlines(keepends=True):
        text = line.decode("utf-8", "replace").rstrip("\n")
        if text.startswith(MARKER):
            if item is not None:
                sections.append(Section(item, b"".join(body), status))
            name = text[len(MARKER):].strip()
            item, body, status = (name if name_ok(name) else None), [], None
        elif text.startswith(EXIT_MARKER):
            value = text[len(EXIT_MARKER):].strip()
            status = int(value) if value.isascii() and value.isdigit() and len(value) <= 10 else None  # not '²'
        elif item is not None:
            body.append(line)
    if item is not None:
        sections.append(Section(item, b"".join(body), status))
    return sections


def file_name(command: Command) -> str:
    """Driver configuration files keep their `driver-<name>.conf` names."""
    if command.id.startswith("driver-"):
        return f"{command.id}.conf"
    return command.file


def wrapped(command: Command, line: str, privilege: str | None) -> str:
    """The line as sent: privileged tools get `sudo -n` or `pfexec` when asked.
    `sudo -n` never waits for a password: it fails at once instead."""
    if privilege is None or not command.privileged():
        return line
    prefix = {"sudo": "sudo -n", "pfexec": "pfexec"}[privilege]
    if command.id == "ndd-tcp":
        return line.replace("ndd -get", f"{prefix} ndd -get")
    return f"{prefix} {line}"


def every_line() -> set[str]:
    """All command lines advisor may send, in every privilege mode."""
    lines = {DETECT.line}
    for commands in SCRIPT_PLATFORMS.values():
        for c in commands:
            for line in filter(None, (c.line, c.fallback)):
                for privilege in (None, "sudo", "pfexec"):
                    lines.add(wrapped(c, line, privilege))
    return lines
