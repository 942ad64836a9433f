"""`advisor diff`: what changed between two reports of the same hosts.

Findings are matched on host, rule and subject: fixed (only before), new (only
after) and changed (both, with another severity or observed value). When both
sides are captures, the counters the rules rely on are compared too, as the
host's platform packs give them (Pack.counters: LDoms' LSO sends, traffic and
per-channel loss counters, Solaris' TCP LSO counters).
"""

from __future__ import annotations

from pydantic import BaseModel

from advisor import platform_registry as platforms
from advisor.facts.models import HostFacts
from advisor.results.model import Finding, HostReport, Severity


class FindingRef(BaseModel):
    rule: str
    subject: str
    severity: Severity
    message: str


class FindingChange(FindingRef):
    severity_before: Severity
    observed_before: str
    observed_after: str


class CounterMove(BaseModel):
    subject: str  # `ldc vnet:0:vnetldc0x1`, `tcp`
    counter: str
    before: int
    after: int
    delta: int | None  # None: the counter went down (a reboot or a wrap in between)


class HostDiff(BaseModel):
    host: str
    before: str | None  # the source of each side; None: the host is on one side only
    after: str | None
    score_before: float | None = None
    score_after: float | None = None
    score_change: float | None = None
    fixed: list[FindingRef] = []
    new: list[FindingRef] = []
    changed: list[FindingChange] = []
    unchanged: int = 0
    counters: list[CounterMove] | None = None  # None: a side has no kstat data


class Diff(BaseModel):
    hosts: list[HostDiff]
    errors: list[str] = []

    def worst_new(self) -> list[FindingRef]:
        """New findings and findings that got more severe."""
        return [f for h in self.hosts for f in h.new] + \
               [c for h in self.hosts for c in h.changed if c.severity.rank > c.severity_before.rank]


def _ref(f: Finding) -> FindingRef:
    return FindingRef(rule=f.rule, subject=f.subject, severity=f.severity, message=f.message)


def _subject(f: Finding, report: HostReport) -> str:
    """Host-level subjects name the host; two captures of one host may be named apart."""
    return "host" if f.subject in (f"host {report.host}", f"host {report.node}") else f.subject


def pair(before: list[HostReport], after: list[HostReport]) -> list[tuple[HostReport | None, HostReport | None]]:
    """Hosts by node name (the bundle's name where the capture shows none); one
    host on each side is the same host even when named differently."""
    if len(before) == 1 and len(after) == 1:
        return [(before[0], after[0])]
    names = list(dict.fromkeys([h.node for h in before] + [h.node for h in after]))
    b, a = {h.node: h for h in before}, {h.node: h for h in after}
    return [(b.get(n), a.get(n)) for n in names]


def compare(old: HostReport | None, new: HostReport | None,
            old_facts: HostFacts | None = None, new_facts: HostFacts | None = None) -> HostDiff:
    host = (new or old).label  # type: ignore[union-attr]
    diff = HostDiff(host=host, before=old.source if old else None, after=new.source if new else None)
    if old is None or new is None:
        return diff
    diff.score_before, diff.score_after = old.score, new.score
    if old.score is not None and new.score is not None:
        diff.score_change = round(new.score - old.score, 1)
    was = {(f.rule, _subject(f, old)): f for f in old.findings}
    now = {(f.rule, _subject(f, new)): f for f in new.findings}
    diff.fixed = [_ref(f) for k, f in was.items() if k not in now]
    diff.new = [_ref(f) for k, f in now.items() if k not in was]
    for key in was.keys() & now.keys():
        a, b = was[key], now[key]
        if a.severity != b.severity or a.observed != b.observed:
            diff.changed.append(FindingChange(**_ref(b).model_dump(), severity_before=a.severity,
                                              observed_before=a.observed, observed_after=b.observed))
        else:
            diff.unchanged += 1
    diff.changed.sort(key=lambda c: (c.rule, c.subject))
    if old_facts is not None and new_facts is not None:
        diff.counters = counters(old_facts, new_facts)
    return diff


def _counter_values(facts: HostFacts) -> dict[tuple[str, str], int] | None:
    """The counters the host's platform packs give (Pack.counters); None when none has any."""
    values: dict[tuple[str, str], int] | None = None
    for p in platforms.packs_of(facts.platform):
        if p.counters is not None and (mine := platforms.load(p, p.counters)(facts)) is not None:
            values = {**(values or {}), **mine}
    return values


def counters(old: HostFacts, new: HostFacts) -> list[CounterMove] | None:
    before, after = _counter_values(old), _counter_values(new)
    if before is None or after is None:
        return None
    moves = []
    for key in sorted(before.keys() & after.keys()):
        b, a = before[key], after[key]
        moves.append(CounterMove(subject=key[0], counter=key[1], before=b, after=a, delta=a - b if a >= b else None))
    return moves
