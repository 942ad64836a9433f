"""`--format sarif`: SARIF 2.1.0 for code-scanning and CI dashboards.

One run; each rule that produced a finding is a reportingDescriptor; each
finding a result located at its evidence (file and line), or logically at
host/subject when it has no file evidence.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

from advisor import __version__
from advisor.engine.model import Rule
from advisor.report.model import Finding, HostReport, Report, fix_lines

_LEVEL = {"critical": "error", "high": "error", "medium": "warning", "low": "note", "info": "note"}
_EVIDENCE = re.compile(r"^(?P<file>.+?):(?P<line>\d+)$")


def _location(evidence: str) -> dict:
    m = _EVIDENCE.match(evidence)
    region = {"startLine": int(m.group("line"))} if m else None
    # a URI reference, so a space, `|` or backtick in a file name is percent-encoded (SARIF 2.1.0, 3.10.2)
    loc: dict = {"physicalLocation": {"artifactLocation": {"uri": quote(m.group("file") if m else evidence)}}}
    if region:
        loc["physicalLocation"]["region"] = region
    return loc


def _result(h: HostReport, f: Finding, index: int) -> dict:
    host = h.host
    result = {
        "ruleId": f.rule,
        "ruleIndex": index,
        "level": _LEVEL[f.severity.value],
        "message": {"text": f"{h.label}: {f.message}"},
        "locations": [_location(e) for e in f.evidence] or [
            {"logicalLocations": [{"fullyQualifiedName": f"{host}/{f.subject}", "kind": "resource"}]}],
        "properties": {"host": host, "subject": f.subject, "severity": f.severity.value, "observed": f.observed,
                       "expected": f.expected, "impact": f.impact, "remediation": fix_lines(h, f)[1],
                       "planSteps": f.plan_steps},
    }
    return result


def _descriptor(rule: Rule) -> dict:
    help_text = "\n".join([rule.rationale.strip(), "", "Remediation:", *[r.summary for r in rule.remediation],
                           "", f"Source: {rule.source.citation}"])
    descriptor = {"id": rule.id, "name": rule.id.replace(".", "-"), "shortDescription": {"text": rule.title},
                  "fullDescription": {"text": rule.rationale.strip()}, "help": {"text": help_text},
                  "properties": {"severity": rule.severity.value, "effect": rule.effect.strip()}}
    if rule.source.url:
        descriptor["helpUri"] = rule.source.url
    return descriptor


def render(report: Report, rules: list[Rule]) -> str:
    used = sorted({f.rule for h in report.hosts for f in h.findings})
    by_id = {r.id: r for r in rules}
    index = {rid: i for i, rid in enumerate(used)}
    results = [_result(h, f, index[f.rule]) for h in report.hosts for f in h.findings]
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "advisor", "version": __version__,
                                "rules": [_descriptor(by_id[rid]) for rid in used if rid in by_id]}},
            "results": results,
            "properties": {"plans": {h.host: h.plan.simulation.summary() for h in report.hosts
                                     if h.plan is not None and h.plan.simulation is not None}},
            "invocations": [{"executionSuccessful": not report.errors,
                             "toolExecutionNotifications": [{"level": "error", "message": {"text": e}} for e in report.errors]}],
        }],
    }
    return json.dumps(sarif, indent=2) + "\n"
