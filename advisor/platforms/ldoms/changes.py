"""Oracle VM Server for SPARC changes, rendered as `ldm` commands by version.

Whole cores: `ldm set-core` and `add-core` from 3.0 (the 3.0 Reference
Manual's ldm(1M) synopsis); before it `ldm set-vcpu -c` and `add-vcpu -c`,
which the 2.1 guide ("Enabling the Whole-Core Constraint") allows to turn the
whole-core constraint on only for an inactive domain, or for the control
domain in a delayed reconfiguration (domain-facts 1.5). The whole configuration is made persistent by `ldm add-spconfig`,
which the plan writes once at its end.
"""

from __future__ import annotations

from advisor.changes import Change, Rendered, Undo, effect, follows, number, operation, undo, was
from advisor.platforms.ldoms.facts import threads_per_core_for_model
from advisor.platforms.ldoms.records import Domain, VNet, VNetRef, VSwitch, ldoms
from advisor.facts.models import HostFacts, domain_name
from advisor.shell import shell_word
from advisor.versions import version_ge

_INACTIVE_ONLY = ("ldm {ver} turns the whole-core constraint on only for an inactive domain (Oracle VM Server for "
                  "SPARC 2.1 guide): {dom} is stopped and unbound first (ldm stop, ldm unbind), bound and started after")


def _domain(facts: HostFacts, name: str) -> Domain | None:
    return next((d for d in ldoms(facts).domains or [] if d.name == name), None)


def _of_control(change: Change, facts: HostFacts) -> bool:
    """at once, except in the control domain: at the reboot that ends its
    delayed reconfiguration, unless ldm 3.x grows it live (cores where it has
    the whole-core constraint, within max-cores; memory)."""
    d = _domain(facts, change.target)
    return d is not None and d.is_control and not _live(change, facts, d)


def _live(change: Change, facts: HostFacts, dom: Domain) -> bool:
    """Cores or memory grown without a delayed reconfiguration and reboot,
    where Oracle VM Server for SPARC 3.x documents dynamic reconfiguration:
    `set-core` on an active domain that already has the whole-core constraint,
    within max-cores ("How to Apply the Whole-Core Constraint", 3.4 guide);
    memory added to any active domain ("Using Memory Dynamic
    Reconfiguration"). Turning whole cores on, shrinking, and older releases
    keep the reboot."""
    head = (ldoms(facts).ldm_version or "").split(".")[0]
    n = number(change.value)
    if not head.isdigit() or len(head) > 3 or int(head) < 3 or n is None or dom.state not in (None, "active"):
        return False
    if change.op == "set-memory":
        return dom.memory_gb is not None and n > dom.memory_gb
    cores = (dom.whole_cores or 0) + n if change.op == "add-cores" else n
    within = dom.max_cores in (None, "unlimited") or (dom.max_cores.isdigit() and cores <= int(dom.max_cores))
    return dom.whole_core_constraint is True and within and (dom.whole_cores or 0) < cores


def _cores_before(change: Change, facts: HostFacts) -> Undo:
    """Whole cores are given back by count only where the domain had whole
    cores before; otherwise its old vCPU count needs the constraint removed."""
    d = _domain(facts, change.target)
    if d is None or d.whole_core_constraint is not True:
        return None
    return was(Change(op="set-cores", target=change.target), d.whole_cores)


def _cores(change: Change, facts: HostFacts, verb: str) -> Rendered:
    dom, n = shell_word(change.target), shell_word(change.value)
    ver = ldoms(facts).ldm_version
    major = (ver or "").split(".")[0]
    if ver is None or version_ge(ver, "3.0"):
        return Rendered(f"ldm {verb}-core {n} {dom}")
    command = f"ldm {verb}-vcpu -c {n} {dom}"
    if major.isdigit() and int(major) < 2:
        return Rendered(command, held=f"ldm {ver} has no whole-core allocation (Oracle VM Server for SPARC 2.0 or later)")
    d = _domain(facts, change.target)
    if d is not None and not d.is_control and d.whole_core_constraint is not True and d.state != "inactive":
        return Rendered(command, held=_INACTIVE_ONLY.format(ver=ver, dom=change.target))
    return Rendered(command)


@operation("set-cores", "ldm", sizes="cores", sizes_said="whole cores", grows="free_cores", restarts=_of_control)
def _set_cores(change: Change, facts: HostFacts) -> Rendered:
    return _cores(change, facts, "set")


@operation("add-cores", "ldm", grows="free_cores", restarts=_of_control)
def _add_cores(change: Change, facts: HostFacts) -> Rendered:
    return _cores(change, facts, "add")


undo("set-cores")(_cores_before)
undo("add-cores")(_cores_before)


def _give_cores(facts: HostFacts, dom: Domain, cores: int) -> None:
    host = ldoms(facts)
    tpc = threads_per_core_for_model(host.cpu_model) or host.threads_per_core
    if host.free_cores is not None:
        host.free_cores -= cores - (dom.whole_cores or 0)
    dom.whole_cores, dom.cores, dom.whole_core_constraint = cores, float(cores), True
    if tpc:
        dom.vcpus = cores * tpc
        if dom.is_local or dom.name == ldoms(facts).ldom_name:
            facts.vcpus = dom.vcpus


@effect("set-cores")
def _set_cores_effect(change: Change, facts: HostFacts) -> str | None:
    dom, n = _domain(facts, change.target), number(change.value)
    if dom is None or n is None:
        return f"no domain {change.target} with a number of cores to set"
    _give_cores(facts, dom, int(n))
    return None


@effect("add-cores")
def _add_cores_effect(change: Change, facts: HostFacts) -> str | None:
    dom, n = _domain(facts, change.target), number(change.value)
    if dom is None or n is None or dom.whole_cores is None:
        return f"no domain {change.target} whose whole cores are known"
    _give_cores(facts, dom, dom.whole_cores + int(n))
    return None


@operation("set-memory", "ldm", sizes="memory-gb", sizes_said="memory", grows="free_memory_gb", restarts=_of_control)
def _set_memory(change: Change, facts: HostFacts) -> Rendered:
    gb = number(change.value)
    return Rendered(f"ldm set-memory {f'{gb:g}G' if gb is not None else shell_word(change.value)} "
                    f"{shell_word(change.target)}")


@undo("set-memory")
def _set_memory_undo(change: Change, facts: HostFacts) -> Undo:
    d = _domain(facts, change.target)
    return was(change, d.memory_gb) if d is not None else None


@effect("set-memory")
def _set_memory_effect(change: Change, facts: HostFacts) -> str | None:
    dom, gb = _domain(facts, change.target), number(change.value)
    if dom is None or gb is None:
        return f"no domain {change.target} to size"
    host = ldoms(facts)
    if host.free_memory_gb is not None:
        host.free_memory_gb -= gb - (dom.memory_gb or 0)
    dom.memory_gb = gb
    return None


def _vsw(facts: HostFacts, name: str) -> VSwitch | None:
    return next((v for v in ldoms(facts).vswitches or [] if v.name == name), None)


def _mismatches(facts: HostFacts, vsw: VSwitch) -> None:
    """The switch's vnets as the facts builder relates them, after an MTU changed."""
    vsw.mismatched_vnets = []
    for vnet in ldoms(facts).vnets or []:
        if vnet.vsw == vsw.name and vnet.vsw_domain == vsw.domain:
            vnet.vsw_mtu = vsw.mtu
            if vnet.mtu is not None and vsw.mtu is not None and vnet.mtu != vsw.mtu:
                vsw.mismatched_vnets.append(VNetRef(name=vnet.name, domain=vnet.domain, mtu=vnet.mtu))


def _switch_guests(change: Change, facts: HostFacts) -> list[str]:
    """The domains other than the switch's own with a vnet on it: Oracle's guide
    ("Configuring Jumbo Frames") has them stopped before `ldm set-vsw mtu=`."""
    vsw = _vsw(facts, change.target)
    return sorted({v.domain for v in ldoms(facts).vnets or [] if vsw is not None and v.vsw == vsw.name
                   and v.vsw_domain == vsw.domain and v.domain != vsw.domain})


@operation("set-vsw-mtu", "ldm", sizes="vsw-mtu", sizes_said="MTU", stops=_switch_guests, restarts=True)
def _set_vsw_mtu(change: Change, facts: HostFacts) -> Rendered:
    return Rendered(f"ldm set-vsw mtu={shell_word(change.value)} {shell_word(change.target)}")


@undo("set-vsw-mtu")
def _set_vsw_mtu_undo(change: Change, facts: HostFacts) -> Undo:
    vsw = _vsw(facts, change.target)
    return was(change, vsw.mtu) if vsw is not None else None


@effect("set-vsw-mtu")
def _set_vsw_mtu_effect(change: Change, facts: HostFacts) -> str | None:
    vsw, mtu = _vsw(facts, change.target), number(change.value)
    if vsw is None or mtu is None:
        return f"no switch {change.target}"
    for vnet in ldoms(facts).vnets or []:  # a vnet at its switch's MTU follows it; one set on its own does not
        if vnet.vsw == vsw.name and vnet.vsw_domain == vsw.domain and vnet.mtu == vsw.mtu:
            vnet.mtu = int(mtu)
    vsw.mtu = int(mtu)
    _mismatches(facts, vsw)
    return None


@follows("set-link-prop")
def _link_mtu_under_switches(change: Change, facts: HostFacts) -> None:
    """A link's new MTU (solaris' set-link-prop) is the net-dev MTU of the switches on
    that link in the link's domain."""
    if change.prop != "mtu" or not change.value.isdigit():
        return
    mine = change.domain or domain_name(facts)
    for vsw in ldoms(facts).vswitches or []:
        if vsw.net_dev == change.target and vsw.domain == mine:
            vsw.net_dev_mtu = int(change.value)


def _vnet(facts: HostFacts, change: Change) -> VNet | None:
    return next((v for v in ldoms(facts).vnets or [] if v.name == change.target and v.domain == change.domain), None)


@operation("reset-vnet-mtu", "ldm", stops=lambda change, facts: [change.domain] if change.domain else [], restarts=True)
def _reset_vnet_mtu(change: Change, facts: HostFacts) -> Rendered:
    return Rendered(f"ldm set-vnet mtu= {shell_word(change.target)} {shell_word(change.domain or '<domain>')}")


@undo("reset-vnet-mtu")
def _reset_vnet_mtu_undo(change: Change, facts: HostFacts) -> Undo:
    vnet = _vnet(facts, change)
    set_on_its_own = Change(op="set-vnet-prop", target=change.target, domain=change.domain, prop="mtu")
    return was(set_on_its_own, vnet.mtu) if vnet is not None else None


@effect("reset-vnet-mtu")
def _reset_vnet_mtu_effect(change: Change, facts: HostFacts) -> str | None:
    vnet = _vnet(facts, change)
    vsw = _vsw(facts, vnet.vsw or "") if vnet is not None else None
    if vnet is None or vsw is None:
        return f"no vnet {change.target} in {change.domain} on a known switch"
    vnet.mtu = vsw.mtu
    _mismatches(facts, vsw)
    return None


@operation("set-domain-prop", "ldm", restarts=True)
def _set_domain_prop(change: Change, facts: HostFacts) -> Rendered:
    return Rendered(f"ldm set-domain {shell_word(f'{change.prop}={change.value}')} {shell_word(change.target)}")


@undo("set-domain-prop")
def _set_domain_prop_undo(change: Change, facts: HostFacts) -> Undo:
    d = _domain(facts, change.target)
    before = {"max-cores": d.max_cores, "extended-mapin-space": d.extended_mapin_space} if d is not None else {}
    return was(change, before.get(change.prop or ""))


@effect("set-domain-prop")
def _set_domain_prop_effect(change: Change, facts: HostFacts) -> str | None:
    dom = _domain(facts, change.target)
    if dom is None or change.prop not in ("extended-mapin-space", "max-cores"):
        return f"no model of {change.prop} on {change.target}"
    if change.prop == "max-cores":
        dom.max_cores = change.value
        return None
    dom.extended_mapin_space = change.value
    if dom.is_local or dom.name == ldoms(facts).ldom_name:
        facts.local_mapin = change.value
    return None


@operation("set-vsw-prop", "ldm")
def _set_vsw_prop(change: Change, facts: HostFacts) -> Rendered:
    return Rendered(f"ldm set-vsw {shell_word(f'{change.prop}={change.value}')} {shell_word(change.target)}")


AUTO_LIMIT = 8  # ldm 3.4: inter-vnet-link=auto keeps direct links up to this many vnets on a switch


def _direct(vsw: VSwitch) -> bool:
    mode = (vsw.inter_vnet_link or "on").lower()
    return mode == "on" or (mode == "auto" and vsw.vnet_count <= AUTO_LIMIT)


@undo("set-vsw-prop")
def _set_vsw_prop_undo(change: Change, facts: HostFacts) -> Undo:
    vsw = _vsw(facts, change.target)
    return was(change, vsw.inter_vnet_link) if vsw is not None and change.prop == "inter-vnet-link" else None


@effect("set-vsw-prop")
def _set_vsw_prop_effect(change: Change, facts: HostFacts) -> str | None:
    vsw = _vsw(facts, change.target)
    if vsw is None or change.prop != "inter-vnet-link":
        return f"no model of {change.prop} on {change.target}"
    before = _direct(vsw)
    vsw.inter_vnet_link = change.value
    step = (int(_direct(vsw)) - int(before)) * max(vsw.vnet_count - 1, 0)  # each vnet's channels to the others
    for vnet in ldoms(facts).vnets or []:
        dom = _domain(facts, vnet.domain) if vnet.vsw == vsw.name and vnet.vsw_domain == vsw.domain else None
        if dom is not None and dom.ldc_estimate is not None:
            dom.ldc_estimate += step
    return None


@operation("set-vnet-prop", "ldm", restarts=True)
def _set_vnet_prop(change: Change, facts: HostFacts) -> Rendered:
    return Rendered(f"ldm set-vnet {shell_word(f'{change.prop}={change.value}')} {shell_word(change.target)} "
                    f"{shell_word(change.domain or '<domain>')}")


@undo("set-vnet-prop")
def _set_vnet_prop_undo(change: Change, facts: HostFacts) -> Undo:
    vnet = _vnet(facts, change)
    if vnet is None or change.prop not in ("mode", "mtu"):
        return None
    return was(change, vnet.mtu) if change.prop == "mtu" else was(change, vnet.mode or "")  # `mode=`: the default


@effect("set-vnet-prop")
def _set_vnet_prop_effect(change: Change, facts: HostFacts) -> str | None:
    vnet = _vnet(facts, change)
    if vnet is None or change.prop != "mode":
        return f"no model of {change.prop} on vnet {change.target}"
    vnet.mode = change.value or None
    return None
