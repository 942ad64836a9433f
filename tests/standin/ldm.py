"""A stand-in for `ldm`, `shutdown` and friends that enforces what Oracle VM
Server for SPARC enforces, so that a remediation script that would fail, or
leave a control domain half-reconfigured, fails here too.

State is a JSON file named by $STANDIN_STATE:
  {"control": "primary", "reconf": false, "domains": {NAME: {"state": ..., "max_cores": N|null,
   "cores": N|null, "memory_gb": N|null, "whole_core": bool}}, "vsws": {NAME: {"domain": D, "mtu": N,
   "vnet_domains": [...]}}, "free_cores": N|null, "free_memory_gb": N|null (null: the capture did not
   say), "log": [...], "reboots": [...], "spconfigs": [...],
   "node": the node name `uname -n` prints ($STANDIN_NODE, when set, instead)}

Rules enforced (Oracle VM Server for SPARC administration guide and ldm(1M)):
- while the primary domain is in a delayed reconfiguration, changes to other
  domains (and stop/start) are refused until it reboots;
- extended-mapin-space and a virtual switch's MTU on the control domain only
  within a delayed reconfiguration; on other domains only while stopped;
- a vnet's MTU and mode only while its domain is stopped;
- set-core above max-cores is refused, and a second core assignment to the
  control domain within one delayed reconfiguration; unknown domains and
  switches are refused;
- cores and memory are taken from what is free: a domain grown beyond it is
  refused, and so is any growth where the capture did not say what is free;
- set-core on an active control domain outside a delayed reconfiguration only
  where it already has the whole-core constraint (CPU dynamic reconfiguration);
- by the version in "version" (null: 3.x): set-core and add-core from 3.0
  only; before it `set-vcpu -c` and `add-vcpu -c`, from 2.0, which turn the
  whole-core constraint on only for an inactive domain or for the control
  domain in a delayed reconfiguration (the 2.1 guide, "Enabling the Whole-Core
  Constraint");
- a switch's MTU only while every other domain with a vnet on it is stopped
  ("Configuring Jumbo Frames");
- stop needs an active domain, start a stopped one; add-spconfig not while a
  delayed reconfiguration is pending;
- a reboot of the control domain ends its delayed reconfiguration.
Upgrades (pkg, patchadd) and MTU raises (dladm set-linkprop -p mtu above 1500)
always fail: a script must never run them unchecked.
"""

from __future__ import annotations

import json
import os
import re
import sys


def _load() -> dict:
    with open(os.environ["STANDIN_STATE"], encoding="utf-8") as fh:
        return json.load(fh)


def _save(state: dict) -> None:
    with open(os.environ["STANDIN_STATE"], "w", encoding="utf-8") as fh:
        json.dump(state, fh, indent=1)


def _refuse(state: dict, argv: list[str], why: str) -> None:
    state["log"].append(f"REFUSED {' '.join(argv)}: {why}")
    _save(state)
    print(f"{argv[0]}: {why}", file=sys.stderr)
    sys.exit(1)


def _domain(state: dict, argv: list[str], name: str) -> dict:
    if name not in state["domains"]:
        _refuse(state, argv, f"Domain {name} not found")
    return state["domains"][name]


def _change(state: dict, argv: list[str], name: str, needs: str) -> None:
    """needs: 'any' (dynamic), 'reconf-or-stopped' (a boot-time property)."""
    dom = _domain(state, argv, name)
    control = name == state["control"]
    if state["reconf"] and not control:
        _refuse(state, argv, "All configuration changes for other domains are disabled until the primary domain reboots")
    if needs == "reconf-or-stopped":
        if control and not state["reconf"]:
            _refuse(state, argv, f"{name}: this change needs a delayed reconfiguration (ldm start-reconf {name})")
        if not control and dom["state"] == "active":
            _refuse(state, argv, f"{name} must be stopped first")


def _take(state: dict, argv: list[str], pool: str, amount: float) -> None:
    """Grow a domain from what the machine has free."""
    if amount <= 0:
        return
    if state.get(pool) is None:
        _refuse(state, argv, f"{pool}: the capture did not say what is free, so no script may take it unchecked")
    if amount > state[pool]:
        _refuse(state, argv, f"{amount:g} asked, {state[pool]:g} free ({pool})")
    state[pool] -= amount


def _major(state: dict) -> int:
    head = (state.get("version") or "3").split(".")[0]
    return int(head) if head.isdigit() else 3


def _cores(state: dict, argv: list[str], count: int, name: str, add: bool) -> None:
    dom = _domain(state, argv, name)
    _change(state, argv, name, "any")
    if name == state["control"] and state["reconf"]:
        if state.get("reconf_core_done"):
            _refuse(state, argv, "only one core assignment to the control domain in a delayed reconfiguration")
        state["reconf_core_done"] = True
    if name == state["control"] and not state["reconf"] and not dom.get("whole_core"):
        _refuse(state, argv, f"{name}: the whole-core constraint is turned on in a delayed reconfiguration")
    total = count + (dom.get("cores") or 0 if add else 0)
    if dom.get("max_cores") is not None and total > dom["max_cores"]:
        _refuse(state, argv, f"{name}: {total} cores exceeds max-cores {dom['max_cores']}")
    _take(state, argv, "free_cores", total - (dom.get("cores") or 0))
    dom["cores"], dom["whole_core"] = total, True


def ldm(argv: list[str]) -> None:
    state = _load()
    sub, args = argv[1], argv[2:]
    settings = dict(a.split("=", 1) for a in args if "=" in a)
    plain = [a for a in args if "=" not in a and not a.startswith("-")]
    if sub in ("list", "ls", "list-domain", "list-bindings", "list-io", "list-spconfig", "-V"):
        state["log"].append(" ".join(argv))
        _save(state)
        print("NAME             STATE      FLAGS   CONS    VCPU  MEMORY   UTIL  NORM  UPTIME")
        for name, dom in state["domains"].items():
            if plain and name not in plain:
                continue
            control = name == state["control"]
            flags = f"-n{'d' if control and state['reconf'] else '-'}{'c' if control else '-'}{'v' if control else '-'}-"
            print(f"{name:<16} {dom['state']:<10} {flags}  UART    8     8G       0.1%  0.1%  1d")
        return
    if sub == "start-reconf":
        if plain != [state["control"]]:
            _refuse(state, argv, "start-reconf is for the control domain")
        if state["reconf"]:
            _refuse(state, argv, "a delayed reconfiguration is already in progress")
        state["reconf"] = True
    elif sub in ("set-core", "add-core"):
        if _major(state) < 3:
            _refuse(state, argv, f"Invalid command: {sub}")
        _cores(state, argv, int(plain[0]), plain[1], sub == "add-core")
    elif sub in ("set-vcpu", "add-vcpu") and "-c" in args:
        if _major(state) < 2:
            _refuse(state, argv, "-c: whole cores need Logical Domains Manager 2.0 or later")
        name = plain[1]
        dom = _domain(state, argv, name)
        control = name == state["control"]
        if not dom.get("whole_core") and not (dom["state"] == "inactive" or (control and state["reconf"])):
            _refuse(state, argv, f"{name}: the whole-core constraint is turned on only for an inactive domain "
                                 f"or the control domain in a delayed reconfiguration")
        _cores(state, argv, int(plain[0]), name, sub == "add-vcpu")
    elif sub == "set-memory":
        dom = _domain(state, argv, plain[1])
        _change(state, argv, plain[1], "any")
        size = float(plain[0].rstrip("Gg")) if plain[0][-1] in "Gg" else float(plain[0].rstrip("Mm")) / 1024
        _take(state, argv, "free_memory_gb", size - (dom.get("memory_gb") or 0))
        dom["memory_gb"] = size
    elif sub == "set-domain":
        name = plain[0]
        boot_time = {"extended-mapin-space", "max-cores"} & settings.keys()
        _change(state, argv, name, "reconf-or-stopped" if boot_time else "any")
        if "max-cores" in settings and state["domains"][name]["state"] != "inactive" and name != state["control"]:
            _refuse(state, argv, f"{name} must be unbound to change max-cores")
    elif sub in ("set-vsw", "set-vswitch"):
        vsw = state["vsws"].get(plain[0])
        if vsw is None:
            _refuse(state, argv, f"Virtual switch {plain[0]} not found")
        if "mtu" in settings:
            mtu = int(settings["mtu"] or 1500)
            if mtu > vsw["mtu"]:
                _refuse(state, argv, f"unchecked MTU raise of {plain[0]} to {mtu}")
            running = [d for d in vsw.get("vnet_domains", []) if d != state["control"]
                       and state["domains"].get(d, {}).get("state") == "active"]
            if running:
                _refuse(state, argv, f"{', '.join(running)} must be stopped before the MTU of {plain[0]} changes")
            _change(state, argv, vsw["domain"], "reconf-or-stopped")
            vsw["mtu"] = mtu
        else:
            _change(state, argv, vsw["domain"], "any")
    elif sub == "set-vnet":
        _change(state, argv, plain[1], "reconf-or-stopped" if {"mtu", "mode"} & settings.keys() else "any")
    elif sub == "stop":
        name = plain[0]
        dom = _domain(state, argv, name)
        if state["reconf"]:
            _refuse(state, argv, "All configuration changes for other domains are disabled until the primary domain reboots")
        if name == state["control"] or dom["state"] != "active":
            _refuse(state, argv, f"{name} is not an active guest ({dom['state']})")
        dom["state"] = "bound"
    elif sub == "start":
        dom = _domain(state, argv, plain[0])
        if state["reconf"]:
            _refuse(state, argv, "All configuration changes for other domains are disabled until the primary domain reboots")
        if dom["state"] != "bound":
            _refuse(state, argv, f"{plain[0]} is {dom['state']}, not bound")
        dom["state"] = "active"
    elif sub == "add-spconfig":
        if state["reconf"]:
            _refuse(state, argv, "the primary domain has a delayed reconfiguration pending: reboot it first")
        if not plain or not re.fullmatch(r"[A-Za-z0-9_.-]+", plain[0]):
            _refuse(state, argv, "add-spconfig needs a configuration name")
        state["spconfigs"].append(plain[0])
    else:
        _refuse(state, argv, f"stand-in ldm does not know '{sub}'")
    state["log"].append(" ".join(argv))
    _save(state)


def shutdown(argv: list[str]) -> None:
    state = _load()
    state["reboots"].append(" ".join(argv))
    if os.environ.get("STANDIN_REBOOT_FAILS"):  # the administrator never rebooted
        _save(state)
        return
    state["reconf"] = False
    state["reconf_core_done"] = False
    state["log"].append(" ".join(argv))
    _save(state)


def recorder(argv: list[str]) -> None:
    state = _load()
    text = " ".join(argv)
    if argv[0] in ("pkg", "patchadd"):
        _refuse(state, argv, "upgrades are prerequisites: a script never runs them")
    mtu = re.search(r"\bmtu[= ](\d+)", text)
    if argv[0] in ("dladm", "ip", "ifconfig") and mtu and int(mtu.group(1)) > 1500:
        _refuse(state, argv, "unchecked MTU raise")
    state["log"].append(text)
    _save(state)


def uname(argv: list[str]) -> None:
    """`uname -n`: the node name of the machine the scripts run on (by default the captured one)."""
    if argv[1:] != ["-n"]:
        raise SystemExit(f"stand-in uname: only -n, not {argv[1:]}")
    print(os.environ.get("STANDIN_NODE") or _load().get("node") or "standin")


def main() -> None:
    argv = [os.path.basename(sys.argv[1]), *sys.argv[2:]]
    {"ldm": ldm, "shutdown": shutdown, "init": shutdown, "reboot": shutdown, "uname": uname}.get(argv[0], recorder)(argv)


if __name__ == "__main__":
    main()
