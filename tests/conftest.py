"""Shared test helpers: paths, and running the pipeline on a fixture."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CAPTURES = FIXTURES / "captures"
POLICIES = FIXTURES / "policies"


def review(*paths: Path | str, policy: Path | None = None):
    from advisor.collect.offline import Loader
    from advisor.engine import packs, policy as policy_mod
    from advisor.engine.evaluate import Engine
    from advisor.pipeline import load_captures, review_capture, summarize

    engine = Engine(packs.load(), policy_mod.load(policy))
    with Loader() as loader:
        captures, errors = load_captures([Path(p) for p in paths], loader)
        hosts = [review_capture(c, engine) for c in captures]
    return summarize(hosts, errors, len(engine.rules))


def _entry_point() -> list[str]:
    script = Path(sys.executable).parent / "advisor"
    return [str(script)] if script.exists() else [sys.executable, "-m", "advisor"]


def run_cli(*args: str, cwd: Path | None = None, input: str | None = None,
            timeout: float = 120, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The installed `advisor` entry point, as a user runs it (not a TTY)."""
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", **(env or {})}
    return subprocess.run([*_entry_point(), *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, env=env, input=input, timeout=timeout)


@pytest.fixture
def cli():
    return run_cli
