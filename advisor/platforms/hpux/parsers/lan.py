"""HP-UX LAN outputs: `lanscan` and `lanscan -v` (either with `lanscan -q` appended),
`lanscan -iap`, `nwmgr -g -A vmtu -c lanN` (11i v3) and `lanadmin -x vmtu PPA` (11i v1/v2),
the plain `nwmgr` listing and `nwmgr -g -A all -c lanN` (11i v3), `lanadmin -g PPA`
(the MIB status display) and the APA displays of `lanadmin -x -i|-v|-m PPA`.

lanscan rows are read by pattern: long hardware paths push the columns right,
APA aggregates show `LinkAgg<N>` instead of a path. `lanscan -q` prints one
line per PPA, an aggregate's PPA followed by its members' PPAs.

Every parser here reads a non-breaking space (web pages put them between
columns) as a space, and a shell prompt with nothing typed after the output
(`root@sap01:~#`) as the end of the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from advisor.collect.capture import RawOutput
from advisor.errors import ParseError
from advisor.parsers.text import Line, digits, numbered

_ROW = re.compile(r"^(?P<path>\S+)\s+(?P<mac>0x[0-9A-Fa-f]{12})\s+(?P<card>\d+)\s+(?P<state>UP|DOWN|\S+)\s+"
                  r"(?P<name>lan\d+)(?:\s+(?P<snap>snap\d+))?\s+(?P<nmid>\d+)\s+(?P<type>\S+)\s+(?P<dlpi>\S+)\s+(?P<major>\d+)\s*$")
_QUIET = re.compile(r"^\d+(?:\s+\d+)*$")
FIRST_APA_PPA = 900  # APA aggregates and failover groups are lan900 and up
_END_PROMPT = re.compile(r"^(?:[^\s@]+@\S+?|\[[^\]\n]*\][^#$\n]*|[\w.-]+(?::\S*)?)?[ \t]*[#$%>][ \t]*$")


def _lines(text: str) -> list[Line]:
    """Numbered lines, a non-breaking space read as a space, without the empty
    prompt lines that end a copied terminal session."""
    lines = numbered(text.replace("\u00a0", " "))
    while lines and (not lines[-1].text.strip() or _END_PROMPT.match(lines[-1].text.strip())):
        lines.pop()
    return lines


@dataclass
class LanCard:
    name: str  # lanN: its PPA is N
    ppa: int
    hw_path: str | None  # None: lanscan -iap prints no path
    state: str | None  # None: lanscan -iap prints no state
    is_aggregate: bool
    line: int


@dataclass
class Lanscan:
    cards: list[LanCard]
    members: dict[int, list[int]] = field(default_factory=dict)  # aggregate PPA -> member PPAs (lanscan -q)
    quiet_line: dict[int, int] = field(default_factory=dict)
    quiet_seen: bool = False  # the lanscan -q part was there (else membership is unknown)
    drivers: dict[str, tuple[str, int]] = field(default_factory=dict)  # lanN -> (driver, line), from -v blocks
    verbose: bool = False  # the -v form: one block per interface between dashed rules


_RULE = re.compile(r"^-{20,}$")
_EXTENDED = re.compile(r"^0x[0-9A-Fa-f]+(?:\s+[A-Z][A-Z0-9]*)*$")  # extended station address, LLC methods
_DRIVER = re.compile(r"^([a-z][a-z0-9_]*?)\d*$")


def parse_lanscan(text: str) -> Lanscan:
    """Whatever lanscan printed, whatever file holds it: the plain table, the
    -v form (a dashed rule, the table header and one row, then `Extended
    Station` and `Driver Specific Information` sections, per interface), and
    `lanscan -q` lines appended to either. The driver is the first line under
    `Driver Specific Information` (`iether`, `btlan3`), without its instance
    number; further lines of that section are driver-specific and skipped.
    A file of `lanscan -q` lines alone lists no interfaces, only membership."""
    lines = [ln for ln in _lines(text) if ln.text.strip()]
    first = lines[0].text.strip() if lines else ""
    if not (first.split()[:2] == ["Hardware", "Station"] or _RULE.match(first) or _QUIET.match(first)):
        raise ParseError("expected lanscan output: the 'Hardware Station  Crd Hdw ...' header, "
                         "the dashed rule that starts lanscan -v, or lanscan -q's PPA numbers",
                         line=lines[0].number if lines else None)
    result = Lanscan(cards=[])
    header = False
    current: str | None = None  # the -v block's interface
    section: str | None = None  # in a -v block: extended, driver, driver-info
    for ln in lines:
        s = ln.text.strip()
        if _RULE.match(s):
            result.verbose, current, section = True, None, None
            continue
        if s.split()[:2] == ["Hardware", "Station"]:
            header = True
            continue
        if header and s.startswith("Path") and "Address" in s:
            continue
        if header and (m := _ROW.match(s)):
            name, path = m.group("name"), m.group("path")
            if all(c.name != name for c in result.cards):  # -v after the plain table repeats the rows
                result.cards.append(LanCard(name, int(name[3:]), path, m.group("state"),
                                            path.startswith("LinkAgg") or int(name[3:]) >= FIRST_APA_PPA, ln.number))
            current, section = (name, None) if result.verbose else (None, None)
            continue
        if current is not None:
            if s.startswith("Extended Station"):
                section = "extended"
                continue
            if section == "extended" and (s.split()[:2] == ["Address", "Methods"] or _EXTENDED.match(s)):
                continue
            if s.startswith("Driver Specific Information"):
                section = "driver"
                continue
            if section == "driver":
                if m := _DRIVER.match(s):
                    result.drivers[current] = (m.group(1), ln.number)
                section = "driver-info"
                continue
        if _QUIET.match(s):
            ppas = [int(p) for p in s.split()]
            result.quiet_seen = True
            # an aggregate's PPA, then its members' (`900 5 6 8 7`); an aggregate with
            # none is alone on its line (`901`), as a port in no aggregate is (`2`)
            if len(ppas) > 1 or ppas[0] >= FIRST_APA_PPA:
                result.members[ppas[0]] = ppas[1:]
                result.quiet_line[ppas[0]] = ln.number
            continue
        if section == "driver-info":
            continue
        raise ParseError(f"not a lanscan row: {s[:40]!r}", line=ln.number)
    if not result.cards and not result.quiet_seen:
        raise ParseError("no LAN interfaces listed")
    return result


def parse_lanscan_v(text: str) -> Lanscan:
    """`lanscan -v`; any other lanscan form in that file is read as what it is."""
    return parse_lanscan(text)


# `lanscan -iap` (-a station address, -i interface names, -p PPA; no headings):
# `0x0017A47708A4 lan1 snap1     1`; -i alone prints the names only.
_IAP = re.compile(r"^(?:0x[0-9A-Fa-f]{12}[ \t]+)?(?P<name>lan\d+)(?:[ \t]+snap\d+)?(?:[ \t]+(?P<ppa>\d+))?$")
_MAC_ONLY = re.compile(r"^0x[0-9A-Fa-f]+$")


def parse_lanscan_iap(text: str) -> Lanscan:
    """`lanscan -iap`, `-ia`, `-ip` or `-i`: one line per interface, its names
    and, with -p, its PPA. No path, state or driver: those stay unknown."""
    lines = [ln for ln in _lines(text) if ln.text.strip()]
    cards: list[LanCard] = []
    for ln in lines:
        s = ln.text.strip()
        if (m := _IAP.match(s)) is None:
            raise ParseError(_iap_refusal(s), line=ln.number)
        name = m.group("name")
        ppa = int(m.group("ppa") or name[3:])
        cards.append(LanCard(name, ppa, None, None, ppa >= FIRST_APA_PPA, ln.number))
    if not cards:
        raise ParseError("no LAN interfaces listed")
    return Lanscan(cards=cards)


def _iap_refusal(line: str) -> str:
    if _MAC_ONLY.match(line):
        return "looks like `lanscan -a`: station addresses only, no interface names; run lanscan -iap"
    if _QUIET.match(line):
        return "looks like `lanscan -p` or `lanscan -q`: PPA numbers only, no interface names; run lanscan -iap"
    return f"not a lanscan -iap line (address, interface names, PPA): {line[:40]!r}"


@dataclass
class Vmtu:
    vmtu: int | None
    tso_supported: bool | None
    line: int


def parse_vmtu(text: str) -> Vmtu:
    """nwmgr: 'Driver/Hardware supports TCP Segmentation Offload. Current VMTU = 32160';
    lanadmin prints the same kind of sentence. 0 means TSO is off."""
    supported: bool | None = None
    for ln in _lines(text):
        s = ln.text.strip()
        if re.search(r"does not support TCP Segmentation Offload|TSO (?:is )?not supported", s, re.I):
            supported = False
        elif re.search(r"supports TCP Segmentation Offload", s, re.I):
            supported = True
        if m := re.search(r"VMTU\s*[=:]\s*(\d+)", s, re.I):
            return Vmtu(int(m.group(1)), supported, ln.number)
    if supported is False:
        return Vmtu(None, False, 1)
    raise ParseError("no 'VMTU = N' value")


@dataclass
class NwmgrRow:
    name: str  # class instance: lanN
    state: str
    station: str
    subsystem: str  # the driver, or hp_apa for an aggregate
    type: str
    related: str | None
    line: int


_NWMGR_RULE = re.compile(r"^\s*=+(?:\s+=+){3,}\s*$")
_NWMGR_ROW = re.compile(r"^(?P<name>[a-z]+\d+)\s+(?P<state>\S+)\s+(?P<station>0x[0-9A-Fa-f]+)\s+"
                        r"(?P<subsystem>[A-Za-z][\w-]*)\s+(?P<type>\S+)(?:\s+(?P<related>\S.*?))?\s*$")


def parse_nwmgr_list(text: str) -> list[NwmgrRow]:
    """The table plain `nwmgr` prints on 11i v3: column headings, a rule of
    `=` runs, then one row per interface (lanN, state, station address,
    subsystem, interface type, and any related interface after). No published
    output showing the headings was found, so the rule line is the anchor and
    what stands above it is not read."""
    rows: list[NwmgrRow] = []
    for ln in _under_rule(text, "nwmgr table", "interfaces"):
        m = _NWMGR_ROW.match(s := ln.text.strip())
        if m is None:
            raise ParseError(f"not an nwmgr interface row: {s[:40]!r}", line=ln.number)
        rows.append(NwmgrRow(m.group("name"), m.group("state"), m.group("station"), m.group("subsystem"),
                             m.group("type"), m.group("related"), ln.number))
    return rows


def _under_rule(text: str, table: str, what: str) -> list[Line]:
    """The non-blank lines under an nwmgr table's rule of `=` runs."""
    lines = _lines(text)
    start = next((ln.number for ln in lines if _NWMGR_RULE.match(ln.text)), None)
    if start is None:
        raise ParseError(f"expected the {table}: a line of '=' runs under the column headings")
    rows = [ln for ln in lines[start:] if ln.text.strip()]
    if not rows:
        raise ParseError(f"no {what} listed under the {table} rule", line=start)
    return rows


@dataclass
class ApaRow:
    name: str  # lanN: the aggregate or failover group
    members: list[int]  # its ports' PPAs (a star marks one that is down)
    line: int


_LAN_NAME = re.compile(r"^lan\d+$")
_MEMBERSHIP = re.compile(r"^(?:-|\d+\*?(?:,\d+\*?)*)$")


def parse_nwmgr_apa(text: str) -> list[ApaRow]:
    """The APA tables of 11i v3: `nwmgr -S apa` (Class Instance, Mode, Load
    Balancing, Speed-Duplex, Membership) and `nwmgr -S apa -I N` (Parent PPA,
    APA State, Mode, Load Balancing, Membership): headings, a rule of `=`
    runs, one row per aggregate whose last column lists its ports (`0,1`, `-`)."""
    rows: list[ApaRow] = []
    for ln in _under_rule(text, "nwmgr APA table", "aggregates"):
        words = ln.text.split()
        if len(words) < 3 or not _LAN_NAME.match(words[0]) or not _MEMBERSHIP.match(words[-1]):
            raise ParseError(f"not an nwmgr APA row (lanN ... membership): {ln.text.strip()[:40]!r}", line=ln.number)
        rows.append(ApaRow(words[0], [int(p) for p in re.findall(r"\d+", words[-1])], ln.number))
    return rows


@dataclass
class NwmgrAttrs:
    instance: str | None  # the lanN of the "lanN current values:" heading
    values: dict[str, tuple[str, int]]  # display name as printed -> (value, line)
    more: dict[str, list[tuple[str, int]]] = field(default_factory=dict)  # a list's further values (Features)


_ATTR_HEADING = re.compile(r"^(?P<name>[a-z]+\d+)\s+current values\s*:?\s*$", re.I)
_ATTR = re.compile(r"^(?P<key>[A-Za-z][^=]*+)=(?P<value>.*)$")  # stripped in code: lazy `.*?\s*$` is quadratic
# A further value of a list attribute, alone on its line: `IPV4 Recv CKO`, `64Bit MIB Support`.
_MORE = re.compile(r"^(?=.*[A-Za-z])[A-Za-z0-9][\w ./()+,-]*$")


def parse_nwmgr_attrs(text: str) -> NwmgrAttrs:
    """`nwmgr -g -A ... -c lanN` (or `nwmgr -g -S apa -I N -v`): a `lanN
    current values:` heading, then one `Display Name = value` line per
    attribute (`Speed = 1 Gbps Full Duplex (Autonegotiation : On)`). A list
    attribute prints its further values on lines of their own under it
    (`Features = Linkagg Interface`, then `IPV4 Recv CKO`, ...); they are kept
    in `more`. Blank lines are skipped; any other line is an error."""
    instance: str | None = None
    values: dict[str, tuple[str, int]] = {}
    more: dict[str, list[tuple[str, int]]] = {}
    last: str | None = None  # the attribute a value alone on its line continues
    for ln in _lines(text):
        s = ln.text.strip()
        if not s:
            last = None
        elif m := _ATTR_HEADING.match(s):
            if instance is not None and m.group("name") != instance:
                raise ParseError(f"a second interface ({m.group('name')}) in one nwmgr attribute file", line=ln.number)
            instance, last = m.group("name"), None
        elif m := _ATTR.match(s):
            last = m.group("key").rstrip()
            values.setdefault(last, (m.group("value").strip(), ln.number))
        elif last is not None and _MORE.match(s):
            more.setdefault(last, []).append((s, ln.number))
        else:
            raise ParseError(f"not an nwmgr attribute line: {s[:40]!r}", line=ln.number)
    if not values:
        raise ParseError("no 'Name = value' attribute lines (expected nwmgr -g -A ... -c lanN output)")
    return NwmgrAttrs(instance, values, more)


_SPEED = re.compile(r"^(?P<num>\d+(?:\.\d+)?)\s*(?P<unit>[MG])bps\b(?:\s+(?P<duplex>Full|Half)[ -]Duplex)?"
                    r"(?:.*?\(Autonegotiation\s*:\s*(?P<auto>On|Off)\))?", re.I)


@dataclass(frozen=True)
class Speed:
    mbps: int
    duplex: str | None  # "full" or "half"
    autonegotiation: bool | None


def parse_speed(value: str) -> Speed | None:
    """`1 Gbps Full Duplex (Autonegotiation : On)`, `100 Mbps Half Duplex`;
    None for anything else (a link that is down prints no speed we can use)."""
    m = _SPEED.match(value.strip())
    if m is None:
        return None
    mbps = float(m.group("num")) * (1000 if m.group("unit").upper() == "G" else 1)
    if mbps > 1e12:  # 400 digits make infinity, which int() refuses: no link is that fast
        return None
    auto = m.group("auto")
    return Speed(int(mbps), m.group("duplex").lower() if m.group("duplex") else None,
                 None if auto is None else auto.lower() == "on")


_MIB_HEADING = "LAN INTERFACE STATUS DISPLAY"
_PRESS = re.compile(r"^Press\b.*\bcontinue\b", re.I)  # between the status and the statistics groups
_GROUP = re.compile(r"^[A-Za-z][\w -]* Group$")  # `Ethernet-like Statistics Group`


@dataclass
class LanMib:
    """`lanadmin -g PPA` (or `-g mibstats PPA`, or `display` in menu mode): the
    interface's MIB-II status and counters."""
    ppa: int
    values: dict[str, tuple[str, int]]  # name as printed, without ` (value)` -> (value, line)
    date: str | None = None  # the line under the heading (`Mon, May 23,2011  12:01:08`, local time), as printed
    date_line: int | None = None
    taken_at: float | None = None  # POSIX seconds the manifest says it was read (a sampled output), if it says

    def number(self, name: str) -> int | None:
        value = self.values.get(name, ("", 0))[0]
        return int(value) if digits(value) else None

    def status(self, name: str) -> str | None:
        """`up(1)` -> `up`."""
        value = self.values.get(name, ("", 0))[0]
        return value.split("(", 1)[0].strip().lower() or None

    def line(self, name: str) -> int:
        return self.values[name][1]


def parse_lanadmin_mib(text: str) -> LanMib:
    """From the `LAN INTERFACE STATUS DISPLAY` heading: its date line, the
    `Name = value` status block, then statistics groups under headings of
    their own (`Ethernet-like Statistics Group`), `Press <Return> to continue`
    between them in menu mode. What stands before the heading (a command line,
    lanadmin's menu) is not read; the display ends at the first line that is
    neither a value of an open block nor a group heading (the menu again)."""
    lines = _lines(text)
    start = next((i for i, ln in enumerate(lines) if ln.text.strip() == _MIB_HEADING), None)
    if start is None:
        raise ParseError(f"expected lanadmin -g output: the '{_MIB_HEADING}' heading")
    values: dict[str, tuple[str, int]] = {}
    date: tuple[str, int] | None = None
    dated = after_value = False
    open_block = True  # a `Name = value` line here belongs to the display
    for ln in lines[start + 1:]:
        s = ln.text.strip()
        m = _ATTR.match(s)
        if not s:
            open_block = open_block and not after_value  # a blank line closes a block of values
            after_value = False
        elif not values and m is None and not dated:
            dated = True  # the date under the heading
            date = (s, ln.number)
        elif _PRESS.match(s) or _GROUP.match(s):
            open_block = True
        elif m is not None and open_block:
            key = m.group("key").rstrip().removesuffix("(value)").rstrip()
            values.setdefault(key, (m.group("value").strip(), ln.number))
            after_value = True
        elif values:
            break
        else:
            raise ParseError(f"not a lanadmin status line: {s[:40]!r}", line=ln.number)
    ppa = values.get("PPA Number", ("", 0))[0]
    if not digits(ppa):
        raise ParseError("no 'PPA Number = N' line under the status display heading", line=lines[start].number)
    return LanMib(int(ppa), values, *(date or (None, None)))


def parse_lanadmin_mib_output(output: RawOutput) -> LanMib:
    """parse_lanadmin_mib, with the time the manifest gives the reading (--sample)."""
    mib = parse_lanadmin_mib(output.text())
    mib.taken_at = getattr(output, "taken_at", None)  # a bare text (fuzzing) has none
    return mib


@dataclass
class ApaGroup:
    ppa: int  # the link aggregate or failover group
    members: list[int]  # its ports' PPAs
    mode: str | None  # MANUAL, LAN_MONITOR, LACP_AUTO, FEC_AUTO (-x -v: `LINKAGG MANUAL`)
    line: int


# `Link Aggregate PPA # : 900`, `Port(s) not ready : 5 6`; -x -m: `[0] ports : 4`
_APA_LINE = re.compile(r"^(?:\[(?P<index>\d+)\][ \t]*)?(?P<key>[A-Za-z][^:]*+):(?P<value>.*)$")
_APA_OTHER = re.compile(r"^(?:-+|Number of elements[ \t]*=[ \t]*\d+)$")
_APA_PPA = {"link aggregate ppa #", "ppa"}
_APA_MEMBERS = {"active ports ppa #", "port(s) ready", "port(s) not ready", "ports ppa", "ports"}
_APA_MODE = {"link aggregation mode", "link aggregation state"}


def parse_lanadmin_apa(text: str) -> list[ApaGroup]:
    """HP APA's lanadmin displays (11i v1/v2): `-x -i PPA` (mode, load balancing,
    active, ready and not ready ports), `-x -v PPA` (`Ports PPA : 0 1`) and
    `-x -m PPA` (every aggregate: `[N] ppa`, `[N] ports`, dashed rules). A
    group's members are all its ports, whatever their state; the ports
    connected to the active one are a subset and add none."""
    groups: list[ApaGroup] = []
    for ln in _lines(text):
        s = ln.text.strip()
        if not s or _APA_OTHER.match(s):
            continue
        m = _APA_LINE.match(s)
        if m is None:
            raise ParseError(f"not a lanadmin APA line ('Name : value'): {s[:40]!r}", line=ln.number)
        key, value = " ".join(m.group("key").lower().split()), m.group("value").strip()
        if m.group("index") is None and not m.group("key")[0].isupper():  # `lanadmin: ...`, a prompt
            raise ParseError(f"not a lanadmin APA line ('Name : value'): {s[:40]!r}", line=ln.number)
        if key in _APA_PPA:
            if not digits(value):
                raise ParseError(f"not a link aggregate PPA: {value[:20]!r}", line=ln.number)
            groups.append(ApaGroup(int(value), [], None, ln.number))
        elif groups and key in _APA_MEMBERS:
            groups[-1].members += [int(p) for p in re.findall(r"\d+", value) if int(p) not in groups[-1].members]
        elif groups and key in _APA_MODE:
            groups[-1].mode = value.split()[-1] if value else None
    if not groups:
        raise ParseError("no 'Link Aggregate PPA # : N' (lanadmin -x -i or -v) or '[0] ppa : N' (-x -m) line")
    return groups
