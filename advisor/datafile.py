"""Reading the YAML and JSON files advisor accepts (manifests, policies, rule
packs, inventories, baselines): safe_load only, errors naming file and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from advisor.errors import AdvisorError


def load_json(path: Path, error: type[AdvisorError], what: str) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise error(f"{path}: cannot read {what} ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise error(f"{path}: {what} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise error(f"{path}:{exc.lineno}: {what} is not JSON ({exc.msg})") from None


# libyaml's loader where PyYAML was built with it: ten times faster than the
# pure-Python one, which stays the fallback. Both construct only plain types.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> Any:
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader, C or Python


def read_text(path: Path, error: type[AdvisorError], shown: str | None = None) -> str:
    shown = shown or str(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{shown}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise error(f"{shown}: not UTF-8 text") from None


def parse(text: str, error: type[AdvisorError], shown: str) -> Any:
    try:
        return parse_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{shown}:{mark.line + 1}" if mark else shown
        raise error(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None


def load(path: Path, error: type[AdvisorError], shown: str | None = None) -> Any:
    shown = shown or str(path)
    return parse(read_text(path, error, shown), error, shown)


def error_text(err: Any) -> str:
    """A pydantic error's message without the `Value error, ` our validators' messages get."""
    return str(err["msg"]).removeprefix("Value error, ")


def first_error(exc: ValidationError, skip: int = 0) -> str:
    """`intents.wan_rtt_ms: Input should be greater than 0` (the location without its first `skip` parts)."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"][skip:])
    return f"{loc}: {error_text(err)}" if loc else error_text(err)
