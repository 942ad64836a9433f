"""The report every renderer reads. Field names are a contract (DESIGN.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from advisor.engine.model import Severity

Status = Literal["pass", "fail", "not_applicable", "unknown"]
RUNTIME_REASON = "needs run-time data"  # how a run-time rule's not_applicable on a plan begins


class Result(BaseModel):
    rule: str
    subject: str
    status: Status
    severity: Severity | None = None
    missing: list[str] | None = None  # for unknown: the command outputs that would decide it
    reason: str | None = None
    waived: bool = False  # a waived fail counts in neither score sum


class WaiverNote(BaseModel):
    reason: str
    owner: str
    expires: str


class Finding(BaseModel):
    rule: str
    title: str
    severity: Severity
    subject: str
    domain: str | None = None  # the LDoms/Xen domain the subject belongs to (groups remediation)
    message: str
    observed: str
    expected: str
    evidence: list[str]
    remediation: list[str]
    undo: list[str] = []
    impact: str
    effect: str
    source: str
    confidence: Literal["confirmed", "unconfirmed"] = "confirmed"
    waiver: WaiverNote | None = None  # set on waived findings (HostReport.waived)


class BaselineNote(BaseModel):
    """Against --baseline: findings already there (left out of findings) and fixed since."""

    unchanged: list[str] = []
    fixed: list[str] = []


class Counts(BaseModel):
    passed: int = 0
    failed: int = 0
    not_applicable: int = 0
    unknown: int = 0


class Detected(BaseModel):
    os: str | None = None
    arch: str | None = None
    sru: int | None = None
    ldm_version: str | None = None
    domain_roles: list[str] | None = None
    cpu_model: str | None = None
    inputs: list[str] = []


class HostReport(BaseModel):
    host: str
    source: str
    platform: str
    kind: Literal["capture", "plan"] = "capture"  # a plan: judged before it is built
    detected: Detected
    score: float | None
    status: Literal["clean", "findings", "error", "unreachable"]
    counts: Counts
    results: list[Result]
    findings: list[Finding]
    errors: list[str]  # files that could not be read: exit status 2
    not_collected: list[str] = []  # commands that ran but gave no output (not found, no privilege)
    unused: list[str] = []  # files recognized but read by no rule yet
    incomplete: list[str] = []  # commands that never finished (timed out): the run exits 3
    waived: list[Finding] = []  # findings a policy waiver accepts: shown, not counted
    expired_waivers: list[str] = []  # waivers past their date: they no longer apply
    baseline: BaselineNote | None = None

    def finding_counts(self) -> dict[str, int]:
        """Findings per severity, critical first."""
        return {s.value: sum(1 for f in self.findings if f.severity is s) for s in Severity}


class Tool(BaseModel):
    name: str = "advisor"
    version: str
    rules: int


class Summary(BaseModel):
    hosts: int
    findings: dict[str, int]
    errors: int
    lowest_score: float | None
    gate: Literal["passed", "failed"] | None = None
    gate_reason: str | None = None


class Report(BaseModel):
    tool: Tool
    hosts: list[HostReport]
    summary: Summary
    errors: list[str] = []  # paths that could not be read at all
