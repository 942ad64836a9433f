"""Rule packs (`rules/*.yaml`) as pydantic models."""

from __future__ import annotations

import re
from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Severity(str, Enum):
    critical = "critical"
    high = "high"
    medium = "medium"
    low = "low"
    info = "info"

    @property
    def weight(self) -> int:
        return {"critical": 10, "high": 5, "medium": 3, "low": 1, "info": 0}[self.value]

    @property
    def rank(self) -> int:
        return {"critical": 4, "high": 3, "medium": 2, "low": 1, "info": 0}[self.value]


class Impact(str, Enum):
    live = "live"
    delayed_reconfiguration = "delayed-reconfiguration"
    domain_reboot = "domain-reboot"
    host_reboot = "host-reboot"


Subject = Literal["host", "domain", "vsw", "vnet", "link", "ldc", "pcpu", "xen-vcpu", "bridge", "interface", "pci-card",
                  "lan"]

_STRICT = ConfigDict(extra="forbid")


class Check(BaseModel):
    """One way the rule can fail; the first check that holds decides."""

    model_config = _STRICT
    when: str
    severity: Severity | None = None
    applies: str | None = None
    requires: list[str] = []
    message: str | None = None
    observed: str | None = None
    expected: str | None = None


class Remedy(BaseModel):
    """A command; with for_each (a CEL list) it is given once per item, as {item}."""

    model_config = _STRICT
    command: str
    when: str | None = None
    for_each: str | None = None
    undo: str | None = None


class Choice(BaseModel):
    model_config = _STRICT
    when: str = "true"
    value: Impact


class Source(BaseModel):
    model_config = _STRICT
    seed: str
    section: str


class Rule(BaseModel):
    model_config = _STRICT
    id: str
    title: str
    subject: Subject
    platforms: list[str] = ["solaris"]
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
    file: str = ""

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not re.fullmatch(r"[a-z0-9]+(?:\.[a-z0-9-]+)+", value):
            raise ValueError("rule ids look like 'area.name' in lower case")
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

    def check_severities(self) -> set[Severity]:
        return {c.severity or self.severity for c in self.checks}
