"""Planned configurations: YAML plans and `ldm list-constraints -x` XML become
the facts a built system gives, and `advisor gate` judges them before building."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.collect.offline import Loader
from advisor.facts.build import build
from conftest import CAPTURES, FIXTURES, review, run_cli

PLANS = FIXTURES / "plans"


def facts_of(path: Path):
    with Loader() as loader:
        [capture] = loader.load(path)
        built = build(capture)
    assert built.errors == []
    return built.facts


def failed_rules(path: Path) -> set[str]:
    [host] = review(path).hosts
    assert host.kind == "plan" and host.errors == []
    return {f.rule for f in host.findings}


def test_bad_yaml_plan_fails_the_gate_with_the_expected_rules() -> None:
    assert failed_rules(PLANS / "t5-bad.yaml") == {
        "ldoms.extended-mapin-space", "ldoms.inter-vnet-link", "ldoms.mtu-mismatch", "ldoms.service-cores",
        "ldoms.vf-mtu", "ldoms.guest-cores", "ldoms.service-memory", "ldoms.guest-memory", "ldoms.jumbo-frames",
        "ldoms.whole-core"}
    res = run_cli("gate", str(PLANS / "t5-bad.yaml"))
    assert res.returncode == 1
    assert res.stderr.strip().splitlines()[-1].startswith("advisor gate: failed: 6 finding(s) at or above medium")


def test_bad_xml_plan_in_the_ldm_1x_form_fails_the_gate() -> None:
    # its one vnet has no direct link to lose: inter-vnet-link=off is not a finding there
    assert failed_rules(PLANS / "t2-bad-constraints-ldm1x.xml") == {"ldoms.mtu-mismatch", "ldoms.hybrid-mode"}
    res = run_cli("gate", str(PLANS / "t2-bad-constraints-ldm1x.xml"), "-f", "json")
    assert res.returncode == 1
    finding = next(f for f in json.loads(res.stdout)["hosts"][0]["findings"] if f["rule"] == "ldoms.mtu-mismatch")
    assert finding["evidence"] == [f"{PLANS / 't2-bad-constraints-ldm1x.xml'}:25"]  # the vsw <Item>
    assert finding["remediation"] == ["ldm set-vnet mtu= vnet1 ldg1   # follow the switch MTU"]


@pytest.mark.parametrize("name", ["t5-good.yaml", "t5-good-constraints.xml", "t5-good-from-constraints.yaml"])
def test_good_plans_pass_the_gate(name: str) -> None:
    assert failed_rules(PLANS / name) == set()
    res = run_cli("gate", str(PLANS / name))
    assert res.returncode == 0, res.stdout + res.stderr


def test_run_time_rules_are_not_applicable_to_plans_and_say_so() -> None:
    [host] = review(PLANS / "t5-good.yaml").hosts
    runtime = {r.rule: r.reason for r in host.results if r.reason and "run-time" in r.reason}
    assert set(runtime) == {"ldoms.dring-mode", "ldoms.lso", "ldoms.rxfanout", "solaris.tunable-drift"}
    assert all(r.status == "not_applicable" for r in host.results if r.rule in runtime)
    assert "kstat -p" in runtime["ldoms.dring-mode"]
    out = run_cli("review", str(PLANS / "t5-good.yaml")).stdout
    assert "not applicable before the system runs: ldoms.dring-mode" in out


def test_unknowns_of_a_plan_name_the_plan_key_that_would_decide_them() -> None:
    [host] = review(PLANS / "t5-good-constraints.xml").hosts  # XML alone: no versions, no link speeds
    missing = {m for r in host.results if r.status == "unknown" for m in r.missing or []}
    assert "plan: software.ldm" in missing
    assert any(m.startswith("plan: speed of the links behind the vsws") for m in missing)
    assert not any("ldm list" in m or "kstat" in m for m in missing)


def _network(facts) -> tuple[list[dict], list[dict], list[dict]]:
    differ = {"evidence", "state", "is_local", "ldc_limit", "ldc_limit_basis"}
    return ([d.dump(exclude=differ) for d in facts.domains],
            [v.dump(exclude={"evidence", "instance"}) for v in facts.vswitches],  # a device number: run time
            [n.dump(exclude={"evidence"}) for n in facts.vnets])


def test_a_plan_gives_the_facts_of_the_system_built_from_it() -> None:
    planned, built = facts_of(PLANS / "t5-primary-tuned.yaml"), facts_of(CAPTURES / "t5-primary-tuned")
    assert _network(planned) == _network(built)
    assert (planned.host, planned.kind, built.kind) == ("t5-primary", "plan", "capture")
    # A capture knows the Solaris level of its own domain only; a plan states it for all.
    assert {d.name: d.ldc_limit for d in planned.domains} == {"primary": 4080, "ldg1": 4080, "ldg2": 4080, "db1": 4080}


def test_both_xml_forms_and_yaml_give_the_same_domains() -> None:
    from_yaml = facts_of(PLANS / "t5-good.yaml")
    from_xml = facts_of(PLANS / "t5-good-from-constraints.yaml")
    yaml_domains, yaml_vsws, yaml_vnets = _network(from_yaml)
    xml_domains, xml_vsws, xml_vnets = _network(from_xml)
    assert (xml_vsws, xml_vnets) == (yaml_vsws, yaml_vnets)
    ldg2 = next(d for d in yaml_domains if d["name"] == "ldg2")  # the YAML plan also gives ldg2 a VF
    assert [d for d in xml_domains if d["name"] != "ldg2"] == [d for d in yaml_domains if d["name"] != "ldg2"]
    assert ldg2["io_devices"] == ["/SYS/MB/PCIE1/IOVNET.PF0.VF0"]


def test_envelope_and_ldm_interface_wrappings_read_alike(tmp_path: Path) -> None:
    envelope = (PLANS / "t5-good-constraints.xml").read_text()
    body = envelope.split("<References/>", 1)[1].rsplit("</Envelope>", 1)[0]
    header = envelope.split("<Envelope", 1)[1].split(">", 1)[0]
    wrapped = (f'<?xml version="1.0"?>\n<LDM_interface version="1.3"{header}>\n<cmd><action>list-constraints</action>'
               f'<data version="3.0"><Envelope><References/>{body}</Envelope></data></cmd></LDM_interface>\n')
    (tmp_path / "wrapped.xml").write_text(wrapped)
    assert _network(facts_of(tmp_path / "wrapped.xml")) == _network(facts_of(PLANS / "t5-good-constraints.xml"))


@pytest.mark.parametrize("text, line, message", [
    ("format: advisor-plan/1\ndomains:\n  - name: p\n    cores: 0\n", 4, "domains.0.cores: Input should be greater than 0"),
    ("format: advisor-plan/1\ndomains:\n  - name: p\n    memory: lots\n", 4, "'lots' is not a value like 16G or 512M"),
    ("format: advisor-plan/1\ndomains:\n  - name: p\n    colour: red\n", 4, "domains.0.colour: Extra inputs"),
    ("format: advisor-plan/1\ndomains:\n  - name: p\n  - name: p\n", 1, "domain p is planned twice"),
    ("format: advisor-plan/1\nsoftware: {solaris: '9'}\n", 2, "a Solaris release like 11.4 or 10"),
    ("format: advisor-plan/1\ndomains: [\n", 3, "not valid YAML"),
    ("format: advisor-plan/1\nconstraints: ../../etc/passwd\n", 2, "must be a file beside the plan"),
])
def test_a_bad_plan_is_one_line_naming_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text(text)
    good = PLANS / "t5-good.yaml"
    res = run_cli("gate", str(plan), str(good), "-f", "json")
    assert res.returncode == 2
    report = json.loads(res.stdout)
    [error] = next(h for h in report["hosts"] if h["source"] == str(plan))["errors"]
    assert error.startswith(f"{plan}:{line}: ") and message in error, error
    assert next(h for h in report["hosts"] if h["source"] == str(good))["score"] == 100  # the other is still judged
    assert "Traceback" not in res.stderr
    # the gate judged only part of its input: the verdict does not say passed
    assert res.stderr.strip().splitlines()[-1].startswith("advisor gate: failed: 1 input(s) could not be read")
    assert report["summary"]["gate"] == "failed"


@pytest.mark.parametrize("xml, line, message", [
    ('<?xml version="1.0"?>\n<Envelope><Content id="a">\n</Envelope>\n', 3, "not well-formed XML"),
    ('<?xml version="1.0"?>\n<domain type="kvm"/>\n', 1, "root element is <domain>"),
    ('<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY x "y">]>\n<Envelope/>\n', 2, "XML refused: a <!DOCTYPE>"),
    ('<Envelope xmlns:rasd="r"><Content id="a"><Item>\n<rasd:OtherResourceType>memory</rasd:OtherResourceType>'
     '<rasd:AllocationUnits>4X</rasd:AllocationUnits></Item></Content></Envelope>', 2, "'4X' is not a value like 16G"),
])
def test_a_bad_constraints_file_is_one_line_naming_file_and_line(tmp_path: Path, xml: str, line: int | None,
                                                                message: str) -> None:
    path = tmp_path / "ldm-list-constraints-x.xml"
    path.write_text(xml)
    res = run_cli("gate", str(path), "-f", "json")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    [error] = json.loads(res.stdout)["hosts"][0]["errors"]
    where = f"{path}:{line}: " if line else f"{path}: "
    assert error.startswith(where) and message in error, error


def test_an_xml_error_behind_a_yaml_plan_names_the_xml_file(tmp_path: Path) -> None:
    (tmp_path / "c.xml").write_text('<?xml version="1.0"?>\n<Envelope>\n<Content>\n')
    (tmp_path / "plan.yaml").write_text("format: advisor-plan/1\nconstraints: c.xml\n")
    res = run_cli("gate", str(tmp_path / "plan.yaml"), "-f", "json")
    [error] = json.loads(res.stdout)["hosts"][0]["errors"]
    assert error.startswith(f"{tmp_path / 'c.xml'}:4: not well-formed XML"), error


def test_a_constraints_file_in_a_capture_bundle_does_not_replace_the_listing(tmp_path: Path) -> None:
    bundle = tmp_path / "t5"
    bundle.mkdir()
    for f in (CAPTURES / "t5-primary-tuned").iterdir():
        (bundle / f.name).write_bytes(f.read_bytes())
    (bundle / "ldm-list-constraints-x.xml").write_bytes((PLANS / "t5-good-constraints.xml").read_bytes())
    [host] = review(bundle).hosts
    assert host.kind == "capture" and host.unused == [f"{bundle}/ldm-list-constraints-x.xml"]
