"""Benchmark: the floor under `advisor review`'s start, what its frameworks cost alone.

A typer application with the review command's parameters (the same kinds:
paths, an enum, optional numbers and paths, flags) that builds and prints one
pydantic model, as advisor's report is one. Run it as a review is run:

    python bench/floor.py review x -f json
    perf stat -e instructions python bench/floor.py review x -f json

Not a test: nothing asserts a time. bench/README.md compares it with a review.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

app = typer.Typer()


class FailOn(str, Enum):
    never = "never"
    critical = "critical"


@app.command()
def review(
    paths: Annotated[list[Path], typer.Argument()],
    fmt: Annotated[str, typer.Option("--format", "-f")] = "table",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", parser=Path)] = None,
    fail_on: Annotated[FailOn, typer.Option()] = FailOn.never,
    min_score: Annotated[Optional[float], typer.Option()] = None,
    policy: Annotated[Optional[Path], typer.Option()] = None,
    rules: Annotated[Optional[list[Path]], typer.Option()] = None,
    jobs: Annotated[int, typer.Option(min=0)] = 0,
    baseline: Annotated[Optional[Path], typer.Option()] = None,
    compact: Annotated[bool, typer.Option()] = False,
    quiet: Annotated[bool, typer.Option()] = False,
) -> None:
    from pydantic import BaseModel

    class Report(BaseModel):
        hosts: list[str]

    print(Report(hosts=[str(p) for p in paths]).model_dump_json())


@app.command()
def other() -> None:
    """A second command, so that typer builds a group as advisor's CLI is one."""


if __name__ == "__main__":
    app()
