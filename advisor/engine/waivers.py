"""Applying a policy's waivers to a host's results: accepted findings move to
`waived` and leave the score; a waiver past its date stops applying and the
report says so."""

from __future__ import annotations

from datetime import date

from advisor.engine.policy import Policy
from advisor.report.model import HostReport, WaiverNote


def apply(report: HostReport, policy: Policy, today: date | None = None) -> None:
    today = today or date.today()
    live = [w for w in policy.waivers if w.expires >= today]
    for w in policy.waivers:
        if w.expires < today and any(w.matches(report.host, f.rule, f.subject) for f in report.findings):
            report.expired_waivers.append(f"{w.rule} on {w.subject} (owner {w.owner}) expired {w.expires}; no longer applied")
    kept = []
    for f in report.findings:
        waiver = next((w for w in live if w.matches(report.host, f.rule, f.subject)), None)
        if waiver is None:
            kept.append(f)
            continue
        report.waived.append(f.model_copy(update={"waiver": WaiverNote(reason=waiver.reason, owner=waiver.owner,
                                                                      expires=waiver.expires.isoformat())}))
        for r in report.results:
            if r.rule == f.rule and r.subject == f.subject and r.status == "fail":
                r.waived = True
    report.findings = kept
