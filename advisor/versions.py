"""Comparing release numbers such as ldm's 3.4.0.3 (rules and facts both do)."""

from __future__ import annotations

import re
from functools import lru_cache


def version_ge(a: str | None, b: str | None) -> bool | None:
    """'3.4.0.3' >= '3.4' compares release numbers, not strings. An unknown
    version gives None: in a rule, null, which makes its condition undecidable
    (a raised exception would be printed to stderr by the CEL library)."""
    if a is None or b is None:
        return None
    if type(a) is str and type(b) is str:
        return _release(a) >= _release(b)
    return _numbers(a) >= _numbers(b)  # another type: refused by the regex, in its own words


_DIGITS = re.compile(r"\d+")


def _numbers(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in _DIGITS.findall(text))


# a pure function of its text: a fleet has few versions, each parsed ~40 times a host
_release = lru_cache(maxsize=1024)(_numbers)
