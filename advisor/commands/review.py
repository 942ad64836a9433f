"""`advisor review`: offline captures to a report and an exit status."""

from __future__ import annotations

from pathlib import Path

from advisor.collect.offline import Loader
from advisor.commands import output
from advisor.engine import baseline, packs, policy as policy_mod
from advisor.engine.evaluate import Engine
from advisor.pipeline import iter_captures, review_all


def run_review(paths: list[Path], fmt: str, out: Path | None, fail_on: str, min_score: float | None,
               policy_path: Path | None, rule_dirs: list[Path], jobs: int = 1, gate: bool = False,
               baseline_path: Path | None = None, mode: str = "full") -> int:
    formats = output.parse_formats(fmt)
    previous = baseline.load(baseline_path) if baseline_path else None
    rules = packs.load(rule_dirs)
    engine = Engine(rules, policy_mod.load(policy_path, rules))
    with Loader() as loader, output.Reports(formats, out, rules, mode, previous) as reports:
        input_errors: list[str] = []
        for host in review_all(iter_captures(paths, loader, input_errors), engine, jobs, rule_dirs, policy_path):
            reports.add(host)
        fleet = reports.finish(input_errors, len(engine.rules), fail_on, min_score)
    code = output.exit_status(fleet)
    if gate:
        output.say(output.verdict(fleet))
    return code
