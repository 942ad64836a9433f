"""Which command printed a file, judged from its content (for loose files)."""

from __future__ import annotations

import re
from pathlib import Path

_SNIFF_BYTES = 64 * 1024

_KSTAT = re.compile(r"^[A-Za-z_][\w.,-]*:\d+:[^:\t]*:\S[^\t]*?(?:\t|\s+)\S", re.M)
_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("ldm-list-l-p", re.compile(r"\AVERSION\s+\d+\.\d+\s*\n(?:.*\n)*?DOMAIN\|", re.M)),
    ("ldm-list-l", re.compile(r"^NAME\s+STATE\s+FLAGS\s+CONS\s+VCPU\s+MEMORY", re.M)),
    ("ldm-version", re.compile(r"Logical Domains? Manager \(v")),
    ("virtinfo", re.compile(r"^[ \t]*Domain role:|\A\s*VERSION\s+\d+\.\d+\s*\n\s*DOMAINROLE\|", re.M)),
    ("psrinfo-pv", re.compile(r"^The (?:\S+ )?physical processor has", re.M)),
    ("pkg-entire", re.compile(r"^[ \t]*Name:\s*(?:pkg://\w+/)?entire\s*$", re.M)),
    ("pkg-entire", re.compile(r"^[ \t]*(?:pkg://[\w.-]+/)?entire@[\d.]+(?:,[\d.]+)?-[\d.]+", re.M)),  # pkg list -v
    ("pkg-entire", re.compile(r"^[ \t]*NAME \(PUBLISHER\)[ \t]+VERSION[ \t]+IFO[ \t]*\n(?:.*\n)*?"  # pkg list
                              r"[ \t]*entire(?:[ \t]+\([\w.-]+\))?[ \t]+[\d.]+-[\d.]+[ \t]", re.M)),
    ("showrev-p", re.compile(r"\A\s*Patch:\s*\d{6}-\d{2}")),
    ("uname-a", re.compile(r"\A\s*SunOS\s+\S+\s+5\.\d+\s")),
    ("release", re.compile(r"\A\s*(?:(?:Oracle\s+)?Solaris\s+\d+|OpenSolaris\s+20|OpenIndiana\s)")),
    ("dladm-show-phys", re.compile(r"^LINK\s+MEDIA\s+STATE\s+SPEED", re.M)),
    ("dladm-show-dev", re.compile(r"^\S+\s+link:\s*\S+\s+speed:\s*\d+\s*Mbps", re.M)),
    ("dladm-show-linkprop", re.compile(r"^LINK\s+PROPERTY\s+(?:PERM\s+)?VALUE", re.M)),
    ("ipadm-show-prop-tcp", re.compile(r"^PROTO\s+PROPERTY\s+PERM\s+CURRENT", re.M)),
    ("ndd-tcp", re.compile(r"\A\s*tcp_\w+\s*(?:=\s*)?\d+\s*$", re.M)),
    ("etc-system", re.compile(r"^[ \t]*set\s+(?:\w+:)?\w+\s*=", re.M)),
    ("xl-vcpu-list", re.compile(r"^[ \t]*Name\s+ID\s+VCPU\s+CPU\s+State\s+Time\(s\)\s+Affinity\s*\(Hard", re.M)),
    ("xm-vcpu-list", re.compile(r"^[ \t]*Name\s+ID\s+VCPUs?\s+CPU\s+State\s+Time\(s\)\s+CPU\s+Affinity", re.M)),
    ("xl-list", re.compile(r"^[ \t]*Name\s+ID\s+Mem(?:\(MiB\))?\s+VCPUs\s+State\s+Time\(s\)", re.M)),
    # xl first shipped with Xen 4.0: Xen 3 and xend's own fields (system, sockets_per_node, xen_params) are xm's
    ("xm-info", re.compile(r"\A(?=(?:.*\n)*?[ \t]*(?:host|nr_cpus)[ \t]+:)"
                            r"(?=(?:.*\n)*?[ \t]*(?:xen_major[ \t]+:[ \t]*[0-3][ \t]*$|(?:system|sockets_per_node|xen_params)[ \t]+:))",
                            re.M)),
    ("xl-info", re.compile(r"^[ \t]*(?:host|release|nr_cpus|xen_major)\s+:.*\n(?:.*\n)*?[ \t]*(?:nr_cpus|xen_major|xen_version)\s+:",
                            re.M)),
    ("brctl-show", re.compile(r"\A\s*bridge name\s+bridge id\s+STP enabled", re.I)),
    ("ip-link", re.compile(r"\A\s*\d+:\s+[^:\s]+:\s+<[A-Z_,-]*>\s+mtu\s+\d+")),
    ("sysctl-net", re.compile(r"\A\s*net\.[\w.-]+\s*=", re.M)),
    # the whole `sysctl -a`: Linux's top-level names, in order, then net.*
    ("sysctl-net", re.compile(r"\A\s*(?:abi|crypto|debug|dev|fs|kernel|sunrpc|user|vm)\.[\w.-]+\s*=.*\n"
                              r"(?:.*\n)*?net\.[\w.-]+\s*=")),
    ("lspci-vv", re.compile(r"\A(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]\s+[^:\n]+:", re.I)),
    ("uname-a", re.compile(r"\A\s*(?:Linux|HP-UX)\s+\S+\s+\S+")),
    ("lanscan-v", re.compile(r"\A\s*-{20,}\s*\nHardware Station")),
    ("lanscan", re.compile(r"\A\s*Hardware Station\s+Crd\s+Hdw")),
    # `lanscan -q` alone: PPA numbers only, one interface a line; an aggregate's line
    # (lan900 and up) lists its members after it, and is what tells this from other numbers
    ("lanscan", re.compile(r"\A(?=(?>[ \t]*(?:\d+(?:[ \t]+\d+)*[ \t]*)?(?:\n|\Z))*+\Z)"  # numbers only
                           r"(?>[^\n]*\n)*?[ \t]*9\d\d(?:[ \t]+\d{1,3})+[ \t]*(?:\n|\Z)")),
    ("nwmgr", re.compile(r"^[ \t]*=+(?:[ \t]+=+){3,}[ \t]*\n[ \t]*[a-z]+\d+\s+\S+\s+0x[0-9A-Fa-f]+\s", re.M)),
    ("release", re.compile(r"^(?:NAME|PRETTY_NAME)=", re.M)),
    ("plan", re.compile(r"^format:\s*['\"]?advisor-plan/\d", re.M)),
    ("ldm-list-constraints-x", re.compile(r"\A\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*"
                                         r"(?:<!DOCTYPE\s+(?:\w+:)?(?:Envelope|LDM_interface)\b|<(?:\w+:)?(?:Envelope|LDM_interface)\b)", re.S)),
]

_PER_INTERFACE = [("ethtool-k", re.compile(r"^(?:Features|Offload parameters) for ([A-Za-z0-9_.:-]+):", re.M)),
                  ("ethtool-c", re.compile(r"^Coalesce parameters for ([A-Za-z0-9_.:-]+):", re.M)),
                  ("nwmgr-attrs", re.compile(r"\A\s*(lan\d+) current values\s*:?\s*$", re.M))]


def identify_text(head: str) -> str | None:
    if _KSTAT.search(head.split("\n", 1)[0] + "\n"):
        return "kstat-p"
    for command_id, pattern in _PER_INTERFACE:  # the id names the interface
        if m := pattern.search(head):
            return f"{command_id}@{m.group(1)}"
    for command_id, pattern in _RULES:
        if pattern.search(head):
            return command_id
    if re.match(r"\A[^:\n]+:[^:\n]+:[^:\n]*:", head) and re.search(r"^\S+:(mtu|cpus|rxfanout|rx-fanout|speed):", head, re.M):
        return "dladm-show-linkprop"  # `-c -o link,property,...` form
    return None


def identify(path: Path) -> str | None:
    with path.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    if b"\0" in head:
        return None
    return identify_text(head.decode("utf-8", errors="replace"))
