"""`--format json`: the report model as JSON (schema in docs/report.schema.json)."""

from __future__ import annotations

from advisor.report.model import Report


def render(report: Report) -> str:
    # pydantic's serializer, not json.dumps: with indent, json.dumps runs its
    # pure-Python encoder, five times slower on a fleet's report.
    return report.model_dump_json(indent=2) + "\n"
