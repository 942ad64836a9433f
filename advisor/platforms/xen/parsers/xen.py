"""Xen toolstack outputs: `xm|xl vcpu-list`, `xm|xl info`, `xm|xl list`.

vcpu-list headers differ: xl prints `Affinity (Hard / Soft)` with `all / all`,
xm prints `CPU Affinity` with `any cpu` (older xm: `VCPUs`). An offline vCPU
shows CPU `-` and state `--p` (xl) or `---`. Names longer than the column
push the rest right, so rows are read from a pattern, not from positions.

Real listings also carry: a header cut onto a second line anywhere in its
affinity title (by a mail client before `Affinity` or `(Hard / Soft)`, by a
narrow terminal mid-word), and rows wrapped before their
affinity or after xl's `hard /`; Xen console lines `(XEN) ...`
interleaved on a serial console; xl 4.1's `option `j' not supported.` before
an unfiltered listing. A listing that stops on a `libxl:` error is incomplete
(the domains after it are missing) and is refused, not read as whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.errors import ParseError
from advisor.parsers.text import Line, digits, numbered

_ROW = re.compile(r"^(?P<name>\S+)\s+(?P<id>\d+)\s+(?P<vcpu>\d+)\s+(?P<cpu>\d+|-)\s+(?P<state>[-rbp]{3})\s+"
                  r"(?P<time>\d+(?:\.\d+)?)\s+(?P<affinity>\S.*)$")  # the line is stripped: no lazy `.*?\s*$` (quadratic)
# A row a mail client wrapped: cut after Time(s) or after xl's `hard /`, the rest alone on the next line.
_CUT_ROW = re.compile(r"^\S+\s+\d+\s+\d+\s+(?:\d+|-)\s+[-rbp]{3}\s+\d+(?:\.\d+)?(?:\s+\S+\s*/)?$")
_AFFINITY = r"(?:all|any cpu|nodes:[\d,^-]+|\^?\d+(?:-\d+)?(?:,\^?\d+(?:-\d+)?)*)"
_AFFINITY_TAIL = re.compile(rf"^{_AFFINITY}(?:\s*/\s*{_AFFINITY})?$")


@dataclass
class VCpu:
    domain: str
    domid: int
    vcpu: int
    cpu: int | None  # None when offline
    state: str
    hard: str  # affinity as printed: "all", "any cpu", "0-3,^2"
    soft: str | None  # xl only
    line: int

    @property
    def online(self) -> bool:
        return self.cpu is not None and "p" not in self.state


_CONSOLE = re.compile(r"^\(XEN\)\s")  # the hypervisor's console, shown on dom0's serial console
_BAD_OPTION = re.compile(r"^option [`'].+' not supported\.?$")  # xl 4.1 warned, then listed anyway
# The whole header with its blanks taken out: a header cut anywhere (a narrow terminal,
# a mail client, a quoted-printable soft break) is known when its two lines make it.
_WHOLE_HEADER = re.compile(r"NameIDVCPUs?CPUStateTime\(s\)(?:CPU)?Affinity(?:\(Hard/Soft\))?")


def _squashed(text: str) -> str:
    return "".join(text.split())


def _vcpu_header(lines: list) -> tuple[str, int]:
    """The header text without blanks (a wrapped tail joined back) and how many lines it took."""
    text = _squashed(lines[0].text)
    used = 1
    if len(lines) > 1 and (tail := _squashed(lines[1].text)) and _WHOLE_HEADER.fullmatch(text + tail):
        text, used = text + tail, 2  # `Time(s)` + `Affinity (Hard / Soft)`, `Affinity (Ha` + `rd / Soft)` ...
    if not text.startswith("NameID") or "VCPU" not in text or "Affinity" not in text:
        raise ParseError("expected a 'Name ID VCPU CPU State Time(s) ... Affinity' header", line=lines[0].number)
    return text, used


def parse_vcpu_list(text: str) -> list[VCpu]:
    lines = [ln for ln in numbered(text) if ln.text.strip() and not _CONSOLE.match(ln.text.strip())]
    if lines and _BAD_OPTION.match(lines[0].text.strip()):
        lines = lines[1:]
    if not lines:
        raise ParseError("empty output")
    header, used = _vcpu_header(lines)
    xl = "Hard" in header
    out = []
    rows: list[Line | None] = list(lines[used:])
    for i, ln in enumerate(rows):
        if ln is None:
            continue  # the affinity of a wrapped row, read with it
        text = ln.text.strip()
        if _CUT_ROW.match(text) and i + 1 < len(rows) and (nxt := rows[i + 1]) is not None \
                and _AFFINITY_TAIL.match(tail := nxt.text.strip()):
            text, rows[i + 1] = f"{text} {tail}", None
        m = _ROW.match(text)
        if not m:
            if ln.text.startswith("libxl:"):
                raise ParseError("the listing stopped on a libxl error: the domains after it are missing",
                                 line=ln.number)
            raise ParseError("not a vcpu-list row", line=ln.number)
        hard, soft = m.group("affinity").rstrip(), None
        if xl:
            hard, sep, soft = hard.partition(" / ")
            if not sep:
                raise ParseError("xl affinity should read 'hard / soft'", line=ln.number)
        cpu = m.group("cpu")
        out.append(VCpu(m.group("name"), int(m.group("id")), int(m.group("vcpu")), None if cpu == "-" else int(cpu),
                        m.group("state"), hard.strip(), soft.strip() if soft else None, ln.number))
    return out


def cpu_set(affinity: str, nr_cpus: int | None) -> frozenset[int] | None:
    """'0-3,^2' -> {0, 1, 3}; 'all' / 'any cpu' -> every CPU (None when their
    number is unknown); 'nodes:...' (NUMA) is not expanded: None."""
    text = affinity.strip().lower()
    if text in ("all", "any cpu", "any"):
        return frozenset(range(nr_cpus)) if nr_cpus else None
    chosen: set[int] = set()
    excluded: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        target = excluded if part.startswith("^") else chosen
        part = part.lstrip("^")
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            return None
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if hi < lo or hi - lo > 4096:
            return None
        target.update(range(lo, hi + 1))
    if not chosen and excluded and nr_cpus:
        chosen = set(range(nr_cpus))
    return frozenset(chosen - excluded)


@dataclass
class XenInfo:
    values: dict[str, tuple[str, int]]

    def get(self, key: str) -> str | None:
        return self.values[key][0] if key in self.values else None

    def int(self, key: str) -> int | None:
        v = self.get(key)
        return int(v) if v is not None and digits(v) else None


_INFO_KEY = re.compile(r"^(?P<indent>[ \t]*)(?P<key>[a-z_][a-z0-9_]*)[ \t]*:(?P<value>.*)$")
# Values a mail client or a man page wraps onto a line of their own, unindented:
# hw_caps (hex words) and free-text ones (command line, compiler, changeset).
_WRAPS_UNINDENTED = {"hw_caps": re.compile(r"^[0-9a-f]{8}(?::[0-9a-f]{8})*$"),
                     "xen_commandline": re.compile(r"^[\w.,:=/+@-]+(?:\s+[\w.,:=/+@-]+)*$"),
                     "cc_compiler": re.compile(r"^[\w.,()+ -]+$"),
                     "xen_changeset": re.compile(r"^[\w.:+ -]+$")}


# The fields xl and xm info print (tools/xl/xl_info.c; xend's own: system, sockets_per_node, xen_params, node_to_*).
_INFO_KEYS = frozenset(
    "host release version machine nr_cpus max_cpu_id nr_nodes cores_per_socket threads_per_core cpu_mhz hw_caps "
    "virt_caps total_memory free_memory sharing_freed_memory sharing_used_memory outstanding_claims free_cpus "
    "xen_major xen_minor xen_extra xen_version xen_caps xen_scheduler xen_pagesize platform_params xen_changeset "
    "xen_commandline cc_compiler cc_compile_by cc_compile_domain cc_compile_date build_id xend_config_format "
    "system sockets_per_node xen_params max_node_id node_to_cpu node_to_memory node_to_dma32_mem".split())
_HAS_FIELD = re.compile(r"^[ \t]*[a-z_][a-z0-9_]*[ \t]*:(?:[ \t]|$)", re.M)  # not a bare `bfebfbff:...`


def parse_info(text: str) -> XenInfo:
    """`key : value` lines: all of them, those a grep kept, or one `xl info NAME`
    printed (its bare value named in the pasted layer)."""
    if text.strip() and not _HAS_FIELD.search(text):
        raise ParseError("looks like `xl info NAME` for several fields: bare values without their names; run xl info")
    info = _info_lines(text)
    if not info.values.keys() & _INFO_KEYS:  # one is left by any elision or grep
        raise ParseError("no field of xm/xl info (nr_cpus, xen_version, ...): not xm/xl info output")
    nr_cpus = info.int("nr_cpus")
    if nr_cpus is not None and nr_cpus > MAX_CPUS:  # every CPU is a set member when pins are judged: 400 digits took all memory
        raise ParseError(f"nr_cpus of {len(str(nr_cpus)):,} digits; Xen runs on at most {MAX_CPUS:,} CPUs",
                         line=info.values["nr_cpus"][1])
    return info


MAX_CPUS = 16_384  # Xen's NR_CPUS, at its largest


def _info_lines(text: str) -> XenInfo:
    """`key : value` lines; a long value may continue on the next line, indented
    past the keys (xm's man page), or unindented when a mail client wrapped it."""
    values: dict[str, tuple[str, int]] = {}
    last: str | None = None
    indent = 0
    for ln in numbered(text):
        if not ln.text.strip():
            continue
        m = _INFO_KEY.match(ln.text.rstrip())
        if m and (last is None or len(m.group("indent")) <= indent):
            last, indent = m.group("key"), len(m.group("indent"))
            values[last] = ((m.group("value") or "").strip(), ln.number)
            continue
        s = ln.text.strip()
        lead = len(ln.text) - len(ln.text.lstrip())
        wraps = _WRAPS_UNINDENTED.get(last or "")
        if last is not None and (lead > indent or (wraps is not None and wraps.match(s))):
            value, number = values[last]
            values[last] = (f"{value} {s}".strip(), number)
        else:
            raise ParseError(f"not a 'key : value' line: {s[:40]!r}", line=ln.number)
    return XenInfo(values)


@dataclass
class XenDomain:
    name: str
    domid: int | None
    memory_mb: int | None
    vcpus: int | None
    state: str | None
    line: int


_LIST = re.compile(r"^(?P<name>\S+)\s+(?:(?P<id>\d+)\s+)?(?P<mem>\d+)\s+(?P<vcpus>\d+)\s+(?P<state>[-rbpscd]{5,6})\s+"
                   r"(?P<time>[\d.]+)")


def parse_list(text: str) -> list[XenDomain]:
    lines = [ln for ln in numbered(text) if ln.text.strip()]
    if not lines or lines[0].text.split()[:2] != ["Name", "ID"]:
        raise ParseError("expected a 'Name ID Mem VCPUs State Time(s)' header", line=lines[0].number if lines else None)
    out = []
    for ln in lines[1:]:
        m = _LIST.match(ln.text.strip())
        if not m:
            raise ParseError("not an xm/xl list row", line=ln.number)
        out.append(XenDomain(m.group("name"), int(m.group("id")) if m.group("id") else None, int(m.group("mem")),
                             int(m.group("vcpus")), m.group("state"), ln.number))
    return out
