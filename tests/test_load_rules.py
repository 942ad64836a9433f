"""Rules weighed by the measured load (issue #29): a rule's `load:` names what
the host carries and moves its severity against its study's figure, only where
the capture holds two samples of its counters (fixtures/sampled/t5-primary-30s,
made by fixtures/tools/make_sampled_t5.py: net0 at 6.2 Gb/s in of 10 Gb/s, a
wrapped 32-bit counter, a channel re-created between the samples)."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from advisor.engine import packs
from advisor.engine.model import Rule
from conftest import CAPTURES, FIXTURES, ROOT, review, run_cli

SAMPLED = FIXTURES / "sampled/t5-primary-30s"


def _findings(path: Path, policy: Path | None = None) -> dict[tuple[str, str], object]:
    [host] = review(path, policy=policy).hosts
    return {(f.rule, f.subject): f for f in host.findings}


def _one_sample(tmp_path: Path) -> Path:
    """The sampled bundle without its second sample."""
    bundle = tmp_path / "t5-one-sample"
    shutil.copytree(SAMPLED, bundle)
    (bundle / "kstat-p~2.txt").unlink()
    manifest = yaml.safe_load((bundle / "manifest.yaml").read_text())
    manifest["commands"] = [c for c in manifest["commands"] if c["file"] != "kstat-p~2.txt"]
    manifest.pop("sample", None)
    (bundle / "manifest.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    return bundle


def _low_traffic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The same capture made by the fixture's own tool with net0 and net1 nearly idle."""
    spec = importlib.util.spec_from_file_location("make_sampled_t5", ROOT / "fixtures/tools/make_sampled_t5.py")
    assert spec and spec.loader
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    links = dict(tool.LINKS)
    links["net0"] = (links["net0"][0], (0.3e9, 0.1e9))
    links["net1"] = (links["net1"][0], (0.05e9, 0.02e9))
    dest = tmp_path / "t5-low-traffic"
    monkeypatch.setattr(tool, "LINKS", links)
    monkeypatch.setattr(tool, "DEST", dest)
    tool.main()
    return dest


def _policy(tmp_path: Path) -> Path:
    """One core per 10 GbE asked for no more: the T5's one whole core for two ports fails at medium."""
    path = tmp_path / "policy.yaml"
    path.write_text("params:\n  ldoms.service-cores: {min_cores_per_10g: 0}\n")
    return path


def test_without_a_second_sample_the_rules_judge_as_before(tmp_path: Path) -> None:
    one = _findings(_one_sample(tmp_path))
    untuned = _findings(CAPTURES / "t5-primary-untuned")
    assert one.keys() == untuned.keys()
    for key, f in one.items():
        assert f.load is None  # type: ignore[attr-defined]
        assert (f.severity, f.message) == (untuned[key].severity, untuned[key].message)  # type: ignore[attr-defined]
    [host] = review(_one_sample(tmp_path / "again")).hosts
    data = json.loads(host.model_dump_json())
    assert "rates" not in data and all("load" not in f for f in data["findings"])


def test_the_message_names_what_the_service_domain_carries() -> None:
    f = _findings(SAMPLED)[("ldoms.service-cores", "domain primary")]
    assert "net0 at 6.2 Gb/s in and 2.1 Gb/s out (62% of its 10 Gb/s line rate)" in f.message  # type: ignore[attr-defined]
    assert "primary 35% busy on its 8 CPUs" in f.message  # type: ignore[attr-defined]
    assert "7 Gb/s per whole core, 70% of the study's 10 Gb/s per whole core" in f.message  # type: ignore[attr-defined]
    load = f.load  # type: ignore[attr-defined]
    assert load.share == pytest.approx(0.7) and load.unit == "Gb/s per whole core" and load.figure == 10
    assert "About Oracle VM Server for SPARC" in load.study
    assert f.severity.value == "high" and load.moved_from is None  # type: ignore[attr-defined]  # high already


def test_severity_rises_with_high_measured_load(tmp_path: Path) -> None:
    policy = _policy(tmp_path)
    one = _findings(_one_sample(tmp_path), policy)[("ldoms.service-cores", "domain primary")]
    two = _findings(SAMPLED, policy)[("ldoms.service-cores", "domain primary")]
    assert one.severity.value == "medium" and one.load is None  # type: ignore[attr-defined]
    assert two.severity.value == "high" and two.load.moved_from.value == "medium"  # type: ignore[attr-defined]
    assert "Severity raised from medium to high by the measured load." in two.message  # type: ignore[attr-defined]


def test_severity_falls_with_low_measured_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = _findings(_low_traffic(tmp_path, monkeypatch))[("ldoms.service-cores", "domain primary")]
    assert f.severity.value == "low" and f.load.moved_from.value == "high"  # type: ignore[attr-defined]
    assert f.load.share == pytest.approx(0.035)  # type: ignore[attr-defined]  # 0.35 Gb/s on one whole core
    assert "net0 at 300 Mb/s in and 100 Mb/s out (3% of its 10 Gb/s line rate)" in f.message  # type: ignore[attr-defined]
    assert "Severity lowered from high to low by the measured load." in f.message  # type: ignore[attr-defined]


def test_a_quiet_channel_lowers_dring_mode_and_one_without_a_rate_stays_as_it_was() -> None:
    found = _findings(SAMPLED)
    quiet = found[("ldoms.dring-mode", "ldc vsw:0:vswldc0x0")]
    assert quiet.severity.value == "low" and quiet.load.moved_from.value == "high"  # type: ignore[attr-defined]
    assert "vsw:0:vswldc0x0 at 32 Mb/s in and 24 Mb/s out" in quiet.message  # type: ignore[attr-defined]
    recreated = found[("ldoms.dring-mode", "ldc vsw:1:vswldc0x9")]  # its guest rebooted: counters restarted
    assert recreated.severity.value == "high" and recreated.load is None  # type: ignore[attr-defined]
    assert "Measured" not in recreated.message  # type: ignore[attr-defined]


def test_findings_are_ranked_by_measured_load_in_every_view(tmp_path: Path) -> None:
    policy = _policy(tmp_path)
    [host] = review(SAMPLED, policy=policy).hosts
    order = [(f.severity.rank, round(f.load.share, 3) if f.load else -1.0) for f in host.findings]
    assert order == sorted(order, key=lambda o: (-o[0], -o[1]))
    assert host.findings[0].rule == "ldoms.service-cores"  # the one high finding with a measure: first
    lows = [f.subject for f in host.findings if f.severity.value == "low"]
    assert lows[:3] == [f"ldc vsw:0:vswldc0x{n}" for n in (0, 3, 6)]  # measured before the unmeasured lows
    out = tmp_path / "out"
    res = run_cli("review", str(SAMPLED), "--policy", str(policy), "-f", "table,markdown,html", "-o", f"{out}/")
    assert res.returncode == 0, res.stderr
    said = "Findings ordered by severity, then by measured load over 30 s"
    for name in ("report.txt", "report.md", "report.html"):
        text = (out / name).read_text()
        assert said in " ".join(text.split()), name
        start = text.find("<section")  # the HTML's chart of findings per rule comes first, in its own order
        high = [text.index(r, max(start, 0)) for r in ("ldoms.service-cores", "ldoms.extended-mapin-space")]
        assert high == sorted(high), name  # the measured high rule before the unmeasured ones
    plain = run_cli("review", str(CAPTURES / "t5-primary-untuned"), "-f", "markdown").stdout
    assert "measured load" not in plain


def test_rule_load_data_is_checked_as_the_pack_loads() -> None:
    rule = next(r for r in packs.load() if r.id == "ldoms.service-cores")
    data = rule.model_dump(exclude_unset=True, exclude={"source": {"study"}})
    data["confidence"] = "unconfirmed"
    with pytest.raises(ValidationError, match="unconfirmed fact may not rise"):
        Rule.model_validate(data)
    data = rule.model_dump(exclude_unset=True, exclude={"source": {"study"}})
    data["load"]["falls"] = {"below": 0.1}
    with pytest.raises(ValidationError, match="falls takes below"):
        Rule.model_validate(data)
    data = rule.model_dump(exclude_unset=True, exclude={"source": {"study"}})
    data["load"]["falls"] = {"below": 0.9, "to": "low"}
    with pytest.raises(ValidationError, match="under rises.above"):
        Rule.model_validate(data)
