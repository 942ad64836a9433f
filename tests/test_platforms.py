"""The platform packs declare each platform once; these hold the declarations
to what the rest of advisor makes of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor import platform_registry as platforms
from advisor.collect import allowlist
from advisor.collect.commands import command_id_for_name, commands
from advisor.collect.identify import identify_text
from advisor.parsers import parser_for
from conftest import CAPTURES, FIXTURES


def test_every_pack_is_found_by_its_folder_and_each_family_is_declared_once() -> None:
    names = [p.name for p in platforms.packs()]
    assert sorted(names) == ["hpux", "kvm", "ldoms", "linux", "solaris", "unix", "xen"]
    assert sorted(platforms.families()) == ["hpux", "linux", "solaris"]
    assert names.index("solaris") < names.index("ldoms") and names.index("linux") < names.index("xen")
    assert names.index("linux") < names.index("kvm")
    assert {p.name: getattr(platforms.family_of(p), "name", None) for p in platforms.packs()} == {
        "unix": None, "hpux": "hpux", "linux": "linux", "solaris": "solaris", "ldoms": "solaris", "xen": "linux",
        "kvm": "linux"}


def test_what_a_pack_collects_is_an_output_its_family_declares_with_a_bundle_name_advisor_reads_back() -> None:
    for family in platforms.families():
        declared = {o.id for p in platforms.packs_of(family) for o in p.outputs}
        for command in platforms.collected(family):
            found = platforms.known(command.id)
            assert found is not None and found[0].output.id in declared | {"driver-{name}"}, command.id
            name = allowlist.file_name(command) if not command.per_item else f"{command.id}@eth0.txt"
            assert command_id_for_name(name) == (command.id if not command.per_item else f"{command.id}@eth0")


def test_a_per_item_command_names_the_output_of_one_item_by_what_its_loop_runs_for_it() -> None:
    """The command a file of one item is the output of (shown as its evidence, and what a pasted session of
    it is known by) is what the collection's loop runs for that item, kept as declared."""
    from advisor.collect.commands import command_line

    loops = [c for p in platforms.packs() for c in p.collect if c.per_item]
    assert {c.id for c in loops} == {"ethtool-k", "ethtool-c", "ethtool-i", "ethtool", "ethtool-stats", "nwmgr-vmtu",
                                     "nwmgr-attrs", "lanadmin-g", "virsh-vcpupin", "virsh-domiflist"}
    for c in loops:
        assert c.item is not None and f"; {c.item} " in c.line, c.id  # run once per item, as declared
        assert (c.fallback_item is None) == (c.fallback is None) and (c.fallback is None or c.fallback_item in c.fallback)
    assert {cid: command_line(f"{cid}@lan0") for cid in ("nwmgr-vmtu", "lanadmin-vmtu", "lanadmin-g", "ethtool-k",
                                                         "virsh-vcpupin")} == {
        "nwmgr-vmtu": "nwmgr -g -A vmtu -c lan0", "lanadmin-vmtu": "lanadmin -x vmtu lan0",
        "lanadmin-g": "lanadmin -g lan0", "ethtool-k": "ethtool -k lan0", "virsh-vcpupin": "virsh vcpupin lan0"}


def test_every_parser_a_pack_names_is_there() -> None:
    for cid, known in platforms.outputs().items():
        if known.output.parser is not None:
            assert callable(platforms.load(known.pack, known.output.parser, "parsers")), cid
            assert parser_for(cid.replace("{name}", "ixgbe")) is not None, cid


def test_the_tables_the_core_uses_are_made_from_the_declarations() -> None:
    assert commands()["ldm-list-l-p"] == "ldm list -l -p" and "ethtool-k" not in commands()  # one file per interface
    assert allowlist.platforms_by_uname()["SunOS"][0] == "solaris"
    assert [c.id for c in platforms.collected("linux")][-6:] == ["virsh-list", "virsh-vcpupin", "virsh-domiflist",  # kvm's and xen's, after linux's
                                                              "xl-info", "xl-list", "xl-vcpu-list"]
    assert identify_text("Features for eth3:\nrx-checksumming: on\n") == "ethtool-k@eth3"
    assert identify_text("Logical Domains Manager (v 3.4.0.3)\n") == "ldm-version"


@pytest.mark.parametrize("sample, family", [
    ("tests/real/psrinfo-pv", "solaris"),
    ("tests/real/ipadm-show-prop-tcp", "solaris"),
    ("fixtures/parsers/nwmgr-attrs", "hpux"),
    ("tests/real/xl-list", "linux"),
])
def test_a_lone_output_only_one_family_prints_says_which_family_the_host_is(cli, sample: str, family: str) -> None:
    """Before the packs, a loose `psrinfo -pv`, `ipadm show-prop`, `xl list` or `nwmgr -g` was
    of no platform, and every rule was 'not applicable' to it; a kstat dump or `dladm show-phys` was Solaris."""
    folder = Path(__file__).resolve().parent.parent / sample
    path = next(p for p in sorted(folder.iterdir()) if p.suffix == ".txt" and not p.name.endswith(".parsed.json"))
    res = cli("review", str(path), "-f", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["hosts"][0]["platform"] == family


def test_a_rule_of_a_rules_dir_names_the_families_it_judges(cli, tmp_path: Path) -> None:
    """`platforms` used to default to Solaris, quietly."""
    rule = (FIXTURES.parent / "advisor" / "platforms" / "linux" / "rules.yaml").read_text()
    first = ("- id: " + rule.split("\n- id: ")[1]).replace("linux.", "site.", 1).replace("  platforms: [linux]\n", "", 1)
    (tmp_path / "mine.yaml").write_text(first)
    res = cli("review", str(CAPTURES / "linux-gw-untuned"), "--rules", str(tmp_path))
    assert res.returncode == 2 and "platforms: Field required" in res.stderr
    (tmp_path / "mine.yaml").write_text(first.replace("  title:", "  platforms: [aix]\n  title:", 1))
    res = cli("review", str(CAPTURES / "linux-gw-untuned"), "--rules", str(tmp_path))
    assert res.returncode == 2 and "'aix' is not a platform advisor judges" in res.stderr


def test_a_kvm_bundle_is_a_linux_host_with_the_kvm_outputs_read(cli) -> None:
    """The kvm pack adds libvirt's outputs to Linux hosts: a bundle with them is
    a Linux host, each per-domain file is read under its domain, none is set aside."""
    res = cli("review", str(CAPTURES / "kvm-host-rhel8"), "-f", "json")
    assert res.returncode == 0, res.stderr
    [host] = json.loads(res.stdout)["hosts"]
    assert host["platform"] == "linux" and host["errors"] == [] and host["skipped"] == []
    assert {"virsh-list", "virsh-vcpupin@rhel7", "virsh-vcpupin@db1", "virsh-domiflist@rhel7",
            "virsh-domiflist@db1", "uname-a", "ip-link"} <= set(host["detected"]["inputs"])


def test_a_kvm_hosts_guests_are_facts_of_the_kvm_packs_own_record() -> None:
    """The pack declares its host facts (Pack.record): a Linux host's record gains kvm_guests,
    a Solaris host's does not, and a Solaris rule could not read them."""
    from advisor.collect.offline import Loader
    from advisor.facts.build import build
    from advisor.facts.models import host_record

    [capture] = Loader().load(CAPTURES / "kvm-host-rhel8")
    facts = build(capture).facts
    assert type(facts) is host_record("linux") and "kvm_guests" not in host_record("solaris").fields()
    guests = {g.name: g for g in facts.kvm_guests}
    assert set(guests) >= {"rhel7", "db1"}
    assert all(g.vcpu_cpus and g.nics is not None for name, g in guests.items() if name in ("rhel7", "db1"))
    assert guests["rhel7"].evidence["nics"].endswith("virsh-domiflist@rhel7.txt")


def test_a_typed_virsh_command_line_names_the_domain_of_its_output() -> None:
    """virsh vcpupin and domiflist print no domain name: a pasted one is known by its
    command line (Pack.lines), and a listing without one is not recognised at all."""
    from advisor.collect.command_line import identify_command

    assert identify_command("sudo virsh vcpupin rhel6 --live").command_id == "virsh-vcpupin@rhel6"  # type: ignore[union-attr]
    assert identify_command("virsh domiflist aktest").command_id == "virsh-domiflist@aktest"  # type: ignore[union-attr]
    assert identify_command("virsh vcpupin rhel6 0 2") is None  # pins vCPU 0: prints nothing
    assert identify_command("virsh list --name") is None  # names only
    assert identify_text(" VCPU   CPU Affinity\n----------------------\n 0      0-3\n") is None
    assert identify_text(" Id   Name    State\n------------------------\n 1    rhel7   running\n") == "virsh-list"


def test_what_a_rule_may_judge_one_by_one_is_declared_by_the_packs(cli, tmp_path: Path) -> None:
    """Subjects are the packs' (domain: ldoms; interface: linux; lan: hpux), and a rule naming
    one nothing declares is refused with the list of those that are."""
    subjects = platforms.subjects()
    assert subjects["domain"].field == "domains" and subjects["lan"].noun == "interface"
    rule = (FIXTURES.parent / "advisor" / "platforms" / "linux" / "rules.yaml").read_text()
    first = ("- id: " + rule.split("\n- id: ")[1]).replace("linux.", "site.", 1).replace("subject: interface", "subject: nic", 1)
    (tmp_path / "mine.yaml").write_text(first)
    res = cli("review", str(CAPTURES / "linux-gw-untuned"), "--rules", str(tmp_path))
    assert res.returncode == 2 and "'nic' is not a subject a rule may judge (host, " in res.stderr


def test_a_solaris_hosts_facts_are_the_solaris_packs_own_record() -> None:
    """The Solaris fields (release, SRU, links, TCP, /etc/system, driver files) are the solaris
    pack's record, not the core's: a Linux host's record has none of them, and the LDoms pack's
    code reads them beside its own (an LDoms host is a Solaris host)."""
    from advisor.facts.models import HostFacts, host_record
    from advisor.platforms.ldoms.records import LdomsFacts
    from advisor.platforms.solaris.records import SolarisHost

    solaris_only = set(SolarisHost.fields()) - {"evidence"}
    assert {"solaris_major", "sru", "links", "tcp", "system", "driver_conf"} <= solaris_only
    assert not solaris_only & set(HostFacts.fields())
    assert not solaris_only & set(host_record("linux").fields()) and not solaris_only & set(host_record("hpux").fields())
    assert solaris_only <= set(host_record("solaris").fields()) and solaris_only <= set(LdomsFacts.fields())
