"""The policy file: parameter overrides and declared intents."""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.errors import InputError


class Intents(BaseModel):
    """What the administrator declares about the workload (facts cannot show it)."""

    model_config = ConfigDict(extra="forbid")
    latency_sensitive_domains: list[str] = []
    wan_rtt_ms: float | None = Field(default=None, gt=0)
    wan_bandwidth_mbps: float = Field(default=1000, gt=0)
    ipsec_bulk: bool = False
    jumbo_frames_needed: list[str] = []  # vsw names where jumbo frames are wanted


class Policy(BaseModel):
    model_config = ConfigDict(extra="forbid")
    params: dict[str, dict[str, float | int | str | bool | list[str]]] = {}
    intents: Intents = Intents()
    disabled: list[str] = []


def load(path: Path | None) -> Policy:
    if path is None:
        return Policy()
    shown = str(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise InputError(f"{shown}: cannot read policy ({exc.strerror})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{shown}:{mark.line + 1}" if mark else shown
        raise InputError(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    try:
        return Policy.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise InputError(f"{shown}: {loc}: {err['msg']}") from None
