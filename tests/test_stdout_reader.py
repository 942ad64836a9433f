"""A reader of advisor's output that stops reading early (`advisor review ... | head`)
changes nothing but what it reads: the exit status is the one the whole run has
(1 still means the gate failed, and only that), the files advisor writes are whole,
and nothing is said about the pipe. Each test runs advisor in a process of its
own with its stdout a pipe whose reader has already left, so its first write fails."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from conftest import CAPTURES, _entry_point, _env, run_cli_reader_gone

UNTUNED = CAPTURES / "t5-primary-untuned"
TUNED = CAPTURES / "t5-primary-tuned"
AFTER = CAPTURES.parent / "diff" / "t5-primary-after"  # the untuned T5 with most of its findings fixed


@pytest.mark.parametrize(("args", "status"), [
    (["review", str(UNTUNED)], 0),  # no threshold: findings do not fail a review
    (["review", str(UNTUNED), "-f", "json", "--fail-on", "high"], 1),  # the gate failed, whoever reads
    (["review", str(TUNED), "--fail-on", "high"], 0),  # the gate passed: not 1
    (["review", str(TUNED), "does-not-exist"], 2),  # input it could not read, said on stderr
    (["rules", "list"], 0),
    (["rules", "show", "ldoms.dring-mode"], 0),
    (["collector-script", "--platform", "solaris"], 0),
    (["diff", str(UNTUNED), str(AFTER), "--fail-on", "low"], 0),  # nothing new
    (["diff", str(AFTER), str(UNTUNED), "--fail-on", "low"], 1),  # what was fixed came back
])
def test_a_reader_leaving_early_leaves_the_exit_status_as_it_is(args: list[str], status: int) -> None:
    done = run_cli_reader_gone(*args)
    assert done.returncode == status, done.stderr
    said = done.stderr.splitlines()
    assert all(line.startswith("advisor: does-not-exist") for line in said), said  # no traceback, no pipe error
    assert bool(said) == (status == 2)


def test_a_gate_whose_reader_left_still_says_its_verdict_on_stderr() -> None:
    done = run_cli_reader_gone("gate", str(UNTUNED))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "advisor gate: failed: 16 finding(s) at or above medium (1 host(s), lowest score 26.2)"]


def test_reports_written_into_a_folder_are_whole_when_the_reader_of_stdout_left(tmp_path: Path) -> None:
    """stdout carries only the line naming the files written; they are written whole before it."""
    read = subprocess.run([*_entry_point(), "review", str(UNTUNED), "-f", "json,script", "-o", f"{tmp_path}/read/"],
                          capture_output=True, text=True, env=_env(None), timeout=120)
    assert read.returncode == 0 and read.stdout.startswith("wrote "), read.stderr
    done = run_cli_reader_gone("review", str(UNTUNED), "-f", "json,script", "-o", f"{tmp_path}/gone/")
    assert (done.returncode, done.stderr) == (0, "")
    written = sorted(p.name for p in (tmp_path / "gone").iterdir())
    assert written == sorted(p.name for p in (tmp_path / "read").iterdir())
    assert "report.json" in written and any(n.endswith(".remediation.sh") for n in written)
    for name in written:
        assert (tmp_path / "gone" / name).read_bytes() == (tmp_path / "read" / name).read_bytes(), name
    assert json.loads((tmp_path / "gone" / "report.json").read_text())["summary"]["hosts"] == 1
