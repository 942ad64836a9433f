"""`--format json`: the report model as JSON (schema in docs/report.schema.json),
written host by host: the same bytes as the whole model serialized at once."""

from __future__ import annotations

from pydantic import BaseModel

from advisor.report import stream
from advisor.results.model import HostReport, Report

# C1 controls (U+0080-U+009F: U+009B is a terminal's CSI) and the line and
# paragraph separators are valid inside JSON strings, and pydantic writes them
# as they are; a report shown in a terminal or read by JavaScript must not
# carry them raw. They can stand only inside strings, so escaping them
# anywhere in the text is the same JSON.
_UNSAFE = {c: f"\\u{c:04x}" for c in (*range(0x80, 0xA0), 0x2028, 0x2029)}


def _indented(model: BaseModel | list[str], by: int) -> str:
    """A value as pydantic writes it with indent=2, nested `by` spaces deep."""
    # pydantic's serializer, not json.dumps: with indent, json.dumps runs its
    # pure-Python encoder, five times slower on a fleet's report.
    from pydantic import TypeAdapter

    text = model.model_dump_json(indent=2) if isinstance(model, BaseModel) else \
        TypeAdapter(list[str]).dump_json(model, indent=2).decode()
    return text.translate(_UNSAFE).replace("\n", "\n" + " " * by)


class Writer:
    in_fleet_order = False
    separator = ","

    def part(self, h: HostReport) -> str:
        return "\n    " + _indented(h, 4)

    def head(self, fleet: stream.Fleet) -> str:
        return '{\n  "tool": ' + _indented(fleet.tool, 2) + ',\n  "hosts": ['

    def tail(self, fleet: stream.Fleet) -> str:
        return (("\n  ]" if fleet.lines else "]") + ',\n  "summary": ' + _indented(fleet.summary, 2)
                + ',\n  "errors": ' + _indented(fleet.errors, 2) + "\n}\n")


def render(report: Report) -> str:
    return stream.render(Writer(), report)
