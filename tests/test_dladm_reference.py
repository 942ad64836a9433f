"""dladm show-linkprop's table reader, held to the one it replaced (a row split
twice, five _none calls a row, the elision regex tried on every line)."""

from __future__ import annotations

import re
from dataclasses import asdict

from hypothesis import given, settings, strategies as st

from advisor.errors import ParseError
from advisor.parsers.text import Header, Line, numbered
from advisor.platforms.solaris.parsers import dladm
from conftest import examples

_ELISION = re.compile(r"^\s*(?:\.{3,}|\u2026)\s*$")


def _old_rows(text: str) -> list[Line]:
    return [ln for ln in numbered(text) if ln.text.strip() and not _ELISION.match(ln.text)]


def _old_none(value: str | None) -> str | None:
    return None if value in (None, "", "--", "?") else value


def _old_prop(cells: dict[str, str], line: int) -> dladm.LinkProp:
    return dladm.LinkProp(cells["link"], cells["property"], _old_none(cells.get("perm")), _old_none(cells.get("value")),
                          _old_none(cells.get("effective")), _old_none(cells.get("default")),
                          _old_none(cells.get("possible")), line)


def _old_table(lines: list[Line]) -> list[dladm.LinkProp]:
    header = Header.parse(lines[0].text)
    unknown = set(header.names) - set(dladm._TABLE_FIELDS)
    if unknown:
        raise ParseError(f"unknown column(s) {sorted(unknown)}", line=lines[0].number)
    names = [n.lower() for n in header.names]
    out: list[dladm.LinkProp] = []
    open_possible = False
    for ln in lines[1:]:
        parts = ln.text.split()
        if len(parts) == 1 and open_possible and out:
            out[-1].possible = (out[-1].possible or "") + parts[0]
            open_possible = parts[0].endswith(",")
            continue
        if len(parts) < len(names) - 1:
            raise ParseError(f"expected {len(names)} columns", line=ln.number)
        cells = dict(zip(names, ln.text.strip().split(None, len(names) - 1)))
        out.append(_old_prop(cells, ln.number))
        possible = cells.get("possible", "")
        open_possible = names[-1] == "possible" and (not possible or possible.endswith(","))
    return out


def _outcome(read, text: str) -> object:
    try:
        return [asdict(p) for p in read(text)]
    except ParseError as exc:
        return ("error", str(exc), exc.line)


def _old(text: str) -> list[dladm.LinkProp]:
    lines = _old_rows(text)
    if not lines:
        raise ParseError("empty output")
    return _old_table(lines) if lines[0].text.split()[:2] == ["LINK", "PROPERTY"] else dladm.parse_show_linkprop(text)


_CELL = st.sampled_from(["net0", "mtu", "1000", "speed", "10,100", "rw", "r-", "1500", "--", "?", "", "half,full", "1,", "2", "a b", "...",
                         "\u2026", "x\u00a0y", "zone1/net0"])
_HEADERS = ["LINK PROPERTY PERM VALUE EFFECTIVE DEFAULT POSSIBLE", "LINK PROPERTY PERM VALUE DEFAULT POSSIBLE",
            "LINK PROPERTY VALUE DEFAULT POSSIBLE", "LINK PROPERTY PERM VALUE DEFAULT", "LINK PROPERTY BOGUS"]
_ROW = st.lists(_CELL, min_size=4, max_size=9).map(lambda cells: " ".join(cells)) | st.text("ab ,.-?\t\n\u2026", max_size=20)


@settings(max_examples=examples(300), deadline=None)
@given(header=st.sampled_from(_HEADERS), rows=st.lists(_ROW, max_size=12), pad=st.sampled_from(["", " ", "  "]))
def test_the_linkprop_table_reads_as_it_did(header: str, rows: list[str], pad: str) -> None:
    text = "\n".join([pad + header, *rows])
    assert _outcome(dladm.parse_show_linkprop, text) == _outcome(_old, text)
