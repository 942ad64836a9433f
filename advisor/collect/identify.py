"""Which command printed a file, judged from its content (for loose files)."""

from __future__ import annotations

import re
from pathlib import Path

_SNIFF_BYTES = 64 * 1024


class LazyPattern:
    """A pattern compiled when first tried: a file is known by one of the first
    few, and compiling all forty cost a review a few percent of its start."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, *args: object) -> None:
        self._args = args
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(*self._args)  # type: ignore[call-overload]
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled.search(text)


_KSTAT = re.compile(r"^[A-Za-z_][\w.,-]*:\d+:[^:\t]*:\S[^\t]*?(?:\t|\s+)\S", re.M)
_RULES: list[tuple[str, LazyPattern]] = [
    ("ldm-list-constraints-p", LazyPattern(r"\AVERSION[ \t]+\d+\.\d+[ \t]*\nDOMAIN\|name=[^|\n]*\|?[ \t]*$", re.M)),
    ("ldm-list-l-p", LazyPattern(r"\AVERSION\s+\d+\.\d+\s*\n(?:.*\n)*?DOMAIN\|", re.M)),
    # the short `ldm list`: its header and rows of several words, no section
    ("ldm-list", LazyPattern(r"\A[ \t\n]*NAME[ \t]+STATE[ \t]+FLAGS[ \t]+CONS[ \t]+VCPU[ \t]+MEMORY[^\n]*\n"
                           r"(?:\S+[ \t]+\S[^\n]*(?:\n|\Z)|[ \t]*\n)*\Z")),
    ("ldm-list-constraints", LazyPattern(r"\A\s*DOMAIN[ \t]*\n[ \t]*[\w.-]+[ \t]*\n")),
    ("ldm-list-io", LazyPattern(r"^[ \t]*NAME[ \t]+TYPE[ \t]+BUS[ \t]+DOMAIN[ \t]+STATUS[ \t]*$", re.M)),
    ("ldm-list-l", LazyPattern(r"^NAME\s+STATE\s+FLAGS\s+CONS\s+VCPU\s+MEMORY", re.M)),
    ("ldm-version", LazyPattern(r"Logical Domains? Manager \(v")),
    ("ldm-list-devices", LazyPattern(r"^(?:CORE|VCPU)[ \t]*\n[ \t]*(?:ID[ \t]+%FREE[ \t]+CPUSET|PID[ \t]+%FREE\b|\|(?:c|p)id=\d+\|free=)"
                                     r"|^MEMORY[ \t]*\n(?:[ \t]*PA[ \t]+SIZE\b|\|pa=0x[0-9a-f]+\|size=\d+)", re.M)),
    ("virtinfo", LazyPattern(r"^[ \t]*Domain role:|\A\s*VERSION\s+\d+\.\d+\s*\n\s*DOMAINROLE\|", re.M)),
    ("psrinfo-pv", LazyPattern(r"^The (?:\S+ )?physical processor has", re.M)),
    ("pkg-entire", LazyPattern(r"^[ \t]*Name:\s*(?:pkg://\w+/)?entire\s*$", re.M)),
    ("pkg-entire", LazyPattern(r"^[ \t]*(?:pkg://[\w.-]+/)?entire@[\d.]+(?:,[\d.]+)?-[\d.]+", re.M)),  # pkg list -v
    ("pkg-entire", LazyPattern(r"^[ \t]*NAME \(PUBLISHER\)[ \t]+VERSION[ \t]+IFO[ \t]*\n(?:.*\n)*?"  # pkg list
                             r"[ \t]*entire(?:[ \t]+\([\w.-]+\))?[ \t]+[\d.]+-[\d.]+[ \t]", re.M)),
    ("showrev-p", LazyPattern(r"\A\s*Patch:\s*\d{6}-\d{2}")),
    ("uname-a", LazyPattern(r"\A\s*SunOS\s+\S+\s+5\.\d+\s")),
    ("release", LazyPattern(r"\A\s*(?:(?:Oracle\s+)?Solaris\s+\d+|OpenSolaris\s+20|OpenIndiana\s)")),
    ("dladm-show-phys", LazyPattern(r"^LINK\s+MEDIA\s+STATE\s+SPEED", re.M)),
    ("dladm-show-dev", LazyPattern(r"^\S+\s+link:\s*\S+\s+speed:\s*\d+\s*Mbps", re.M)),
    ("dladm-show-linkprop", LazyPattern(r"^LINK\s+PROPERTY\s+(?:PERM\s+)?VALUE", re.M)),
    ("dladm-show-linkprop", LazyPattern(r'^[ \t]*LINK="[^"\n]*"[ \t]+PROPERTY="', re.M)),  # Solaris 10 -c
    ("dladm-show-phys-h", LazyPattern(r"^[ \t]*LINK[ \t]+(?:RINGTYPE[ \t]+RINGS|GROUP[ \t]+TYPE[ \t]+NUM-RINGS)[ \t]+CLIENTS",
                                     re.M)),
    ("ipadm-show-prop-tcp", LazyPattern(r"^PROTO\s+PROPERTY\s+PERM\s+CURRENT", re.M)),
    ("ndd-tcp", LazyPattern(r"\A\s*tcp_\w+\s*(?:=\s*)?\d+\s*$", re.M)),
    ("etc-system", LazyPattern(r"^[ \t]*set\s+(?:\w+:)?\w+\s*=", re.M)),
    ("xl-vcpu-list", LazyPattern(r"^[ \t]*Name\s+ID\s+VCPU\s+CPU\s+State\s+Time\(s\)\s+Affinity\s*\(Hard", re.M)),
    ("xm-vcpu-list", LazyPattern(r"^[ \t]*Name\s+ID\s+VCPUs?\s+CPU\s+State\s+Time\(s\)\s+CPU\s+Affinity", re.M)),
    ("xl-list", LazyPattern(r"^[ \t]*Name\s+ID\s+Mem(?:\(MiB\))?\s+VCPUs\s+State\s+Time\(s\)", re.M)),
    # xl first shipped with Xen 4.0: Xen 3 and xend's own fields (system, sockets_per_node, xen_params) are xm's
    ("xm-info", LazyPattern(r"\A(?=(?:.*\n)*?[ \t]*(?:host|nr_cpus)[ \t]+:)"
                           r"(?=(?:.*\n)*?[ \t]*(?:xen_major[ \t]+:[ \t]*[0-3][ \t]*$|(?:system|sockets_per_node|xen_params)[ \t]+:))",
                           re.M)),
    # the first line that may open the listing is taken once (atomic): a later one finds a subset of what follows it
    ("xl-info", LazyPattern(r"\A(?>(?:.*\n)*?[ \t]*(?:host|release|nr_cpus|xen_major)[ \t]+:.*\n)"
                            r"(?:.*\n)*?[ \t]*(?:nr_cpus|xen_major|xen_version)[ \t]+:")),
    ("brctl-show", LazyPattern(r"\A\s*bridge name\s+bridge id\s+STP enabled", re.I)),
    ("ip-link", LazyPattern(r"\A\s*\d+:\s+[^:\s]+:\s+<[A-Z_,-]*>\s+mtu\s+\d+")),
    ("sysctl-net", LazyPattern(r"\A\s*net\.[\w.-]+\s*=", re.M)),
    # the whole `sysctl -a`: Linux's top-level names, in order, then net.*
    ("sysctl-net", LazyPattern(r"\A\s*(?:abi|crypto|debug|dev|fs|kernel|sunrpc|user|vm)\.[\w.-]+\s*=.*\n"
                             r"(?:.*\n)*?net\.[\w.-]+\s*=")),
    ("lspci-vv", LazyPattern(r"\A(?:[0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]\s+[^:\n]+:", re.I)),
    ("uname-a", LazyPattern(r"\A\s*(?:Linux|HP-UX)\s+\S+\s+\S+")),
    ("lanscan-v", LazyPattern(r"\A\s*-{20,}\s*\nHardware Station")),
    ("lanscan", LazyPattern(r"\A\s*Hardware Station\s+Crd\s+Hdw")),
    ("lanscan-iap", LazyPattern(r"\A\s*(?:0x[0-9A-Fa-f]{12}[ \t]+)?lan\d+(?:[ \t]+snap\d+)?(?:[ \t]+\d+)?[ \t]*$", re.M)),
    # `lanscan -q` alone: PPA numbers only, one interface a line; an aggregate's line
    # (lan900 and up) lists its members after it, and is what tells this from other numbers
    ("lanscan", LazyPattern(r"\A(?=(?>[ \t]*(?:\d+(?:[ \t]+\d+)*[ \t]*)?(?:\n|\Z))*+\Z)"  # numbers only
                          r"(?>[^\n]*\n)*?[ \t]*9\d\d(?:[ \t]+\d{1,3})+[ \t]*(?:\n|\Z)")),
    ("nwmgr-apa", LazyPattern(r"^[ \t]*Class[ \t][^\n]*\n[ \t]*Instance[ \t][^\n]*\n[ \t]*=+(?:[ \t]+=+){3,}[ \t]*\n"
                            r"[ \t]*lan\d+[ \t]", re.M)),
    ("nwmgr", LazyPattern(r"^[ \t]*=+(?:[ \t]+=+){3,}[ \t]*\n[ \t]*[a-z]+\d+\s+\S+\s+0x[0-9A-Fa-f]+\s", re.M)),
    ("release", LazyPattern(r"^(?:NAME|PRETTY_NAME)=", re.M)),
    ("plan", LazyPattern(r"^format:\s*['\"]?advisor-plan/\d", re.M)),
    ("ldm-list-constraints-x", LazyPattern(r"\A\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*+"  # possessive: comments never re-split
                                        r"(?:<!DOCTYPE\s+(?:\w+:)?(?:Envelope|LDM_interface)\b|<(?:\w+:)?(?:Envelope|LDM_interface)\b)", re.S)),
]

_PER_INTERFACE: list[tuple[str, LazyPattern]] = [
    ("ethtool-k", LazyPattern(r"^(?:Features|Offload parameters) for ([A-Za-z0-9_.:-]+):", re.M)),
    ("ethtool-c", LazyPattern(r"^Coalesce parameters for ([A-Za-z0-9_.:-]+):", re.M)),
    ("ethtool-a", LazyPattern(r"^Pause parameters for ([A-Za-z0-9_.:-]+):", re.M)),  # -a, -g, -l: read by no rule yet
    ("ethtool-g", LazyPattern(r"^Ring parameters for ([A-Za-z0-9_.:-]+):", re.M)),
    ("ethtool-l", LazyPattern(r"^Channel parameters for ([A-Za-z0-9_.:-]+):", re.M)),
    ("nwmgr-attrs", LazyPattern(r"\A\s*(lan\d+) current values\s*:?\s*$", re.M)),
    ("lanadmin-g", LazyPattern(r"^[ \t]*LAN INTERFACE STATUS DISPLAY[ \t]*\n(?:[^\n]*\n){0,4}?[ \t]*PPA Number[ \t]*=[ \t]*(\d+)", re.M)),
    ("lanadmin-apa", LazyPattern(r"^[ \t]*(?:Link Aggregate PPA #|\[0\] ppa)[ \t]*:[ \t]*(\d+)[ \t]*$", re.M)),
]


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


def _head(path: Path) -> str | None:
    with path.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    return None if b"\0" in head else head.decode("utf-8", errors="replace")


def identify(path: Path) -> str | None:
    head = _head(path)
    return None if head is None else identify_text(head)


def identify_among(path: Path, choices: set[str]) -> str | None:
    """Which of these commands printed the file, trying only their patterns."""
    head = _head(path)
    if head is None:
        return None
    return next((command_id for command_id, pattern in _RULES if command_id in choices and pattern.search(head)), None)
