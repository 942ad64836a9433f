"""Solaris changes: datalink properties, /etc/system and driver .conf lines,
TCP tunables (`ipadm` on Solaris 11, `ndd` on Solaris 10, which does not
persist across a reboot)."""

from __future__ import annotations

import re
import shlex

from advisor.changes import Change, Rendered, Undo, effect, operation, undo, was
from advisor.facts.models import HostFacts, domain_name
from advisor.platforms.solaris.parsers import driver_conf, etc_system
from advisor.platforms.solaris.records import TcpProp, solaris
from advisor.shell import shell_word

_REGEX = re.compile(r"([.\[\]*^$\\])")


def _append(line: str, path: str) -> str:
    """Appends a line to a system file unless it is there already: the
    script may be run twice. Solaris 10's /usr/bin/grep has no -x or -F."""
    pattern = "^" + _REGEX.sub(r"\\\1", line) + "$"
    return f"grep {shlex.quote(pattern)} {shell_word(path)} >/dev/null || echo {shlex.quote(line)} >> {shell_word(path)}"


def _system_line(change: Change) -> str:
    return f"set {change.target}={change.value}"


@operation("set-system-tunable", "host", edits=lambda c: "/etc/system", restarts=True)
def _set_system_tunable(change: Change, facts: HostFacts) -> Rendered:
    return Rendered(_append(_system_line(change), "/etc/system"))


@undo("set-system-tunable")
def _set_system_tunable_undo(change: Change, facts: HostFacts) -> Undo:
    before = (solaris(facts).system or {}).get(change.target)
    if before is not None:
        return f"set {change.target} back to {before} in /etc/system"
    return f"remove the '{_system_line(change)}' line from /etc/system"


@effect("set-system-tunable")
def _set_system_tunable_effect(change: Change, facts: HostFacts) -> str | None:
    try:
        parsed = etc_system.parse(_system_line(change))
    except Exception:  # noqa: BLE001 - a line the parser refuses is one the model cannot take
        return f"{_system_line(change)!r} is not an /etc/system setting"
    host = solaris(facts)
    host.system = {**(host.system or {}), **{k: s.value for k, s in parsed.items()}}
    return None


def _driver_file(change: Change) -> str:
    return f"/kernel/drv/{change.target}.conf"


@operation("set-driver-prop", "host", edits=_driver_file, restarts=True)
def _set_driver_prop(change: Change, facts: HostFacts) -> Rendered:
    return Rendered(_append(f"{change.prop} = {change.value};", _driver_file(change)))


@undo("set-driver-prop")
def _set_driver_prop_undo(change: Change, facts: HostFacts) -> Undo:
    before = solaris(facts).driver_conf.get(change.target, {}).get(change.prop or "")
    if before is not None:
        return f"set {change.prop} back to {before} in {_driver_file(change)}"
    return f"remove the {change.prop} line from {_driver_file(change)}"


@effect("set-driver-prop")
def _set_driver_prop_effect(change: Change, facts: HostFacts) -> str | None:
    parsed = driver_conf.parse(f"{change.prop} = {change.value};")
    conf = solaris(facts).driver_conf
    conf[change.target] = {**conf.get(change.target, {}), **{k: v for k, (v, _line) in parsed.items()}}
    return None


@operation("set-link-prop", "host")
def _set_link_prop(change: Change, facts: HostFacts) -> Rendered:
    """dladm keeps the value across reboots unless told -t."""
    where = f"in {change.domain}" if change.domain and change.domain != domain_name(facts) else None
    return Rendered(f"dladm set-linkprop -p {shell_word(f'{change.prop}={change.value}')} {shell_word(change.target)}",
                    comment=where)


@undo("set-link-prop")
def _set_link_prop_undo(change: Change, facts: HostFacts) -> Undo:
    link = next((lk for lk in solaris(facts).links or [] if lk.name == change.target and lk.domain in (None, change.domain)),
                None)
    return was(change, link.mtu) if link is not None and change.prop == "mtu" else None


@effect("set-link-prop")
def _set_link_prop_effect(change: Change, facts: HostFacts) -> str | None:
    links = [lk for lk in solaris(facts).links or [] if lk.name == change.target and lk.domain in (None, change.domain)]
    if not links or change.prop != "mtu" or not change.value.isdigit():
        return f"no model of {change.prop} on link {change.target}"
    for lk in links:
        lk.mtu = int(change.value)
    return None


# ipadm's names for the ndd tunables of Solaris 10
NDD = {"max_buf": "tcp_max_buf", "recv_buf": "tcp_recv_hiwat", "send_buf": "tcp_xmit_hiwat"}


@operation("set-tcp-prop", "host")
def _set_tcp_prop(change: Change, facts: HostFacts) -> Rendered:
    if solaris(facts).solaris_major == 10:
        return Rendered(f"ndd -set /dev/tcp {shell_word(NDD.get(change.target, change.target))} "
                        f"{shell_word(change.value)}", comment="not persistent: add it to a startup script")
    return Rendered(f"ipadm set-prop -p {shell_word(f'{change.target}={change.value}')} tcp")


@undo("set-tcp-prop")
def _set_tcp_prop_undo(change: Change, facts: HostFacts) -> Undo:
    host = solaris(facts)
    name = NDD.get(change.target, change.target) if host.solaris_major == 10 else change.target
    before = (host.tcp or {}).get(name)
    if before is None or before.current is None:
        return None
    if host.solaris_major != 10 and before.persistent not in (None, before.current):  # the running value drifted
        return f"ipadm set-prop -t -p {shell_word(f'{change.target}={before.current}')} tcp"
    return was(change, before.current)


@effect("set-tcp-prop")
def _set_tcp_prop_effect(change: Change, facts: HostFacts) -> str | None:
    host = solaris(facts)
    name = NDD.get(change.target, change.target) if host.solaris_major == 10 else change.target
    tcp = dict(host.tcp or {})
    old = tcp.get(name) or TcpProp()
    persistent = old.persistent if host.solaris_major == 10 else change.value
    tcp[name] = TcpProp(current=change.value, persistent=persistent, default=old.default)
    host.tcp = tcp
    if change.target == "recv_buf" and change.value.isdigit():
        host.tcp_recv_buf = int(change.value)
    if host.tcp_drift is not None:
        host.tcp_drift = [d for d in host.tcp_drift if d.name != name]  # ipadm sets both values
    return None
