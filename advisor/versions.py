"""Comparing release numbers such as ldm's 3.4.0.3 (rules and facts both do)."""

from __future__ import annotations

import re


def version_ge(a: str | None, b: str | None) -> bool | None:
    """'3.4.0.3' >= '3.4' compares release numbers, not strings. An unknown
    version gives None: in a rule, null, which makes its condition undecidable
    (a raised exception would be printed to stderr by the CEL library)."""
    if a is None or b is None:
        return None
    return _numbers(a) >= _numbers(b)


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text))
