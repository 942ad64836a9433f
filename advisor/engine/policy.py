"""The policy file: parameter overrides and declared intents."""

from datetime import date
from fnmatch import fnmatchcase
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from advisor import datafile
from advisor.errors import InputError

if TYPE_CHECKING:
    from advisor.engine.model import Rule


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


def load(path: Path | None, rules: "list[Rule] | None" = None) -> Policy:
    """The policy file; with `rules`, each parameter is checked against the
    rule's own: a value a rule cannot compare (a word for a number) would
    turn a failing check into an unknown one, raise the score and pass a gate."""
    if path is None:
        return Policy()
    text = datafile.read_text(path, InputError)
    data = datafile.parse(text, InputError, str(path)) or {}
    try:
        policy = Policy.model_validate(data)
    except ValidationError as exc:
        raise InputError(datafile.located_error(text, exc, str(path))) from None
    wrong = _wrong_param(policy, rules) if rules is not None else None
    if wrong is not None:
        loc, why = wrong
        line = datafile.line_of(text, loc)
        raise InputError(f"{path}{f':{line}' if line else ''}: {'.'.join(loc)}: {why}")
    return policy


def _wrong_param(policy: Policy, rules: "list[Rule]") -> tuple[tuple[str, ...], str] | None:
    """The first parameter that names no rule or parameter, or whose value is
    not of the kind of the rule's own default (a number, a yes/no, a word, a
    list of words), or is a negative number where the default is not."""
    by_id = {r.id: r for r in rules}
    for rule_id, values in policy.params.items():
        rule = by_id.get(rule_id)
        if rule is None:
            return ("params", rule_id), "no such rule"
        for name, value in values.items():
            if name not in rule.params:
                known = ", ".join(sorted(rule.params)) or "none"
                return ("params", rule_id, name), f"{rule_id} has no parameter {name!r} (its parameters: {known})"
            why = _unlike(value, rule.params[name])
            if why:
                return ("params", rule_id, name), why
    return None


def _unlike(value: object, default: object) -> str | None:
    def number(v: object) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    if number(default):
        if not number(value):
            return f"{value!r} is not a number (the rule's default is {default})"
        if value < 0 <= default:  # type: ignore[operator]
            return f"{value} is negative (the rule's default is {default})"
    elif isinstance(default, bool) and not isinstance(value, bool):
        return f"{value!r} is not true or false (the rule's default is {str(default).lower()})"
    elif isinstance(default, str) and not isinstance(value, str):
        return f"{value!r} is not a word (the rule's default is {default!r})"
    elif isinstance(default, list) and not isinstance(value, list):
        return f"{value!r} is not a list (the rule's default is {default!r})"
    return None
