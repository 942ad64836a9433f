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


def run_cli_measured(*args: str, timeout: float = 120,
                     env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], int]:
    """run_cli, and the peak resident memory (bytes) of advisor and the workers it waited for."""
    import threading

    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", **(env or {})}
    proc = subprocess.Popen([*_entry_point(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT, env=env)
    streams: dict[str, str] = {}
    readers = [threading.Thread(target=lambda n=n, f=f: streams.__setitem__(n, f.read()))
               for n, f in (("out", proc.stdout), ("err", proc.stderr))]
    for r in readers:
        r.start()
    killer = threading.Timer(timeout, proc.kill)
    killer.start()
    _, status, usage = os.wait4(proc.pid, 0)  # communicate() would reap it and lose the usage
    killer.cancel()
    for r in readers:
        r.join()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode == -9:
        raise subprocess.TimeoutExpired(proc.args, timeout)
    return subprocess.CompletedProcess(proc.args, proc.returncode, streams["out"], streams["err"]), usage.ru_maxrss << 10


@pytest.fixture
def cli():
    return run_cli
