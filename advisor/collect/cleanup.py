"""Undo what mail, terminals and web pages do to pasted command output.

Every cleaned line keeps the number of the line it came from, so evidence and
errors name the line of the file the user has. Undone, in this order: CRLF
and lone CRs, ANSI escape sequences, backspace overstrikes, trailing blanks,
mail quoting (`> `, nested `> > `, `| `), a common indent, and the blank line
an HTML-to-text conversion puts between every line; non-breaking spaces
become spaces, and a document's elision lines (`...`, `[snip]`), Markdown code
fences and sudo's password prompt are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_QUOTE = re.compile(r"^(?:[ \t]?>[ \t]?)++|^\|[ \t]")  # possessive: no state kept per level


@dataclass
class Line:
    number: int  # 1-based, in the file as given
    text: str


def _overstrike(text: str) -> str:
    """`a\\bb` shows b: apply each backspace to what came before it."""
    if "\b" not in text:
        return text
    out: list[str] = []
    for ch in text:
        if ch == "\b":
            if out:
                out.pop()
        else:
            out.append(ch)
    return "".join(out)


def _terminal(text: str) -> str:
    text = _ANSI.sub("", text)
    text = _overstrike(text)
    if "\r" in text:  # a carriage return mid-line redraws it: what follows the last one is what showed
        text = text.rstrip("\r").rsplit("\r", 1)[-1]
    return _CONTROL.sub("", text).rstrip()


def _unquote(lines: list[Line]) -> list[Line]:
    """Mail quoting, when most non-blank lines carry it."""
    body = [ln for ln in lines if ln.text.strip()]
    if not body:
        return lines
    quoted = [ln for ln in body if _QUOTE.match(ln.text)]
    if len(quoted) * 10 < len(body) * 8:
        return lines
    out = []
    for ln in lines:
        text = ln.text
        while (m := _QUOTE.match(text)) and m.end() > 0:
            text = text[m.end():]
        out.append(Line(ln.number, text.rstrip()))
    return out


def _dedent(lines: list[Line]) -> list[Line]:
    body = [ln.text for ln in lines if ln.text.strip()]
    if not body:
        return lines
    indent = min(len(t) - len(t.lstrip(" \t")) for t in body)
    if indent == 0:
        return lines
    return [Line(ln.number, ln.text[indent:]) for ln in lines]


def _undouble(lines: list[Line]) -> list[Line]:
    """HTML-to-text output with a blank line after every line: when every other
    line is blank (and the blank lines are exactly those), drop them."""
    if len(lines) < 6:
        return lines
    odd = lines[1::2]
    even = lines[0::2]
    if all(not ln.text.strip() for ln in odd) and sum(1 for ln in even if ln.text.strip()) >= len(even) * 0.8:
        return [ln for ln in even]
    return lines


_ELISION = re.compile(r"^\s*(?:\.{3,}|(?:\.\s){2,}\.|\u2026|\[\s*(?:\.{3}|\u2026|snip|snipped|output (?:truncated|omitted))\s*\]"
                      r"|(?:\.{3}|\u2026)[ \t]*(?:snip(?:ped)?|cut|output (?:truncated|omitted))\b[\w \t]{0,30}(?:\.{3}|\u2026)?)\s*$",
                      re.I)  # the last: "...snipped rest of data..."


_PASSWORD = re.compile(r"^\s*(?:\[sudo\] password for \S+:|Password:)\s*$")  # sudo's prompt, not output
_FENCE = re.compile(r"^\s*(?:```|~~~)[\w-]*\s*$")  # a Markdown code fence around pasted output


def clean(text: str) -> list[Line]:
    raw = text.split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    lines = [Line(i, _terminal(t.replace("\u00a0", " "))) for i, t in enumerate(raw, 1)]
    lines = _unquote(lines)
    lines = _dedent(lines)
    lines = _undouble(lines)
    return [ln for ln in lines if not (_ELISION.match(ln.text) or _PASSWORD.match(ln.text) or _FENCE.match(ln.text))]
