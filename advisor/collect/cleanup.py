"""Undo what mail, terminals and web pages do to pasted command output.

Every cleaned line keeps the number of the line it came from, so evidence and
errors name the line of the file the user has. Undone, in this order:
quoted-printable (a mail body as sent: see `_unqp`), CRLF and lone CRs, ANSI escape sequences, backspace overstrikes, trailing blanks,
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
    number: int  # 1-based, in the file as given (a line joined by a soft break: its first)
    text: str


_QP_HEADER = re.compile(r"^Content-Transfer-Encoding:[ \t]*quoted-printable[ \t]*$", re.I)
_MIME_BOUNDARY = re.compile(r"^--[^\s]{8,}$")
_QP_EQUALS = re.compile(r"=(?:[0-9A-F]{2})?")
_QP_ESCAPE = re.compile(rb"=([0-9A-F]{2})")
_QP_LINE = 76  # RFC 2045: encoded lines are at most 76 characters, a soft break's `=` included


def _soft(text: str) -> bool:
    return text.rstrip(" \t\r").endswith("=")


def _escapes_plausible(text: str) -> bool:
    """Every `=` of an undeclared body is a soft break or an escape an encoder
    writes: `=3D`, `=20`, `=09`, or bytes of UTF-8. `mtu=9000`, `key=`, `= 1`,
    `==` and `=1500` are not."""
    body = text.rstrip(" \t\r")
    body = body[:-1] if body.endswith("=") else body
    found = _QP_EQUALS.findall(body)
    if any(len(e) != 3 for e in found):
        return False
    high = [e for e in found if e[1] >= "8"]
    if any(e not in ("=3D", "=20", "=09") for e in found if e[1] < "8"):
        return False
    if not high:
        return True
    try:
        _decode(body.encode("utf-8"), "strict")
    except UnicodeDecodeError:
        return False
    return True


def _decode(encoded: bytes, errors: str = "replace") -> str:
    return _QP_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), encoded).decode("utf-8", errors)


def _shows_qp(raw: list[str]) -> bool:
    """A body that is quoted-printable beyond doubt: every `=` is one an encoder
    writes, no soft-broken line is longer than an encoder writes, and there are
    soft breaks with escapes, `=3D` escapes, or soft breaks alone where lines
    were full (an encoder breaks only a line longer than 76)."""
    if not any("=" in t for t in raw) or not all(_escapes_plausible(t) for t in raw if "=" in t):
        return False
    soft = [len(t.rstrip(" \t\r")) for t in raw if _soft(t)]
    if any(n > _QP_LINE for n in soft):
        return False
    escapes = any(_QP_EQUALS.search(t.rstrip(" \t\r").removesuffix("=")) for t in raw)
    if escapes and soft:
        return max(soft) >= _QP_LINE - 16
    if not soft:
        return any("=3D" in t for t in raw)
    return len(soft) >= 2 and min(soft) >= _QP_LINE - 6


def _join_qp(raw: list[str], start: int, end: int) -> list[tuple[int, str]]:
    """Lines start..end-1 decoded: soft breaks joined, escapes undone; each keeps its first line's number."""
    out: list[tuple[int, str]] = []
    parts: list[str] = []
    first = start
    for i in range(start, end):
        text = raw[i].rstrip("\r")
        if not parts:
            first = i
        if _soft(text) and i + 1 < end:
            parts.append(text.rstrip(" \t")[:-1])
            continue
        parts.append(text)
        out.append((first + 1, _decode("".join(parts).encode("utf-8"))))
        parts = []
    return out


def _unqp(raw: list[str]) -> list[tuple[int, str]]:
    """Quoted-printable undone where a mail declares it (`Content-Transfer-Encoding:
    quoted-printable`: its part, up to the next MIME boundary) or where the whole
    pasted body shows it beyond doubt; other text is left as it is."""
    numbered = [(i + 1, t) for i, t in enumerate(raw)]
    header = next((i for i, t in enumerate(raw) if _QP_HEADER.match(t.rstrip("\r"))), None)
    if header is not None:
        start = next((i + 1 for i in range(header, len(raw)) if not raw[i].strip()), len(raw))
        end = next((i for i in range(start, len(raw)) if _MIME_BOUNDARY.match(raw[i].rstrip("\r"))), len(raw))
        return numbered[:start] + _join_qp(raw, start, end) + numbered[end:]
    return _join_qp(raw, 0, len(raw)) if _shows_qp(raw) else numbered


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
    lines = [Line(i, _terminal(t.replace("\u00a0", " "))) for i, t in _unqp(raw)]
    lines = _unquote(lines)
    lines = _dedent(lines)
    lines = _undouble(lines)
    return [ln for ln in lines if not (_ELISION.match(ln.text) or _PASSWORD.match(ln.text) or _FENCE.match(ln.text))]
