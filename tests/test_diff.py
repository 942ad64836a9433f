"""`advisor diff`: findings fixed, new and changed, score change, and for two
captures of one host the movement of the kstat counters."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import CAPTURES, FIXTURES, review, run_cli

AFTER = FIXTURES / "diff" / "t5-primary-after"  # t5-primary-untuned once its plan ran (docs/user-guide.md)


def _report(path: Path, out: Path) -> Path:
    assert run_cli("review", str(path), "-f", "json", "-o", str(out)).returncode in (0, 1)
    return out


def test_reports_of_untuned_and_tuned_host_give_fixed_findings_and_the_score_change(tmp_path: Path) -> None:
    old = _report(CAPTURES / "t5-primary-untuned", tmp_path / "old.json")
    new = _report(CAPTURES / "t5-primary-tuned", tmp_path / "new.json")
    refused = run_cli("diff", str(old), str(new), "-f", "json")
    assert refused.returncode == 2 and refused.stdout == ""  # the tuned bundle is another machine, t5-primary-b
    assert refused.stderr.strip() == (f"advisor: {old} and {new} are two different hosts (t5-primary and t5-primary-b); "
                                      f"give --force to compare them anyway")
    res = run_cli("diff", str(old), str(new), "-f", "json", "--force")
    assert res.returncode == 0, res.stderr
    [host] = json.loads(res.stdout)["hosts"]
    assert (host["score_before"], host["score_after"], host["score_change"]) == (26.2, 100.0, 73.8)
    assert host["new"] == [] and len(host["fixed"]) == 20
    # host-level findings match although the bundles name the host differently
    assert {"rule": "ldoms.software-level", "subject": "host t5-primary", "severity": "high",
            "message": "Logical Domains Manager 3.0.0.2 is older than 3.1"} in host["fixed"]
    assert host["counters"] is None  # JSON reports carry no kstat counters
    back = run_cli("diff", str(new), str(old), "--fail-on", "high", "--force")
    assert back.returncode == 1  # the reverse adds high findings
    assert "20 new or more severe" in back.stdout


def test_the_bundled_after_capture_is_what_the_untuned_plan_predicts() -> None:
    """The documented pair is one machine: the plan's steps applied, its prerequisites and checks not."""
    [before] = review(CAPTURES / "t5-primary-untuned").hosts
    [after] = review(AFTER).hosts
    sim = before.plan.simulation
    assert after.node == before.node == "t5-primary"
    assert after.score == sim.score_after == 68.6
    assert {f"{f.rule} on {f.subject}" for f in after.findings} == {x.finding for x in sim.left}


def test_the_bundled_pair_diffs_without_force() -> None:
    res = run_cli("diff", str(CAPTURES / "t5-primary-untuned"), str(AFTER), "-f", "json")
    assert res.returncode == 0, res.stderr
    [host] = json.loads(res.stdout)["hosts"]
    assert (host["score_before"], host["score_after"], host["score_change"]) == (26.2, 68.6, 42.4)
    assert len(host["fixed"]) == 13 and host["new"] == [] and host["changed"] == [] and host["unchanged"] == 7
    moves = {(m["subject"], m["counter"]): m["delta"] for m in host["counters"]}
    assert moves[("ldc vsw:0:vswldc0x0", "norcvbuf")] is None  # the control domain rebooted in between


def _after(src: Path, dest: Path, edits: dict[str, str]) -> Path:
    shutil.copytree(src, dest)
    kstat = dest / "kstat-p.txt"
    lines = []
    for line in kstat.read_text().splitlines(True):
        key = line.split("\t", 1)[0]
        lines.append(f"{key}\t{edits[key]}\n" if key in edits else line)
    kstat.write_text("".join(lines))
    return dest


def test_two_captures_show_counter_movement_and_changed_findings(tmp_path: Path) -> None:
    before = CAPTURES / "s11-guest-untuned"
    after = _after(before, tmp_path / "s11-guest-after", {
        "vnet:0:vnetldc0x0:norcvbuf": "762276777",   # +100 receive drops
        "vnet:0:vnetldc0x0:opackets64": "389064084",  # unchanged
        "vnet:0:vnetldc0x0:rx_lost_pkts": "5",        # went down: a reboot in between
        "tcp:0:tcpstat:tcp_lso_times": "1200",
        "vnet:0:vnetldc0x0:dring_mode": "4",
        "vnet:0:vnetldc0x3:lso_enabled": "1",
    })
    res = run_cli("diff", str(before), str(after), "-f", "json")
    assert res.returncode == 0, res.stderr
    [host] = json.loads(res.stdout)["hosts"]
    moves = {(m["subject"], m["counter"]): m for m in host["counters"]}
    assert moves[("ldc vnet:0:vnetldc0x0", "norcvbuf")]["delta"] == 100
    assert moves[("ldc vnet:0:vnetldc0x0", "opackets64")]["delta"] == 0
    assert moves[("ldc vnet:0:vnetldc0x0", "rx_lost_pkts")]["delta"] is None
    assert moves[("tcp", "tcp_lso_times")] == {"subject": "tcp", "counter": "tcp_lso_times", "before": 0,
                                              "after": 1200, "delta": 1200}
    assert [(f["rule"], f["subject"]) for f in host["fixed"]] == [("ldoms.dring-mode", "ldc vnet:0:vnetldc0x0")]
    [lso] = host["changed"]  # still failing, on one channel fewer
    assert (lso["rule"], lso["observed_before"], lso["observed_after"]) == (
        "ldoms.lso", "lso_enabled 0 on vnetldc0x0, vnetldc0x3", "lso_enabled 0 on vnetldc0x0")
    assert host["new"] == [] and host["unchanged"] == 5
    text = run_cli("diff", str(before), str(after)).stdout
    assert "ldc vnet:0:vnetldc0x0 norcvbuf: 762,276,677 -> 762,276,777 (+100)" in text
    assert "rx_lost_pkts: 535,458,723 -> 5 (went down (reboot or wrap between the captures))" in text


def test_hosts_on_one_side_only_and_bad_input(tmp_path: Path) -> None:
    old = _report(CAPTURES / "t5-primary-untuned", tmp_path / "old.json")
    res = run_cli("diff", str(old), str(CAPTURES), "-f", "json")
    hosts = {h["host"]: h for h in json.loads(res.stdout)["hosts"]}
    assert hosts["t5-primary (t5-primary-untuned)"]["after"] is not None and hosts["ovs1 (ovm-dom0-untuned)"]["before"] is None
    (tmp_path / "bad.json").write_text('{"hosts": 3}')
    bad = run_cli("diff", str(tmp_path / "bad.json"), str(old))
    assert bad.returncode == 2 and bad.stderr.startswith(f"advisor: {tmp_path / 'bad.json'}: not an advisor JSON report")
    assert "Traceback" not in bad.stderr


def test_names_from_captures_are_shown_escaped_in_a_diff(tmp_path: Path) -> None:
    """A host name could retitle the terminal, clear it and forge a line of diff output."""
    hostile = "t5\x1b]0;TITLE\x07\x1b[2J\nadvisor: 0 new findings"
    for side, capture in (("old", "t5-primary-untuned"), ("new", "t5-primary-tuned")):
        shutil.copytree(CAPTURES / capture, tmp_path / side)
        (tmp_path / side / "manifest.yaml").write_text(f"host: {json.dumps(hostile)}\ncommands: []\n")
    for fmt in ("table", "markdown"):
        res = run_cli("diff", str(tmp_path / "old"), str(tmp_path / "new"), "-f", fmt, "--force")
        assert res.returncode == 0, res.stderr
        assert "\x1b" not in res.stdout and "\x07" not in res.stdout
        assert not any(line.startswith("advisor: 0 new findings") for line in res.stdout.splitlines())
    (tmp_path / "new" / "uname-a.txt").write_text("SunOS evil\x1b]0;PWNED\x07 5.11 11.1 sun4v sparc sun4v\n")
    res = run_cli("diff", str(tmp_path / "old"), str(tmp_path / "new"))
    assert res.returncode == 2 and len(res.stderr.splitlines()) == 1
    assert "\x1b" not in res.stderr and "evil\\x1b]0;PWNED\\x07" in res.stderr
