"""A parser's result as JSON, the same text every run: what golden files hold.

Dataclasses and pydantic models keep their fields in declaration order; dict
keys are sorted (a key that is a tuple or a dataclass is its parts joined by
`:`, as kstat spells `module:instance:name:statistic`); sets and frozensets
become sorted lists, tuples lists, enums their values, paths POSIX strings,
dates ISO 8601. Anything else is refused, so no `repr` with a memory address
ever reaches a golden file.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
from pathlib import PurePath
from typing import Any

from pydantic import BaseModel

JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]


def jsonable(value: Any) -> JSON:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, PurePath):
        return value.as_posix()
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, BaseModel):
        return {name: jsonable(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, dict):
        out: dict[str, JSON] = {}
        for key, item in value.items():
            name = _key(key)
            if name in out:
                raise ValueError(f"two keys read as {name!r}")
            out[name] = jsonable(item)
        return dict(sorted(out.items()))
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        items = [jsonable(v) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    raise TypeError(f"no JSON form for {type(value).__qualname__}")


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if dataclasses.is_dataclass(key) and not isinstance(key, type):
        return ":".join(_key(getattr(key, f.name)) for f in dataclasses.fields(key))
    if isinstance(key, tuple):
        return ":".join(_key(k) for k in key)
    if isinstance(key, enum.Enum):
        return _key(key.value)
    if isinstance(key, (bool, int, float)) or key is None:
        return json.dumps(key)
    raise TypeError(f"no JSON key for {type(key).__qualname__}")


def dumps(value: Any) -> str:
    """Indented JSON ending in a newline; NaN and infinities refused."""
    return json.dumps(jsonable(value), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
