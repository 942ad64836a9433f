"""Text from captures made safe to show: host names, domain names and values
come from files anyone may have written. A terminal must not receive their
escape sequences (which can retitle a window, move the cursor or hide lines),
an XML report cannot hold control characters at all, and a newline in a name
would break a table or end a comment in a script. Every character that is not
printable (controls, line and paragraph separators, bidirectional overrides)
is shown as its Python escape, e.g. `\\x1b`."""

from __future__ import annotations

import re
from typing import Any

from advisor.report.model import Report

# What a serialized report shows of an unprintable character: JSON writes a
# newline, tab, carriage return, backspace and form feed as \n \t \r \b \f, the
# other C0 controls as \u00XX; C1 controls and Unicode separators stay raw. (A
# backslash in the text, written \\, may match too: the walk then finds nothing to change.)
_IN_JSON = re.compile(r"\\[nrtbf]|\\u00[01][0-9a-fA-F]|\\u007[fF]|[\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def text(value: str) -> str:
    return value if value.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in value)


def report(rep: Report) -> Report:
    """The same report, or a copy whose every string is printable."""
    if not _IN_JSON.search(rep.model_dump_json()):
        return rep
    return Report.model_validate(_walk(rep.model_dump()))


def _walk(value: Any) -> Any:
    if isinstance(value, str):
        return text(value)
    if isinstance(value, list):
        return [_walk(v) for v in value]
    if isinstance(value, dict):
        return {_walk(k): _walk(v) for k, v in value.items()}
    return value
