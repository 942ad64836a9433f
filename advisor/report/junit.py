"""`--format junit`: one testsuite per host, one testcase per rule and subject.

A failed result carries its message, observed and expected values, evidence
and remediation; unknown and not-applicable results are skipped with the
reason, so a CI server shows what was not evaluated.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from advisor.report import stream
from advisor.results.model import OTHER_PLATFORM, HostReport, fix_lines


def _case(h: HostReport, result, finding, index: dict) -> str:
    attrs = f"classname={quoteattr(result.rule)} name={quoteattr(f'{h.label}: {result.subject}')}"
    if result.status == "fail" and finding is not None:
        which, lines = fix_lines(h, finding, index)
        body = "\n".join([finding.message, f"observed: {finding.observed}", f"expected: {finding.expected}",
                          f"evidence: {', '.join(finding.evidence) or '-'}", f"impact: {finding.impact}",
                          f"fix: {which}", *[f"  {c}" for c in lines], f"source: {finding.source}"])
        return (f"    <testcase {attrs}><failure message={quoteattr(finding.message)} "
                f"type={quoteattr(finding.severity.value)}>{escape(body)}</failure></testcase>")
    if result.status == "unknown":
        why = "unknown: needs " + ", ".join(result.missing or [result.reason or "input"])
        return f"    <testcase {attrs}><skipped message={quoteattr(why)}/></testcase>"
    if result.status == "not_applicable":
        return f"    <testcase {attrs}><skipped message={quoteattr('not applicable')}/></testcase>"
    return f"    <testcase {attrs}/>"


def _other_platform(result) -> bool:
    """A rule for another platform is not a test of this host at all."""
    return result.status == "not_applicable" and (result.reason or "").startswith(OTHER_PLATFORM)


class Writer:
    """A testsuite per host, in the order given."""

    in_fleet_order = False
    separator = ""

    def head(self, fleet: stream.Fleet) -> str:
        return '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="advisor">\n'

    def part(self, h: HostReport) -> str:
        findings = {(f.rule, f.subject): f for f in h.findings}
        results = [r for r in h.results if not _other_platform(r)]
        skipped = sum(1 for r in results if r.status in ("unknown", "not_applicable"))
        failed = sum(1 for r in results if r.status == "fail")
        lines = [f"  <testsuite name={quoteattr(h.label)} tests=\"{len(results)}\" failures=\"{failed}\" "
                 f"errors=\"{len(h.errors)}\" skipped=\"{skipped}\">"]
        if h.plan is not None and h.plan.simulation is not None:
            lines.append(f"    <properties><property name=\"advisor.plan\" "
                         f"value={quoteattr(h.plan.simulation.summary())}/></properties>")
        for e in h.errors:
            lines.append(f"    <testcase classname=\"advisor.input\" name={quoteattr(h.host)}>"
                         f"<error message={quoteattr(e)}/></testcase>")
        index = h.plan.by_finding() if h.plan is not None else {}
        lines += [_case(h, r, findings.get((r.rule, r.subject)), index) for r in results]
        lines.append("  </testsuite>")
        return "\n".join(lines) + "\n"

    def tail(self, fleet: stream.Fleet) -> str:
        return "</testsuites>\n"
