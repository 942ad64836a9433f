"""Facts models. Every field is None when no output said what it is.

`evidence` maps a field name to the file and line it was read from, so a
finding can show where its observed value came from.

The records are plain ones (advisor.facts.record); each platform pack adds
its own host facts with a record of its own (Pack.record).
"""

from functools import cache
from typing import Any, Literal, get_args

from advisor.facts.record import Fact, Record, cloned
from advisor.facts.traffic import Rates

__all__ = ["Fact", "Record", "cloned", "Rates"]


class Filtered(Record):
    """An output piped through grep, head or tail: partial."""

    command: str
    grep: str | None = None


class HostFacts(Fact):
    host: str
    kind: Literal["capture", "plan"] = "capture"  # a plan has no run-time data (kstat, effective values)
    platform: str = "unknown"  # its family (a pack's Family.name), or "unknown"
    os_name: str | None = None
    arch: str | None = None  # "sparc" or "x86"
    roles: list[str] | None = None  # virtinfo roles of the captured domain
    nodename: str | None = None  # uname -a's node name: which machine this is, whatever the bundle is called
    cpu_model: str | None = None
    inputs: list[str] = []  # command ids whose output was read
    rates: "Rates | None" = None  # two samples of its counters: rates (facts/traffic.py); None with one sample
    filtered: dict[str, Filtered] = {}  # command id -> how its output was filtered


@cache
def host_record(family: str | None = None) -> type[HostFacts]:
    """HostFacts with the fields each platform pack of this family adds with its own
    record (`Pack.record`), or every pack's when no family is given: a pack declares
    its host facts without touching this module."""
    from advisor import platform_registry as platforms

    mixins: list[type[Record]] = []
    for p in platforms.packs() if family is None else platforms.packs_of(family):
        if p.record is not None:
            mixin = platforms.load(p, p.record)
            clash = set(mixin.fields()) & set(HostFacts.fields()).union(*(m.fields() for m in mixins)) - {"evidence"}
            if clash:
                raise RuntimeError(f"platform pack {p.name}: {p.record} redefines host fact {sorted(clash)[0]}")
            mixins.append(mixin)
    return type(f"{(family or 'any').capitalize()}Host", (HostFacts, *mixins), {}) if mixins else HostFacts


def as_family(facts: HostFacts, family: str | None = None) -> HostFacts:
    """The same facts in the record of the host's family (or of `family`), once it is known."""
    record = host_record(family or facts.platform)
    if type(facts) is record:
        return facts
    typed = record(host=facts.host)
    for name, value in vars(facts).items():
        setattr(typed, name, value)
    return typed


@cache
def record_of(field: str) -> type[Record] | None:
    """The record a list field of the host's facts holds (`domains` -> Domain), or None."""
    hint = _host_hints().get(field)
    for arg in get_args(hint) or (hint,):
        inner = get_args(arg)
        if inner and isinstance(inner[0], type) and issubclass(inner[0], Record):
            return inner[0]
    return None


@cache
def _host_hints() -> dict[str, Any]:
    """Every pack's host fields' types, resolved once: resolving them is most of
    what checking the rules' reads at start costs (25 subjects, one resolution each)."""
    from typing import get_type_hints

    return get_type_hints(host_record())


def detected(facts: HostFacts) -> dict[str, Any]:
    """What a report says it detected of the host, by its field, from the host
    facts the host's packs name (Pack.detected: `sru` from host.sru)."""
    from advisor import platform_registry as platforms

    return {field: getattr(facts, fact, None) for p in platforms.packs_of(facts.platform)
            for field, fact, _shown in p.detected}


def domain_name(facts: HostFacts) -> str | None:
    """The name of the domain the captured host is, as its platform's manager
    names it (Pack.domain_name: LDoms' host.ldom_name); None on a platform without one."""
    from advisor import platform_registry as platforms

    return next((getattr(facts, p.domain_name, None) for p in platforms.packs_of(facts.platform)
                 if p.domain_name is not None), None)
