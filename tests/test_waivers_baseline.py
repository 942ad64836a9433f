"""Policy waivers and --baseline: what is counted, shown, and gated."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import CAPTURES, run_cli

UNTUNED = CAPTURES / "t5-primary-untuned"


def _policy(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "policy.yaml"
    path.write_text(text)
    return path


def test_waived_findings_are_shown_not_counted_and_expired_ones_say_so(tmp_path: Path) -> None:
    policy = _policy(tmp_path, """
waivers:
  - {rule: ldoms.inter-vnet-link, subject: "vsw primary-vsw*", reason: "inter-guest traffic is negligible",
     owner: unix-team, expires: 2099-12-31}
  - {rule: "ldoms.guest-*", subject: "domain ldg2", reason: "ldg2 retires", owner: alice, expires: 2020-01-01}
""")
    plain = json.loads(run_cli("review", str(UNTUNED), "-f", "json").stdout)["hosts"][0]
    res = run_cli("review", str(UNTUNED), "-f", "json", "--policy", str(policy))
    host = json.loads(res.stdout)["hosts"][0]
    assert [(f["rule"], f["subject"], f["waiver"]["owner"]) for f in host["waived"]] == [
        ("ldoms.inter-vnet-link", "vsw primary-vsw0", "unix-team")]
    assert "ldoms.inter-vnet-link" not in {f["rule"] for f in host["findings"]}
    assert host["score"] > plain["score"]  # the waived high result left both sums
    assert host["expired_waivers"] == ["ldoms.guest-* on domain ldg2 (owner alice) expired 2020-01-01; no longer applied"]
    assert {"ldoms.guest-cores", "ldoms.guest-memory"} <= {f["rule"] for f in host["findings"] if f["subject"] == "domain ldg2"}
    table = run_cli("review", str(UNTUNED), "--policy", str(policy)).stdout
    assert "Waived:" in table and "(unix-team, until 2099-12-31)" in table and "expired waiver" in table


def test_a_waiver_needs_a_reason_and_an_expiry(tmp_path: Path) -> None:
    policy = _policy(tmp_path, "waivers:\n  - {rule: ldoms.lso, owner: bob}\n")
    res = run_cli("review", str(UNTUNED), "--policy", str(policy))
    assert res.returncode == 2
    assert res.stderr.strip() == f"advisor: {policy}:2: waivers.0.reason: Field required"


def test_baseline_reports_only_new_findings_and_lists_fixed_ones(tmp_path: Path) -> None:
    base = tmp_path / "base.json"
    run_cli("review", str(UNTUNED), "-f", "json", "-o", str(base))
    changed = tmp_path / "t5-primary-untuned"
    shutil.copytree(UNTUNED, changed)
    listing = (changed / "ldm-list-l.txt").read_text()
    (changed / "ldm-list-l.txt").write_text(listing.replace("extended-mapin-space=off", "extended-mapin-space=on"))  # fixed
    (changed / "ipadm-show-prop-tcp.txt").write_text(  # new: a running value differs from the saved one
        (changed / "ipadm-show-prop-tcp.txt").read_text().replace(
            "tcp   send_buf              rw   49152        --  ", "tcp   send_buf              rw   49152        65536"))
    res = run_cli("gate", str(changed), "-f", "json", "--baseline", str(base), "--fail-on", "low")
    host = json.loads(res.stdout)["hosts"][0]
    assert [(f["rule"], f["subject"]) for f in host["findings"]] == [
        ("solaris.tunable-drift", "host t5-primary")]  # new since the baseline
    assert sorted(host["baseline"]["fixed"]) == [f"ldoms.extended-mapin-space domain {d}" for d in ("db1", "ldg1", "ldg2", "primary")]
    assert len(host["baseline"]["unchanged"]) == 16
    assert res.returncode == 1 and "1 finding(s) at or above low" in res.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"hosts": 3}')
    res = run_cli("review", str(UNTUNED), "--baseline", str(bad))
    assert res.returncode == 2 and "not an advisor JSON report" in res.stderr


def _old_judge(engine, host: str, captured, results: list, facts) -> tuple:
    """pipeline._judge as it was: waivers written on the merged results (the host's own among them)."""
    from advisor.engine.waivers import date
    from advisor.results import score as scoring
    from advisor.results.model import tag

    merged = [r.model_copy() for r in engine.again(captured, facts, results)]
    live = [w for w in engine.policy.waivers if w.expires >= date.today()]
    for r in merged:
        if r.status == "fail":
            r.waived = any(w.matches(host, r.rule, r.subject) for w in live)
    return scoring.score(merged), {tag(r.rule, r.subject) for r in merged if r.status == "fail" and not r.waived}


def test_a_plans_judgment_counts_waivers_as_before_and_leaves_the_hosts_results(tmp_path: Path) -> None:
    """A waiver on a rule judged again on the plan's model (dring-mode: the plan sets local_mapin)
    and on one whose results are kept: the same score and fails as when the judgment wrote each
    result's mark, and the host's results, shared with the plan's, are not written."""
    from advisor.changeplan import simulate
    from advisor.collect.offline import Loader
    from advisor.engine import packs, policy as policy_mod
    from advisor.engine.evaluate import Engine
    from advisor.pipeline import _judge, load_captures, review_with_facts

    policy = _policy(tmp_path, """
waivers:
  - {rule: ldoms.inter-vnet-link, subject: "vsw primary-vsw*", reason: retiring, owner: ops, expires: 2099-12-31}
  - {rule: ldoms.dring-mode, subject: "*", reason: retiring, owner: ops, expires: 2099-12-31}
  - {rule: ldoms.ldc-budget, subject: "*", reason: retiring, owner: ops, expires: 2020-01-01}
""")
    engine = Engine(packs.load(), policy_mod.load(policy))
    with Loader() as loader:
        [capture], _errors = load_captures([UNTUNED], loader)
        report, facts = review_with_facts(capture, engine)
    assert report.plan is not None and report.waived
    model = simulate._walk(report.plan, facts).facts
    before = [(r.model_dump(), r.model_fields_set) for r in report.results]
    judged = _judge(engine, report.host, facts, report.results, model)
    assert [(r.model_dump(), r.model_fields_set) for r in report.results] == before
    assert judged == _old_judge(engine, report.host, facts, report.results, model)
    assert not any(t.startswith("ldoms.dring-mode") for t in judged[1])
