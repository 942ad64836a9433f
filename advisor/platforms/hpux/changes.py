"""HP-UX LAN changes: TSO is a virtual MTU (`vmtu`) of 32160 on the port;
`nwmgr` on 11i v3 (B.11.31), `lanadmin -X` by PPA before it. `lanadmin`
settings do not survive a reboot: they persist in /etc/rc.config.d."""

from __future__ import annotations

from advisor.changes import Change, Rendered, Undo, effect, operation, undo, was
from advisor.facts.models import HostFacts
from advisor.platforms.hpux.records import hpux, LanInterface
from advisor.shell import shell_word

# nwmgr prints display names, not attribute names, and basic CKO's name was not
# seen in a published output: the administrator fills it in.
_ATTRIBUTE = {"vmtu": "vmtu", "tx_cko": "TX_CKO_ATTRIBUTE"}


def _lan(facts: HostFacts, name: str) -> LanInterface | None:
    return next((lan for lan in hpux(facts).lan_interfaces or [] if lan.name == name), None)


def _v3(facts: HostFacts) -> bool:
    return (hpux(facts).hpux_release or "").endswith("11.31")


@operation("set-lan-attr", "host")
def _set_lan_attr(change: Change, facts: HostFacts) -> Rendered:
    prop = change.prop or "<attribute>"
    if _v3(facts):
        named = f"nwmgr -h -c {change.target} names the attribute" if prop == "tx_cko" else None
        return Rendered(f"nwmgr --sa -A {shell_word(f'{_ATTRIBUTE.get(prop, prop)}={change.value}')} "
                        f"-c {shell_word(change.target)}", comment=named)
    lan = _lan(facts, change.target)
    ppa = str(lan.ppa) if lan is not None else "<ppa>"
    if prop != "vmtu":
        return Rendered(f"lanadmin -X {shell_word(prop)} {shell_word(change.value)} {ppa}",
                        held=f"lanadmin's option for {prop} on {hpux(facts).hpux_release or 'this release'} is checked in "
                             f"lanadmin(1M) first")
    return Rendered(f"lanadmin -X vmtu {shell_word(change.value)} {ppa}",
                    comment=f"persist with HP_<DRIVER>_VMTU={change.value} in /etc/rc.config.d")


@undo("set-lan-attr")
def _set_lan_attr_undo(change: Change, facts: HostFacts) -> Undo:
    lan = _lan(facts, change.target)
    if lan is None or change.prop not in ("vmtu", "tx_cko"):
        return None
    return was(change, lan.vmtu if change.prop == "vmtu" else lan.tx_cko)


@effect("set-lan-attr")
def _set_lan_attr_effect(change: Change, facts: HostFacts) -> str | None:
    lan = _lan(facts, change.target)
    if lan is None or change.prop not in ("vmtu", "tx_cko"):
        return f"no model of {change.prop} on {change.target}"
    if change.prop == "tx_cko":
        lan.tx_cko = change.value == "on"
        return None
    lan.vmtu = int(change.value) if change.value.isdigit() else lan.vmtu
    for agg in hpux(facts).lan_interfaces or []:
        if lan.aggregate is not None and agg.name == lan.aggregate:
            agg.members_tso_off = [m for m in agg.members_tso_off if m.name != lan.name]
    return None
