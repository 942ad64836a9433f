"""Every rule fails on at least one fixture and passes on at least one, and
each bundled capture fails exactly the rules it was built to break."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from advisor.engine import packs
from conftest import CAPTURES, POLICIES, review

EXPECTED = sorted((Path(__file__).parent / "expected").glob("*.yaml"))


def _load(path: Path) -> dict:
    return yaml.safe_load(path.read_text())


@pytest.mark.parametrize("expectation", EXPECTED, ids=lambda p: p.stem)
def test_bundle_fails_exactly_what_it_was_built_to_break(expectation: Path) -> None:
    spec = _load(expectation)
    policy = POLICIES / spec["policy"] if spec.get("policy") else None
    report = review(CAPTURES / spec["bundle"], policy=policy)
    [host] = report.hosts
    assert host.errors == []
    failed = {r.rule for r in host.results if r.status == "fail"}
    assert failed == set(spec["fail"])
    for rule in spec["pass"]:
        statuses = {r.status for r in host.results if r.rule == rule}
        assert "pass" in statuses and "fail" not in statuses, (rule, statuses)
    assert {f.rule for f in host.findings} == failed


def test_every_rule_has_a_pass_and_a_fail_fixture() -> None:
    specs = [_load(p) for p in EXPECTED]
    failing = {r for s in specs for r in s["fail"]}
    passing = {r for s in specs for r in s["pass"]}
    ids = {r.id for r in packs.load()}
    assert ids - failing == set(), "rules without a failing fixture"
    assert ids - passing == set(), "rules without a passing fixture"


def test_rule_catalogue_matches_the_contract() -> None:
    """Rule ids of RULES.md are a contract: every table is implemented."""
    ids = {r.id for r in packs.load()}
    assert ids == {
        "ldoms.service-cores", "ldoms.service-memory", "ldoms.guest-cores", "ldoms.guest-memory", "ldoms.whole-core",
        "ldoms.inter-vnet-link", "ldoms.ldc-budget", "ldoms.extended-mapin-space", "ldoms.dring-mode",
        "ldoms.software-level", "ldoms.lso", "ldoms.jumbo-frames", "ldoms.mtu-mismatch", "ldoms.vf-mtu",
        "ldoms.rxfanout", "solaris10.soft-rings", "ldoms.hybrid-mode", "ldoms.io-latency",
        "solaris.tcp-window-wan", "solaris.tunable-drift", "solaris.msix-interrupts", "solaris.nxge-soft-lso",
        "solaris.ipsec-fanout",
        "xen.shared-pcpu", "xen.pinning-no-gain", "xen.dom0-overlap", "xen.mtu-chain", "xen.jumbo-storage",
        "linux.tso-off", "linux.lro-forwarding", "pcie.dual-port-gen1",
        "hpux.tso-disabled", "hpux.tso-unsupported", "hpux.tso-apa",
    }


def test_every_rule_cites_a_study_by_title_whose_copy_exists() -> None:
    seeds = Path(__file__).resolve().parents[2] / "shared" / "seeds"
    for rule in packs.load():
        study = rule.source.study
        assert study is not None and study.title and study.publisher and study.date and rule.source.section
        assert rule.source.citation == f"{study.title}, {study.publisher}, {study.date}, section {rule.source.section}"
        # a study has its copy in the shared notes; a reference (documentation, a kernel change) its address
        assert study.seed or study.url, rule.id
        if study.seed and seeds.is_dir():
            assert (seeds / study.seed).is_file(), rule.id


def test_no_report_names_a_seed_file(tmp_path) -> None:
    """Users look sources up by title: the notes' file names never appear in output."""
    import re

    from conftest import run_cli

    out = tmp_path / "reports"
    res = run_cli("review", str(CAPTURES), "-f", "table,json,sarif,junit,markdown,html,script", "-o", str(out) + "/")
    assert res.returncode == 0, res.stderr
    seed_name = re.compile(r"\b00\d_[0-9a-f]{16}\.txt")
    for path in out.iterdir():
        assert not seed_name.search(path.read_text()), path.name
    for rule in ("ldoms.dring-mode", "hpux.tso-disabled", "xen.shared-pcpu"):
        assert not seed_name.search(run_cli("rules", "show", rule).stdout)
    sarif = (out / "report.sarif").read_text()
    assert '"helpUri": "https://www.oracle.com/technical-resources/articles/it-infrastructure/' in sarif
