"""Facts of Solaris hosts: release and patch level, processors, links and their
properties, TCP properties and LSO, /etc/system and driver files."""

from __future__ import annotations

import re
from typing import Any

from advisor.facts.models import HostFacts
from advisor.parsers.text import parse_int
from advisor.platforms.solaris import kstat_facts, kstat_rates
from advisor.platform_spec import SECOND
from advisor.platforms.solaris.parsers import kstat_wanted
from advisor.platforms.solaris.parsers.dladm import LinkProp, PhysLink
from advisor.platforms.solaris.records import Link, SolarisFacts, TcpDrift, TcpProp, solaris

# ipadm (Solaris 11) and ndd (Solaris 10) names of the TCP receive buffer.
_RECV_BUF = ("recv_buf", "recv-buf", "tcp_recv_hiwat")
_RXFANOUT = ("rxfanout-effective", "rxfanout", "rx-fanout")
_VIRTUAL_DRIVERS = {"vnet", "vsw", "vnic", "aggr", "etherstub", "iptun", "simnet"}
_INSTANCE = re.compile(r"^([a-z][a-z0-9_]*?)\d+$")


def driver_of(device: str | None) -> str | None:
    """`ixgbe0` -> `ixgbe`: the driver of a Solaris device instance name."""
    m = _INSTANCE.match(device or "")
    return m.group(1) if m else None


def _ev(files: dict[str, str], cid: str, line: int) -> str:
    return f"{files[cid]}:{line}"


def build(host: HostFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    facts = solaris(host)
    _release(facts, parsed, files)
    if (ps := parsed.get("psrinfo-pv")) is not None:
        facts.vcpus, facts.threads_per_core, facts.cpu_model = ps.vcpus, ps.threads_per_core, ps.model
        facts.evidence["vcpus"] = facts.evidence["cpu_model"] = _ev(files, "psrinfo-pv", ps.line)
    _links(facts, parsed, files)
    if (stats := parsed.get("kstat-p")) is not None:
        facts.tcp_lso = kstat_facts.tcp_lso(stats, files["kstat-p"])
        second = parsed.get("kstat-p" + SECOND)
        if second is not None:
            stats = kstat_wanted.with_rates(stats)
        facts.rates = kstat_rates.build(stats, second, ", ".join(files[c] for c in ("kstat-p", "kstat-p" + SECOND)
                                                                  if c in parsed))
    _tunables(facts, parsed, files)
    name_release(facts)


def name_release(facts: SolarisFacts) -> None:
    """`Solaris 11.4`, where no release file named it."""
    if facts.os_name is None and facts.solaris_major is not None:
        minor = f".{facts.solaris_minor}" if facts.solaris_minor is not None else ""
        facts.os_name = f"Solaris {facts.solaris_major}{minor}"


def _release(facts: SolarisFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    """The release, update and SRU, from uname -a, /etc/release and pkg info entire, in that order
    (each says more than the one before); the patches of Solaris 10 from showrev -p."""
    if (u := parsed.get("uname-a")) is not None and u.system == "SunOS":
        m = re.match(r"5\.(\d+)", u.release)
        if m:
            facts.solaris_major = int(m.group(1))
        facts.arch = "sparc" if u.machine.startswith("sun4") else "x86" if u.machine == "i86pc" else None
        v = re.match(r"11\.(\d+)", u.version)
        if facts.solaris_major == 11 and v:
            facts.solaris_minor = int(v.group(1))
        facts.evidence["solaris_major"] = _ev(files, "uname-a", u.line)
    if (r := parsed.get("release")) is not None and r.major:
        facts.os_name = r.name
        facts.solaris_major = r.major
        facts.solaris_minor = r.minor if r.minor is not None else facts.solaris_minor
        facts.solaris_update = r.update
        if r.update and (m := re.fullmatch(r"(\d{1,2})/(\d{2})", r.update)):
            facts.solaris_update_yymm = int(m.group(2)) * 100 + int(m.group(1))
        if r.arch:
            facts.arch = "sparc" if r.arch.upper() == "SPARC" else "x86"
        facts.evidence["solaris_major"] = _ev(files, "release", r.line)
    if (p := parsed.get("pkg-entire")) is not None:
        facts.solaris_major = 11
        facts.solaris_minor = int(p.release.split(".")[1])
        facts.sru = p.sru
        facts.evidence["sru"] = _ev(files, "pkg-entire", p.line)
    if (s := parsed.get("showrev-p")) is not None:
        facts.patches = {pid: rev for pid, (rev, _line) in s.revisions.items()}
        facts.evidence["patches"] = files["showrev-p"]


def _links(facts: SolarisFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    phys_cid = "dladm-show-phys" if "dladm-show-phys" in parsed else "dladm-show-dev"
    phys: list[PhysLink] | None = parsed.get(phys_cid)
    props: list[LinkProp] | None = parsed.get("dladm-show-linkprop")
    if phys is None and props is None:
        return
    links: dict[str, Link] = {}
    for p in phys or []:
        lk = links.setdefault(p.link, Link(name=p.link))
        lk.device, lk.media, lk.state, lk.speed_mbps = p.device, p.media, p.state, p.speed_mbps
        lk.driver = driver_of(p.device)
        if lk.driver == "vnet" and not p.speed_mbps:  # a vnet says 0 unless it follows its physical link (phys-state)
            lk.speed_mbps = None
        lk.evidence["speed_mbps"] = lk.evidence["device"] = _ev(files, phys_cid, p.line)
    by_link: dict[str, dict[str, LinkProp]] = {}
    for prop in props or []:
        by_link.setdefault(prop.link, {})[prop.name] = prop
        if prop.link not in links:  # not setdefault: that made a Link for each of its properties
            links[prop.link] = Link(name=prop.link)
    for name, lk in links.items():
        _apply_props(lk, by_link.get(name, {}), files)
        lk.is_vnet = lk.driver == "vnet"
        lk.is_vf = lk.driver in ("ixgbevf", "igbvf")
        lk.is_physical = lk.driver is not None and lk.driver not in _VIRTUAL_DRIVERS and not lk.is_vf
    facts.links = sorted(links.values(), key=lambda lk: lk.name)


def _effective(prop: LinkProp | None, effective_row: LinkProp | None) -> str | None:
    if effective_row is not None:
        return effective_row.value
    if prop is None:
        return None
    return prop.effective or prop.value or prop.default


def _apply_props(lk: Link, props: dict[str, LinkProp], files: dict[str, str]) -> None:
    if (mtu := props.get("mtu")) is not None:
        lk.mtu = parse_int(mtu.value or mtu.default or "")
        lk.mtu_max = _possible_max(mtu.possible)
        lk.evidence["mtu"] = lk.evidence["mtu_max"] = _ev(files, "dladm-show-linkprop", mtu.line)
    fan_row = props.get("rxfanout-effective")
    fan = next((props[n] for n in _RXFANOUT[1:] if n in props), None)
    value = _effective(fan, fan_row)
    if value is not None:
        lk.rxfanout_effective = parse_int(value)
        lk.evidence["rxfanout_effective"] = _ev(files, "dladm-show-linkprop", (fan_row or fan).line)  # type: ignore[union-attr]
    cpus = _effective(props.get("cpus"), props.get("cpus-effective"))
    if cpus is not None:
        lk.cpus_effective = cpus
    if lk.device is None and (dev := props.get("device")) is not None:
        lk.device = dev.value
        lk.driver = driver_of(dev.value)


def _possible_max(possible: str | None) -> int | None:
    if not possible:
        return None
    numbers = [int(n) for n in re.findall(r"\d+", possible)]
    return max(numbers) if numbers else None


def _tunables(facts: SolarisFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    if (system := parsed.get("etc-system")) is not None:
        facts.system = {k: s.value for k, s in system.items()}
        for k, s in system.items():
            facts.evidence[f"system.{k}"] = _ev(files, "etc-system", s.line)
        facts.evidence["system"] = files["etc-system"]
    tcp: dict[str, TcpProp] = {}
    for cid in ("ndd-tcp", "ipadm-show-prop-tcp"):
        for name, val in (parsed.get(cid) or {}).items():
            tcp[name] = TcpProp(current=val.value, persistent=val.persistent, default=val.default)
            facts.evidence[f"tcp.{name}"] = _ev(files, cid, val.line)
    if tcp:
        facts.tcp = tcp
        recv = next((n for n in _RECV_BUF if n in tcp), None)
        if recv is not None:
            facts.tcp_recv_buf = parse_int(tcp[recv].current or "")
            facts.evidence["tcp_recv_buf"] = facts.evidence[f"tcp.{recv}"]
    if "ipadm-show-prop-tcp" in parsed:
        facts.tcp_drift = [TcpDrift(name=n, current=p.current, persistent=p.persistent)
                           for n, p in sorted(tcp.items())
                           if p.persistent is not None and p.current != p.persistent]
        facts.evidence["tcp_drift"] = files["ipadm-show-prop-tcp"]
    for cid, props in parsed.items():
        if cid.startswith("driver-"):
            name = cid[len("driver-"):]
            facts.driver_conf[name] = {k: v for k, (v, _line) in props.items()}
            facts.evidence[f"driver.{name}"] = files[cid]
