"""Rule packs (each platform pack's `rules.yaml`, and `--rules DIR`) as pydantic models."""

import re
from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from advisor import platform_registry as platforms
from advisor.results.model import Severity


class Impact(str, Enum):
    live = "live"
    delayed_reconfiguration = "delayed-reconfiguration"
    domain_reboot = "domain-reboot"
    host_reboot = "host-reboot"



_STRICT = ConfigDict(extra="forbid")
_PART = ConfigDict(extra="forbid", defer_build=True)  # read as part of a Rule alone: built within it
TEMPLATE = re.compile(r"\{(s|host|p|v|intent|item)(?:\.([A-Za-z0-9_]+))?\}")  # a value in a rule's text: {s.name}


class Check(BaseModel):
    """One way the rule can fail; the first check that holds decides. `says`
    is when it fails in words, as an administrator reads it where the rule is
    shown (rules show, docs/rules.md): what `when` (and `applies`) test, no
    more, no less."""

    model_config = _PART
    when: str
    says: str = Field(min_length=1)
    severity: Severity | None = None
    applies: str | None = None
    requires: list[str] = []
    message: str | None = None
    observed: str | None = None
    expected: str | None = None


class ChangeTemplate(BaseModel):
    """A typed change as a rule states it: each field a template ({s.name})."""

    model_config = _PART
    op: str
    target: str
    value: str = ""
    prop: str | None = None
    domain: str | None = None

    @field_validator("op")
    @classmethod
    def _op(cls, value: str) -> str:
        from advisor import changes

        try:
            changes.get(value)
        except KeyError as exc:
            raise ValueError(exc.args[0]) from None
        return value


class Remedy(BaseModel):
    """A typed change (`change`), rendered for the host by its platform, a
    command (`command`: checks, prerequisites and what has no operation yet),
    or a prerequisite in words (`needs`: a release to reach, which no one
    command gives); with for_each (a CEL list) it is given once per item, as
    {item}. `says_when` is its `when` and `for_each` in words; `shown_for`
    the host facts a change is rendered with where no host is at hand (rules
    show, docs/rules.md), for an operation that renders by release.

    The change planner reads the other fields: `kind` (a change to make, a
    read-only check, or a prerequisite such as an upgrade that a script never
    runs), `domain` (the LDoms domain whose configuration the step changes;
    the finding's domain when not given), `takes_effect` (a command's: now, or
    at a restart of that domain: for the control domain a delayed
    reconfiguration and its reboot, for another domain a stop and start, for a
    plain host a reboot; a change's comes from its operation, as do its undo
    and what it interrupts),
    `check_first` (something advisor cannot see that must hold before the step
    is run: the step is written commented out behind it), `note` (a comment
    on a change's command), `runs_in` (a command's: through ldm on the control
    domain, or on the host) and `interrupts` (what a live step interrupts all
    the same: a link reset)."""

    model_config = _PART
    command: str | None = None
    change: ChangeTemplate | None = None
    needs: str | None = None
    note: str | None = None
    when: str | None = None
    for_each: str | None = None
    says_when: str | None = None
    shown_for: dict[str, str | int] = {}
    undo: str | None = None
    kind: Literal["change", "check", "prerequisite"] = "change"
    domain: str | None = None
    runs_in: Literal["ldm", "host"] = "host"
    takes_effect: Literal["now", "restart"] = "now"
    check_first: str | None = None
    also_restarts: str | None = None  # CEL list of other domains the change restarts (vnets on a vsw)
    interrupts: str | None = None  # a template: what the step interrupts though it takes effect at once

    @model_validator(mode="after")
    def _one_form(self) -> "Remedy":
        if [self.command, self.change, self.needs].count(None) != 2:
            raise ValueError("a remedy has one of a change, a command or needs (a prerequisite in words)")
        if self.change is not None and self.kind != "change":
            raise ValueError("a check or prerequisite is a command, not a change")
        if self.needs is not None and self.kind != "prerequisite":
            raise ValueError("needs states a prerequisite in words: give it kind: prerequisite")
        if (self.when is None and self.for_each is None) != (self.says_when is None):
            raise ValueError("says_when puts a remedy's when or for_each in words: it goes with them, and only them")
        if self.shown_for and self.change is None:
            raise ValueError("shown_for renders a change: a command is shown as written")
        declared = self.model_fields_set & {"takes_effect", "interrupts", "undo"}
        if self.change is not None and declared:
            raise ValueError(f"a change's {', '.join(sorted(declared))} come from its operation "
                             f"({self.change.op}), not from the rule")
        return self

    @property
    def summary(self) -> str:
        """What it does, as the rule states it: its command, or its typed change."""
        if self.change is None:
            return self.command or self.needs or ""
        c = self.change
        what = f"{c.prop}={c.value}" if c.prop else c.value
        where = f" in {c.domain}" if c.domain else ""
        return f"{c.op} {c.target}{where}{' ' + what if what else ''}" + (f"   # {self.note}" if self.note else "")

    @property
    def templates(self) -> list[str]:
        """Every text of it that holds {s.x} values."""
        typed = [t for t in (self.change.target, self.change.value, self.change.prop, self.change.domain) if t] \
            if self.change else []
        return [t for t in (self.command, self.needs, self.note, self.undo, self.domain, self.check_first,
                            self.interrupts) if t] + typed


class Choice(BaseModel):
    model_config = _PART
    when: str = "true"
    value: Impact


class Study(BaseModel):
    """A published study in advisor/platforms/sources.yaml."""

    model_config = _STRICT
    title: str
    publisher: str
    date: str
    authors: str | None = None
    url: str | None = None
    seed: str | None = None  # the copy in the project's shared notes; never shown


class Source(BaseModel):
    """A rule's source: a study by its key, and the section the rule rests on.
    The pack loader fills in `study` from the studies file."""

    model_config = _PART
    ref: str
    section: str
    study: Study | None = None

    @property
    def citation(self) -> str:
        """'Title, Publisher, Date, section S' for reports."""
        if self.study is None:
            return f"{self.ref}, section {self.section}"
        s = self.study
        return f"{s.title}, {s.publisher}, {s.date}, section {self.section}"

    @property
    def url(self) -> str | None:
        return self.study.url if self.study else None


class Moves(BaseModel):
    """Where a measured load moves a finding's severity: at or above `above`
    (rises) or below `below` (falls) times the study's figure, to `to`, or,
    rising without `to`, one step up."""

    model_config = _PART
    above: float | None = Field(default=None, gt=0)
    below: float | None = Field(default=None, gt=0)
    to: Severity | None = None


class Load(BaseModel):
    """What a rule's finding says of the load the host carries, measured from
    two samples of its counters (`host.rates`), and how that load moves its
    severity against a figure of its study. Without a second sample, or when
    `measure` is null or cannot be computed, the rule judges as without it.

    `measure` is a CEL number in `unit` (Gb/s carried per whole core, say);
    `figure` the study's figure in that unit, `says` the figure in the study's
    words and `section` the section of the rule's source that gives it.
    `rises`/`falls` move the severity by the share measure / figure. `shows`
    is a CEL list of the link or port names in host.rates the message names,
    `cpu` whether it names the captured domain's CPU busy."""

    model_config = _PART
    measure: str
    figure: float = Field(gt=0)
    unit: str = Field(min_length=1)
    says: str = Field(min_length=1)
    section: str = Field(min_length=1)
    rises: Moves | None = None
    falls: Moves | None = None
    shows: str = "[]"
    cpu: bool = False

    @model_validator(mode="after")
    def _moves(self) -> "Load":
        if self.rises is None and self.falls is None:
            raise ValueError("load: give rises, falls or both (how the measured load moves the severity)")
        if self.rises is not None and (self.rises.above is None or self.rises.below is not None):
            raise ValueError("load.rises takes above (a share of the figure) and, if wanted, to")
        if self.falls is not None and (self.falls.below is None or self.falls.above is not None or self.falls.to is None):
            raise ValueError("load.falls takes below (a share of the figure) and to (the severity it falls to)")
        if self.rises and self.falls and self.falls.below is not None and self.rises.above is not None \
                and self.falls.below >= self.rises.above:
            raise ValueError("load: falls.below must be under rises.above")
        return self


class Rule(BaseModel):
    model_config = _STRICT
    id: str
    title: str
    subject: str  # host, or what a platform pack lets its rules judge one by one (domain, interface ...)
    platforms: list[str] = Field(min_length=1)  # the families it judges; a platform pack's rules, its own
    severity: Severity
    host_applies: str = "true"  # decided on the host before its subjects are listed
    applies: str = "true"
    requires: list[str] = []
    let: dict[str, str] = {}
    checks: list[Check] = Field(min_length=1)
    message: str
    observed: str
    expected: str
    remediation: list[Remedy] = Field(min_length=1)
    impact: list[Choice] = Field(min_length=1)
    effect: str
    rationale: str
    source: Source
    references: list[str] = []
    params: dict[str, float | int | str | bool | list[str]] = {}
    confidence: Literal["confirmed", "unconfirmed"] = "confirmed"
    runtime: str | None = None  # run-time data it reads (kstat ...): not applicable to plans
    follows_from: list[str] = []  # rules whose findings cause this one's: shown under them
    # command id -> names a grep filter must keep for a filtered output to be enough (kstat-p: [dring_mode])
    filtered_enough: dict[str, list[str]] = {}
    # what a template's value is called where no host is at hand (rules show, docs/rules.md): {v.me: domain};
    # {s.name} is called after the subject, any other after its name
    placeholders: dict[str, str] = {}
    load: Load | None = None  # what two samples of the counters say of it (issue #29)
    file: str = ""

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not re.fullmatch(r"[a-z0-9]+(?:\.[a-z0-9-]+)+", value):
            raise ValueError("rule ids look like 'area.name' in lower case")
        return value

    @field_validator("subject")
    @classmethod
    def _subject(cls, value: str) -> str:
        known = ["host", *platforms.subjects()]
        if value not in known:
            raise ValueError(f"{value!r} is not a subject a rule may judge ({', '.join(known)})")
        return value

    @field_validator("platforms")
    @classmethod
    def _families(cls, value: list[str]) -> list[str]:
        odd = [name for name in value if name not in platforms.families()]
        if odd:
            raise ValueError(f"{odd[0]!r} is not a platform advisor judges ({', '.join(platforms.families())})")
        return value

    @field_validator("let", "params", mode="before")
    @classmethod
    def _plain_names(cls, value: object) -> object:
        if isinstance(value, dict):
            odd = [k for k in value if not isinstance(k, str)]
            if odd:
                raise ValueError(f"name {odd[0]!r} is not a string: YAML reads on/off/yes/no as booleans, "
                                 f"so rename it or put it in quotes")
        return value

    @field_validator("remediation", mode="before")
    @classmethod
    def _remedies(cls, value: object) -> object:
        if isinstance(value, list):
            return [{"command": v} if isinstance(v, str) else v for v in value]
        return value

    @field_validator("impact", mode="before")
    @classmethod
    def _impact(cls, value: object) -> object:
        return [{"value": value}] if isinstance(value, str) else value

    @model_validator(mode="after")
    def _unconfirmed_reports_info(self) -> "Rule":
        """A rule built on an unconfirmed fact (domain-facts) reports info or unknown, never a hard fail."""
        if self.confidence != "unconfirmed":
            return self
        if self.load is not None and self.load.rises is not None:
            raise ValueError("load.rises: a rule resting on an unconfirmed fact may not rise with the measured load")
        above = sorted(s.value for s in (self.check_severities() or {self.severity}) if s != Severity.info)
        if above:
            raise ValueError(f"severity {above[0]}: a rule resting on an unconfirmed fact (confidence: unconfirmed) "
                             f"reports info, never a hard fail")
        return self

    @model_validator(mode="after")
    def _placeholders(self) -> "Rule":
        texts = [t for r in self.remediation for t in r.templates]
        unused = sorted(k for k in self.placeholders if not any(f"{{{k}}}" in t for t in texts))
        if unused:
            raise ValueError(f"placeholders: no remedy uses {{{unused[0]}}}")
        odd = [w for w in self.placeholders.values() if not re.fullmatch(r"[a-z][a-z ]*", w)]
        if odd:  # as a shell reads <words> in a command: a name to fill in (advisor.shell)
            raise ValueError(f"placeholders: {odd[0]!r} is not a name in lower-case words")
        return self

    def check_severities(self) -> set[Severity]:
        return {c.severity or self.severity for c in self.checks}
