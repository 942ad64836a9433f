"""Applying a policy's waivers to a host's findings: accepted findings move to
`waived` and their results leave the score; a waiver past its date stops
applying and the report says so."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from advisor.engine.policy import Policy, Waiver
from advisor.results.model import Finding, Result, WaiverNote


@dataclass
class Waived:
    findings: list[Finding] = field(default_factory=list)  # still to fix
    waived: list[Finding] = field(default_factory=list)
    expired: list[str] = field(default_factory=list)


def accepted(host: str, results: list[Result], policy: Policy, today: date | None = None) -> set[tuple[str, str]]:
    """The failed results a live waiver accepts, as (rule, subject). Nothing is
    written: the results of a plan's model share most of theirs with the host's report."""
    live = _live(policy, today or date.today())
    if not live:
        return set()
    return {(r.rule, r.subject) for r in results
            if r.status == "fail" and any(w.matches(host, r.rule, r.subject) for w in live)}


def apply(host: str, results: list[Result], findings: list[Finding], policy: Policy,
          today: date | None = None) -> Waived:
    """Marks waived results (they count in neither score sum) and splits the findings."""
    today = today or date.today()
    out = Waived()
    live = _live(policy, today)
    for w in policy.waivers:
        if w.expires < today and any(w.matches(host, f.rule, f.subject) for f in findings):
            out.expired.append(f"{w.rule} on {w.subject} (owner {w.owner}) expired {w.expires}; no longer applied")
    for f in findings:
        waiver = next((w for w in live if w.matches(host, f.rule, f.subject)), None)
        if waiver is None:
            out.findings.append(f)
            continue
        out.waived.append(f.model_copy(update={"waiver": WaiverNote(reason=waiver.reason, owner=waiver.owner,
                                                                   expires=waiver.expires.isoformat())}))
        for r in results:
            if r.rule == f.rule and r.subject == f.subject and r.status == "fail":
                r.waived = True
    return out


def _live(policy: Policy, today: date) -> list[Waiver]:
    return [w for w in policy.waivers if w.expires >= today]
