"""From a capture's raw outputs to HostFacts.

Each output is parsed on its own; one that cannot be read becomes an error
line naming the file and line, and facts are built from the others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from advisor.collect.capture import Capture, RawOutput
from advisor.errors import ParseError, brief
from advisor.facts import kstat_facts, ldoms
from advisor.facts.models import Filtered, HostFacts, Link, TcpDrift, TcpProp
from advisor.parsers import kstat, parser_for
from advisor.parsers.dladm import LinkProp, PhysLink
from advisor.parsers.text import driver_of, parse_int

# ipadm (Solaris 11) and ndd (Solaris 10) names of the TCP receive buffer.
_RECV_BUF = ("recv_buf", "recv-buf", "tcp_recv_hiwat")
_RXFANOUT = ("rxfanout-effective", "rxfanout", "rx-fanout")
_VIRTUAL_DRIVERS = {"vnet", "vsw", "vnic", "aggr", "etherstub", "iptun", "simnet"}


@dataclass
class Built:
    facts: HostFacts
    errors: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)


def parse_outputs(capture: Capture) -> tuple[dict[str, Any], list[str], list[str]]:
    """Parsed outputs, errors, and the files no rule reads yet (not errors)."""
    parsed: dict[str, Any] = {}
    errors: list[str] = []
    unused: list[str] = []
    for command_id, output in capture.outputs.items():
        if command_id != "kstat-p" and parser_for(command_id) is None:
            unused.append(output.file)
            continue
        try:
            parsed[command_id] = _parse_one(command_id, output)
        except ParseError as exc:
            errors.append(exc.located(output.file).location_message())
        except UnicodeError as exc:
            errors.append(f"{output.file}: not text ({getattr(exc, 'reason', exc)})")
        except Exception as exc:  # noqa: BLE001 - a parser's surprise costs its file, not the host
            errors.append(f"{output.file}: not understood ({brief(exc)})")
    return parsed, errors, unused


def _parse_one(command_id: str, output: RawOutput) -> Any:
    if command_id == "kstat-p":
        return kstat.scan_file(output.path, kstat_facts.wanted, kstat_facts.MODULES,
                               kstat_facts.STATISTICS)
    parser = parser_for(command_id)
    assert parser is not None
    return parser(output)


def build(capture: Capture, auto_inter_vnet_limit: int = 8) -> Built:
    parsed, errors, unused = parse_outputs(capture)
    facts = HostFacts(host=capture.host, inputs=sorted(parsed))
    facts.filtered = {cid: Filtered(command=out.filtered, grep=out.grep)
                      for cid, out in capture.outputs.items() if out.filtered and cid in parsed}
    files = {cid: out.file for cid, out in capture.outputs.items()}
    planned = parsed.get("plan") or parsed.get("ldm-list-constraints-x")
    if planned is not None and not ({"ldm-list-l", "ldm-list-l-p"} & parsed.keys()):
        from advisor.facts import plan  # platform and plan facts load only for their hosts

        plan.build(facts, planned, auto_inter_vnet_limit)
        ldoms.software_facts(facts)
        unused += [files[cid] for cid in parsed if cid not in ("plan", "ldm-list-constraints-x")]
        return Built(facts, errors, unused)
    if planned is not None:  # a built system's listing says more than its constraints
        unused += [files[cid] for cid in ("plan", "ldm-list-constraints-x") if cid in parsed]
    _identity(facts, parsed, files)
    _links(facts, parsed, files)
    _kstat(facts, parsed, files)
    _tunables(facts, parsed, files)
    _ldoms(facts, parsed, files, auto_inter_vnet_limit)
    ldoms.software_facts(facts)
    if facts.platform == "linux":
        from advisor.facts import linux

        linux.build(facts, parsed, files)
    if facts.platform == "hpux":
        from advisor.facts import hpux

        hpux.build(facts, parsed, files)
    return Built(facts, errors, unused)


def _ev(files: dict[str, str], cid: str, line: int) -> str:
    return f"{files[cid]}:{line}"


def _identity(facts: HostFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    if (u := parsed.get("uname-a")) is not None:
        facts.nodename = u.node or None
        if u.system == "HP-UX":
            facts.platform = "hpux"
            facts.hpux_release = u.release
            facts.os_name = f"HP-UX {u.release}"
            facts.evidence["hpux_release"] = _ev(files, "uname-a", u.line)
        if u.system == "Linux":
            facts.platform = "linux"
            facts.os_name = f"Linux {u.release}"
            facts.arch = u.machine if len(u.machine) < 16 else None
        if u.system == "SunOS":
            facts.platform = "solaris"
            m = re.match(r"5\.(\d+)", u.release)
            if m:
                facts.solaris_major = int(m.group(1))
            facts.arch = "sparc" if u.machine.startswith("sun4") else "x86" if u.machine == "i86pc" else None
            v = re.match(r"11\.(\d+)", u.version)
            if facts.solaris_major == 11 and v:
                facts.solaris_minor = int(v.group(1))
            facts.evidence["solaris_major"] = _ev(files, "uname-a", u.line)
    if (r := parsed.get("release")) is not None and r.major is None and files.get("release", "") and \
            not r.name.startswith(("OpenSolaris", "OpenIndiana", "OmniOS", "SmartOS")):
        facts.platform = "linux"
        facts.os_name = r.name
    if (r := parsed.get("release")) is not None and r.major:
        facts.platform = "solaris"
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
        facts.platform = "solaris"
        facts.solaris_major = 11
        facts.solaris_minor = int(p.release.split(".")[1])
        facts.sru = p.sru
        facts.evidence["sru"] = _ev(files, "pkg-entire", p.line)
    if (s := parsed.get("showrev-p")) is not None:
        facts.platform = "solaris"
        facts.patches = {pid: rev for pid, (rev, _line) in s.revisions.items()}
        facts.evidence["patches"] = files["showrev-p"]
    if (v := parsed.get("ldm-version")) is not None:
        facts.ldm_version = v.version.value
        facts.evidence["ldm_version"] = _ev(files, "ldm-version", v.version.line)
    if (dv := parsed.get("ldm-list-devices")) is not None:
        facts.free_cores = dv.free_cores
        if dv.core_line is not None:
            facts.evidence["free_cores"] = _ev(files, "ldm-list-devices", dv.core_line)
        if dv.free_memory_bytes is not None:
            facts.free_memory_gb = dv.free_memory_bytes / (1 << 30)
            facts.evidence["free_memory_gb"] = _ev(files, "ldm-list-devices", dv.memory_line or 1)
    if (vi := parsed.get("virtinfo")) is not None:
        facts.platform = "solaris"
        facts.roles = sorted(vi.roles)
        facts.ldom_name = vi.domain_name
        facts.control_host = vi.control_domain
        facts.is_control_domain = "control" in vi.roles
        facts.is_guest_domain = bool(vi.roles) and not ({"control", "i/o", "service", "root"} & vi.roles)
        facts.evidence["roles"] = _ev(files, "virtinfo", vi.line)
    if (ps := parsed.get("psrinfo-pv")) is not None:
        facts.vcpus, facts.threads_per_core, facts.cpu_model = ps.vcpus, ps.threads_per_core, ps.model
        facts.evidence["vcpus"] = facts.evidence["cpu_model"] = _ev(files, "psrinfo-pv", ps.line)
    if facts.platform == "unknown" and ({"kstat-p", "etc-system", "dladm-show-phys", *_LDM_LISTINGS,
                                         "ldm-version", "ldm-list-devices"} & parsed.keys()):
        facts.platform = "solaris"
    if facts.platform == "unknown" and ({"lanscan", "lanscan-v", "lanscan-iap", "nwmgr", "nwmgr-apa"} & parsed.keys()
                                        or any(k.startswith("lanadmin-") for k in parsed)):
        facts.platform = "hpux"
    linux_only = {"xl-vcpu-list", "xm-vcpu-list", "xl-info", "xm-info", "brctl-show", "ip-link", "sysctl-net", "lspci-vv"}
    if facts.platform == "unknown" and (linux_only & parsed.keys() or any(k.startswith("ethtool-") for k in parsed)):
        facts.platform = "linux"
    if facts.is_control_domain is None and ({*_LDM_LISTINGS, "ldm-version", "ldm-list-devices"} & parsed.keys()):
        facts.is_control_domain = True



def _links(facts: HostFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
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
        links.setdefault(prop.link, Link(name=prop.link))
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


def _kstat(facts: HostFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    stats = parsed.get("kstat-p")
    if stats is None:
        return
    facts.ldcs = kstat_facts.ldc_channels(stats, files["kstat-p"])
    facts.tcp_lso = kstat_facts.tcp_lso(stats, files["kstat-p"])


def _tunables(facts: HostFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
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


# LDoms outputs by what they say of the domains: the first present is the listing, the others fill in
# what it leaves unknown (the short `ldm list` shows no vsw, vnet, I/O or constraint).
_LDM_LISTINGS = ("ldm-list-l-p", "ldm-list-l", "ldm-list", "ldm-list-constraints-p", "ldm-list-constraints",
                 "ldm-list-io")


def _ldoms(facts: HostFacts, parsed: dict[str, Any], files: dict[str, str], auto_limit: int) -> None:
    present = [cid for cid in _LDM_LISTINGS if cid in parsed]
    if not present:
        if facts.is_control_domain is False:
            facts.domains, facts.vswitches, facts.vnets = [], [], []
        return
    listing = parsed[present[0]]
    # The processor model first: a domain with part of a core sees a core of fewer threads in its own psrinfo -pv,
    # and so does the listing where no domain has a whole core; the larger of those two otherwise.
    seen = [n for n in (facts.threads_per_core, ldoms.threads_per_core_from_listing(listing)) if n]
    tpc = ldoms.threads_per_core_for_model(facts.cpu_model) or (max(seen) if seen else None)
    domains, vswitches, vnets = ldoms.build_domains(listing, files[present[0]], tpc)
    shown_vsws, shown_vnets = ldoms.shown(listing, "VSW", vswitches), ldoms.shown(listing, "NETWORK", vnets)
    for cid in present[1:]:
        more, more_vsws, more_vnets = ldoms.build_domains(parsed[cid], files[cid], tpc)
        ldoms.merge_domains(domains, more, parsed[cid].covers)
        shown_vsws = shown_vsws if shown_vsws is not None else ldoms.shown(parsed[cid], "VSW", more_vsws)
        shown_vnets = shown_vnets if shown_vnets is not None else ldoms.shown(parsed[cid], "NETWORK", more_vnets)
    for dom in domains:
        dom.is_local = dom.is_control and facts.is_control_domain is not False
    local = [d.name for d in domains if d.is_local]  # a capture knows its own domain's links and level
    own_links = {name: facts.links for name in local if facts.links is not None}
    solaris_4080 = {name: ldoms.allows_4080(facts.solaris_minor, facts.sru) for name in local}
    ldoms.link_network(domains, shown_vsws or [], shown_vnets or [], own_links, solaris_4080, facts.cpu_model, auto_limit)
    facts.domains, facts.vswitches, facts.vnets = domains, shown_vsws, shown_vnets
