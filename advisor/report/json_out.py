"""`--format json`: the report model as JSON (schema in docs/report.schema.json)."""

from __future__ import annotations

import json

from advisor.report.model import Report


def render(report: Report) -> str:
    return json.dumps(report.model_dump(mode="json"), indent=2) + "\n"
