"""The command outputs advisor knows: canonical file names and command lines."""

from __future__ import annotations

import re

# command id -> the command line it is the output of (DESIGN.md, capture bundle).
COMMANDS: dict[str, str] = {
    "uname-a": "uname -a",
    "release": "cat /etc/release",
    "virtinfo": "virtinfo -a",
    "psrinfo-pv": "psrinfo -pv",
    "pkg-entire": "pkg info entire",
    "showrev-p": "showrev -p",
    "ldm-version": "ldm -V",
    "ldm-list-l": "ldm list -l",
    "ldm-list-l-p": "ldm list -l -p",
    "ldm-list": "ldm list",
    "ldm-list-constraints": "ldm list-constraints",
    "ldm-list-constraints-p": "ldm list-constraints -p",
    "ldm-list-io": "ldm list-io",
    "ldm-list-devices": "ldm list-devices -a",
    "ldm-list-bindings-e": "ldm list-bindings -e",
    "ldm-list-constraints-x": "ldm list-constraints -x",
    "plan": "a planned configuration (advisor-plan/1 YAML)",
    "dladm-show-phys": "dladm show-phys",
    "dladm-show-link": "dladm show-link",
    "dladm-show-dev": "dladm show-dev",  # Solaris 10: what show-phys is on 11
    "dladm-show-linkprop": "dladm show-linkprop",
    "dladm-show-phys-h": "dladm show-phys -H",  # rings and groups: known, not yet read by any rule
    "kstat-p": "kstat -p",
    "etc-system": "cat /etc/system",
    "ndd-tcp": "ndd -get /dev/tcp tcp_recv_hiwat tcp_xmit_hiwat tcp_max_buf",
    "ipadm-show-prop-tcp": "ipadm show-prop tcp",
    # Canonical names of other platforms (DESIGN.md); known, not yet read by any rule.
    "xm-vcpu-list": "xm vcpu-list",
    "xl-vcpu-list": "xl vcpu-list",
    "xm-info": "xm info",
    "xl-info": "xl info",
    "xm-list": "xm list",
    "xl-list": "xl list",
    "brctl-show": "brctl show",
    "ip-link": "ip -o link",
    "sysctl-net": "sysctl -a (net.)",
    "lspci-vv": "lspci -vv",
    "lanscan": "lanscan; lanscan -q",
    "lanscan-v": "lanscan -v",
    "lanscan-iap": "lanscan -iap",
    "nwmgr": "nwmgr",
    "nwmgr-apa": "nwmgr -S apa",
}

# Per-instance outputs: `driver-<name>.conf`, `ethtool-k@<if>.txt`, ...
_DRIVER_CONF = re.compile(r"^driver-([a-z0-9_]+)\.conf$")
_PER_INTERFACE = re.compile(r"^(ethtool-[kcigal]|nwmgr-vmtu|nwmgr-attrs|lanadmin-vmtu|lanadmin-g|lanadmin-apa)@([\w.:-]+)\.txt$")


def command_id_for_name(name: str) -> str | None:
    """The command id a canonical bundle file name stands for, or None."""
    if m := _DRIVER_CONF.match(name):
        return f"driver-{m.group(1)}"
    if m := _PER_INTERFACE.match(name):
        return f"{m.group(1)}@{m.group(2)}"
    if name == "ldm-list-constraints-x.xml":
        return "ldm-list-constraints-x"
    if name.endswith(".txt") and name[:-4] in COMMANDS:
        return name[:-4]
    return None


def command_line(command_id: str) -> str:
    if command_id.startswith("driver-"):
        return f"cat /kernel/drv/{command_id[len('driver-'):]}.conf"
    return COMMANDS.get(command_id, command_id)
