"""`--format json`: the report model as JSON (schema in docs/report.schema.json),
written host by host: the same bytes as the whole model serialized at once."""

from __future__ import annotations

import functools

from pydantic import BaseModel, TypeAdapter

from advisor.report import stream
from advisor.results.model import HostReport, Report

# C1 controls (U+0080-U+009F: U+009B is a terminal's CSI) and the line and
# paragraph separators are valid inside JSON strings, and pydantic writes them
# as they are; a report shown in a terminal or read by JavaScript must not
# carry them raw. They can stand only inside strings, so escaping them
# anywhere in the text is the same JSON.
_UNSAFE = {c: f"\\u{c:04x}" for c in (*range(0x80, 0xA0), 0x2028, 0x2029)}


def _safe(text: str) -> str:
    return text if text.isascii() else text.translate(_UNSAFE)  # each character _UNSAFE maps is above ASCII


def _indented(model: BaseModel | list[str], by: int) -> str:
    """A value as pydantic writes it with indent=2, nested `by` spaces deep."""
    # pydantic's serializer, not json.dumps: with indent, json.dumps runs its
    # pure-Python encoder, five times slower on a fleet's report.
    text = model.model_dump_json(indent=2) if isinstance(model, BaseModel) else \
        TypeAdapter(list[str]).dump_json(model, indent=2).decode()
    return _safe(text).replace("\n", "\n" + " " * by)


_AROUND = ('{\n  "hosts": [\n    ', "\n  ]\n}")  # what _in_hosts writes around a host


@functools.cache
def _in_hosts() -> TypeAdapter[dict[str, list[HostReport]]]:
    return TypeAdapter(dict[str, list[HostReport]])


class Writer:
    in_fleet_order = False
    separator = ","

    def part(self, h: HostReport) -> str:
        # written where it stands in the report, so that pydantic writes its lines
        # indented as they are there: _indented's second pass over a host's text
        # (some 90 KB for the untuned T5) cost a few percent of the host's review
        text = _in_hosts().dump_json({"hosts": [h]}, indent=2).decode()
        return "\n    " + _safe(text[len(_AROUND[0]):-len(_AROUND[1])])

    def head(self, fleet: stream.Fleet) -> str:
        return '{\n  "tool": ' + _indented(fleet.tool, 2) + ',\n  "hosts": ['

    def tail(self, fleet: stream.Fleet) -> str:
        return (("\n  ]" if fleet.lines else "]") + ',\n  "summary": ' + _indented(fleet.summary, 2)
                + ',\n  "errors": ' + _indented(fleet.errors, 2) + "\n}\n")


def render(report: Report) -> str:
    return stream.render(Writer(), report)
