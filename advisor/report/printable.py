"""Text from captures made safe to show: host names, domain names and values
come from files anyone may have written. A terminal must not receive their
escape sequences (which can retitle a window, move the cursor or hide lines),
an XML report cannot hold control characters at all, and a newline in a name
would break a table or end a comment in a script. Every character that is not
printable (controls, line and paragraph separators, bidirectional overrides)
is shown as its Python escape, e.g. `\\x1b`."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel

from advisor.errors import printable

# Where a serialized report may hold an unprintable character: JSON writes C0
# controls as escapes (\n, \t, \u001b) and everything else above ASCII as is
# (C1 controls, separators, zero-width and tag characters, noncharacters). A
# report in plain printable ASCII needs no walk; any other is walked, and only
# what is not printable is changed.
_ESCAPE = re.compile(r"\\[nrtbfu]")


def _suspect(text: str) -> bool:
    """Whether the text holds a character outside \\x20-\\x7e or a JSON escape of a
    control, as one pattern said (`\\\\[nrtbfu]|[^\\x20-\\x7e]`), without trying its two
    branches at every character of a host's ~90 KB: two string tests tell printable ASCII."""
    if not (text.isascii() and text.isprintable()):  # a character outside \x20-\x7e
        return True
    return "\\" in text and _ESCAPE.search(text) is not None


M = TypeVar("M", bound=BaseModel)


def report(rep: M) -> M:
    """The same report (a review's or a diff's), or a copy whose every string is printable."""
    if not _suspect(rep.model_dump_json()):
        return rep
    return type(rep).model_validate(_walk(rep.model_dump()))


def _walk(value: Any) -> Any:
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [_walk(v) for v in value]
    if isinstance(value, dict):
        return {_walk(k): _walk(v) for k, v in value.items()}
    return value
