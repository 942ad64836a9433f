"""Changes as typed data: what a rule's fix does, not the text of a command.

A `Change` names its operation, the resource it acts on and the value. Each
operation is declared once, by the platform pack it belongs to (its
`changes.py`): where it runs (through `ldm` on the control domain, or
on the captured host), which resource it sizes (one target per resource), the
command it renders for the host's versions, how it is made persistent, and
what it does to the host's facts, so that a plan can be applied to a model of
the machine and judged again before it is written. It also says when the
change takes effect (at once, or at a restart of the domain or host it
changes), what it interrupts though it takes effect at once, and its undo: the
same operation with the value the facts show before it, or, for a line added to
a system file, the edit that takes it out again.
"""

from __future__ import annotations

from typing import Callable, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict

from advisor.facts.models import HostFacts

RunsIn = Literal["ldm", "host"]  # through ldm on the control domain, or on the captured host


class Change(BaseModel):
    """One typed change. `target` is what it acts on (a domain, switch, vnet,
    link, interface, file or tunable); `domain` the domain that target lives in
    where the target's name alone is not enough (a vnet, a guest's vCPU)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    op: str
    target: str
    value: str = ""
    prop: str | None = None
    domain: str | None = None

    def with_value(self, value: str) -> "Change":
        return Change(op=self.op, target=self.target, value=value, prop=self.prop, domain=self.domain)


class Rendered(NamedTuple):  # NamedTuples, not frozen dataclasses: ~3 M instructions less each at import
    """A change as a command for one host: `held` says why it must not run
    there as it stands (a check to make first), `comment` how it persists."""

    command: str
    comment: str | None = None
    held: str | None = None


Undo = Change | str | None  # the change that restores the value before; or an edit to make by hand; or unknown
Judge = Callable[[Change, HostFacts], bool]


def never(change: Change, facts: HostFacts) -> bool:
    return False


def always(change: Change, facts: HostFacts) -> bool:
    return True


def _nothing(change: Change, facts: HostFacts) -> str | None:
    return None


def _no_undo(change: Change, facts: HostFacts) -> Undo:
    return None


class Operation(NamedTuple):
    name: str
    runs_in: RunsIn
    render: Callable[[Change, HostFacts], Rendered]
    apply: Callable[[Change, HostFacts], str | None]  # None when applied; else why the model cannot
    sizes: str | None = None  # the resource of which one target is chosen per subject: "cores", "memory-gb", "vsw-mtu"
    grows: str | None = None  # the free pool it takes from: the host fact of what is free ("free_cores")
    stops: Callable[[Change, HostFacts], list[str]] | None = None  # the domains that must be stopped for it
    edits: Callable[[Change], str] | None = None  # the system file it appends to: copied once before the first
    restarts: Judge = never  # takes effect only at a restart of what it changes (a reconfiguration, a reboot)
    interrupts: Callable[[Change, HostFacts], str | None] = _nothing  # what it cuts though it takes effect at once
    undo: Callable[[Change, HostFacts], Undo] = _no_undo
    sizes_said: str | None = None  # the resource it sizes as `rules show` says it ("whole cores"); else `sizes`


OPERATIONS: dict[str, Operation] = {}


def operation(name: str, runs_in: RunsIn, *, sizes: str | None = None, grows: str | None = None,
              stops: Callable[[Change, HostFacts], list[str]] | None = None,
              edits: Callable[[Change], str] | None = None, restarts: bool | Judge = False,
              interrupts: Callable[[Change, HostFacts], str | None] = _nothing, sizes_said: str | None = None
              ) -> Callable[[Callable[[Change, HostFacts], Rendered]], Callable[[Change, HostFacts], Rendered]]:
    """Declares an operation by its renderer; its effect on facts is given
    with `effect`, its undo with `undo`."""
    judge = restarts if callable(restarts) else (always if restarts else never)

    def register(render: Callable[[Change, HostFacts], Rendered]) -> Callable[[Change, HostFacts], Rendered]:
        OPERATIONS[name] = Operation(name, runs_in, render, _not_modelled, sizes, grows, stops, edits, judge,
                                     interrupts, sizes_said=sizes_said)
        return render
    return register


def effect(name: str) -> Callable[[Callable[[Change, HostFacts], str | None]], Callable[[Change, HostFacts], str | None]]:
    def register(apply: Callable[[Change, HostFacts], str | None]) -> Callable[[Change, HostFacts], str | None]:
        op = OPERATIONS[name]
        OPERATIONS[name] = op._replace(apply=apply)
        return apply
    return register


Follower = Callable[[Change, HostFacts], None]
FOLLOWERS: dict[str, list[Follower]] = {}  # by operation: what it also does to the facts of the packs built on its own


def follows(name: str) -> Callable[[Follower], Follower]:
    """Declares what a change of another pack's operation also does to this pack's
    facts, once its own effect is applied: a pack built on another says it, so that
    the other need not know it (what a link's MTU does to the switches on that link)."""
    def register(also: Follower) -> Follower:
        FOLLOWERS.setdefault(name, []).append(also)
        return also
    return register


def undo(name: str) -> Callable[[Callable[[Change, HostFacts], Undo]], Callable[[Change, HostFacts], Undo]]:
    """Declares how a change of this operation is undone, from the facts before it."""
    def register(how: Callable[[Change, HostFacts], Undo]) -> Callable[[Change, HostFacts], Undo]:
        OPERATIONS[name] = OPERATIONS[name]._replace(undo=how)
        return how
    return register


def was(change: Change, value: object) -> Change | None:
    """The undo of a change whose value before it was `value`; none when that is
    not known, or when the change would not change it."""
    if value is None:
        return None
    text = ("on" if value else "off") if isinstance(value, bool) else f"{value:g}" if isinstance(value, float) \
        else str(value)
    return None if text == change.value else change.with_value(text)


def _not_modelled(change: Change, facts: HostFacts) -> str | None:
    return f"advisor has no model of what {change.op} does"


def get(name: str) -> Operation:
    _load()
    try:
        return OPERATIONS[name]
    except KeyError:
        raise KeyError(f"no change operation {name!r}; known: {', '.join(sorted(OPERATIONS))}") from None


def render(change: Change, facts: HostFacts) -> Rendered:
    return get(change.op).render(change, facts)


def command_line(change: Change, facts: HostFacts, note: str | None = None) -> tuple[str, str | None]:
    """The change as one line for this host (with its comments), and why it
    must be held, if it must."""
    done = render(change, facts)
    comments = "; ".join(c for c in (note, done.comment) if c)
    return (f"{done.command}   # {comments}" if comments else done.command), done.held


def undo_of(change: Change, facts: HostFacts) -> tuple[str | None, Change | None]:
    """How to undo a change on this host, as a line (a command, or an edit to
    make by hand), with the typed change where it is one."""
    how = get(change.op).undo(change, facts)
    if isinstance(how, Change):
        return render(how, facts).command, how
    return how, None


def apply(change: Change, facts: HostFacts) -> str | None:
    """Applies a change to facts in place, with what the packs built on its own say it
    also does (`follows`); None, or why it could not be modelled."""
    why = get(change.op).apply(change, facts)
    if why is None:
        for also in FOLLOWERS.get(change.op, ()):
            also(change, facts)
    return why


_loaded = False


def _load() -> None:
    """Each platform pack's change module declares its operations as it is imported."""
    global _loaded
    if not _loaded:
        from advisor import platform_registry as platforms

        for p in platforms.packs():
            if p.changes is not None:
                platforms.load(p, p.changes)
        _loaded = True


def number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None
