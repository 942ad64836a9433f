"""What a review finds, as the engine makes it and every renderer reads it:
results, findings, plans, host reports. Field names are a contract (DESIGN.md)."""

import re
from datetime import datetime, timezone
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from advisor import changes as operations
from advisor import platform_registry as platforms
from advisor.changes import Change, RunsIn
from advisor.facts.models import HostFacts
from advisor.results.rates import Rates

Status = Literal["pass", "fail", "not_applicable", "unknown"]


class Severity(str, Enum):
    critical = "critical"
    high = "high"
    medium = "medium"
    low = "low"
    info = "info"

    @property
    def weight(self) -> int:
        return _WEIGHTS[self]

    @property
    def rank(self) -> int:
        return _RANKS[self]


# By member: an enum's .value is a descriptor call, dearer than the lookup (a score reads each result's weight)
_WEIGHTS = {Severity.critical: 10, Severity.high: 5, Severity.medium: 3, Severity.low: 1, Severity.info: 0}
_RANKS = {Severity.critical: 4, Severity.high: 3, Severity.medium: 2, Severity.low: 1, Severity.info: 0}


RUNTIME_REASON = "needs run-time data"  # how a run-time rule's not_applicable on a plan begins
OTHER_PLATFORM = "rule is for"  # how a rule of another platform's not_applicable reason begins


def _absent(value: object) -> bool:
    """A field left out of the report where it has no value (Field's exclude_if). A field's
    rule, not a wrapping model_serializer: with one, pydantic builds each host's and each
    finding's data as Python objects before writing their JSON, most of the JSON's cost."""
    return value is None


# A part of a host's report alone, seldom present: built within the report's models, not on its own
_PART = ConfigDict(defer_build=True)


class Result(BaseModel):
    rule: str
    subject: str
    status: Status
    severity: Severity | None = None
    missing: list[str] | None = None  # for unknown: the command outputs that would decide it
    reason: str | None = None
    waived: bool = False  # a waived fail counts in neither score sum


class WaiverNote(BaseModel):
    model_config = _PART
    reason: str
    owner: str
    expires: str


_PLACEHOLDER = re.compile(r"<[a-z][a-z0-9 -]*>|\b[A-Z]+_[A-Z_]+\b")


class FixStep(BaseModel):
    """One remediation step of a finding, as the rule gave it (see engine.model.Remedy)."""

    command: str  # as the host runs it: rendered from `change` where the step has one
    change: Change | None = None
    note: str | None = None  # the rule's comment on a change's command
    kind: Literal["change", "check", "prerequisite"] = "change"
    runs_in: RunsIn = "host"  # through ldm on the control domain, or on the captured host
    domain: str | None = None  # the LDoms domain whose configuration the step changes
    takes_effect: Literal["now", "restart"] = "now"
    check_first: str | None = None
    held: str | None = None  # why it cannot run as it stands (this host's versions; the plan's simulation)
    sets: str | None = None  # the resource it sizes: "cores:ldg1", "memory-gb:ldg1", "vsw-mtu:primary-vsw1"
    amount: float | None = None
    also_restarts: list[str] = []  # other domains that need a restart for it to take effect
    interrupts: str | None = None  # what it interrupts though it takes effect at once (a link reset)
    undo: str | None = None
    undo_change: Change | None = None  # the undo as a typed change, where it is one

    def with_change(self, change: Change, facts: "HostFacts", note: str | None = None) -> None:
        """Takes a typed change: its command for this host, where it runs, the
        resource it sizes, when it takes effect, what it interrupts, its undo."""
        for name, value in change_fields(change, facts, note if note is not None else self.note).items():
            setattr(self, name, value)

    @property
    def code(self) -> str:
        """The command without its trailing comment."""
        return without_comment(self.command)

    @property
    def placeholder(self) -> str | None:
        return placeholder_in(self.command)

    @property
    def runnable(self) -> bool:
        """A script may run it: a change or check with nothing left to decide."""
        return (self.kind != "prerequisite" and self.check_first is None and self.held is None
                and self.placeholder is None)

    def as_text(self) -> str:
        """One line a person can copy: the command, or a comment saying why it is not run."""
        if self.kind == "prerequisite":
            return f"# prerequisite, not run by advisor: {self.command}"
        if self.check_first is not None:
            return f"# only after checking that {self.check_first}: {self.command}"
        if self.held is not None:
            return f"# not as it stands: {self.held}: {self.command}"
        if self.placeholder is not None:
            return f"# fill in {self.placeholder} first: {self.command}"
        return self.command


def change_fields(change: Change, facts: "HostFacts", note: str | None = None) -> dict[str, Any]:
    """The fields of a FixStep that a typed change decides on this host: its
    command (with `note` as its comment), where it runs, the resource it sizes,
    when it takes effect, what it interrupts, its undo."""
    op = operations.get(change.op)
    command, held = operations.command_line(change, facts, note)
    undo, undo_change = operations.undo_of(change, facts)
    return {"change": change, "runs_in": op.runs_in, "note": note,
            "takes_effect": "restart" if op.restarts(change, facts) else "now",
            "interrupts": op.interrupts(change, facts), "undo": undo, "undo_change": undo_change,
            "command": command, "held": held, "sets": f"{op.sizes}:{change.target}" if op.sizes else None,
            "amount": operations.number(change.value) if op.sizes else None}


@lru_cache(maxsize=4096)  # a function of the text alone, asked of each step several times as a plan is built
def placeholder_in(command: str) -> str | None:
    """The first placeholder a command holds (`<domain>`, `TX_CKO_ATTRIBUTE`), to be filled in before it runs."""
    m = _PLACEHOLDER.search(without_comment(command))
    return m.group(0) if m else None


@lru_cache(maxsize=4096)  # a function of the text alone: a plan merges steps by it, and a script and report ask again
def without_comment(command: str) -> str:
    """The command up to its shell comment: a ` #` outside quotes. Oracle allows `#`
    in domain and switch names, which commands quote ('vsw #1'); cut at the first
    ` #` regardless, two such commands were one and the same step."""
    if "#" not in command:  # most commands: no character to walk (about 90 calls a host with findings)
        return command.strip()
    if "'" not in command and '"' not in command:  # nothing quoted: the first `#` after a blank, found by str.find
        cuts = [i for i in (command.find(" #"), command.find("\t#")) if i >= 0]
        return command[:min(cuts) + 1].strip() if cuts else command.strip()
    quote = None
    for i, char in enumerate(command):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and i and command[i - 1] in " \t":
            return command[:i].strip()
    return command.strip()


def tag(rule: str, subject: str) -> str:
    """'rule on subject': how a plan step names the findings it fixes."""
    return f"{rule} on {subject}"


class MeasuredLoad(BaseModel):
    """What two samples of the counters say of a finding (a rule's `load`):
    what the host carries, against the study's figure."""

    model_config = _PART
    measured: float  # in `unit`
    unit: str
    figure: float  # the study's figure, in `unit`
    share: float  # measured / figure: how findings are ranked where rates exist
    study: str  # the figure in the study's words, and its section
    carries: str  # what the host carries, in words (also the message's last sentences)
    moved_from: Severity | None = None  # the severity without the measured load, where the load moved it


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
    remediation: list[str]  # every step as one line: runnable commands, the others as comments
    steps: list[FixStep] = []
    plan_steps: list[str] = []  # the numbers of the host's plan steps that fix it (P1.., 1..), as every view shows them
    plan_needs: list[str] = []  # outputs the capture lacks, without which no change for it can be planned
    undo: list[str] = []
    impact: str
    effect: str
    source: str  # title, publisher, date and section of the study
    source_url: str | None = None
    confidence: Literal["confirmed", "unconfirmed"] = "confirmed"
    waiver: WaiverNote | None = None  # set on waived findings (HostReport.waived)
    # two samples: what the host carries. Left out when absent: a finding judged without rates is
    # written as before `load` existed, byte for byte.
    load: MeasuredLoad | None = Field(default=None, exclude_if=_absent)

    @property
    def tag(self) -> str:
        return tag(self.rule, self.subject)


class DomainAction(BaseModel):
    """A step of the plan's own on a domain: what a script has left half done
    if a later step fails is known from these, not from the command's text."""

    action: Literal["stop", "start", "start-reconf", "reboot"]
    domain: str


class PlanStep(BaseModel):
    """A command of the change plan, once, with the findings it fixes."""

    command: str
    run: bool = True  # False: a script carries it as a comment only
    note: str | None = None  # why it is not run, or what it needs first
    fixes: list[str] = []  # "rule on subject" of every finding it serves
    undo: str | None = None
    change: Change | None = None  # the typed change it makes (None: a command of a rule, or the plan's own step)
    control: DomainAction | None = None  # the plan's own stop, start, delayed reconfiguration or reboot


class PlanPhase(BaseModel):
    """Steps that run together on one machine with one interruption at most."""

    title: str
    script: Literal["host", "control-domain"]  # the captured host's script, or the control domain's
    runs_on: str
    outage: str  # what the phase interrupts: "none", "reboot of primary", "stop and start of ldg1"
    after_reboot: bool = False  # runs once the control domain is back from the reboot that ends part 1
    steps: list[PlanStep]


class Left(BaseModel):
    finding: str  # "rule on subject"
    why: str


class Simulation(BaseModel):
    """The plan applied to a model of the host and judged again, before any view is written."""

    score_before: float | None
    score_after: float | None
    fixed: list[str] = []  # "rule on subject" of the findings the plan fixes, in advisor's model
    left: list[Left] = []  # those it does not, and why
    new: list[str] = []  # findings the plan would cause (its steps are held; any left here had no step to hold)
    held: list[str] = []  # steps the simulation turned into comments, and why
    not_modelled: list[str] = []  # steps whose effect advisor has no model of
    interrupted_more_than_once: dict[str, int] = {}  # domains the plan interrupts more than once

    def summary(self) -> str:
        """One line every view shows: 'after the plan: score X (now Y); N fixed; M left'."""
        after = f"{self.score_after:g}" if self.score_after is not None else "-"
        now = f"{self.score_before:g}" if self.score_before is not None else "-"
        parts = [f"after the plan: score {after} (now {now})", f"{len(self.fixed)} finding(s) fixed",
                 f"{len(self.left)} left"]
        if self.new:
            parts.append(f"{len(self.new)} new")
        if self.held:
            parts.append(f"{len(self.held)} step(s) held by the simulation")
        return "; ".join(parts)


class ChangePlan(BaseModel):
    """All of a host's fixes as one ordered plan: prerequisites (never run by a
    script), live changes, the control domain's delayed reconfiguration and its
    reboot, each other domain in one outage, then the saved configuration."""

    prerequisites: list[PlanStep] = []
    phases: list[PlanPhase] = []
    checks: list[PlanStep] = []  # read-only checks to run by hand afterwards
    notes: list[str] = []
    control_domain: str | None = None  # where the ldm steps run, when that is not the captured host
    control_domain_name: str = "primary"  # the control domain's name in ldm
    simulation: Simulation | None = None  # what the plan achieves, proven on a model of the host

    def numbered(self) -> list[tuple[str, PlanStep]]:
        """Its steps with the numbers every view shows: P1.. for prerequisites, 1.. for the rest."""
        steps = [(f"P{i}", s) for i, s in enumerate(self.prerequisites, 1)]
        return steps + [(str(i), s) for i, s in enumerate((s for ph in self.phases for s in ph.steps), 1)]

    def steps_for(self, finding: "Finding") -> list[tuple[str, PlanStep]]:
        """The plan's steps that fix a finding, numbered: what every view shows
        for it, so that no view gives a command or target the plan does not run."""
        return self.by_finding().get(finding.tag, [])

    def by_finding(self) -> dict[str, list[tuple[str, PlanStep]]]:
        """steps_for of every finding at once: one step may fix thousands of
        findings (one per LDC channel), and asking each step of each finding
        would take time in the square of their number."""
        index: dict[str, list[tuple[str, PlanStep]]] = {}
        for n, s in self.numbered():
            for t in dict.fromkeys(s.fixes):
                index.setdefault(t, []).append((n, s))
        return index


def fix_lines(host: "HostReport", finding: "Finding",
              index: dict[str, list[tuple[str, PlanStep]]] | None = None) -> tuple[str, list[str]]:
    """What a finding's card says of its fix, from the host's plan: which steps,
    and their lines as a script carries them (a held step as a comment, its
    reason above it); a finding with no step says why, with its checks.
    `index`: the plan's by_finding(), for a view that asks of every finding."""
    if index is not None:
        steps = index.get(finding.tag, [])
    else:
        steps = host.plan.steps_for(finding) if host.plan is not None else []
    if steps:
        return f"plan step {', '.join(n for n, _s in steps)}", step_lines(steps)
    checks = [s.as_text() for s in finding.steps if s.kind == "check"]
    return unplanned_fix(finding), checks


def unplanned_fix(finding: "Finding") -> str:
    """A finding's fix line where the plan has no step for it."""
    checks = any(s.kind == "check" for s in finding.steps)
    return unplanned(finding) + (": the check below says what to do" if checks
                                 else f" (advisor rules show {finding.rule})")


def unplanned(finding: "Finding") -> str:
    """Why a finding has no step in the plan: what the capture lacks, where that is known."""
    if finding.plan_needs:
        return f"no change can be planned without {' and '.join(finding.plan_needs)}, which this capture lacks"
    return "no change advisor can plan"


def step_lines(steps: list[tuple[str, PlanStep]]) -> list[str]:
    """Numbered plan steps as a script carries them: a held step as a comment, its reason above it."""
    lines: list[str] = []
    for n, s in steps:
        lines += [f"# step {n}: {s.note}" if s.note else f"# step {n}"] + [s.command if s.run else f"# {s.command}"]
    return lines


class BaselineNote(BaseModel):
    """Against --baseline: findings already there (left out of findings) and fixed since."""

    model_config = _PART
    unchanged: list[str] = []
    fixed: list[str] = []


class Counts(BaseModel):
    passed: int = 0
    failed: int = 0
    not_applicable: int = 0
    unknown: int = 0


class Detected(BaseModel):
    nodename: str | None = None  # uname's node name
    os: str | None = None
    arch: str | None = None
    sru: int | None = None
    ldm_version: str | None = None
    domain_roles: list[str] | None = None
    cpu_model: str | None = None
    inputs: list[str] = []


class _Headline:
    """What every view says of a host in one line (the fleet tables, the gate,
    the exit status), shared by the full report and the line kept of it."""

    if TYPE_CHECKING:  # the fields of the classes below, not declared here: they keep their order in the JSON
        host: str
        status: str
        counts: Counts

        @property
        def node(self) -> str: ...

    @property
    def label(self) -> str:
        """How every view names the host: the node, and the bundle's name beside
        it where the two differ (`t5-primary (t5-primary-untuned)`)."""
        return self.node if self.node == self.host else f"{self.node} ({self.host})"

    @property
    def coverage(self) -> tuple[int, int]:
        """(checks evaluated, checks applicable): unknown checks are applicable but not evaluated."""
        evaluated = self.counts.passed + self.counts.failed
        return evaluated, evaluated + self.counts.unknown

    @property
    def mostly_unknown(self) -> bool:
        """More checks unknown than evaluated: the score rests on a minority of its checks."""
        evaluated, applicable = self.coverage
        return applicable > 0 and evaluated * 2 < applicable

    @property
    def status_said(self) -> str:
        """The status as the fleet tables show it, warning when most checks are unknown."""
        judged = self.status in ("findings", "clean")
        return f"{self.status}, most checks unknown" if judged and self.mostly_unknown else self.status


class HostReport(_Headline, BaseModel):
    host: str
    source: str
    platform: str
    kind: Literal["capture", "plan"] = "capture"  # a plan: judged before it is built
    detected: Detected
    score: float | None
    status: Literal["clean", "findings", "no-evidence", "error", "unreachable"]  # no-evidence: nothing evaluated
    counts: Counts
    results: list[Result]
    findings: list[Finding]
    errors: list[str]  # files that could not be read: exit status 2
    not_collected: list[str] = []  # commands that ran but gave no output (not found, no privilege)
    unused: list[str] = []  # files recognized but read by no rule yet
    skipped: list[str] = []  # parts of a pasted file that are not outputs advisor reads (prose, other commands)
    incomplete: list[str] = []  # commands that never finished (timed out): the run exits 3
    waived: list[Finding] = []  # findings a policy waiver accepts: shown, not counted
    expired_waivers: list[str] = []  # waivers past their date: they no longer apply
    baseline: BaselineNote | None = None
    plan: ChangePlan | None = None
    collected_at: datetime | None = None  # when the bundle was collected, as its manifest says
    # two samples of the counters (--sample): rates. Left out when absent: a report of one sample
    # is written as before `rates` existed, byte for byte.
    rates: Rates | None = Field(default=None, exclude_if=_absent)

    @property
    def node(self) -> str:
        """The machine's own name where the capture shows it (uname -n), else the
        name advisor was given (bundle folder, file or SSH target)."""
        return self.detected.nodename or self.host

    @property
    def kind_of_host(self) -> str:
        """The platform as reports name it, or the kind a pack of it names by the host's
        roles (Pack.kind: a Xen dom0 is not a plain Linux host)."""
        roles = self.detected.domain_roles or []
        return next((p.kind for p in platforms.packs_of(self.platform)
                     if p.kind is not None and any(r.startswith(p.kind) for r in roles)), self.platform)

    @property
    def collected(self) -> str | None:
        """The collection time as reports show it: `2026-11-20 10:02 UTC`."""
        if self.collected_at is None:
            return None
        at = self.collected_at.astimezone(timezone.utc) if self.collected_at.tzinfo else self.collected_at
        return at.strftime("%Y-%m-%d %H:%M UTC")

    def finding_counts(self) -> dict[str, int]:
        """Findings per severity, critical first."""
        return {s.value: sum(1 for f in self.findings if f.severity is s) for s in Severity}


class HostLine(_Headline, BaseModel):
    """The little kept of each host once its full report is written: what the
    fleet table, the summary, the gate and the exit status need. A review of
    ten thousand hosts keeps these, not ten thousand reports."""

    host: str
    node: str
    source: str
    kind: Literal["capture", "plan"] = "capture"
    kind_of_host: str
    score: float | None
    status: Literal["clean", "findings", "no-evidence", "error", "unreachable"]
    counts: Counts
    findings: dict[str, int]  # per severity, critical first
    errors: list[str] = []
    incomplete: list[str] = []

    @classmethod
    def of(cls, h: HostReport) -> "HostLine":
        return cls(host=h.host, node=h.node, source=h.source, kind=h.kind, kind_of_host=h.kind_of_host, score=h.score,
                   status=h.status, counts=h.counts, findings=h.finding_counts(), errors=h.errors,
                   incomplete=h.incomplete)

    def finding_counts(self) -> dict[str, int]:
        return dict(self.findings)


def worst_first(h: "HostReport | HostLine") -> tuple:
    """Sort key: unreadable hosts, then those with no evidence, then by the
    worst severity found, the number of findings at it, and the score, lowest
    first: twelve high findings rank above one medium, whatever the scores."""
    bad = {"error": 0, "unreachable": 0, "no-evidence": 1}.get(h.status, 2)
    counts = h.finding_counts()
    worst = max((Severity(s).rank for s, n in counts.items() if n), default=-1)
    at_worst = next((n for s, n in counts.items() if n and Severity(s).rank == worst), 0)
    return (bad, -worst, -at_worst, h.score if h.score is not None else 101, h.node, h.host)


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


def summary_of(hosts: "list[HostLine] | list[HostReport]", input_errors: list[str]) -> Summary:
    """Counts over the hosts: findings per severity, inputs not read, the lowest score."""
    findings = {s.value: 0 for s in Severity}
    for h in hosts:
        for severity, n in h.finding_counts().items():
            findings[severity] += n
    scores = [h.score for h in hosts if h.score is not None]
    return Summary(hosts=len(hosts), findings=findings, errors=len(input_errors) + sum(len(h.errors) for h in hosts),
                   lowest_score=min(scores) if scores else None)


class Report(BaseModel):
    # Built at its first use: a review writes its report host by host (report/stream.py) and
    # never makes a Report; the formats that need one whole, a diff and the schema do.
    model_config = ConfigDict(defer_build=True)
    tool: Tool
    hosts: list[HostReport]
    summary: Summary
    errors: list[str] = []  # paths that could not be read at all
