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
from advisor.report import stream
from advisor.results.model import Finding, HostReport, fix_lines

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


def _result(h: HostReport, f: Finding, index: int, steps: dict) -> dict:
    host = h.host
    result = {
        "ruleId": f.rule,
        "ruleIndex": index,
        "level": _LEVEL[f.severity.value],
        "message": {"text": f"{h.label}: {f.message}"},
        "locations": [_location(e) for e in f.evidence] or [
            {"logicalLocations": [{"fullyQualifiedName": f"{host}/{f.subject}", "kind": "resource"}]}],
        "properties": {"host": host, "subject": f.subject, "severity": f.severity.value, "observed": f.observed,
                       "expected": f.expected, "impact": f.impact, "remediation": fix_lines(h, f, steps)[1],
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


class Writer:
    """The results as each host is judged, then the rules they cite (each once,
    numbered in the order first cited) and the plans."""

    in_fleet_order = False
    separator = ""

    def __init__(self, rules: list[Rule]) -> None:
        self.by_id = {r.id: r for r in rules}
        self.index: dict[str, int] = {}
        self.plans: dict[str, str] = {}
        self._written = False  # a result, so the next one follows a comma

    def head(self, fleet: stream.Fleet) -> str:
        return ('{\n  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",\n  "version": "2.1.0",\n'
                '  "runs": [\n    {\n      "results": [')

    def part(self, h: HostReport) -> str:
        if h.plan is not None and h.plan.simulation is not None:
            self.plans[h.host] = h.plan.simulation.summary()
        out = []
        steps = h.plan.by_finding() if h.plan is not None else {}
        for f in h.findings:
            index = self.index.setdefault(f.rule, len(self.index))
            out.append(("," if self._written else "") + "\n" + _indented(_result(h, f, index, steps), 8))
            self._written = True
        return "".join(out)

    def tail(self, fleet: stream.Fleet) -> str:
        run = {"tool": {"driver": {"name": "advisor", "version": __version__,
                                   "rules": [_descriptor(self.by_id[r]) for r in self.index if r in self.by_id]}},
               "properties": {"plans": self.plans},
               "invocations": [{"executionSuccessful": not fleet.errors,
                                "toolExecutionNotifications": [{"level": "error", "message": {"text": e}}
                                                               for e in fleet.errors]}]}
        rest = json.dumps(run, indent=2)[1:-2]  # its members, to follow "results" in the same object
        return ("\n      ]" if self._written else "]") + "," + rest.replace("\n", "\n    ") + "\n    }\n  ]\n}\n"


def _indented(value: object, by: int) -> str:
    return " " * by + json.dumps(value, indent=2).replace("\n", "\n" + " " * by)
