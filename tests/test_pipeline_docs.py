"""The CI snippets of docs/pipeline.md are valid and their commands work."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import defusedxml.ElementTree as SafeET
import pytest
import yaml

from conftest import FIXTURES, ROOT

DOC = (ROOT / "docs/pipeline.md").read_text()
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", DOC, re.S)


def _commands() -> dict[str, list[str]]:
    github, gitlab = [yaml.safe_load(body) for lang, body in BLOCKS if lang == "yaml"]
    groovy = next(body for lang, body in BLOCKS if lang == "groovy")
    return {
        "github": [s["run"] for s in github["jobs"]["gate"]["steps"] if "run" in s],
        "gitlab": gitlab["ldoms-plan-gate"]["script"],
        "jenkins": re.findall(r"sh '([^']+)'", groovy),
    }


def test_snippets_parse_and_publish_the_reports() -> None:
    github, gitlab = [yaml.safe_load(body) for lang, body in BLOCKS if lang == "yaml"]
    uploads = {s.get("uses", "").split("@")[0]: s for s in github["jobs"]["gate"]["steps"]}
    assert uploads["github/codeql-action/upload-sarif"]["with"]["sarif_file"] == "reports/report.sarif"
    assert uploads["actions/upload-artifact"]["if"] == "always()"
    assert gitlab["ldoms-plan-gate"]["artifacts"]["reports"]["junit"] == "reports/report.junit.xml"
    assert gitlab["ldoms-plan-gate"]["artifacts"]["when"] == "always"
    assert "junit 'reports/report.junit.xml'" in next(body for lang, body in BLOCKS if lang == "groovy")


def _workspace(tmp_path: Path, plans: list[str]) -> Path:
    work = tmp_path / "repo"
    (work / "plans").mkdir(parents=True)
    for name in plans:
        shutil.copy(FIXTURES / "plans" / name, work / "plans" / name)
    return work


def _run(command: str, work: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    return subprocess.run(command, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=120)


def test_every_snippet_passes_good_plans_and_fails_a_bad_one(tmp_path: Path) -> None:
    for ci, commands in _commands().items():
        gate = [c for c in commands if "pip install" not in c]
        assert gate and all(c.startswith("advisor gate plans/") for c in gate), ci
        work = _workspace(tmp_path / ci, ["t5-good.yaml", "t5-good-constraints.xml", "t5-good-from-constraints.yaml"])
        for command in gate:
            res = _run(command, work)
            assert res.returncode == 0, f"{ci}: {command}: {res.stderr}"
            assert "advisor gate: passed" in res.stderr
        junit = SafeET.parse(work / "reports/report.junit.xml").getroot()
        assert len(junit.findall("testsuite")) == 3, ci  # one per planned system
        (work / "plans" / "t5-bad.yaml").write_text((FIXTURES / "plans/t5-bad.yaml").read_text())
        res = _run(gate[0], work)
        assert res.returncode == 1 and "advisor gate: failed" in res.stderr, ci
        assert (work / "reports/report.html").is_file()


@pytest.mark.slow
def test_the_install_line_installs_advisor_from_its_git_release(tmp_path: Path) -> None:
    """Under its own name (netvirt-advisor, from the project's metadata): `pip install advisor` would
    install an unrelated project of the package index."""
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    lines = [c for commands in _commands().values() for c in commands if "pip install" in c]
    found = {m.group(1) for c in lines if (m := re.search(r'"(git\+\$\{ADVISOR_REPO\}@v[\d.]+)"', c))}
    assert len(lines) == 3 and found == {f"git+${{ADVISOR_REPO}}@v{version}"}, lines
    repo = tmp_path / "advisor"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(repo)], check=True, timeout=120)
    subprocess.run(["git", "-C", str(repo), "tag", f"v{version}"], check=True, timeout=60)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    line = next(iter(found)).replace("${ADVISOR_REPO}", repo.as_uri())
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-c", str(ROOT / "constraints.txt"), line],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stderr[-3000:]
    listed = subprocess.run([str(venv / "bin" / "pip"), "list"], capture_output=True, text=True, timeout=60).stdout
    assert re.search(r"^netvirt-advisor\s+" + re.escape(version), listed, re.M), listed
    advisor = str(venv / "bin" / "advisor")
    assert version in subprocess.run([advisor, "--version"], capture_output=True, text=True, timeout=60).stdout
    res = subprocess.run([advisor, "review", str(FIXTURES / "captures" / "t5-primary-tuned"), "--fail-on", "low"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
