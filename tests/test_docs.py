"""Generated documents are current, and reports validate against the schema."""

from __future__ import annotations

import json

import jsonschema

from advisor import reference
from conftest import CAPTURES, ROOT, run_cli


def test_rule_reference_is_current() -> None:
    assert (ROOT / "docs/rules.md").read_text() == reference.rules_markdown(), \
        "docs/rules.md is stale: run python -m advisor.reference"


def test_report_schema_is_current() -> None:
    assert (ROOT / "docs/report.schema.json").read_text() == reference.report_schema(), \
        "docs/report.schema.json is stale: run python -m advisor.reference"


def test_json_report_validates_against_the_schema() -> None:
    schema = json.loads((ROOT / "docs/report.schema.json").read_text())
    res = run_cli("review", str(CAPTURES), str(CAPTURES.parent / "plans"), "-f", "json", "--fail-on", "high")
    report = json.loads(res.stdout)
    jsonschema.validate(report, schema)
    assert {h["kind"] for h in report["hosts"]} == {"capture", "plan"}
    assert report["summary"]["gate"] == "failed"
    for host in report["hosts"]:
        for finding in host["findings"]:
            assert set(finding) >= {"rule", "severity", "subject", "message", "observed", "expected", "evidence",
                                    "remediation", "impact", "effect", "source"}
        for result in host["results"]:
            assert set(result) >= {"rule", "subject", "status"}
            if result["status"] == "unknown":
                assert result["missing"]


def test_the_readme_shows_the_first_screen_as_it_is() -> None:
    from conftest import run_cli

    readme = (ROOT / "README.md").read_text()
    shown = readme.split("Its first screen", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    now = run_cli("review", "fixtures/captures/t5-primary-untuned").stdout
    assert now.startswith(shown)


def test_the_user_guide_gate_line_is_what_the_bundled_capture_gives() -> None:
    """A sample in the docs is what advisor prints today."""
    guide = (ROOT / "docs" / "user-guide.md").read_text()
    said = run_cli("gate", str(ROOT / "fixtures" / "captures" / "t5-primary-untuned")).stderr.strip().splitlines()[-1]
    assert f"\n{said}\n" in guide, said
