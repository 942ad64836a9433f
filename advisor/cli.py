"""The `advisor` command line (verbs and exit statuses are a contract: DESIGN.md)."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from advisor.errors import AdvisorError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Network-tuning advisor and configuration auditor for virtualized hosts.")
rules_app = typer.Typer(no_args_is_help=True, help="The rule catalogue with its sources.")
app.add_typer(rules_app, name="rules")

EXIT_OK, EXIT_GATE, EXIT_INPUT = 0, 1, 2


class Format(str, Enum):
    table = "table"
    json = "json"


class FailOn(str, Enum):
    critical = "critical"
    high = "high"
    medium = "medium"
    low = "low"
    info = "info"
    never = "never"


def _die(message: str) -> None:
    typer.echo(f"advisor: {message}", err=True)
    raise typer.Exit(EXIT_INPUT)


PolicyOpt = Annotated[Optional[Path], typer.Option("--policy", help="Policy YAML: parameter overrides and intents.")]
RulesOpt = Annotated[Optional[list[Path]], typer.Option("--rules", help="Extra rule pack directory (repeatable).")]


@app.command()
def review(
    paths: Annotated[list[Path], typer.Argument(help="Bundle folders, .tar.gz bundles, Explorer archives or loose output files.")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="Report format.")] = Format.table,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the report to this file.")] = None,
    fail_on: Annotated[FailOn, typer.Option("--fail-on", help="Exit 1 when a finding of this severity or worse exists.")] = FailOn.never,
    min_score: Annotated[Optional[float], typer.Option("--min-score", help="Exit 1 when a host scores below this.")] = None,
    policy: PolicyOpt = None,
    rules: RulesOpt = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, help="Review bundles in this many processes (0: one per CPU).")] = 0,
) -> None:
    """Review saved captures offline and report scored findings."""
    import os

    from advisor.commands.review import run_review

    try:
        code = run_review(paths, fmt.value, output, fail_on.value, min_score, policy, rules or [],
                          jobs or os.cpu_count() or 1)
    except AdvisorError as exc:
        _die(str(exc))
    raise typer.Exit(code)


@rules_app.command("list")
def rules_list(rules: RulesOpt = None) -> None:
    """List every rule: id, severity, subject, title."""
    from advisor.commands.rules import list_rules

    try:
        list_rules(rules or [])
    except AdvisorError as exc:
        _die(str(exc))


@rules_app.command("show")
def rules_show(rule_id: Annotated[str, typer.Argument(help="Rule id, e.g. ldoms.dring-mode")], rules: RulesOpt = None) -> None:
    """Show one rule: rationale, checks, remediation, source."""
    from advisor.commands.rules import show_rule

    try:
        show_rule(rule_id, rules or [])
    except AdvisorError as exc:
        _die(str(exc))


def main() -> None:
    try:
        app()
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(EXIT_OK)
