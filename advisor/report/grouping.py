"""What the reports for a person (terminal and HTML) both say, in the same order:
hosts worst first, findings grouped by rule, each subject with its own values,
the checks not evaluated, and each study cited once per host."""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from advisor.results.model import Finding, HostLine, HostReport, PlanStep, Severity, unplanned_fix, worst_first

SEVERITIES = tuple(s.value for s in Severity)  # critical first, as HostReport.finding_counts()


class Group(NamedTuple):
    """One rule's findings on a host; `causes`: the rules it follows from, when it sits under them."""

    rule: str
    findings: list[Finding]
    causes: list[str]

    @property
    def worst(self) -> Finding:
        return max(self.findings, key=lambda f: f.severity.rank)


class Subject(NamedTuple):
    """A row of a group's table of subjects: its own values, never the first subject's."""

    name: str
    severity: str
    observed: str
    expected: str
    evidence: list[str]


def fleet(lines: list[HostLine]) -> tuple[list[HostLine], list[str]]:
    """The hosts in the order of the fleet table, worst first, and the severities
    it has a column for: those some host has a finding at."""
    hosts = sorted(lines, key=worst_first)
    counts = [h.finding_counts() for h in hosts]
    return hosts, [s for s in SEVERITIES if any(c.get(s) for c in counts)]


def score_short(h: HostReport | HostLine) -> str:
    if h.score is None:
        return "no evidence" if h.counts.passed + h.counts.failed == 0 else "-"
    return f"{h.score:g}"


def groups(h: HostReport, causes: dict[str, list[str]]) -> list[Group]:
    """Findings by rule, worst first; a rule that follows from another one shown
    sits right after its cause, naming it."""
    by_rule: dict[str, list[Finding]] = {}
    for f in h.findings:
        by_rule.setdefault(f.rule, []).append(f)
    if h.rates is None:
        order = sorted(by_rule, key=lambda r: (-max(f.severity.rank for f in by_rule[r]), r))
    else:  # two samples: within a severity, the rule whose finding carries the largest share of its study's figure first
        order = sorted(by_rule, key=lambda r: (-max(f.severity.rank for f in by_rule[r]),
                                               -max(round(f.load.share, 3) if f.load else -1.0 for f in by_rule[r]), r))
    placed: list[Group] = []
    dependents = {r: [c for c in causes.get(r, []) if c in by_rule] for r in order}
    for rule in order:
        if dependents[rule]:
            continue
        placed.append(Group(rule, by_rule[rule], []))
        for other in order:
            if dependents[other] and dependents[other][0] == rule:
                placed.append(Group(other, by_rule[other], dependents[other]))
    return placed


def order_said(h: HostReport) -> str | None:
    """Where the host has rates, how its findings are ordered, as every view says it."""
    if h.rates is None:
        return None
    over = f" over {h.rates.interval_s:.0f} s" if h.rates.interval_s else ""
    return (f"Findings ordered by severity, then by measured load{over} (the share of its study's figure "
            f"each finding's subject carries; two samples of the counters)")


def short(evidence: str, source: str) -> str:
    """Evidence relative to the host's source (its path is in the header)."""
    return evidence[len(source) + 1:] if evidence.startswith(source + "/") else evidence


def subjects(group: Group, source: str) -> list[Subject]:
    """Each subject without its kind (`ldg1`, not `domain ldg1`), with its own observed and expected values."""
    return [Subject(f.subject.split(" ", 1)[-1], f.severity.value, f.observed, f.expected,
                    [short(e, source) for e in f.evidence]) for f in group.findings]


def steps_of(group: Group, numbered: list[tuple[str, PlanStep]]) -> list[tuple[str, PlanStep]]:
    """The plan's numbered steps that fix any of the group's findings."""
    tags = {f.tag for f in group.findings}
    return [(n, s) for n, s in numbered if tags & set(s.fixes)]


def checks_of(group: Group) -> list[str]:
    """The checks by hand the group's rule gives, each once."""
    return list(dict.fromkeys(s.as_text() for f in group.findings for s in f.steps if s.kind == "check"))


def fix_said(group: Group, steps: list[tuple[str, PlanStep]]) -> str:
    """`impact: live; plan step 8, 13`, or why the plan has no step for it."""
    impact = ", ".join(dict.fromkeys(f.impact for f in group.findings))
    how = (f"plan step {', '.join(n for n, _ in steps)}" if steps
           else f"fixed by the steps of {', '.join(group.causes)}" if group.causes
           else unplanned_fix(group.worst))
    return f"impact: {impact}; {how}"


def unknowns(h: HostReport) -> list[tuple[str, list[str]]]:
    """The checks not evaluated, by the input that would decide them: (input, rules)."""
    by_input: dict[str, set[str]] = defaultdict(set)
    for r in h.results:
        if r.status == "unknown":
            for m in r.missing or [r.reason or "undetermined"]:
                by_input[m].add(r.rule)
    return [(missing, sorted(rules)) for missing, rules in sorted(by_input.items())]


Study = tuple[str, str]  # (title, address)


def cite(f: Finding, studies: dict[Study, int]) -> tuple[int, str]:
    """A finding's source as (its study's number, the section): each study is
    numbered once, in the order first cited, and listed at the end of the host."""
    title, _, section = f.source.rpartition(", section ")
    study = (title or f.source, f.source_url or "")
    return studies.setdefault(study, len(studies) + 1), section if title else ""
