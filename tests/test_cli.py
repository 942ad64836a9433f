"""The command line as a user and a pipeline see it: exit statuses, one-line
errors on bad input, every way in, output fit for a pipe."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from conftest import CAPTURES, FIXTURES, POLICIES, _env, run_cli

UNTUNED = CAPTURES / "t5-primary-untuned"
TUNED = CAPTURES / "t5-primary-tuned"
ANSI = re.compile(r"\x1b\[")


def test_untuned_bundle_report_reads_in_80_columns_without_colour(cli) -> None:
    res = cli("review", "fixtures/captures/t5-primary-untuned")  # relative, as typed in the checkout
    assert res.returncode == 0, res.stderr
    assert not ANSI.search(res.stdout)
    command = re.compile(r"^\s+(?:P?\d+\s+)?(?:[$#] |check: |<https?://)")  # commands and addresses are never cut
    assert all(len(line) <= 80 or command.match(line) for line in res.stdout.splitlines())
    for text in ("t5-primary-untuned", "ldm 3.0.0.2", "HIGH", "ldoms.extended-mapin-space", "ldg1",
                 "$ ldm set-domain extended-mapin-space=on ldg1", "impact: domain-reboot",
                 "ldm-list-l.txt:96", "observed", "expected", "effect"):
        assert text in res.stdout, text
    high = res.stdout.index("HIGH")
    assert res.stdout.find("MEDIUM") > high and res.stdout.find("LOW") > res.stdout.find("MEDIUM")


def test_fail_on_gates_the_exit_status(cli) -> None:
    assert cli("review", str(UNTUNED), "--fail-on", "high").returncode == 1
    assert cli("review", str(TUNED), "--fail-on", "low").returncode == 0
    assert cli("review", str(TUNED), "--min-score", "99").returncode == 0
    res = cli("review", str(UNTUNED), "--min-score", "90")
    assert res.returncode == 1 and "gate failed" in res.stdout


def test_json_report_to_file(cli, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    res = cli("review", str(UNTUNED), str(TUNED), "--format", "json", "-o", str(out))
    assert res.returncode == 0 and res.stdout == ""
    data = json.loads(out.read_text())
    assert [h["host"] for h in data["hosts"]] == ["t5-primary-untuned", "t5-primary-tuned"]
    finding = next(f for f in data["hosts"][0]["findings"] if f["rule"] == "ldoms.inter-vnet-link")
    assert finding["subject"] == "vsw primary-vsw0"
    assert finding["remediation"] == ["ldm set-vsw inter-vnet-link=on primary-vsw0"]
    assert finding["impact"] == "live" and finding["evidence"] == [f"{UNTUNED}/ldm-list-l.txt:62"]
    unknown = [r for r in data["hosts"][1]["results"] if r["status"] == "unknown"]
    assert unknown and all(r["missing"] for r in unknown)
    assert data["summary"]["hosts"] == 2 and data["summary"]["findings"]["high"] >= 10


def test_tarred_bundle_reports_like_the_folder(cli, tmp_path: Path) -> None:
    tarball = tmp_path / "t5-primary-untuned.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(UNTUNED, arcname="t5-primary-untuned")
    folder = json.loads(cli("review", str(UNTUNED), "-f", "json").stdout)["hosts"][0]
    tarred = json.loads(cli("review", str(tarball), "-f", "json").stdout)["hosts"][0]
    assert tarred["host"] == folder["host"] and tarred["score"] == folder["score"]
    assert [(f["rule"], f["subject"]) for f in tarred["findings"]] == [(f["rule"], f["subject"]) for f in folder["findings"]]
    assert tarred["findings"][0]["evidence"][0].startswith(str(tarball))


def test_tar_member_escaping_its_folder_is_refused(cli, tmp_path: Path) -> None:
    tarball = tmp_path / "evil.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        data = b"SunOS x 5.11 11.4 sun4v sparc sun4v\n"
        info = tarfile.TarInfo("../../escaped-uname-a.txt")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    res = cli("review", str(tarball), str(TUNED))
    assert res.returncode == 2
    assert "outside the bundle; refused" in res.stderr
    assert not (tmp_path.parent / "escaped-uname-a.txt").exists()
    assert "t5-primary-tuned" in res.stdout  # the other path is still reported


def test_loose_kstat_dump_is_identified_by_content(cli, tmp_path: Path) -> None:
    dump = tmp_path / "customer-kstat.out"
    shutil.copy(CAPTURES / "s11-guest-untuned/kstat-p.txt", dump)
    data = json.loads(cli("review", str(dump), "-f", "json").stdout)
    [host] = data["hosts"]
    assert host["platform"] == "solaris" and host["detected"]["inputs"] == ["kstat-p"]
    assert {f["rule"] for f in host["findings"]} == {"ldoms.dring-mode", "ldoms.lso"}


def test_bad_file_in_bundle_is_named_and_the_rest_still_reported(cli, tmp_path: Path) -> None:
    bundle = tmp_path / "broken"
    shutil.copytree(UNTUNED, bundle)
    (bundle / "dladm-show-phys.txt").write_text("LINK   MEDIA   STATE   SPEED  DUPLEX  DEVICE\nnet0 Ethernet up\n")
    res = cli("review", str(bundle), "-f", "json")
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert lines == [f"advisor: {bundle}/dladm-show-phys.txt:2: expected 6 columns"]
    host = json.loads(res.stdout)["hosts"][0]
    assert host["status"] == "error"
    assert "ldoms.extended-mapin-space" in {f["rule"] for f in host["findings"]}


def test_garbage_truncated_and_empty_files_give_one_line_and_exit_2(cli, tmp_path: Path) -> None:
    cases = {
        "kstat-p.txt": "this is not kstat\n",
        "ldm-list-l.txt": "NAME             STATE      FLAGS   CONS    VCPU  MEMORY   UTIL  UPTIME\n",
        "etc-system.txt": "set ip:ip_soft_rings_cnt=8\nrm -rf /\n",
        "ldm-list-l-p.txt": "",
    }
    for name, text in cases.items():
        bundle = tmp_path / name.replace(".", "-")
        bundle.mkdir()
        (bundle / name).write_text(text)
        res = cli("review", str(bundle))
        assert res.returncode == 2, name
        errors = res.stderr.strip().splitlines()
        assert len(errors) == 1 and errors[0].startswith(f"advisor: {bundle}/{name}"), errors
        assert "Traceback" not in res.stderr


def test_truncated_kstat_names_the_last_line(cli, tmp_path: Path) -> None:
    bundle = tmp_path / "cut"
    bundle.mkdir()
    text = (CAPTURES / "s11-guest-untuned/kstat-p.txt").read_text()
    (bundle / "kstat-p.txt").write_text(text[: text.index("dring_mode") + 5])
    res = cli("review", str(bundle))
    assert res.returncode == 2
    assert re.search(r"kstat-p.txt:\d+: last line has no value \(truncated file\?\)", res.stderr)


def test_unidentifiable_loose_file_and_missing_path(cli, tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("hello\n")
    res = cli("review", str(junk), str(tmp_path / "nope"), str(TUNED))
    assert res.returncode == 2
    assert f"{junk}: cannot tell which command printed this file" in res.stderr
    assert "no such file or directory" in res.stderr
    assert "t5-primary-tuned" in res.stdout


def test_a_missing_path_is_one_line_on_stderr_and_kept_in_the_report_with_the_others(cli, tmp_path: Path) -> None:
    """DESIGN.md: bad input gets one clear line (stderr), exit status 2, and nothing else is lost. The
    report keeps the error too (JSON `errors`, the table's `error:` line, SARIF's notifications): a
    pipeline that reads only the report still sees why a path is missing from it."""
    missing = tmp_path / "nope"
    res = cli("review", str(missing), str(TUNED), "-f", "json")
    assert res.returncode == 2
    assert res.stderr.splitlines() == [f"advisor: {missing}: no such file or directory"]
    data = json.loads(res.stdout)
    assert [h["source"] for h in data["hosts"]] == [str(TUNED)]
    assert data["errors"] == [f"{missing}: no such file or directory"] and data["summary"]["errors"] == 1


def test_a_document_read_as_a_session_names_the_line_and_the_command_it_was_read_as(cli, tmp_path: Path) -> None:
    """`advisor review README.md`: a Markdown comment after a command (`...xml  # ldm list-constraints -x
    output`) reads as a prompt and a command, and the lines after it as that command's output. The XML
    error's line is the first of them; the message names the lines and the command, which show why."""
    readme = tmp_path / "README.md"
    readme.write_text("# tool\n\n```sh\nadvisor gate plan.yaml   # a plan\n"
                      "advisor gate t2.xml  # ldm list-constraints -x output: exit 1\n"
                      "advisor diff old.json new.json\nadvisor rules list\n```\n")
    res = cli("review", str(readme))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.splitlines() == [f"advisor: {readme}:6: not well-formed XML (syntax error) "
                                       f"(lines 5-7: `ldm list-constraints -x output: exit 1`)"]


def test_fleet_folder_of_bundles(cli) -> None:
    data = json.loads(cli("review", str(CAPTURES), "-f", "json").stdout)
    assert len(data["hosts"]) == len([p for p in CAPTURES.iterdir() if p.is_dir()])
    table = cli("review", str(CAPTURES)).stdout
    assert table.splitlines()[0].startswith("Hosts (worst severity first")


def test_policy_intents_and_bad_policy(cli, tmp_path: Path) -> None:
    data = json.loads(cli("review", str(UNTUNED), "-f", "json", "--policy", str(POLICIES / "declared-intents.yaml")).stdout)
    assert "ldoms.io-latency" in {f["rule"] for f in data["hosts"][0]["findings"]}
    bad = tmp_path / "policy.yaml"
    bad.write_text("intents:\n  wan_rtt_ms: -5\n")
    res = cli("review", str(UNTUNED), "--policy", str(bad))
    assert res.returncode == 2 and res.stderr.strip() == f"advisor: {bad}:2: intents.wan_rtt_ms: Input should be greater than 0"


def test_bad_rule_pack_is_one_line(cli, tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text("- id: site.x\n  title: t\n  subject: host\n  platforms: [solaris]\n  severity: high\n"
                                        "  checks: [{when: 'host.vcpus <', says: 'it has few vCPUs'}]\n  message: m\n  observed: o\n"
                                        "  expected: e\n  remediation: [x]\n  impact: live\n  effect: e\n"
                                        "  rationale: r\n  source: {ref: hp-tso-rp4440-2004, section: s}\n")
    res = cli("review", str(TUNED), "--rules", str(tmp_path))
    assert res.returncode == 2
    assert res.stderr.startswith(f"advisor: {tmp_path}/mine.yaml: site.x: checks[0].when: CEL does not compile")
    assert len(res.stderr.strip().splitlines()) == 1


_SITE_RULE = ("- id: site.x\n  title: t\n  subject: {subject}\n  platforms: [solaris]\n  severity: high\n  params: {{few: 2}}\n"
              "  let: {{count: '1'}}\n  checks: [{{when: \"{when}\", says: 'it has few vCPUs'}}]\n  message: m\n"
              "  observed: o\n  expected: e\n  remediation: [x]\n  impact: live\n  effect: e\n"
              "  rationale: r\n  source: {{ref: hp-tso-rp4440-2004, section: s}}\n")


@pytest.mark.parametrize("subject, when, said", [
    ("host", "host.vcpu < 2", "reads host.vcpu, which the host's facts do not define (the nearest: host.vcpus)"),
    ("domain", "s.wholecores < 2", "reads s.wholecores, which a domain's facts do not define (the nearest: s.whole_cores)"),
    ("host", "s.ldm_verison == '3.4'", "reads s.ldm_verison, which a host's facts do not define (the nearest: s.ldm_version)"),
    ("host", "host.vcpus < p.fewer", "reads p.fewer, which its params do not define (the nearest: p.few)"),
    ("host", "v.counts > 1", "reads v.counts, which its let do not define (the nearest: v.count)"),
    # a fact of another family's pack: a Solaris rule cannot read a Xen dom0's
    ("host", "host.xen_tool == 'xl'", "reads host.xen_tool, which the host's facts do not define"),
])
def test_a_rule_reading_a_fact_no_record_defines_is_refused_as_its_pack_loads(cli, tmp_path: Path, subject: str,
                                                                               when: str, said: str) -> None:
    """A misspelt fact used to load and judge every host unknown, blaming a missing output."""
    (tmp_path / "mine.yaml").write_text(_SITE_RULE.format(subject=subject, when=when))
    res = cli("review", str(TUNED), "--rules", str(tmp_path))
    assert res.returncode == 2 and res.stderr.strip() == f"advisor: {tmp_path}/mine.yaml: site.x: {said}"


def test_a_name_a_rule_binds_quotes_or_comments_is_not_read_as_a_fact(cli, tmp_path: Path) -> None:
    when = ("host.pcpus == null || host.pcpus.all(p, p.pinned_guest_vcpus.size() < p.cpu) || 's.nothing' == ''"
            " // nor s.nothing in a comment\\n")
    (tmp_path / "mine.yaml").write_text(_SITE_RULE.format(subject="host", when=when).replace("[solaris]", "[linux]"))
    res = cli("review", str(TUNED), "--rules", str(tmp_path))
    assert res.returncode == 0, res.stderr


def test_rules_list_and_show(cli) -> None:
    listing = cli("rules", "list").stdout
    assert "ldoms.dring-mode" in listing and "solaris.tcp-window-wan" in listing
    shown = cli("rules", "show", "ldoms.dring-mode")
    assert shown.returncode == 0 and "Rationale" in shown.stdout
    assert "Best Practices for Oracle Solaris Network Performance with Oracle VM Server for SPARC, Oracle, July 2014, " \
           "section Virtual Networking Software" in " ".join(shown.stdout.split())
    missing = cli("rules", "show", "ldoms.nope")
    assert missing.returncode == 2 and "no rule 'ldoms.nope'" in missing.stderr


def test_explorer_archive_is_read_directly(cli, tmp_path: Path) -> None:
    root = tmp_path / "explorer.84a1b2c3.t5-primary-2026.11.20.10.00"
    (root / "sysconfig").mkdir(parents=True)
    (root / "netinfo").mkdir()
    (root / "etc").mkdir()
    shutil.copy(FIXTURES / "parsers/ldm-list-l-p/ldm16-nvramrc.txt", root / "sysconfig/ldm_list_-l_-p.out")
    shutil.copy(UNTUNED / "ldm-version.txt", root / "sysconfig/ldm_-V.out")
    shutil.copy(UNTUNED / "kstat-p.txt", root / "netinfo/kstat-p.out")
    shutil.copy(UNTUNED / "etc-system.txt", root / "etc/system")
    tarball = tmp_path / f"{root.name}.tar.gz"
    with tarfile.open(tarball, "w:gz") as tar:
        tar.add(root, arcname=root.name)
    data = json.loads(cli("review", str(tarball), "-f", "json").stdout)
    [host] = data["hosts"]
    assert host["host"] == "t5-primary"
    assert set(host["detected"]["inputs"]) == {"ldm-list-l-p", "ldm-version", "kstat-p", "etc-system"}
    rules = {f["rule"] for f in host["findings"]}
    assert {"ldoms.hybrid-mode", "ldoms.extended-mapin-space", "ldoms.dring-mode"} <= rules


def test_parallel_review_gives_the_same_report_as_serial(cli) -> None:
    serial = json.loads(cli("review", str(CAPTURES), "-f", "json", "-j", "1").stdout)
    parallel = json.loads(cli("review", str(CAPTURES), "-f", "json", "-j", "2").stdout)
    assert serial == parallel and len(serial["hosts"]) > 2


def test_known_files_no_rule_reads_are_listed_not_errors(cli, tmp_path: Path) -> None:
    bundle = tmp_path / "with-extras"
    shutil.copytree(TUNED, bundle)
    (bundle / "ldm-list-bindings-e.txt").write_text("NAME  STATE  FLAGS\n")
    (bundle / "dladm-show-link.txt").write_text("LINK        CLASS     MTU    STATE    OVER\nnet0        phys      1500   up       --\n")
    res = cli("review", str(bundle), "-f", "json")
    assert res.returncode == 0, res.stderr
    host = json.loads(res.stdout)["hosts"][0]
    assert sorted(host["unused"]) == [f"{bundle}/dladm-show-link.txt", f"{bundle}/ldm-list-bindings-e.txt"]


def test_a_sosreport_and_a_bundle_of_the_same_host_give_the_same_findings(cli) -> None:
    """linux-gw-untuned holds lnxgw01's outputs under advisor's own file names."""
    def findings(source: str) -> list[tuple]:
        [host] = json.loads(cli("review", str(CAPTURES / source), "-f", "json").stdout)["hosts"]
        return sorted((f["rule"], f["subject"], f["message"], f["observed"], f["remediation"]) for f in host["findings"])

    assert findings("sosreport-lnxgw01-2026-11-20-qzxwt") == findings("linux-gw-untuned") != []


def test_sosreport_tar_xz_is_read_directly(cli, tmp_path: Path) -> None:
    source = CAPTURES / "sosreport-lnxgw01-2026-11-20-qzxwt"
    tarball = tmp_path / f"{source.name}.tar.xz"
    with tarfile.open(tarball, "w:xz") as tar:
        tar.add(source, arcname=source.name)
    data = json.loads(cli("review", str(tarball), "-f", "json").stdout)
    [host] = data["hosts"]
    assert host["host"] == "lnxgw01" and host["platform"] == "linux" and host["errors"] == []
    assert {f["rule"] for f in host["findings"]} == {"linux.lro-forwarding", "linux.tso-off"}
    evidence = next(f for f in host["findings"] if f["rule"] == "linux.tso-off")["evidence"]
    assert evidence == [f"{tarball}/{source.name}/sos_commands/networking/ethtool_-k_eth2:5"]
    tso = {r["subject"]: r["status"] for r in host["results"] if r["rule"] == "linux.tso-off"}
    assert tso["interface eth1"] == "pass"  # off, but [fixed]: nothing to change, never reported


def test_a_sosreport_s_ethtool_of_an_interface_is_read_as_its_speed(cli, tmp_path: Path) -> None:
    """sos_commands/networking/ethtool_<if> is `ethtool <if>`; ethtool_-k_<if> stays `ethtool -k`, and a query
    advisor does not read (ethtool_-T_<if>) is no interface named `-T_eth0`."""
    from advisor.collect import sosreport

    source = tmp_path / "sosreport-lnxgw01-2026-11-20-qzxwt"
    shutil.copytree(CAPTURES / source.name, source)
    networking = source / "sos_commands/networking"
    shutil.copyfile(FIXTURES / "sampled/linux-gw-30s/ethtool@eth0.txt", networking / "ethtool_eth0")
    (networking / "ethtool_-T_eth0").write_text("Time stamping parameters for eth0:\n")
    ids = sorted(cid for path, cid in sosreport.files(source) if path.name.startswith("ethtool"))
    assert ids == ["ethtool-c@eth0", "ethtool-i@eth0", "ethtool-i@eth1", "ethtool-i@eth2", "ethtool-k@eth0",
                   "ethtool-k@eth1", "ethtool-k@eth2", "ethtool@eth0"]
    assert sosreport.wanted(f"{source.name}/sos_commands/networking/ethtool_eth0")
    assert not sosreport.wanted(f"{source.name}/sos_commands/networking/ethtool_-T_eth0")
    [host] = json.loads(cli("review", str(source), "-f", "json").stdout)["hosts"]
    assert host["errors"] == [] and "ethtool@eth0" in host["detected"]["inputs"]
    assert {f["rule"] for f in host["findings"]} == {"linux.lro-forwarding", "linux.tso-off"}  # what the rules read


VERBS = [["review"], ["gate"], ["diff"], ["audit"], ["collect"], ["collector-script"], ["rules", "list"],
         ["rules", "show"]]


@pytest.mark.parametrize("verb", VERBS, ids=lambda v: " ".join(v))
def test_help_speaks_of_what_to_type_with_an_example(cli, verb: list[str]) -> None:
    res = cli(*verb, "--help")
    assert res.returncode == 0
    assert not re.search(r"<(?:list\[|bool|str|int|float|path|Path)", res.stdout), res.stdout
    assert "Example: advisor " in res.stdout


def test_version_and_shell_completion(cli) -> None:
    from advisor import __version__

    res = cli("--version")
    assert res.returncode == 0 and res.stdout.strip() == f"advisor {__version__}"
    assert "--install-completion" in cli("--help").stdout


def test_empty_files_and_corrupt_archives_are_said_in_words(cli, tmp_path: Path) -> None:
    import gzip

    empty = tmp_path / "customer.out"
    empty.write_text("\n  \n")
    res = cli("review", str(empty))
    assert res.returncode == 2 and res.stderr.strip() == f"advisor: {empty}: the file is empty"
    cut = tmp_path / "bundle.tar.gz"
    cut.write_bytes(gzip.compress(b"x" * 5000)[:40])
    random = tmp_path / "other.tar.gz"
    random.write_bytes(bytes(range(256)) * 4)
    nothing = tmp_path / "none.tgz"
    nothing.write_bytes(b"")
    res = cli("review", str(cut), str(random), str(nothing), str(CAPTURES / "t5-primary-tuned"))
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [
        f"advisor: {cut}: the gzip archive is corrupt or cut short",
        f"advisor: {random}: not a tar archive (plain, or compressed with gzip, bzip2 or xz)",
        f"advisor: {nothing}: the archive is empty"]
    assert "t5-primary-tuned" in res.stdout  # the readable input is still reported


@pytest.mark.parametrize("argv", [["review", "--help"], ["audit", "--help"], ["collect", "--help"], ["gate", "--help"],
                                  ["diff", "--help"], ["collector-script", "--help"], ["rules", "--help"],
                                  ["rules", "show", "--help"], ["review"], ["revew", "x"]])
def test_starting_with_only_the_named_command_changes_nothing(argv: list[str]) -> None:
    """advisor builds only the command it is asked for; the whole app must say the same."""
    whole = subprocess.run([sys.executable, "-c", "import sys; from advisor.cli import app; sys.argv[0] = 'advisor'; app()",
                            *argv], capture_output=True, text=True, env=_env(None), timeout=60)
    named = run_cli(*argv)
    assert (named.returncode, named.stdout, named.stderr) == (whole.returncode, whole.stdout, whole.stderr)


_REPORT_GC = ("import gc, sys\n"
              "import advisor.cli as cli\n"
              "def leave(code):\n"
              "    print(f'collector enabled: {gc.isenabled()}', file=sys.stderr)\n"
              "    sys.exit(code)\n"
              "cli._leave = leave\n"
              "sys.argv[0] = 'advisor'\n"
              "cli.main()\n")


@pytest.mark.parametrize("argv", [["review", str(UNTUNED), "-f", "json"], ["gate", str(TUNED), "-q"],
                                  ["diff", str(UNTUNED), str(TUNED)], ["audit"], ["collect"],
                                  ["collector-script", "--platform", "linux"], ["rules", "list"],
                                  ["rules", "show", "ldoms.dring-mode"]])
def test_every_command_runs_with_the_garbage_collector_on(argv: list[str], tmp_path: Path) -> None:
    """main() pauses the collector while the modules load; a command left without
    it (an audit of a thousand hosts, say) would never free a cycle."""
    res = subprocess.run([sys.executable, "-c", _REPORT_GC, *argv], capture_output=True, text=True,
                         env=_env(None), timeout=120, cwd=tmp_path)
    assert res.returncode in (0, 1, 2), res.stderr
    assert res.stderr.splitlines()[-1] == "collector enabled: True", res.stderr


def test_an_ssh_config_runs_no_command_unless_asked(tmp_path: Path) -> None:
    """`Match exec` runs its command while hosts are looked up (paramiko, as
    OpenSSH): refused unless --ssh-config-exec; ProxyCommand and LocalCommand
    are never run (advisor goes through other hosts by ProxyJump)."""
    ran = tmp_path / "ran"
    cfg = tmp_path / "ssh_config"
    cfg.write_text(f"Host proxied\n    ProxyCommand touch {ran}\n\nMatch exec \"touch {ran}\"\n    Port 1\n\n"
                   "Host *\n    HostName 127.0.0.1\n    Port 1\n")
    known = tmp_path / "known_hosts"
    args = ["--ssh-config", str(cfg), "--known-hosts", str(known), "--connect-timeout", "2", "-f", "json"]
    res = run_cli("audit", "t5", *args)
    assert res.returncode == 2 and not ran.exists()
    assert f"{cfg}:4: Match exec runs a command while hosts are looked up" in res.stderr and "Traceback" not in res.stderr
    cfg.write_text(f"Host proxied\n    ProxyCommand touch {ran}\n\nHost *\n    HostName 127.0.0.1\n    Port 1\n")
    res = run_cli("audit", "proxied", *args)
    assert not ran.exists() and "Host proxied: advisor does not run proxycommand commands" in res.stderr
    cfg.write_text(f"Match exec \"touch {ran}\"\n    Port 1\n\nHost *\n    HostName 127.0.0.1\n    Port 1\n")
    run_cli("audit", "t5", *args, "--ssh-config-exec")
    assert ran.exists()
