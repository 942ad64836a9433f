"""A plan proven before it is written: typed changes rendered by version, the
plan applied to a model of the host and judged again, steps that break
something held, and the result in every view."""

from __future__ import annotations

import copy
import functools
import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, examples, review, run_cli
from hypothesis import given, settings, strategies as st

from advisor import changes
from advisor.changes import Change
from advisor.changeplan import build as changeplan
from advisor.changeplan import simulate
from advisor.facts.models import HostFacts, host_record
from advisor.platforms.ldoms.records import Domain, VNet, VSwitch
from advisor.results.model import ChangePlan, Finding, FixStep, PlanPhase, PlanStep

CAPTURES = ROOT / "fixtures" / "captures"
UNTUNED = CAPTURES / "t5-primary-untuned"


def _facts(**values) -> HostFacts:
    return host_record("solaris")(host="h", platform="solaris", **values)


@pytest.mark.parametrize("version, domain, command, held", [
    ("3.0.0.2", Domain(name="ldg1", state="active"), "ldm set-core 4 ldg1", False),
    ("3.4.0.3", Domain(name="ldg1", state="active"), "ldm set-core 4 ldg1", False),
    # 2.1 guide: whole cores only for an inactive domain, or the control domain in a delayed reconfiguration
    ("2.2.0.0", Domain(name="ldg1", state="active"), "ldm set-vcpu -c 4 ldg1", True),
    ("2.2.0.0", Domain(name="ldg1", state="inactive"), "ldm set-vcpu -c 4 ldg1", False),
    ("2.2.0.0", Domain(name="ldg1", state="active", whole_core_constraint=True), "ldm set-vcpu -c 4 ldg1", False),
    ("2.2.0.0", Domain(name="primary", is_control=True), "ldm set-vcpu -c 4 primary", False),
    ("1.3", Domain(name="ldg1", state="inactive"), "ldm set-vcpu -c 4 ldg1", True),
])
def test_cores_are_set_as_the_hosts_ldm_version_allows(version: str, domain: Domain, command: str, held: bool) -> None:
    done = changes.render(Change(op="set-cores", target=domain.name, value="4"),
                          _facts(ldm_version=version, domains=[domain]))
    assert done.command == command and (done.held is not None) is held


def test_a_links_mtu_reaches_the_switches_on_it_through_the_ldoms_pack() -> None:
    """solaris' set-link-prop sets the link's MTU; the ldoms pack says (changes.follows) what
    that does to the virtual switches on that link in the link's domain, and to no others."""
    from advisor.platforms.solaris.records import Link

    facts = _facts(ldom_name="primary", links=[Link(name="net0", mtu=1500)], vswitches=[
        VSwitch(name="primary-vsw0", domain="primary", net_dev="net0", net_dev_mtu=1500),
        VSwitch(name="primary-vsw1", domain="primary", net_dev="net1", net_dev_mtu=1500),
        VSwitch(name="io-vsw0", domain="io", net_dev="net0", net_dev_mtu=1500)])
    assert changes.apply(Change(op="set-link-prop", target="net0", prop="mtu", value="9000"), facts) is None
    assert facts.links[0].mtu == 9000 and [v.net_dev_mtu for v in facts.vswitches] == [9000, 1500, 1500]
    assert changes.apply(Change(op="set-link-prop", target="net9", prop="mtu", value="9000"), facts) is not None
    assert [v.net_dev_mtu for v in facts.vswitches] == [9000, 1500, 1500]


def test_each_platform_renders_its_own_commands_by_version() -> None:
    tcp = Change(op="set-tcp-prop", target="recv_buf", value="1048576")
    assert changes.render(tcp, _facts(solaris_major=11)).command == "ipadm set-prop -p recv_buf=1048576 tcp"
    s10 = changes.render(tcp, _facts(solaris_major=10))
    assert s10.command == "ndd -set /dev/tcp tcp_recv_hiwat 1048576" and "not persistent" in (s10.comment or "")
    from advisor.platforms.hpux.records import LanInterface

    lan = Change(op="set-lan-attr", target="lan1", prop="vmtu", value="32160")
    lans = [LanInterface(name="lan1", ppa=1)]
    assert changes.render(lan, host_record("hpux")(host="h", platform="hpux", hpux_release="B.11.31",
                                         lan_interfaces=lans)).command == "nwmgr --sa -A vmtu=32160 -c lan1"
    old = changes.render(lan, host_record("hpux")(host="h", platform="hpux", hpux_release="B.11.23", lan_interfaces=lans))
    assert old.command == "lanadmin -X vmtu 32160 1" and "rc.config.d" in (old.comment or "")
    pin = Change(op="pin-vcpu", domain="web", target="0", value="2-3")
    assert changes.render(pin, host_record("linux")(host="h", platform="linux", xen_tool="xm")).command == "xm vcpu-pin web 0 2-3"
    assert changes.render(pin, host_record("linux")(host="h", platform="linux")).command.startswith("<xl or xm> vcpu-pin")
    line = changes.render(Change(op="set-system-tunable", target="ip:ip_soft_rings_cnt", value="8"), _facts()).command
    assert line == ("grep '^set ip:ip_soft_rings_cnt=8$' /etc/system >/dev/null || "
                    "echo 'set ip:ip_soft_rings_cnt=8' >> /etc/system")


def test_an_unknown_operation_is_refused_when_the_rules_load(tmp_path: Path) -> None:
    pack = tmp_path / "rules"
    pack.mkdir()
    rule = (ROOT / "advisor" / "platforms" / "linux" / "rules.yaml").read_text().replace("op: set-offload", "op: set-offlaod", 1)
    (pack / "linux.yaml").write_text(rule)
    res = run_cli("review", str(UNTUNED), "--rules", str(pack))
    assert res.returncode == 2 and "set-offlaod" in res.stderr and "Traceback" not in res.stderr


def test_a_rule_cannot_restate_what_its_changes_operation_declares(tmp_path: Path) -> None:
    pack = tmp_path / "rules"
    pack.mkdir()
    rule = (ROOT / "advisor" / "platforms" / "linux" / "rules.yaml").read_text().replace(
        "op: set-offload, target: \"{s.name}\", prop: lro, value: \"off\"}",
        "op: set-offload, target: \"{s.name}\", prop: lro, value: \"off\"}\n      undo: \"ethtool -K {s.name} lro on\"", 1)
    assert "undo:" in rule
    (pack / "linux.yaml").write_text(rule)
    res = run_cli("review", str(UNTUNED), "--rules", str(pack))
    assert res.returncode == 2 and "come from its operation (set-offload)" in res.stderr


def _step(change: Change, facts: HostFacts):
    from advisor.results.model import FixStep

    step = FixStep(command="")
    step.with_change(change, facts)
    return step


@pytest.mark.parametrize("version, domain, restarts", [
    # ldm 3.x grows an active control domain that has whole cores live (CPU dynamic reconfiguration)
    ("3.4.0.3", Domain(name="primary", is_control=True, whole_core_constraint=True, whole_cores=1), False),
    ("3.4.0.3", Domain(name="primary", is_control=True, whole_core_constraint=True, whole_cores=1, max_cores="1"), True),
    ("3.4.0.3", Domain(name="primary", is_control=True, whole_cores=None, vcpus=8), True),  # turns whole cores on
    ("2.2.0.0", Domain(name="primary", is_control=True, whole_core_constraint=True, whole_cores=1), True),
    ("3.4.0.3", Domain(name="ldg1", state="active", whole_core_constraint=True, whole_cores=1), False),
])
def test_when_a_change_takes_effect_is_the_operations_word(version: str, domain: Domain, restarts: bool) -> None:
    facts = _facts(ldm_version=version, domains=[domain])
    for change in (Change(op="set-cores", target=domain.name, value="2"),
                   Change(op="add-cores", target=domain.name, value="1")):
        assert _step(change, facts).takes_effect == ("restart" if restarts else "now"), change


def test_an_undo_is_the_same_operation_with_the_value_the_facts_show_before() -> None:
    from advisor.platforms.hpux.records import LanInterface
    from advisor.platforms.linux.records import Interface

    vsw = VSwitch(name="primary-vsw1", domain="primary", mtu=9000)
    step = _step(Change(op="set-vsw-mtu", target="primary-vsw1", value="1500"), _facts(vswitches=[vsw]))
    assert step.undo == "ldm set-vsw mtu=9000 primary-vsw1" and step.undo_change is not None
    assert step.undo_change.value == "9000" and step.takes_effect == "restart"
    linux = host_record("linux")(host="h", platform="linux", interfaces=[Interface(name="eth2", lro="on", mtu=1500)])
    lro = _step(Change(op="set-offload", target="eth2", prop="lro", value="off"), linux)
    assert lro.undo == "ethtool -K eth2 lro on" and "resets the adapter" in (lro.interrupts or "")
    assert _step(Change(op="set-offload", target="eth2", prop="tso", value="on"), linux).interrupts is None
    lan = host_record("hpux")(host="h", platform="hpux", hpux_release="B.11.31", lan_interfaces=[LanInterface(name="lan1", ppa=1)])
    assert _step(Change(op="set-lan-attr", target="lan1", prop="vmtu", value="32160"), lan).undo is None  # not known
    edit = _step(Change(op="set-system-tunable", target="ip:ip_soft_rings_cnt", value="16"),
                 _facts(system={"ip:ip_soft_rings_cnt": 8}))
    assert edit.undo == "set ip:ip_soft_rings_cnt back to 8 in /etc/system" and edit.undo_change is None
    fresh = _step(Change(op="set-system-tunable", target="ddi_msix_alloc_limit", value="4"), _facts(system={}))
    assert fresh.undo == "remove the 'set ddi_msix_alloc_limit=4' line from /etc/system"
    vnet = VNet(name="vnet0", domain="ldg1", vsw="primary-vsw0", vsw_domain="primary", mtu=1500, mode="hybrid")
    mode = _step(Change(op="set-vnet-prop", target="vnet0", domain="ldg1", prop="mode", value=""), _facts(vnets=[vnet]))
    assert mode.undo == "ldm set-vnet mode=hybrid vnet0 ldg1"
    same = _step(Change(op="set-vsw-mtu", target="primary-vsw1", value="9000"), _facts(vswitches=[vsw]))
    assert same.undo is None  # nothing to give back


def test_every_bundled_plan_is_proven_without_a_broken_step() -> None:
    """Every bundled capture's plan, simulated: nothing it runs makes a rule
    fail that passed, no guest is interrupted twice, and what it fixes is said."""
    hosts = [h for h in review(*sorted(p for p in CAPTURES.iterdir() if p.is_dir())).hosts if h.findings]
    assert len(hosts) >= 5
    for h in hosts:
        sim = h.plan.simulation
        assert sim is not None, h.host
        assert sim.new == [] and sim.held == [] and sim.interrupted_more_than_once == {}, (h.host, sim)
        assert sim.not_modelled == [], (h.host, sim.not_modelled)
        assert len(sim.fixed) + len(sim.left) == len(h.findings)
        assert sim.score_after is None or h.score is None or sim.score_after >= h.score


def test_the_untuned_plan_fixes_what_it_says_and_says_why_the_rest_is_left() -> None:
    [h] = review(UNTUNED).hosts
    sim = h.plan.simulation
    assert sim.score_before == h.score and sim.score_after > h.score
    assert "ldoms.service-cores on domain primary" in sim.fixed and "ldoms.guest-cores on domain ldg2" in sim.fixed
    left = {x.finding: x.why for x in sim.left}
    assert "run-time data" in left["ldoms.dring-mode on ldc vsw:0:vswldc0x0"]
    assert "prerequisite P1" in left["ldoms.software-level on host t5-primary"]
    assert "wait(s) for a check" in left["ldoms.mtu-mismatch on vsw primary-vsw1"]


_KEEP_JUMBO = """
- id: site.keep-jumbo
  title: The backup switch keeps its jumbo frames
  subject: vsw
  platforms: [solaris]
  severity: medium
  applies: "s.name == 'primary-vsw1'"
  requires: [s.mtu]
  checks:
    - when: "s.mtu < 9000"
      says: "the switch's MTU is below 9000"
  message: "{s.name} runs MTU {s.mtu}"
  observed: "MTU {s.mtu}"
  expected: "MTU 9000"
  remediation:
    - {command: "ldm list -o network primary", kind: check, runs_in: ldm}
  impact: live
  effect: "Backups over primary-vsw1 were sized for jumbo frames."
  rationale: "A site rule."
  source: {ref: oracle-ovmsparc-network-2014, section: "Jumbo frames"}
"""


def _lso_levels(tmp_path: Path) -> Path:
    bundle = tmp_path / "t5-lso"
    shutil.copytree(UNTUNED, bundle)
    for name, old, new in (("ldm-version.txt", "3.0.0.2", "3.1.0.0.24"), ("pkg-entire.txt", "11.1.4.5.0", "11.1.9.5.0"),
                           ("pkg-entire.txt", "0.175.1.4.0", "0.175.1.9.0")):
        path = bundle / name
        path.write_text(path.read_text().replace(old, new))
    return bundle


def test_a_change_that_makes_another_rule_fail_is_held_and_said(tmp_path: Path) -> None:
    """On the LSO levels the plan lowers primary-vsw1 to 1500; a site rule
    wants it at 9000: the simulation holds that step, says why in every view,
    and the guest stopped only for it is not stopped."""
    bundle = _lso_levels(tmp_path)
    plain = json.loads(run_cli("review", str(bundle), "-f", "json").stdout)["hosts"][0]["plan"]
    assert any(s["command"] == "ldm set-vsw mtu=1500 primary-vsw1" and s["run"]
               for p in plain["phases"] for s in p["steps"])
    pack = tmp_path / "site"
    pack.mkdir()
    (pack / "site.yaml").write_text(_KEEP_JUMBO)
    res = run_cli("review", str(bundle), "--rules", str(pack), "-f", "json")
    plan = json.loads(res.stdout)["hosts"][0]["plan"]
    steps = {s["command"]: s for p in plan["phases"] for s in p["steps"]}
    lowered = steps["ldm set-vsw mtu=1500 primary-vsw1"]
    assert not lowered["run"] and "makes site.keep-jumbo on vsw primary-vsw1 fail" in lowered["note"]
    assert plan["simulation"]["new"] == [] and len(plan["simulation"]["held"]) == 1
    assert not any(p["title"].endswith("switch MTU changes") for p in plan["phases"])
    script = run_cli("review", str(bundle), "--rules", str(pack), "-f", "script", "-o", str(tmp_path / "s") + "/")
    assert script.returncode == 0, script.stderr
    [text] = [p.read_text() for p in (tmp_path / "s").glob("*.remediation.sh")]
    assert "# NOT RUN: held by the simulation: the simulation shows it makes site.keep-jumbo" in text
    assert "\nldm set-vsw mtu=1500 primary-vsw1\n" not in text


def _guard_facts() -> HostFacts:
    return _facts(ldm_version="3.4", free_cores=2,
                  domains=[Domain(name="primary", is_control=True, state="active", whole_cores=2),
                           Domain(name="ldg1", state="active", whole_cores=1, whole_core_constraint=True)],
                  vswitches=[VSwitch(name="vsw0", domain="primary", mtu=9000)],
                  vnets=[VNet(name="vnet0", domain="ldg1", vsw="vsw0", vsw_domain="primary", mtu=9000)])


def _one_phase(*changes_: Change) -> ChangePlan:
    steps = [PlanStep(command=changes.render(c, _guard_facts()).command, change=c) for c in changes_]
    return ChangePlan(phases=[PlanPhase(title="t", script="host", runs_on="primary", outage="none", steps=steps)])


def _judge(facts: HostFacts):
    return None, set()


@pytest.mark.parametrize("change, said", [
    (Change(op="set-vsw-mtu", target="vsw0", value="1500"), "while ldg1 run(s) on it"),
    (Change(op="set-cores", target="ldg1", value="4"), "more than the machine has free"),
])
def test_the_simulation_holds_a_step_the_platform_would_refuse(change: Change, said: str) -> None:
    """Whatever the planner wrote, the simulation holds a switch MTU changed
    under a running guest and cores beyond what is free."""
    held: list[dict] = []

    def build(hold: dict) -> ChangePlan:
        held.append(dict(hold))
        plan = _one_phase(change)
        for step in plan.phases[0].steps:
            step.run = step.change not in hold
        return plan

    plan = simulate.proven(build, _guard_facts(), 50.0, [], _judge, set())
    assert said in held[-1][change] and plan.simulation.held and said in plan.simulation.held[0]
    assert not plan.phases[0].steps[0].run


def test_a_proven_plan_leaves_the_captured_facts_as_they_were() -> None:
    facts = _guard_facts()
    before = facts.dump()
    plan = changeplan.build([], facts)
    simulate.proven(lambda hold: _one_phase(Change(op="set-cores", target="ldg1", value="2")), facts, None, [],
                    _judge, set())
    assert facts.dump() == before and plan.simulation is None


def test_every_view_says_what_the_plan_achieves(tmp_path: Path) -> None:
    [h] = review(UNTUNED).hosts
    line = h.plan.simulation.summary()
    assert line.startswith("after the plan: score ") and f"(now {h.score:g})" in line
    out = tmp_path / "out"
    res = run_cli("review", str(UNTUNED), "-f", "table,json,html,markdown,junit,sarif,script", "-o", str(out) + "/")
    assert res.returncode == 0, res.stderr
    assert line in run_cli("review", str(UNTUNED)).stdout
    data = json.loads((out / "report.json").read_text())["hosts"][0]["plan"]["simulation"]
    assert data["score_after"] == h.plan.simulation.score_after and data["fixed"] == h.plan.simulation.fixed
    for name in ("report.html", "report.md", "report.junit.xml", "report.sarif"):
        found = [p for p in out.iterdir() if p.name.endswith(name.split(".", 1)[1]) and p.is_file()]
        assert found and any(line in p.read_text() for p in found), name
    assert any(line in p.read_text() for p in out.rglob("*.remediation.sh"))


def _outcomes(results) -> list[tuple]:
    return sorted((r.rule, r.subject, r.status, r.severity, tuple(r.missing or ()), r.reason or "", r.waived)
                  for r in results)


def test_a_plan_is_judged_again_as_a_full_review_would_judge_its_model() -> None:
    """The simulation judges again only the rules and subjects a plan's changes
    may move; what it keeps and what it judges equal a whole new judgment of
    the model, on every bundled capture with a plan, and on a model where only
    one domain of several changed (the other domains' results are kept)."""
    from advisor.collect.offline import Loader
    from advisor.engine import packs, policy as policy_mod
    from advisor.engine.evaluate import Engine
    from advisor.facts.build import build as build_facts
    from advisor.pipeline import load_captures

    engine = Engine(packs.load(), policy_mod.load(None))
    with Loader() as loader:
        captures, _errors = load_captures(sorted(p for p in CAPTURES.iterdir() if p.is_dir()), loader)
        compared = 0
        for capture in captures:
            facts = build_facts(capture).facts
            results, findings = engine.evaluate(facts)
            if not findings:
                continue
            model = simulate._walk(changeplan.build(findings, facts), facts).facts
            assert _outcomes(engine.again(facts, model, results)) == \
                _outcomes(engine.evaluate(model, findings=False)[0]), capture.source
            compared += 1
    assert compared >= 5

    with Loader() as loader:
        [capture], _errors = load_captures([UNTUNED], loader)
        facts = build_facts(capture).facts
    results, _findings = engine.evaluate(facts)
    one = simulate._model(facts)
    assert one.domains and len(one.domains) > 2
    one.domains[1].cores = 8.0
    again = engine.again(facts, one, results)
    assert _outcomes(again) == _outcomes(engine.evaluate(one, findings=False)[0])
    other = [r for r in results if r.subject == f"domain {one.domains[2].name}"]
    assert other and all(any(r is a for a in again) for r in other)  # kept, not judged again


@functools.cache
def _untuned_judged():
    from advisor.collect.offline import Loader
    from advisor.engine import packs, policy as policy_mod
    from advisor.engine.evaluate import Engine
    from advisor.facts.build import build as build_facts
    from advisor.pipeline import load_captures

    engine = Engine(packs.load(), policy_mod.load(None))
    with Loader() as loader:
        [capture], _errors = load_captures([UNTUNED], loader)
        facts = build_facts(capture).facts
    return engine, facts, engine.evaluate(facts)[0]


def _subject_lists(facts: HostFacts) -> list[str]:
    from advisor.engine.evaluate import SUBJECTS

    return sorted({attr for attr, _namer in SUBJECTS.values()
                   if attr is not None and len(getattr(facts, attr, None) or []) > 1})


@settings(max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_a_model_with_any_fields_of_its_subjects_changed_is_judged_again_as_a_full_review_would(data) -> None:
    """`again` keeps a subject's results when no field the rule reads of it
    moved: held to a whole new judgment, on models of the untuned host where
    fields of its domains, switches, vnets, channels... take another subject's
    value (the same field of another domain: a value of the field's type)."""
    engine, facts, results = _untuned_judged()
    model = simulate._model(facts)
    lists = _subject_lists(facts)
    for _ in range(data.draw(st.integers(1, 4), label="changes")):
        attr = data.draw(st.sampled_from(lists), label="subjects")
        items = getattr(model, attr)
        if getattr(facts, attr) is items:  # shared with the captured facts: the model's own copy first
            items = [i.clone() for i in items]
            setattr(model, attr, items)
        one, other = data.draw(st.lists(st.integers(0, len(items) - 1), min_size=2, max_size=2, unique=True),
                               label="subject, and the one whose value it takes")
        name = data.draw(st.sampled_from([f for f in items[one].fields() if f != "evidence"]), label="field")
        setattr(items[one], name, copy.deepcopy(getattr(items[other], name)))
    assert _outcomes(engine.again(facts, model, results)) == _outcomes(engine.evaluate(model, findings=False)[0])


def test_a_subject_whose_changed_fields_a_rule_does_not_read_keeps_its_results() -> None:
    """A domain whose cores alone change is not judged again by a rule that reads none of its cores."""
    engine, facts, results = _untuned_judged()
    model = simulate._model(facts)
    domain = model.domains[1]
    domain.cores = (domain.cores or 0) + 8
    again = engine.again(facts, model, results)
    assert _outcomes(again) == _outcomes(engine.evaluate(model, findings=False)[0])
    kept = [r for r in results if r.subject == f"domain {domain.name}" and r.rule == "ldoms.extended-mapin-space"]
    assert kept and all(any(r is a for a in again) for r in kept)  # extended-mapin-space reads no cores


def test_a_host_rule_that_reads_its_subject_is_judged_again_when_the_host_changes(tmp_path: Path) -> None:
    """A rule on the host may read it as `s`: a change to what it reads so is a change it is judged on again."""
    from advisor.engine import packs
    from advisor.engine.evaluate import Engine

    (tmp_path / "site.yaml").write_text(_MAPIN_AS_S)
    engine = Engine([r for r in packs.load([tmp_path]) if r.id == "site.mapin"])
    captured = _facts(local_mapin="off")
    results, _findings = engine.evaluate(captured)
    assert [r.status for r in results] == ["fail"]
    model = simulate._model(captured)
    model.local_mapin = "on"
    assert [r.status for r in engine.again(captured, model, results)] == ["pass"]


_MAPIN_AS_S = _KEEP_JUMBO.replace("site.keep-jumbo", "site.mapin").replace("subject: vsw", "subject: host").replace(
    "applies: \"s.name == 'primary-vsw1'\"", "applies: \"true\"").replace("requires: [s.mtu]", "requires: []").replace(
    "s.mtu < 9000", "s.local_mapin == 'off'").replace("{s.name} runs MTU {s.mtu}", "mapin {s.local_mapin}")


def test_a_finding_on_run_time_data_is_left_naming_the_program_its_rule_reads() -> None:
    """A plan cannot show run-time data fixed: the finding is left, and the
    reason names the program whose output the rule reads (its `runtime`)."""
    from advisor.engine import packs
    from advisor.engine.evaluate import Engine

    runtime = Engine(packs.load()).runtime_rules
    assert runtime["ldoms.dring-mode"] == "kstat" and runtime["ldoms.rxfanout"] == "dladm"
    assert set(runtime.values()) == {"kstat", "ipadm", "dladm"}
    left = json.loads(run_cli("review", str(ROOT / "fixtures/captures/t5-primary-untuned"), "-f", "json").stdout)
    whys = {x["why"] for h in left["hosts"] for x in h["plan"]["simulation"]["left"]
            if x["finding"].startswith("ldoms.dring-mode")}
    assert whys and all(w.startswith("judged on run-time data (kstat): capture the host again") for w in whys)


def _merged_as_first_written(findings) -> list:
    """changeplan.build._merge as first written (every field set at every
    finding, each step's tag made again), to compare the faster one with."""
    from advisor.changeplan.steps import Step

    merged: dict = {}
    served: dict = {}
    for f in findings:
        for s in f.steps:
            key = (s.kind, s.code, s.domain)
            if key not in merged:
                merged[key] = Step(s.model_copy())
                served[key] = set()
            entry = merged[key]
            if f.tag not in served[key]:
                served[key].add(f.tag)
                entry.fixes.append(f.tag)
            if s.takes_effect == "restart":
                entry.step.takes_effect = "restart"
            if s.check_first is None:
                entry.step.check_first = None
            entry.step.also_restarts = sorted(set(entry.step.also_restarts) | set(s.also_restarts))
    return list(merged.values())


def _finding(rule: str, subject: str, steps) -> Finding:
    return Finding(rule=rule, title="t", severity="high", subject=subject, message="m", observed="o", expected="e",
                   evidence=[], remediation=[], steps=steps, impact="i", effect="e", source="s")


_FIX_STEP = st.builds(
    lambda command, kind, domain, restart, check, also: FixStep(
        command=command, kind=kind, domain=domain, takes_effect="restart" if restart else "now", check_first=check,
        also_restarts=also),
    st.sampled_from(["ldm set-core 4 ldg1", "ldm set-core 4 ldg1   # a note", "ldm set-core 2 ldg1",
                     "ldm set-vsw mtu=1500 'vsw #1'   # the switch", "pkg update entire   # 11.1 SRU 9"]),
    st.sampled_from(["change", "check", "prerequisite"]), st.sampled_from([None, "ldg1", "primary"]),
    st.booleans(), st.sampled_from([None, "it fits"]), st.lists(st.sampled_from(["ldg2", "db1", "ldg1"]), max_size=4))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["r1", "r2"]), st.sampled_from(["domain ldg1", "ldc 0x1"]),
                          st.lists(_FIX_STEP, max_size=4)), max_size=6))
def test_steps_merge_as_they_merged_when_every_field_was_set_at_every_finding(found) -> None:
    """Each step once, with the findings it serves, a restart over now, no check
    where one finding needs none, the domains it restarts sorted once each;
    the findings' own steps, and their lists, are left as they were."""
    findings = [_finding(rule, subject, steps) for rule, subject, steps in found]
    before = [f.model_dump() for f in findings]
    merged = changeplan._merge(findings)
    assert [(s.fixes, s.step.model_dump()) for s in merged] == \
        [(s.fixes, s.step.model_dump()) for s in _merged_as_first_written(findings)]
    assert [f.model_dump() for f in findings] == before
    own = [s for f in findings for s in f.steps]
    assert not any(m.step is s or m.step.also_restarts is s.also_restarts for m in merged for s in own)


def test_building_a_plan_leaves_the_findings_steps_as_they_were() -> None:
    """The plan sizes, holds and checks its own copies of the findings' steps,
    which every view writes as the rules gave them."""
    from advisor.collect.offline import Loader
    from advisor.engine import packs, policy as policy_mod
    from advisor.engine.evaluate import Engine
    from advisor.facts.build import build as build_facts
    from advisor.pipeline import load_captures

    engine = Engine(packs.load(), policy_mod.load(None))
    with Loader() as loader:
        [capture], _errors = load_captures([UNTUNED], loader)
        facts = build_facts(capture).facts
    _results, findings = engine.evaluate(facts)
    assert any(s.sets for f in findings for s in f.steps)  # steps the plan sizes
    before = [f.model_dump() for f in findings]
    plan = changeplan.build(findings, facts, {s.change: "held" for f in findings for s in f.steps if s.change})
    assert plan.phases and [f.model_dump() for f in findings] == before
    plan = changeplan.build(findings, facts)
    assert plan.phases and [f.model_dump() for f in findings] == before
