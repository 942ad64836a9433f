"""Reading the YAML files advisor accepts (manifests, policies, rule packs):
safe_load only, and errors that name the file and the line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from advisor.errors import AdvisorError


def load(path: Path, error: type[AdvisorError], shown: str | None = None) -> Any:
    shown = shown or str(path)
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{shown}:{mark.line + 1}" if mark else shown
        raise error(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    except OSError as exc:
        raise error(f"{shown}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise error(f"{shown}: not UTF-8 text") from None


def first_error(exc: ValidationError) -> str:
    """`intents.wan_rtt_ms: Input should be greater than 0`"""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    return f"{loc}: {err['msg']}" if loc else err["msg"]
