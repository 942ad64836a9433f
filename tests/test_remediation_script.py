"""`--format script`: the change plan as POSIX sh scripts. Every bundled
capture's scripts run to completion under dash against a stand-in `ldm` that
enforces the platform's rules (tests/standin/ldm.py), leaving no delayed
reconfiguration pending, running no upgrade and no unchecked MTU raise."""

from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CAPTURES, POLICIES, run_cli

UNTUNED = CAPTURES / "t5-primary-untuned"
STANDIN = Path(__file__).parent / "standin" / "ldm.py"
TOOLS = ("ldm", "shutdown", "init", "reboot", "pkg", "patchadd", "dladm", "ipadm", "ndd", "svcadm", "kstat",
         "xl", "xm", "ip", "ethtool", "nwmgr", "lanadmin", "uname")


def _scripts(tmp_path: Path, *args: str) -> dict[str, str]:
    out = tmp_path / "scripts"
    res = run_cli("review", *args, "-f", "script", "-o", str(out) + "/")
    assert res.returncode in (0, 1), res.stderr
    return {p.name: p.read_text() for p in sorted(out.iterdir())}


def _ldoms_facts(facts):
    """The LDoms facts the stand-in ldm starts from: a host of another family has none."""
    from types import SimpleNamespace

    from advisor.platforms.ldoms.records import LdomsHost

    return SimpleNamespace(**{name: getattr(facts, name, None) for name in LdomsHost.fields()})


def _standin(tmp_path: Path, capture: Path) -> tuple[dict[str, str], Path]:
    """PATH with the stand-ins, and their state built from the capture's facts."""
    from advisor.collect.offline import Loader
    from advisor.facts.build import build

    with Loader() as loader:
        [cap] = loader.load(capture)
    facts = build(cap).facts
    ldm = _ldoms_facts(facts)
    domains = {d.name: {"state": d.state or "active", "cores": d.whole_cores, "memory_gb": d.memory_gb,
                        "whole_core": d.whole_core_constraint is True,
                        "max_cores": int(d.max_cores) if d.max_cores and d.max_cores.isdigit() else None}
               for d in ldm.domains or []}
    control = next((d.name for d in ldm.domains or [] if d.is_control), "primary")
    domains.setdefault(control, {"state": "active", "cores": None, "max_cores": None})
    if ldm.ldom_name:
        domains.setdefault(ldm.ldom_name, {"state": "active", "cores": None, "max_cores": None})
    vsws = {v.name: {"domain": v.domain, "mtu": v.mtu or 1500, "vnet_domains": v.vnet_domains}
            for v in ldm.vswitches or []}
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"control": control, "reconf": False, "domains": domains, "vsws": vsws,
                                 "free_cores": ldm.free_cores, "free_memory_gb": ldm.free_memory_gb,
                                 "version": ldm.ldm_version, "log": [], "reboots": [], "spconfigs": [], "node": facts.nodename,
                                 "control_node": ldm.control_host}))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in TOOLS:
        shim = bin_dir / tool
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STANDIN}" {tool} "$@"\n')
        shim.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "STANDIN_STATE": str(state),
           "ADVISOR_CONFIRM": "yes"}
    return env, state


def _run(script: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["dash", str(script), *args], capture_output=True, text=True, env=env, timeout=60)


SYSTEM_FILES = ("/etc/system", "/kernel/drv/")


def _sandboxed(script: Path, root: Path) -> Path:
    """The script with the system files it edits moved under root: the tests
    run as any user, root included, and must never write the machine's own."""
    text = script.read_text()
    for path in SYSTEM_FILES:
        target = root / path.lstrip("/")
        (target if path.endswith("/") else target.parent).mkdir(parents=True, exist_ok=True)
        text = text.replace(f" {path}", f" {target}{'/' if path.endswith('/') else ''}")
    out = root / script.name
    out.write_text(text)
    return out


def _run_all(folder: Path, env: dict[str, str]) -> None:
    """Each script as an administrator would: the captured host's first, then
    the control domain's; part 2 of a script once its part 1 has rebooted."""
    names = sorted(p.name for p in folder.iterdir())
    ordered = [n for n in names if ".for-" not in n] + [n for n in names if ".for-" in n]
    root = folder.parent / "root"
    nodes = json.loads(Path(env["STANDIN_STATE"]).read_text())
    for name in ordered:
        script = _sandboxed(folder / name, root)
        assert not any(f" {p}" in script.read_text() for p in SYSTEM_FILES)
        env = {**env, "STANDIN_NODE": nodes["control_node" if ".for-" in name else "node"] or ""}
        res = _run(script, env)
        assert res.returncode == 0, (name, res.stderr[-2000:])
        if "after-reboot" in script.read_text():
            res = _run(script, env, "after-reboot")
            assert res.returncode == 0, (name, res.stderr[-2000:])


BUNDLES = sorted(p.name for p in CAPTURES.iterdir() if p.is_dir())


@pytest.mark.parametrize("version, whole_cores", [("2.2.0.0", "ldm set-vcpu -c"), ("1.3", None)])
def test_a_plan_for_an_older_ldm_runs_under_that_ldms_rules(tmp_path: Path, version: str, whole_cores: str | None
                                                            ) -> None:
    """ldm before 3.0 has no set-core: whole cores are `set-vcpu -c` (2.x), or none (1.x)."""
    bundle = tmp_path / "t5-old-ldm"
    shutil.copytree(CAPTURES / "t5-primary-untuned", bundle)
    (bundle / "ldm-version.txt").write_text((bundle / "ldm-version.txt").read_text().replace("3.0.0.2", version))
    _scripts(tmp_path, str(bundle))
    text = "".join(p.read_text() for p in (tmp_path / "scripts").iterdir())
    assert "ldm set-core" not in text
    env, state = _standin(tmp_path, bundle)
    _run_all(tmp_path / "scripts", env)
    final = json.loads(state.read_text())
    assert final["version"] == version and not [ln for ln in final["log"] if ln.startswith("REFUSED")]
    ran = [ln for ln in final["log"] if "-vcpu -c" in ln]
    assert (whole_cores in " ".join(ran)) if whole_cores else not ran


@pytest.mark.parametrize("bundle", BUNDLES)
def test_every_bundled_capture_script_runs_to_completion(tmp_path: Path, bundle: str) -> None:
    policy = POLICIES / "declared-intents.yaml"
    for n, extra in enumerate(([], ["--policy", str(policy)])):
        work = tmp_path / str(n)
        work.mkdir()
        _scripts(work, str(CAPTURES / bundle), *extra)
        env, state = _standin(work, CAPTURES / bundle)
        _run_all(work / "scripts", env)
        final = json.loads(state.read_text())
        assert final["reconf"] is False, "a delayed reconfiguration is left pending"
        assert not [line for line in final["log"] if line.startswith("REFUSED")]
        for name, dom in final["domains"].items():
            assert dom["state"] in ("active", "bound", "inactive"), name
        started = json.loads((work / "state.json").read_text())
        assert all(d["state"] != "bound" or name in started["domains"] for name, d in final["domains"].items())


@pytest.mark.parametrize("bundle", BUNDLES)
def test_scripts_are_bourne_shell(tmp_path: Path, bundle: str) -> None:
    """Solaris 10's /bin/sh is the Bourne shell, on guests and control domains alike:
    `$(...)` is a syntax error there, met where the script has already changed things."""
    for name, text in _scripts(tmp_path, str(CAPTURES / bundle)).items():
        code = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
        for line in code:
            assert "$(" not in line and "[[" not in line and not line.lstrip().startswith("local "), (name, line)
            assert not line.startswith("trap ") or line.endswith(" 0"), (name, line)  # EXIT is not Bourne's


def test_the_untuned_control_domain_plan_order(tmp_path: Path) -> None:
    scripts = _scripts(tmp_path, str(UNTUNED))
    assert list(scripts) == ["t5-primary-untuned.remediation.sh"]
    env, state = _standin(tmp_path, UNTUNED)
    _run_all(tmp_path / "scripts", env)
    log = json.loads(state.read_text())["log"]
    # live changes, then the control domain's batch and its one reboot, then each guest once, then the SP
    live = log.index("ldm set-vsw inter-vnet-link=on primary-vsw0")
    reconf = log.index("ldm start-reconf primary")
    reboot = log.index("shutdown -y -g0 -i6")
    assert live < reconf < log.index("ldm set-domain extended-mapin-space=on primary") < reboot
    # memory is added live (memory dynamic reconfiguration); whole cores are turned on in the reconfiguration
    assert log.index("ldm set-memory 16G primary") < reconf < log.index("ldm set-core 4 primary") < reboot
    # the guests need a stop and start: made before the reboot, which interrupts their virtual I/O
    # anyway, their changes made while they are stopped, and started after it: one interruption each
    assert log.index("ldm stop ldg2") < log.index("ldm set-core 4 ldg2") < reconf < reboot < log.index("ldm start ldg2")
    assert "ldm set-vsw mtu=1500 primary-vsw1" not in log  # jumbo frames before the LSO levels: a choice to make
    for guest in ("db1", "ldg1"):
        assert log.index(f"ldm stop {guest}") < log.index(f"ldm set-domain extended-mapin-space=on {guest}") < reconf
        assert reboot < log.index(f"ldm start {guest}")
    for guest in ("db1", "ldg1", "ldg2"):
        assert log.count(f"ldm stop {guest}") == 1 and log.count(f"ldm start {guest}") == 1
    assert log.count("shutdown -y -g0 -i6") == 1 and log[-1].startswith("ldm add-spconfig advisor-")
    assert not any(line.startswith(("pkg", "patchadd", "dladm")) for line in log)


def test_part_two_refuses_while_the_control_domain_is_still_reconfiguring(tmp_path: Path) -> None:
    _scripts(tmp_path, str(UNTUNED))
    env, state = _standin(tmp_path, UNTUNED)
    script = _sandboxed(tmp_path / "scripts" / "t5-primary-untuned.remediation.sh", tmp_path / "root")
    env["STANDIN_REBOOT_FAILS"] = "1"
    assert _run(script, env).returncode == 0
    res = _run(script, env, "after-reboot")
    assert res.returncode == 1 and "primary is still in a delayed reconfiguration" in res.stderr
    log = json.loads(state.read_text())["log"]
    assert {"ldm stop ldg2", "ldm stop db1", "ldm stop ldg1"} <= set(log)
    assert not {"ldm start ldg2", "ldm start db1", "ldm start ldg1"} & set(log)


def _down(*names: str) -> str:
    return "; ".join(f"{n} was stopped by this script and not started again: ldm start {n} when ready" for n in names)


@pytest.mark.parametrize("domain, part, said", [
    ("primary", "1", "stopped by a failed step: primary has changes pending in a delayed reconfiguration, and ldm "
                     "refuses changes to other domains until it reboots: reboot it to apply them, or drop them with "
                     "ldm cancel-reconf primary (Logical Domains 1.x: ldm cancel-operation reconf primary); "
                     + _down("db1", "ldg1", "ldg2")),
    ("ldg1", "1", "stopped by a failed step: " + _down("db1", "ldg1")),
])
def test_a_step_that_fails_says_what_it_leaves_half_done(tmp_path: Path, domain: str, part: str, said: str) -> None:
    """A core count the platform refuses (here: max-cores; on a host, too few free cores)
    stopped the script in silence, with primary in a delayed reconfiguration or a guest down."""
    _scripts(tmp_path, str(UNTUNED))
    env, state = _standin(tmp_path, UNTUNED)
    held = json.loads(state.read_text())
    held["domains"][domain]["max_cores"] = 1
    state.write_text(json.dumps(held))
    script = _sandboxed(tmp_path / "scripts" / "t5-primary-untuned.remediation.sh", tmp_path / "root")
    if part != "1":
        assert _run(script, env).returncode == 0
    res = _run(script, env, *([] if part == "1" else [part]))
    assert res.returncode == 1
    assert said in res.stderr.splitlines(), res.stderr
    final = json.loads(state.read_text())
    assert final["reconf"] is (domain == "primary")
    # every guest with an outage waits, stopped, for primary's reboot; the script stops at ldg1's refused cores
    stopped = ["db1", "ldg1", "ldg2"] if domain == "primary" else ["db1", "ldg1"]
    assert sorted(d for d, v in final["domains"].items() if v["state"] != "active") == stopped


def test_a_script_that_ends_well_says_nothing_of_what_it_left(tmp_path: Path) -> None:
    _scripts(tmp_path, str(UNTUNED))
    env, _state = _standin(tmp_path, UNTUNED)
    script = _sandboxed(tmp_path / "scripts" / "t5-primary-untuned.remediation.sh", tmp_path / "root")
    for args in ([], ["after-reboot"]):
        res = _run(script, env, *args)
        assert res.returncode == 0 and "stopped by a failed step" not in res.stderr


def test_a_host_script_run_twice_adds_each_line_once_and_keeps_the_file_as_it_was(tmp_path: Path) -> None:
    """Appends to /etc/system and a driver's .conf were repeated on a second run, with no
    copy of the file from before (a bad line there can keep the machine from booting)."""
    bundle = CAPTURES / "x4270-s10-untuned"
    _scripts(tmp_path, str(bundle))
    env, _state = _standin(tmp_path, bundle)
    script = _sandboxed(tmp_path / "scripts" / "x4270-s10-untuned.remediation.sh", tmp_path / "root")
    system, nxge = tmp_path / "root" / "etc" / "system", tmp_path / "root" / "kernel" / "drv" / "nxge.conf"
    system.write_text(original := "* the host's own\nset maxusers=1024\n")
    nxge.write_text("# nxge.conf as shipped\n")
    for _ in range(2):
        assert _run(script, env).returncode == 0
    added = system.read_text()[len(original):].splitlines()
    assert sorted(added) == sorted(set(added)) and "set ddi_msix_alloc_limit=4" in added
    assert nxge.read_text().count("soft-lso-enable = 1;") == 1
    assert (tmp_path / "root" / "etc" / "system.before-advisor").read_text() == original
    assert (tmp_path / "root" / "kernel" / "drv" / "nxge.conf.before-advisor").read_text() == "# nxge.conf as shipped\n"


def test_the_plan_in_json_names_prerequisites_and_fixes(tmp_path: Path) -> None:
    res = run_cli("review", str(UNTUNED), "-f", "json")
    plan = json.loads(res.stdout)["hosts"][0]["plan"]
    prereq = [p["command"] for p in plan["prerequisites"]]
    assert any(c.startswith("pkg update ldomsmanager") for c in prereq)
    assert any(c.startswith("pkg update entire") for c in prereq)
    titles = [p["title"] for p in plan["phases"]]
    assert titles.index("Live changes through ldm") < titles.index("Domain ldg1: stopped before primary's reboot") < (
        titles.index("Control domain primary: delayed reconfiguration and one reboot")) < titles.index(
        "Domain ldg1: started once primary is back")
    assert titles[-1] == "Save the new configuration on the service processor"
    assert all(p["after_reboot"] for p in plan["phases"] if p["title"].startswith("Domain ") and "started" in p["title"])
    assert titles.index("Domain ldg2: stopped before primary's reboot") < titles.index(
        "Control domain primary: delayed reconfiguration and one reboot") < titles.index(
        "Domain ldg2: started once primary is back")
    cores = [s for p in plan["phases"] for s in p["steps"] if s["command"] == "ldm set-core 4 primary"]
    assert len(cores) == 1 and set(cores[0]["fixes"]) == {"ldoms.service-cores on domain primary",
                                                           "ldoms.whole-core on domain primary"}


def test_a_guests_ldm_steps_go_to_a_script_for_its_control_domain(tmp_path: Path) -> None:
    scripts = _scripts(tmp_path, str(CAPTURES / "s11-guest-untuned"))
    assert set(scripts) == {"s11-guest-untuned.remediation.sh", "t5-primary.for-s11-guest-untuned.remediation.sh"}
    guest = scripts["s11-guest-untuned.remediation.sh"]
    assert not [line for line in guest.splitlines() if line.startswith("ldm ")]
    control = scripts["t5-primary.for-s11-guest-untuned.remediation.sh"]
    assert "# ldm add-core 1 ldg1" in control  # depends on cpus-effective: commented, with the check
    assert "# NOT RUN: first check that cpus-effective of net0" in control
    assert "#   pkg update entire   # Solaris 11.1 SRU 9 or later in ldg1" in guest


def test_max_cores_caps_the_plan_and_says_why(tmp_path: Path) -> None:
    bundle = tmp_path / "capped"
    shutil.copytree(UNTUNED, bundle)
    listing = bundle / "ldm-list-l.txt"
    text = listing.read_text()
    head, sep, rest = text.partition("NAME             STATE      FLAGS   CONS    VCPU  MEMORY   UTIL  NORM  UPTIME\nldg2")
    rest = rest.replace("VARIABLES\n", "CONSTRAINT\n    max-cores=2\n\nVARIABLES\n", 1)
    listing.write_text(head + sep + rest)
    res = run_cli("review", str(bundle), "-f", "json")
    plan = json.loads(res.stdout)["hosts"][0]["plan"]
    commands = [s["command"] for p in plan["phases"] for s in p["steps"]]
    assert "ldm set-core 2 ldg2" in commands and "ldm set-core 4 ldg2" not in commands
    assert any("max-cores is 2" in n and "stopped, unbound domain" in n for n in plan["notes"])
    _scripts(tmp_path, str(bundle))
    env, state = _standin(tmp_path, bundle)
    _run_all(tmp_path / "scripts", env)
    assert json.loads(state.read_text())["reconf"] is False


def test_script_refuses_to_run_unreviewed_and_checks_its_argument(tmp_path: Path) -> None:
    scripts = _scripts(tmp_path, str(UNTUNED))
    path = tmp_path / "scripts" / "t5-primary-untuned.remediation.sh"
    assert os.access(path, os.X_OK)
    assert subprocess.run(["dash", "-n", str(path)]).returncode == 0
    res = subprocess.run(["dash", str(path)], capture_output=True, text=True)
    assert res.returncode == 1 and "ADVISOR_CONFIRM=yes" in res.stderr
    res = subprocess.run(["dash", str(path), "part3"], capture_output=True, text=True, env={**os.environ, "ADVISOR_CONFIRM": "yes"})
    assert res.returncode == 2 and "usage" in res.stderr
    assert "#   pkg update entire" in scripts["t5-primary-untuned.remediation.sh"]


def test_placeholders_and_unseen_conditions_are_comments(tmp_path: Path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text("intents:\n  latency_sensitive_domains: [ldg1]\n")
    text = _scripts(tmp_path, str(CAPTURES / "t5-primary-tuned"), "--policy", str(policy))["t5-primary-tuned.remediation.sh"]
    assert "# NOT RUN: fill in PF_NAME first\n# ldm create-vf PF_NAME && ldm add-io VF_NAME ldg1" in text
    runnable = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert not any("PF_NAME" in line for line in runnable)


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
    assert "# Nothing to change here." in clean


def test_a_script_file_name_fits_any_file_system_whatever_the_host_name() -> None:
    from advisor.report.script import file_name

    long_a, long_b = "h" * 5000 + "a", "h" * 5000 + "b"  # a damaged capture can make any host name
    names = {file_name(long_a), file_name(long_b)}
    assert len(names) == 2 and all(len(n.encode()) <= 255 and "/" not in n for n in names)
    assert file_name("t5-primary") == "t5-primary.remediation.sh"


def _renamed(tmp_path: Path, old: str, new: str) -> Path:
    """The untuned T5 bundle with one domain renamed everywhere (same length: the listings are in columns)."""
    import re

    assert len(old) == len(new)
    bundle = tmp_path / "t5"
    shutil.copytree(UNTUNED, bundle)
    for path in bundle.iterdir():
        path.write_text(re.sub(rf"\b{re.escape(old)}\b", new, path.read_text()))
    return bundle


def test_a_control_domain_whose_name_needs_quoting_is_still_the_control_domain(tmp_path: Path) -> None:
    """Oracle allows -_+#.:;~() in domain names; such a name is quoted in commands.
    The plan compared the quoted name with the bare one, took the control domain
    for a guest, and stopped it with `ldm stop` instead of a delayed reconfiguration."""
    bundle = _renamed(tmp_path, "primary", "ctl#(a)")
    [script] = _scripts(tmp_path, str(bundle)).values()
    lines = [line.strip() for line in script.splitlines()]
    assert "ldm start-reconf 'ctl#(a)'" in lines and "ldm set-domain extended-mapin-space=on 'ctl#(a)'" in lines
    assert not any(line.startswith(("ldm stop 'ctl#(a)'", "ldm start 'ctl#(a)'")) for line in lines)
    assert "ldm stop ldg1" in lines  # the guests still get their outage


def test_a_domain_named_like_a_placeholder_is_never_run(tmp_path: Path) -> None:
    """advisor's placeholders (`<domain>`) stay unquoted so the reader sees what to fill in;
    a domain so named in a capture made `ldm stop <ab>` a runnable line that no shell can parse."""
    bundle = _renamed(tmp_path, "ldg2", "<ab>")
    scripts = _scripts(tmp_path, str(bundle))
    for name, text in scripts.items():
        assert subprocess.run(["sh", "-n", "-c", text]).returncode == 0, name
        assert not any("<ab>" in line and not line.lstrip().startswith("#") for line in text.splitlines()), name


def test_hosts_whose_names_make_one_file_name_each_keep_their_script(tmp_path: Path) -> None:
    """Two bundles naming the same host (or `web;01` and `web_01`): the second
    script used to replace the first without a word."""
    fleet = tmp_path / "fleet"
    for folder, capture, host in (("a", "t5-primary-tuned", "web01"), ("b", UNTUNED.name, "web01"),
                                  ("c", UNTUNED.name, "web;01"), ("d", UNTUNED.name, "web_01"),
                                  ("e", UNTUNED.name, "db1")):
        shutil.copytree(CAPTURES / capture, fleet / folder)
        (fleet / folder / "manifest.yaml").write_text(f"host: {json.dumps(host)}\ncommands: []\n")
    scripts = _scripts(tmp_path, str(fleet))
    sources = sorted(re.search(r"from (\S+)\.$", text.splitlines()[1]).group(1) for text in scripts.values())
    assert sources == sorted(str(fleet / f) for f in "abcde")
    assert "db1.remediation.sh" in scripts  # a name no one shares stays as it was
    web = sorted(n for n in scripts if n.startswith("web"))
    assert all(re.fullmatch(r"web_?01(-[0-9a-f]{10})?\.remediation\.sh", n) for n in web)
    # the first host to take a name keeps it (scripts are written as hosts are judged); the others carry a digest
    assert [n for n in web if "-" not in n] == ["web01.remediation.sh", "web_01.remediation.sh"]
    told = {name: set(re.findall(r"ADVISOR_CONFIRM=yes sh (\S+) after-reboot", text)) for name, text in scripts.items()}
    assert all(names <= {name} for name, names in told.items()) and any(told.values())  # each names itself


def test_a_command_ends_where_its_shell_comment_starts_not_inside_quotes() -> None:
    """Steps are told apart by their command without its comment; a quoted name
    holding ` #` (from a capture) cut two commands to one step, and hid a placeholder after it."""
    from advisor.results.model import FixStep

    one = FixStep(kind="change", command="ldm set-vsw mtu=9000 'vsw #1'   # then restart the guests")
    two = FixStep(kind="change", command="ldm set-vsw mtu=9000 'vsw #2'")
    assert (one.code, two.code) == ("ldm set-vsw mtu=9000 'vsw #1'", "ldm set-vsw mtu=9000 'vsw #2'")
    held = FixStep(kind="change", command="ldm set-vnet mtu=9000 'a #b' <domain>   # fill in")
    assert held.placeholder == "<domain>" and not held.runnable
    assert FixStep(kind="change", command='echo "x #y" #z').code == 'echo "x #y"'


def _with_node(tmp_path: Path, node: str | None) -> Path:
    """The untuned T5 bundle, its uname -a naming `node` (None: no uname -a at all)."""
    bundle = tmp_path / "t5"
    shutil.copytree(UNTUNED, bundle)
    uname = bundle / "uname-a.txt"
    if node is None:
        uname.unlink()
    else:
        uname.write_text(uname.read_text().replace("t5-primary", node, 1))
    return bundle


@pytest.mark.parametrize("node", ["t5-primary", "ctl#(a)", "it's", "-n", "$(reboot)", "%s%n", "<x>"])
def test_a_script_runs_only_on_the_machine_captured(tmp_path: Path, node: str) -> None:
    """Its steps name that machine's domains, switches and files: on any other
    machine (a bundle named after another host, a script sent to the wrong one)
    it stops before its first step, whatever the node name holds."""
    bundle = _with_node(tmp_path, node)
    work = tmp_path / "work"
    work.mkdir()
    [name] = _scripts(work, str(bundle))
    env, state = _standin(work, bundle)
    script = _sandboxed(work / "scripts" / name, work / "root")
    assert json.loads(state.read_text())["node"] == node
    elsewhere = json.loads(state.read_text())
    elsewhere["node"] = "t5-other"
    state.write_text(json.dumps(elsewhere))
    res = _run(script, env)
    assert res.returncode == 1
    assert res.stderr == f"this script is for node {node}, not for t5-other (if this is that machine, renamed, edit this check)\n"
    assert not (Path.cwd() / "]").exists()  # `[ "$node" != <x> ]` unquoted: a redirection, a failed test, and on it ran
    assert json.loads(state.read_text())["log"] == []  # nothing ran
    elsewhere["node"] = node
    state.write_text(json.dumps(elsewhere))
    res = _run(script, env)
    assert res.returncode == 0, res.stderr[-2000:]
    assert json.loads(state.read_text())["reboots"]  # part 1 ran: it ends in the delayed reconfiguration's reboot


def test_a_capture_without_uname_says_to_check_the_machine(tmp_path: Path) -> None:
    bundle = _with_node(tmp_path, None)
    [script] = _scripts(tmp_path, str(bundle)).values()
    assert "uname -n" not in script
    assert ("# advisor saw no node name for t5 (no uname -a in the capture of t5): make sure this is that machine "
            "before running this.") in script


def test_a_guests_control_domain_script_runs_only_on_that_control_domain(tmp_path: Path) -> None:
    """Its ldm steps change the guest's domain on whichever control domain runs them.
    The guest's virtinfo names the control domain by the node name its uname -n prints."""
    guest = CAPTURES / "s11-guest-untuned"
    work = tmp_path / "work"
    work.mkdir()
    _scripts(work, str(guest))
    env, _state = _standin(work, guest)
    control = _sandboxed(work / "scripts" / "t5-primary.for-s11-guest-untuned.remediation.sh", work / "root")
    res = _run(control, {**env, "STANDIN_NODE": "ldg1"})
    assert res.returncode == 1
    assert res.stderr == "this script is for node t5-primary, not for ldg1 (if this is that machine, renamed, edit this check)\n"
    assert _run(control, {**env, "STANDIN_NODE": "t5-primary"}).returncode == 0
    bundle = tmp_path / "guest"
    shutil.copytree(guest, bundle)
    (bundle / "virtinfo.txt").unlink()
    scripts = _scripts(tmp_path / "again", str(bundle))
    [control_text] = [text for name, text in scripts.items() if ".for-" in name]
    assert "uname -n" not in control_text
    assert ("# advisor saw no node name for the control domain (no control domain in virtinfo -a in the capture "
            "of guest): make sure this is that machine before running this.") in control_text


def test_a_guest_bundle_named_after_its_control_domain_checks_each_machine(tmp_path: Path) -> None:
    """Which script checks which node was told by comparing names: a guest's bundle
    named like its control domain had both scripts demand the guest's node name."""
    bundle = tmp_path / "t5-primary"
    shutil.copytree(CAPTURES / "s11-guest-untuned", bundle)
    scripts = _scripts(tmp_path, str(bundle))
    guest, control = scripts["t5-primary.remediation.sh"], scripts["t5-primary.for-t5-primary.remediation.sh"]
    assert 'if [ "$node" != ldg1 ]; then' in guest and 'if [ "$node" != t5-primary ]; then' in control
    assert "# ==== Afterwards, check by hand" in guest and "Afterwards" not in control


def test_a_domain_name_that_begins_with_a_dash_is_never_run(tmp_path: Path) -> None:
    """Quoting keeps a name one word, not a command from reading it as an option:
    a capture naming a guest `-a` made the script run `ldm stop -a`, which stops
    every domain (ldm names begin with a letter or a digit)."""
    bundle = _renamed(tmp_path, "ldg1", "-a  ")
    scripts = _scripts(tmp_path, str(bundle))
    code = [line for text in scripts.values() for line in text.splitlines() if not line.lstrip().startswith("#")]
    assert code and not [line for line in code if " -a" in line or "'-a" in line]
    # a name ldm refuses has no step at all, not even a comment to fill in: the plan says why
    said = [line for text in scripts.values() for line in text.splitlines() if "-a" in line or "dash>" in line]
    assert said[0] == ("# Note: domain '-a': a name ldm refuses (a letter or digit, then letters, digits and "
                       "-_+#.:;~(), at most 256 characters): the capture is damaged or forged, and no step is planned "
                       "for it"), said
    assert all(line.startswith("#   left: ") and " on domain -a: " in line for line in said[1:]), said


def _variant(tmp_path: Path, edit) -> Path:
    """A copy of the untuned T5 capture, changed by `edit(folder)`."""
    bundle = tmp_path / "t5-variant"
    shutil.copytree(UNTUNED, bundle)
    edit(bundle)
    return bundle


def _lso_levels(bundle: Path) -> None:
    """ldm 3.1 and Solaris 11.1 SRU 9: the levels where MTU 1500 is best (lowering a switch trades nothing)."""
    for name, old, new in (("ldm-version.txt", "3.0.0.2", "3.1.0.0.24"), ("pkg-entire.txt", "11.1.4.5.0", "11.1.9.5.0"),
                           ("pkg-entire.txt", "0.175.1.4.0", "0.175.1.9.0")):
        path = bundle / name
        path.write_text(path.read_text().replace(old, new))


def _plan_steps(bundle: Path) -> dict[str, dict]:
    res = run_cli("review", str(bundle), "-f", "json")
    plan = json.loads(res.stdout)["hosts"][0]["plan"]
    return {s["command"]: {**s, "phase": p["title"]} for p in plan["phases"] for s in p["steps"]}


def _devices(free_cores: int, free_memory: str):
    def edit(bundle: Path) -> None:
        text = (UNTUNED / "ldm-list-devices.txt").read_text()
        cores = [ln for ln in text.splitlines() if ln.startswith("    ") and "(" in ln]
        for n, line in enumerate(cores):  # the first free cores stay free, the rest become bound
            cells = line.split(None, 2)
            if cells[1] == "100" and n >= 5 + free_cores:
                text = text.replace(line, line.replace("100     ", "0       ", 1))
        text = text.replace("    0xa00000000          216G", f"    0xa00000000          {free_memory:<16}")
        text = text.replace("0x230000000          9472M", "0x230000000          9472M           ldg3")
        text = text.replace("0xe000000            544M", "0xe000000            544M            ldg3")
        (bundle / "ldm-list-devices.txt").write_text(text)
    return edit


def test_cores_and_memory_that_are_not_free_are_never_asked_for(tmp_path: Path) -> None:
    """A machine with one free core and 2 GB: primary (served first) needs 3 more
    cores and 8 GB, so its steps are held and say why; ldg1's one core and 2 GB
    fit; ldg2's do not. Under the stand-in, which refuses what is not free, both
    parts run through."""
    bundle = _variant(tmp_path, _devices(1, "2G"))
    steps = _plan_steps(bundle)
    held = {c: s["note"] for c, s in steps.items() if not s["run"]}
    assert "3 more free whole cores can be had for primary (the capture shows 1 left free for it)" in held[
        "ldm set-core 4 primary"]
    assert "ldm set-memory 16G primary" in held and "ldm set-core 4 ldg2" in held and "ldm set-memory 8G ldg2" in held
    assert steps["ldm set-core 2 ldg1"]["run"] and steps["ldm set-memory 4G ldg1"]["run"]
    _scripts(tmp_path, str(bundle))
    env, state = _standin(tmp_path, bundle)
    assert json.loads(state.read_text())["free_cores"] == 1
    _run_all(tmp_path / "scripts", env)
    assert not [line for line in json.loads(state.read_text())["log"] if line.startswith("REFUSED")]


def test_growth_waits_for_a_check_where_the_capture_does_not_say_what_is_free(tmp_path: Path) -> None:
    bundle = _variant(tmp_path, lambda b: (b / "ldm-list-devices.txt").unlink())
    steps = _plan_steps(bundle)
    growing = [c for c in steps if c.startswith(("ldm set-core", "ldm set-memory"))]
    assert len(growing) == 6 and not any(steps[c]["run"] for c in growing)
    assert "`ldm list-devices core` shows at least 3 free whole cores for primary" in steps["ldm set-core 4 primary"]["note"]
    _scripts(tmp_path, str(bundle))
    env, state = _standin(tmp_path, bundle)
    _run_all(tmp_path / "scripts", env)  # the stand-in refuses any growth it was not told is free


def test_a_reconfiguration_none_of_whose_changes_runs_interrupts_nothing(tmp_path: Path) -> None:
    """Only primary's core count to fix, and no list-devices: the step is held,
    and so are the delayed reconfiguration and the reboot it would have needed."""
    from advisor.changeplan import build as plan_build
    from advisor.collect.offline import Loader
    from advisor.engine import packs, policy
    from advisor.engine.evaluate import Engine
    from advisor.facts.build import build

    bundle = _variant(tmp_path, lambda b: (b / "ldm-list-devices.txt").unlink())
    with Loader() as loader:
        [cap] = loader.load(bundle)
    facts = build(cap).facts
    _results, findings = Engine(packs.load(), policy.load(None)).evaluate(facts)
    plan = plan_build.build([f for f in findings if f.rule == "ldoms.service-cores"], facts)
    [phase] = [p for p in plan.phases if p.title.startswith("Control domain primary")]
    assert [(s.command, s.run) for s in phase.steps] == [
        ("ldm start-reconf primary", False), ("ldm set-core 4 primary", False), ("shutdown -y -g0 -i6", False)]
    assert "this interruption is held too" in (phase.steps[-1].note or "")


def _whole_core_primary(version: str):
    def edit(bundle: Path) -> None:
        listing = bundle / "ldm-list-l.txt"
        listing.write_text(listing.read_text().replace(
            "CONSTRAINT\n    threading=max-throughput\n", "CONSTRAINT\n    cpu=whole-core\n    max-cores=unlimited\n"
                                                        "    threading=max-throughput\n", 1))
        (bundle / "ldm-version.txt").write_text(f"\nLogical Domains Manager (v {version})\n")
    return edit


@pytest.mark.parametrize("version, live, cores", [("3.0.0.2", True, "ldm set-core 4 primary"),
                                                  ("2.2.0.0", False, "ldm set-vcpu -c 4 primary")])
def test_a_whole_core_control_domain_grows_without_a_reboot_on_ldm_3(tmp_path: Path, version: str, live: bool,
                                                                     cores: str) -> None:
    """set-core is dynamic on an active domain that already has whole cores
    (3.x guides, CPU dynamic reconfiguration); memory is added live; 2.x keeps
    them in the delayed reconfiguration, and has set-vcpu -c for whole cores."""
    bundle = _variant(tmp_path, _whole_core_primary(version))
    steps = _plan_steps(bundle)
    expected = "Live changes through ldm" if live else "Control domain primary: delayed reconfiguration and one reboot"
    assert steps[cores]["phase"] == expected and steps["ldm set-memory 16G primary"]["phase"] == expected
    if live:
        _scripts(tmp_path, str(bundle))
        env, state = _standin(tmp_path, bundle)
        _run_all(tmp_path / "scripts", env)
        log = json.loads(state.read_text())["log"]
        assert log.index("ldm set-core 4 primary") < log.index("ldm start-reconf primary")


def test_a_vnet_whose_mtu_no_longer_follows_its_switch_is_made_to_follow_it(tmp_path: Path) -> None:
    """ldg2's vnet1 at 9000, set on its own: when primary-vsw1 comes down to
    1500, `ldm set-vnet mtu= vnet1 ldg2` (while ldg2 is stopped) makes it follow
    the switch again ("Configuring Jumbo Frames"); vnet0, on another switch, is left."""
    def edit(bundle: Path) -> None:
        _lso_levels(bundle)
        listing = bundle / "ldm-list-l.txt"
        listing.write_text(listing.read_text().replace(
            "    vnet1            primary-vsw1@primary        1    network@1  00:14:4f:fa:90:55        1"
            "                         1500",
            "    vnet1            primary-vsw1@primary        1    network@1  00:14:4f:fa:90:55        1"
            "                         9000", 1))
    bundle = _variant(tmp_path, edit)
    steps = _plan_steps(bundle)
    reset = steps["ldm set-vnet mtu= vnet1 ldg2"]
    assert reset["run"] and reset["phase"] == "Domain ldg2: stopped before primary's switch MTU changes"
    assert "ldm set-vnet mtu= vnet0 ldg2" not in steps
    _scripts(tmp_path, str(bundle))
    env, state = _standin(tmp_path, bundle)
    _run_all(tmp_path / "scripts", env)
    log = json.loads(state.read_text())["log"]
    assert log.index("ldm stop ldg2") < log.index("ldm set-vnet mtu= vnet1 ldg2") < log.index("ldm start-reconf primary")


def test_a_consistent_jumbo_frame_path_is_not_torn_out_unchecked(tmp_path: Path) -> None:
    """primary-vsw1, net1 and ldg2's vnet1 all at 9000 on the LSO software
    levels: jumbo-frames says so (low), but the study advises against setting
    them up without need, not for removing them: the switch change waits for a
    check, and so do the reconfiguration, the reboot and ldg2's stop it would need."""
    bundle = tmp_path / "t5-jumbo"
    shutil.copytree(CAPTURES / "t5-primary-tuned", bundle)
    listing = bundle / "ldm-list-l-p.txt"
    text = listing.read_text()
    text = text.replace("net-dev=net1|pvid=1|vid=|mode=|mtu=1500", "net-dev=net1|pvid=1|vid=|mode=|mtu=9000")
    text = text.replace("service=primary-vsw1@primary|mac-addr=00:14:4f:fa:90:55|mode=|pvid=1|vid=|mtu=1500",
                        "service=primary-vsw1@primary|mac-addr=00:14:4f:fa:90:55|mode=|pvid=1|vid=|mtu=9000")
    listing.write_text(text)
    linkprop = bundle / "dladm-show-linkprop.txt"
    linkprop.write_text(linkprop.read_text().replace(
        "net1              mtu            rw   1500           --        1500       1500-9600",
        "net1              mtu            rw   9000           --        1500       1500-9600"))
    res = run_cli("review", str(bundle), "-f", "json")
    host = json.loads(res.stdout)["hosts"][0]
    assert [(f["rule"], f["subject"]) for f in host["findings"]] == [("ldoms.jumbo-frames", "vsw primary-vsw1")]
    steps = [s for p in host["plan"]["phases"] for s in p["steps"]]
    assert steps and not any(s["run"] for s in steps if s["command"] != SAVE), steps
    vsw = next(s for s in steps if s["command"] == "ldm set-vsw mtu=1500 primary-vsw1")
    assert "relies on its 9000-byte frames" in vsw["note"]


SAVE = 'ldm add-spconfig "advisor-`date +%Y%m%d%H%M`"'


@pytest.mark.parametrize("bundle", BUNDLES)
def test_every_bundled_plan_run_twice_changes_nothing_the_second_time(tmp_path: Path, bundle: str) -> None:
    """Both parts of every script, run twice: the second run stops no guest,
    reboots nothing and changes nothing (each step that ran is in the journal
    beside its script), and part 1 says it has rebooted already."""
    _scripts(tmp_path, str(CAPTURES / bundle), "--policy", str(POLICIES / "declared-intents.yaml"))
    env, state = _standin(tmp_path, CAPTURES / bundle)
    _run_all(tmp_path / "scripts", env)
    first = json.loads(state.read_text())
    root = tmp_path / "root"
    nodes = json.loads((tmp_path / "state.json").read_text())
    for script in sorted(p for p in root.glob("*.remediation.sh")):
        run_env = {**env, "STANDIN_NODE": nodes["control_node" if ".for-" in script.name else "node"] or ""}
        two_parts = "after-reboot" in script.read_text()
        again = _run(script, run_env)
        if two_parts:
            assert again.returncode == 1 and "part 1 already ran" in again.stderr, again.stderr[-500:]
            again = _run(script, run_env, "after-reboot")
        assert again.returncode == 0, (script.name, again.stderr[-2000:])
        assert "ran before" in again.stderr or "Nothing to change" in script.read_text() or not (
            script.parent / f"{script.name}.done").exists()
    second = json.loads(state.read_text())
    changed = [line for line in second["log"][len(first["log"]):] if not line.startswith("ldm list ")]
    assert changed == [] and second["reboots"] == first["reboots"]  # part 2 reads the flags of ldm list again
    assert second["domains"] == first["domains"]


def test_part_one_run_again_does_not_reboot_the_control_domain_again(tmp_path: Path) -> None:
    """Part 1 ends with primary's reboot, an outage of every guest: run twice,
    it asked for a second one. The second run now stops and says why."""
    _scripts(tmp_path, str(UNTUNED))
    env, state = _standin(tmp_path, UNTUNED)
    script = _sandboxed(tmp_path / "scripts" / "t5-primary-untuned.remediation.sh", tmp_path / "root")
    assert _run(script, env).returncode == 0
    again = _run(script, env)
    assert again.returncode == 1 and "part 1 already ran and rebooted the control domain" in again.stderr
    assert len(json.loads(state.read_text())["reboots"]) == 1
    assert _run(script, env, "after-reboot").returncode == 0


def test_a_loose_dump_whose_fixes_need_a_domain_name_says_what_it_lacks(tmp_path: Path) -> None:
    """A loose kstat dump has 4 high findings but no domain listing: its script
    said "Nothing to change here". It now says what the capture lacks, as the
    report and the JSON do."""
    dump = tmp_path / "customer-kstat.out"
    shutil.copy(UNTUNED / "kstat-p.txt", dump)
    out = tmp_path / "fixes"
    assert run_cli("review", str(dump), "-f", "script", "-o", f"{out}/").returncode == 0
    script = (out / "customer-kstat.remediation.sh").read_text()
    assert "Nothing to change here" not in script
    assert "# No step to run: 4 finding(s)" in script
    assert "# It lacks ldm list -l of this domain (run on its control domain): capture that" in script
    report = json.loads(run_cli("review", str(dump), "-f", "json").stdout)["hosts"][0]
    assert {tuple(f["plan_needs"]) for f in report["findings"]} == {("ldm list -l of this domain (run on its control domain)",)}
    assert all("which this capture lacks" in left["why"] for left in report["plan"]["simulation"]["left"])
    text = " ".join(run_cli("review", str(dump)).stdout.split())
    assert "no change can be planned without ldm list -l of this domain" in text
    clean = tmp_path / "clean"
    assert run_cli("review", str(CAPTURES / "t5-primary-tuned"), "-f", "script", "-o", f"{clean}/").returncode == 0
    assert "# Nothing to change here." in next(clean.iterdir()).read_text()
