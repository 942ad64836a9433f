"""Every command live collection can ever send, per platform.

Command lines are constants: nothing from the user or from captured output is
ever put into them, so no shell string is built from input. The same table
writes the offline collector script.
"""

from __future__ import annotations

from dataclasses import dataclass

# Read-only tools that need privileges on Solaris (solaris.ldoms.read, root).
PRIVILEGED = {"ldm", "ndd"}


@dataclass(frozen=True)
class Command:
    id: str  # command id: the bundle file is <id>.txt (DESIGN.md)
    line: str  # exactly what is sent
    fallback: str | None = None  # sent instead when `line` fails (older releases)

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

# `uname -s` -> platform -> the commands collected there. Platforms other than
# Solaris get their command sets with their rules.
PLATFORMS: dict[str, tuple[str, tuple[Command, ...]]] = {
    "SunOS": ("solaris", SOLARIS),
}


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
    for _platform, commands in PLATFORMS.values():
        for c in commands:
            for line in filter(None, (c.line, c.fallback)):
                for privilege in (None, "sudo", "pfexec"):
                    lines.add(wrapped(c, line, privilege))
    return lines
