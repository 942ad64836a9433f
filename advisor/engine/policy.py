"""The policy file: parameter overrides and declared intents."""

from datetime import date
from fnmatch import fnmatchcase
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from advisor import datafile
from advisor.errors import InputError


class Intents(BaseModel):
    """What the administrator declares about the workload (facts cannot show it)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    latency_sensitive_domains: list[str] = []
    wan_rtt_ms: float | None = Field(default=None, gt=0)
    wan_bandwidth_mbps: float = Field(default=1000, gt=0)
    ipsec_bulk: bool = False
    jumbo_frames_needed: list[str] = []  # vsw names where jumbo frames are wanted
    storage_bridges: list[str] = []  # Linux/Xen bridges that carry storage (NFS, iSCSI)


class Waiver(BaseModel):
    """An accepted finding: rule and subject (shell-style patterns), why, who, until when."""

    model_config = ConfigDict(extra="forbid")
    rule: str = Field(min_length=1)
    subject: str = "*"  # e.g. "vsw primary-vsw*"
    host: str = "*"
    reason: str = Field(min_length=3)
    owner: str = Field(min_length=1)
    expires: date

    def matches(self, host: str, rule: str, subject: str) -> bool:
        return fnmatchcase(rule, self.rule) and fnmatchcase(subject, self.subject) and fnmatchcase(host, self.host)


LARGEST = 2**53  # rules compare numbers as CEL doubles and int64: a parameter stays exact below this


class Policy(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    params: dict[str, dict[str, float | int | str | bool | list[str]]] = {}
    intents: Intents = Intents()
    disabled: list[str] = []
    waivers: list[Waiver] = []

    @field_validator("params")
    @classmethod
    def _numbers_in_range(cls, params: dict) -> dict:
        for rule, values in params.items():
            for name, value in values.items():
                if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) >= LARGEST:
                    raise ValueError(f"{rule}.{name}: {value:.3g} is out of range (at most {LARGEST:,})")
        return params


def load(path: Path | None) -> Policy:
    if path is None:
        return Policy()
    text = datafile.read_text(path, InputError)
    data = datafile.parse(text, InputError, str(path)) or {}
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        raise InputError(datafile.located_error(text, exc, str(path))) from None
