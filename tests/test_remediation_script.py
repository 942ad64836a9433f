"""`--format script`: a POSIX sh script per host, grouped by domain, reboots
last, each step commented with rule, impact and undo; run here against stub
commands to see what it would do, in which order."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

from conftest import CAPTURES, run_cli

UNTUNED = CAPTURES / "t5-primary-untuned"


def _script(*args: str) -> str:
    res = run_cli("review", *args, "-f", "script")
    assert res.returncode == 0, res.stderr
    return res.stdout


def _stub_bin(folder: Path, log: Path) -> Path:
    folder.mkdir()
    for name in ("ldm", "pkg", "dladm", "shutdown", "init", "patchadd", "kstat", "ipadm"):
        tool = folder / name
        tool.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n[ "$1" = list ] && echo NAME\nexit 0\n')
        tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    return folder


def test_script_is_valid_sh_and_refuses_to_run_unreviewed(tmp_path: Path) -> None:
    path = tmp_path / "fix.sh"
    path.write_text(_script(str(UNTUNED)))
    assert subprocess.run(["dash", "-n", str(path)]).returncode == 0
    res = subprocess.run(["sh", str(path)], capture_output=True, text=True)
    assert res.returncode == 1 and "ADVISOR_CONFIRM=yes" in res.stderr


def test_steps_are_grouped_by_domain_with_reboots_last(tmp_path: Path) -> None:
    text = _script(str(UNTUNED))
    sections = [line.split()[3] for line in text.splitlines() if line.startswith("# ==== domain")]
    assert sections == ["db1", "ldg1", "ldg2", "primary"]  # the control domain last
    primary = text.split("# ==== domain primary", 1)[1]
    live = primary.index("ldm set-vsw inter-vnet-link=on primary-vsw0")
    reconf = primary.index("\nldm start-reconf primary\n")
    assert live < reconf < primary.index("\nldm set-domain extended-mapin-space=on primary")
    assert primary.count("ldm start-reconf primary\n") == 1
    assert primary.rstrip().splitlines()[-1] == (
        "shutdown -y -g0 -i6   # in primary, to end the delayed reconfiguration; in primary; then stop and start its guests")
    assert "#   undo: ldm set-vsw inter-vnet-link=off primary-vsw0" in primary
    assert "# [high] ldoms.inter-vnet-link on vsw primary-vsw0 (impact: live)" in primary
    assert "# (superseded by: ldm set-core 4 primary) ldm set-core 1 primary" in primary


def test_running_the_script_against_stub_commands(tmp_path: Path) -> None:
    log = tmp_path / "log"
    script = tmp_path / "fix.sh"
    script.write_text(_script(str(UNTUNED)))
    env = {**os.environ, "PATH": f"{_stub_bin(tmp_path / 'bin', log)}:{os.environ['PATH']}", "ADVISOR_CONFIRM": "yes"}
    res = subprocess.run(["sh", str(script)], capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    ran = log.read_text().splitlines()
    assert ran.index("ldm set-core 2 ldg1") < ran.index("ldm stop ldg1") < ran.index("ldm start-reconf primary")
    assert ran.index("ldm start-reconf primary") < ran.index("ldm set-core 4 primary")
    assert ran[-1] == "shutdown -y -g0 -i6" and ran.count("shutdown -y -g0 -i6") == 1
    assert "ldm set-core 1 primary" not in ran and ran.count("pkg update entire") == 1


def test_placeholders_are_commented_out(tmp_path: Path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text("intents:\n  latency_sensitive_domains: [ldg1]\n")
    text = _script(str(CAPTURES / "t5-primary-tuned"), "--policy", str(policy))
    assert "\n# edit first: ldm create-vf PF_NAME && ldm add-io VF_NAME ldg1" in text


def test_one_script_per_host_into_a_folder(tmp_path: Path) -> None:
    res = run_cli("review", str(CAPTURES), "-f", "script")
    assert res.returncode == 2 and "give -o DIR" in res.stderr
    res = run_cli("review", str(UNTUNED), "-f", "script,html")
    assert res.returncode == 2 and res.stderr.strip() == "advisor: several --format values need -o DIR for the reports"
    out = tmp_path / "scripts"
    res = run_cli("review", str(CAPTURES), "-f", "script,json", "-o", str(out))
    assert res.returncode == 0, res.stderr
    names = sorted(p.name for p in out.iterdir())
    assert "t5-primary-untuned.remediation.sh" in names and "ovm-dom0-untuned.remediation.sh" in names
    assert "report.json" in names
    xen = (out / "ovm-dom0-untuned.remediation.sh").read_text()
    assert "xl vcpu-pin" in xen or "xm vcpu-pin" in xen
    clean = (out / "t5-primary-tuned.remediation.sh").read_text()
    assert "# Nothing to change." in clean
