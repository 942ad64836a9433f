"""The platform packs. Each folder of advisor/platforms declares one platform in its `pack.py`
(see platform_spec.py); everything that lists commands, outputs, parsers, facts, change
operations or rules is made from these declarations, so the rest of advisor
names no platform. Packs are found by their folders: adding a platform is
adding a folder."""

import importlib
import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from advisor.platform_spec import SECOND, Command, Family, Output, Pack, Pattern, Subject

HERE = Path(__file__).parent / "platforms"  # a folder per pack


@cache
def packs() -> tuple[Pack, ...]:
    """Every pack, in the order facts are built: packs of no family first
    (what every host says), then each family's own pack, then the packs built on one."""
    found = [importlib.import_module(f"advisor.platforms.{d.name}.pack").PACK
             for d in sorted(HERE.iterdir()) if (d / "pack.py").is_file()]
    ordered = [p for p in found if p.common] + [p for p in found if p.family is not None]
    while len(ordered) < len(found):
        ready = [p for p in found if p not in ordered and p.extends in {q.name for q in ordered}]
        if not ready:
            odd = sorted(p.name for p in found if p not in ordered)
            raise RuntimeError(f"platform packs {', '.join(odd)} extend no pack advisor has")
        ordered += ready
    return tuple(ordered)


@cache
def pack(name: str) -> Pack:
    return next(p for p in packs() if p.name == name)


def family_of(p: Pack) -> Family | None:
    while p.family is None and p.extends is not None:
        p = pack(p.extends)
    return p.family


@cache
def families() -> dict[str, Family]:
    return {p.family.name: p.family for p in packs() if p.family is not None}


def family_for_uname(system: str) -> str | None:
    """`SunOS` -> solaris."""
    return next((f.name for f in families().values() if f.uname == system), None)


@cache
def packs_of(family: str) -> tuple[Pack, ...]:
    """The packs whose facts a host of this family gets, in order (the packs of no family first)."""
    return tuple(p for p in packs() if (f := family_of(p)) is None or f.name == family)


@cache
def collected(family: str) -> tuple[Command, ...]:
    """What the live audit and the collector script run on a host of this family."""
    return tuple(c for p in packs_of(family) for c in p.collect)


@cache
def script_platforms() -> dict[str, tuple[Command, ...]]:
    """The collector script's --platform names: every pack that collects, and the packs built on one."""
    return {p.name: collected(f.name) for p in packs() if (f := family_of(p)) is not None}


class Known(NamedTuple):  # as the declarations are (platform_spec): no dataclass to compile at import
    pack: Pack
    output: Output
    template: re.Pattern[str] | None = None  # for an id with a {name}: what the name may be


@cache
def outputs() -> dict[str, Known]:
    """Every output by its id (`driver-{name}` for a templated one)."""
    known: dict[str, Known] = {}
    for p in packs():
        for o in p.outputs:
            template = (re.compile(re.escape(o.id).replace(re.escape("{name}"), "([a-z0-9_]+)") + "$")
                        if "{name}" in o.id else None)
            if o.id in known:
                raise RuntimeError(f"platform pack {p.name}: output {o.id} is declared by {known[o.id].pack.name} too")
            known[o.id] = Known(p, o, template)
    return known


@lru_cache(maxsize=4096)  # asked of every output of every host
def known(command_id: str) -> tuple[Known, str | None] | None:
    """The declaration of an output by its command id (`ethtool-k@eth0`, `driver-ixgbe`) and its item or name."""
    if command_id.endswith(SECOND):  # the second sample of a sampled output: read by the same parser
        found = known(command_id[:-len(SECOND)])
        return found if found is not None and found[0].output.sampled else None
    base, at, item = command_id.partition("@")
    if (k := outputs().get(base)) is not None and (k.output.per_item or not at):
        return k, item or None
    for k in outputs().values():
        if k.template is not None and not at and (m := k.template.match(command_id)):
            return k, m.group(1)
    return None


@cache
def patterns() -> list[tuple[Output, Pattern]]:
    """How loose and pasted outputs are recognised, in the order to try them: per-interface
    outputs first (they name the interface), then the packs built on others (their outputs
    are the more specific), the families', and the rest; a pattern marked `last` after every other."""
    order = list(reversed(packs()))
    tried = [(o, pat) for p in order for o in p.outputs for pat in o.recognised_by]
    return sorted(tried, key=lambda t: (t[1].last, not t[0].per_item))


@cache
def subjects() -> dict[str, Subject]:
    """What rules may judge one by one, by name, from every pack (the host is the core's own)."""
    found: dict[str, Subject] = {}
    for p in packs():
        for subject in p.subjects:
            if subject.name in found or subject.name == "host":
                raise RuntimeError(f"platform pack {p.name}: subject {subject.name} is declared twice")
            found[subject.name] = subject
    return found


@cache
def line_readers(tool: str) -> tuple[Any, ...]:
    """The functions of the packs that say which output a typed command line of this tool prints."""
    return tuple(load(p, ref) for p in packs() for name, ref in p.lines if name == tool)


def load(p: Pack, ref: str, package: str = "") -> Any:
    """`module:function` of a pack (in its `package`, e.g. parsers) as the object it names."""
    module, _, name = ref.partition(":")
    where = f"advisor.platforms.{p.name}.{package + '.' if package else ''}{module}"
    loaded = importlib.import_module(where)
    return getattr(loaded, name) if name else loaded


def declared(family: str, what: str) -> Any:
    """What the first pack of this family to declare `what` (a `module:name`
    attribute of Pack: `restarts`, `script`) names, loaded; None if none does."""
    for p in packs_of(family):
        ref = getattr(p, what)
        if ref is not None:
            return load(p, ref)
    return None


def rule_files() -> list[tuple[Pack, Path]]:
    """Each pack's rules, by the pack's name: the order results are listed in."""
    return [(p, HERE / p.name / "rules.yaml") for p in sorted(packs(), key=lambda p: p.name) if p.rules]


STUDIES = HERE / "sources.yaml"  # the studies the rules cite, by key
