"""Shared test helpers: paths, and running the pipeline on a fixture."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# CI draws the same examples every run (derandomize): its time cannot depend on
# which inputs chance picks. A developer's longer, random fuzz run:
#   HYPOTHESIS_PROFILE=fuzz ADVISOR_FUZZ_SCALE=20 pytest tests/test_fuzz_*.py
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("fuzz", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CAPTURES = FIXTURES / "captures"
POLICIES = FIXTURES / "policies"
GOLDEN = ".parsed.json"  # the golden file beside a sample: tests/test_golden_parsers.py


def is_sample(path: Path) -> bool:
    """A sample or variant file, not its folder's README nor its golden file."""
    return path.is_file() and path.name != "README.md" and not path.name.endswith(GOLDEN)


def examples(count: int) -> int:
    """A property test's number of examples, times ADVISOR_FUZZ_SCALE (1 in CI)."""
    return count * max(1, int(os.environ.get("ADVISOR_FUZZ_SCALE", "1")))


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


def _env(extra: dict[str, str] | None) -> dict[str, str]:
    return {**os.environ, "COLUMNS": "80", "TERM": "dumb", **(extra or {})}


# Starting the interpreter and importing advisor costs about 0.4 s a run; the
# tests run advisor some 1,500 times. By default a test runs the command line in
# this process (advisor.cli.run: the same code main() runs, without its exit
# shortcut); ADVISOR_TEST_PROCESS=1 starts the installed entry point every time,
# as CI does for the whole suite. Tests of what only a process shows (peak
# memory, signals, the entry point itself) start one whatever the setting.
IN_PROCESS = os.environ.get("ADVISOR_TEST_PROCESS") != "1"


def run_cli(*args: str, cwd: Path | None = None, input: str | None = None, timeout: float = 120,
            env: dict[str, str] | None = None, process: bool = False) -> subprocess.CompletedProcess[str]:
    """The `advisor` command line, as a user runs it (not a TTY); `process`: in
    a process of its own whatever the setting (what is loaded at its start)."""
    if IN_PROCESS and not process:
        return _run_here(list(args), cwd or ROOT, input, _env(env), timeout)
    return subprocess.run([*_entry_point(), *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, env=_env(env), input=input, timeout=timeout)


def run_cli_reader_gone(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The command line in a process of its own whose stdout is a pipe the reader
    has already left (`advisor ... | head`, at its worst): its first write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([*_entry_point(), *args], stdout=write, stderr=subprocess.PIPE, text=True,
                              env=_env(None), cwd=cwd or ROOT, timeout=timeout)
    finally:
        os.close(write)


def _run_here(args: list[str], cwd: Path, input: str | None, environ: dict[str, str],
              timeout: float) -> subprocess.CompletedProcess[str]:
    """advisor.cli.run in this process, with its own environment, folder and
    standard streams, and stopped (TimeoutExpired) after `timeout` seconds."""
    import io
    import signal

    from advisor import cli

    def expired(_signum: int, _frame: object) -> None:
        raise subprocess.TimeoutExpired(["advisor", *args], timeout)

    streams = [io.BytesIO() for _ in range(3)]
    streams[0].write((input or "").encode())
    streams[0].seek(0)
    wrapped = [io.TextIOWrapper(b, encoding="utf-8", errors="surrogateescape", write_through=True) for b in streams]
    saved_streams, saved_env, saved_cwd = (sys.stdin, sys.stdout, sys.stderr), dict(os.environ), os.getcwd()
    saved_alarm = signal.signal(signal.SIGALRM, expired)
    try:
        os.environ.clear()
        os.environ.update(environ)
        os.chdir(cwd)
        sys.stdin, sys.stdout, sys.stderr = wrapped
        signal.setitimer(signal.ITIMER_REAL, timeout)
        code = cli.run(args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, saved_alarm)
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    out, err = (_text(b.getvalue()) for b in streams[1:])
    return subprocess.CompletedProcess(["advisor", *args], code, out, err)


def _text(data: bytes) -> str:
    """As subprocess.run(text=True) decodes a stream: universal newlines."""
    return data.decode("utf-8", "surrogateescape").replace("\r\n", "\n").replace("\r", "\n")


# Linux carries a process's peak RSS across fork and exec, so advisor started straight from this
# (large) test process would report the tests' own peak. A small wrapper starts it instead and
# reports what wait4 says of it (and of the workers it waited for).
_MEASURE = ("import os, subprocess, sys\n"
            "p = subprocess.Popen(sys.argv[2:])\n"
            "_, status, usage = os.wait4(p.pid, 0)\n"
            "open(sys.argv[1], 'w').write(str(usage.ru_maxrss << 10))\n"
            "sys.exit(os.waitstatus_to_exitcode(status) % 256)\n")


def run_cli_measured(*args: str, timeout: float = 120,
                     env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], int]:
    """run_cli, and the peak resident memory (bytes) of advisor and the workers it waited for."""
    import signal
    import tempfile

    with tempfile.NamedTemporaryFile("r", suffix=".rss") as peak:
        proc = subprocess.Popen([sys.executable, "-c", _MEASURE, peak.name, *_entry_point(), *args],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env(env),
                                start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), int(peak.read() or 0)


@pytest.fixture
def cli():
    return run_cli


def comparable(host: dict) -> dict:
    """A host report without what names where its outputs came from (file paths, its own name)."""
    def strip(ev: str) -> str:
        return ev.rsplit("/", 1)[-1]
    me = {f"host {host['host']}", f"host {host['detected'].get('nodename')}"}

    def subject(item: dict) -> dict:
        return {**item, "subject": "host" if item["subject"] in me else item["subject"]}

    findings = [subject({**f, "evidence": [strip(e) for e in f["evidence"]]}) for f in host["findings"]]
    return {"score": host["score"], "platform": host["platform"], "counts": host["counts"],
            "results": [subject(r) for r in host["results"]], "findings": findings,
            "detected": {k: v for k, v in host["detected"].items()}}


def facts_of(path: Path):
    """The facts of the one capture at `path`, read and built as a review does; none of its files may fail."""
    from advisor.collect.offline import Loader
    from advisor.facts.build import build

    with Loader() as loader:
        [capture] = loader.load(path)
        built = build(capture)
    assert not capture.errors and not built.errors
    return built.facts
