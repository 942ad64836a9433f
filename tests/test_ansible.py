"""The Ansible collection (ansible/) against the stub hosts on loopback sshd.

ansible-core from PyPI drives a fleet of 24 hosts: Solaris, Linux/Xen and
HP-UX stub hosts served by real OpenSSH servers, two that refuse the key and
two addresses where nothing listens. The collection is installed the way its
users install it (`ansible-galaxy collection install <checkout>/ansible`), and its
bundles are reviewed by advisor exactly as `advisor collect`'s are.
"""

from __future__ import annotations

import base64
import gzip
import binascii
import importlib
import importlib.metadata
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml

from advisor import __version__
from advisor.collect import script
from conftest import CAPTURES, ROOT, comparable, run_cli
from sshd_harness import Sshd, env_user
from test_collector_script import _stub_host

pytestmark = pytest.mark.slow  # Ansible playbooks against stub hosts

BIN = Path(sys.executable).parent
COLLECTION = ROOT / "ansible"
FILES = COLLECTION / "roles" / "advisor" / "files"

# (bundle, uname -s) served by the stub hosts, one platform after another
SERVED = [("t5-primary-tuned", "SunOS"), ("ovm-dom0-untuned", "Linux"), ("hpux-rx6600-untuned", "HP-UX"),
          ("t2-primary-crowded", "SunOS"), ("ovm-dom0-tuned", "Linux"), ("hpux-rp4440-tuned", "HP-UX"),
          ("s11-guest-untuned", "SunOS"), ("linux-gw-untuned", "Linux"), ("s10-guest-untuned", "SunOS"),
          ("x4270-s10-untuned", "SunOS")]
GROUP = {"SunOS": "solaris", "Linux": "linux", "HP-UX": "hpux"}


class Fleet:
    def __init__(self, work: Path):
        self.work = work
        live = [f"127.0.4.{i}" for i in range(1, 23)]
        self.refused = live[20:22]
        # OpenSSH listens on at most 16 addresses per server: two servers share the fleet.
        self.servers = [Sshd(work / "fleet", live[:16], name="sshd-a"),
                        Sshd(work / "fleet", live[16:], name="sshd-b",
                             extra_config="".join(f"Match LocalAddress {a}\n    DenyUsers *\n" for a in self.refused))]
        self.serving = {a: s for s in self.servers for a in s.addresses}
        self.dead = ["127.0.4.50", "127.0.4.51"]
        self.hosts: dict[str, str] = {}  # inventory name -> address
        self.served: dict[str, tuple[str, str]] = {}
        for i, address in enumerate(live):
            bundle, system = SERVED[i % len(SERVED)]
            name = f"{GROUP[system]}-{i + 1:02d}"
            flags = [f"uname-s={system}"] + (["sudo-denied"] if name == "solaris-04" else [])
            self.serving[address].assign(address, CAPTURES / bundle, *flags)
            self.hosts[name], self.served[name] = address, (bundle, system)
        for i, address in enumerate(self.dead):
            self.hosts[f"down-{i + 1:02d}"] = address
        self.key = self.servers[0].userkey
        self.known = work / "known_hosts"
        self.known.write_text("".join(s.known_hosts_line(a) for a, s in self.serving.items()))
        self.inventory = work / "hosts.ini"
        self.inventory.write_text(self._ini())

    def _ini(self) -> str:
        port = self.servers[0].port
        groups: dict[str, list[str]] = {}
        for name, address in self.hosts.items():
            group = name.rsplit("-", 1)[0]
            host_port = self.serving[address].port if address in self.serving else port
            groups.setdefault(group, []).append(f"{name} ansible_host={address} ansible_port={host_port}")
        ssh_args = f"-o UserKnownHostsFile={self.known} -o StrictHostKeyChecking=yes -o ConnectTimeout=5"
        return "".join(f"[{g}]\n" + "\n".join(lines) + "\n\n" for g, lines in groups.items()) + (
            f"[all:vars]\nansible_user={env_user()}\nansible_ssh_private_key_file={self.key}\n"
            f"ansible_ssh_common_args='{ssh_args}'\n")

    def sent(self) -> list[str]:
        return [line for s in self.servers for line in s.sent()]

    def stop(self) -> None:
        for s in self.servers:
            s.stop()


@pytest.fixture(scope="module")
def env(tmp_path_factory) -> dict[str, str]:
    """Ansible's folders kept inside the test's own, and the collection installed as its users install it."""
    work = tmp_path_factory.mktemp("ansible")
    env = {**os.environ, "PATH": f"{BIN}:{os.environ['PATH']}", "ANSIBLE_HOME": str(work / "home"),
           "ANSIBLE_LOCAL_TEMP": str(work / "local-tmp"), "ANSIBLE_REMOTE_TMP": str(work / "remote-tmp"),
           "ANSIBLE_SSH_CONTROL_PATH_DIR": str(work / "cp"), "ANSIBLE_COLLECTIONS_PATH": str(work / "collections"),
           "ANSIBLE_HOST_KEY_CHECKING": "True", "ANSIBLE_NOCOLOR": "1", "ANSIBLE_FORKS": "30",
           "ANSIBLE_CONFIG": str(work / "ansible.cfg")}  # an empty one: no ~/.ansible.cfg or /etc/ansible
    (work / "ansible.cfg").write_text("[defaults]\n")
    installed = subprocess.run([BIN / "ansible-galaxy", "collection", "install", str(COLLECTION),
                                "-p", str(work / "collections")], env=env, capture_output=True, text=True, timeout=120)
    assert installed.returncode == 0, installed.stderr
    return env


@pytest.fixture(scope="module")
def fleet(tmp_path_factory):
    fleet = Fleet(tmp_path_factory.mktemp("fleet"))
    yield fleet
    fleet.stop()


def _play(env: dict[str, str], fleet: Fleet, playbook: str, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.run([BIN / "ansible-playbook", "-i", str(fleet.inventory), playbook, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def _review(*paths: Path) -> tuple[int, dict[str, dict]]:
    res = run_cli("review", *map(str, paths), "-f", "json")
    return res.returncode, {h["host"]: h for h in json.loads(res.stdout)["hosts"]}


@pytest.fixture(scope="module")
def bundle(env):
    """The collection's bundle action, imported from where it was installed, as Ansible imports it."""
    sys.path.insert(0, env["ANSIBLE_COLLECTIONS_PATH"])
    try:
        return importlib.import_module("ansible_collections.advisor.fleet.plugins.action.bundle")
    finally:
        sys.path.pop(0)


def test_the_collection_ships_this_release_s_collector_scripts() -> None:
    """No second command list: the scripts are what `advisor collector-script` writes from the one table."""
    expected = {"collect-solaris.sh": script.render("solaris"), "collect-solaris-sudo.sh": script.render("solaris", "sudo"),
                "collect-solaris-pfexec.sh": script.render("solaris", "pfexec"),
                "collect-linux.sh": script.render("linux"), "collect-hpux.sh": script.render("hpux")}
    assert sorted(p.name for p in FILES.iterdir()) == sorted(expected)
    for name, text in expected.items():
        assert (FILES / name).read_text() == text, (
            f"{name} is stale: regenerate with `advisor collector-script --platform ... > ansible/roles/advisor/files/{name}`")
    assert yaml.safe_load((COLLECTION / "galaxy.yml").read_text())["version"] == __version__
    assert (COLLECTION / "docs" / "fleet.md").read_text() == (ROOT / "docs" / "fleet.md").read_text(), (
        "ansible/docs/fleet.md is stale: cp docs/fleet.md ansible/docs/fleet.md")


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if "__pycache__" not in p.parts}


def test_ansible_lint_s_production_profile_passes_on_the_checkout(env, tmp_path) -> None:
    """In the checkout itself, not an installed copy, offline: the collection is found through a
    collections folder that links to the checkout, and ansible-lint writes nothing in it."""
    linked = tmp_path / "collections" / "ansible_collections" / "advisor"
    linked.mkdir(parents=True)
    (linked / "fleet").symlink_to(COLLECTION, target_is_directory=True)
    checkout = {**env, "ANSIBLE_COLLECTIONS_PATH": str(tmp_path / "collections"), "HOME": str(tmp_path / "home"),
                "XDG_CACHE_HOME": str(tmp_path / "cache")}
    before = _files(COLLECTION)
    res = subprocess.run([BIN / "ansible-lint", "--offline", "--nocolor"], cwd=COLLECTION, env=checkout,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Profile 'production' was required, and it passed." in res.stderr, res.stderr
    assert _files(COLLECTION) == before


def test_every_role_variable_is_documented_and_a_wrong_one_is_refused_before_any_host_is_contacted(
        env, fleet, tmp_path) -> None:
    role = COLLECTION / "roles" / "advisor"
    specs = yaml.safe_load((role / "meta" / "argument_specs.yml").read_text())["argument_specs"]
    defaults = yaml.safe_load((role / "defaults" / "main.yml").read_text())
    options = {name: option for entry in specs.values() for name, option in entry["options"].items()}
    assert sorted(options) == sorted(defaults)
    assert {name: option.get("default") for name, option in options.items()} == defaults
    for entry, tasks in (("main", "main.yml"), ("review", "review.yml")):  # what each entry point's tasks read
        assert set(re.findall(r"\badvisor_\w+", (role / "tasks" / tasks).read_text())) <= set(specs[entry]["options"])
    shown = subprocess.run([BIN / "ansible-doc", "-t", "role", "advisor.fleet.advisor"], env=env,
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "ENTRY POINT: *main*" in shown.stdout and "ENTRY POINT: *review*" in shown.stdout
    for name, option in options.items():
        assert re.search(rf"^- {name}\s", shown.stdout, re.M), name
        assert f"type: {option['type']}" in shown.stdout

    before = len(fleet.sent())
    for playbook, wrong, said in (
            ("advisor.fleet.collect", "advisor_timeout=soon", "argument 'advisor_timeout' is of type str and we "
                                                              "were unable to convert to int"),
            ("advisor.fleet.collect", "advisor_privilege=root", "advisor_privilege must be one of: none, sudo, pfexec"),
            ("advisor.fleet.collect", "advisor_fail_uncollected=maybe", "unable to convert to bool")):
        play = _play(env, fleet, playbook, tmp_path, "--limit", "linux-02", "-e", wrong)
        assert play.returncode == 2 and "Validation of arguments failed" in play.stdout, play.stdout[-3000:]
        assert said in play.stdout, play.stdout[-3000:]
    assert len(fleet.sent()) == before  # refused before the host was contacted
    assert not (tmp_path / "captures").exists()
    # the review's own variables, when the review starts (down-01: its collection is a quick refusal)
    audit = _play(env, fleet, "advisor.fleet.audit", tmp_path, "--limit", "down-01", "-e", "advisor_fail_on=severe")
    assert audit.returncode == 2 and "advisor_fail_on must be one of: critical, high" in audit.stdout, audit.stdout[-3000:]
    assert not (tmp_path / "reports").exists()


# ansible-test sanity. The first seven need packages beyond ansible-core, which ansible-test installs into a
# virtual environment of its own for each test (commands/sanity/__init__.py, create_sanity_virtualenv: always,
# --local and --venv or not): python -m venv --without-pip, then pip itself from a script it downloads from
# Ansible's CI file server, not a package index (python_requirements.py, collect_bootstrap; the script:
# _util/target/setup/requirements.py, bootstrap), then its pinned requirements. Neither the server nor, in CI,
# an index at test time is to be relied on. So the test makes those environments first, where ansible-test
# looks for them (~/.ansible/test/venv/<label>/<python>/<hash>, which --explain names), from the packages the
# test extra installed from the index (constraints.txt pins ansible-test's own versions of voluptuous,
# antsibull-docs-parser, pycodestyle and pylint's; PyYAML, MarkupSafe, packaging, yamllint and pathspec keep
# the project's newer pins): each holds only the distributions that ansible-test's requirements file for the
# test lists, as pip would have installed them, and the marker that tells ansible-test it is ready. The tests
# themselves run as ansible-test runs them.
SANITY_VENV = ["ansible-doc", "import", "pep8", "pylint", "runtime-metadata", "validate-modules", "yamllint"]
SANITY = ["action-plugin-docs", "compile", "empty-init", "ignores", "line-endings", "no-assert", "no-get-exception",
          "no-illegal-filenames", "no-smart-quotes", "replace-urlopen", "shebang", "symlinks", "use-argspec-type-path",
          "use-compat-six", *SANITY_VENV]
# Not run, and why.
SANITY_NOT_RUN = {"changelog": "no changelogs/ folder: CHANGELOG.md is written by hand (antsibull-changelog: pip)",
                  "shellcheck": "needs the shellcheck program; the collector scripts are Bourne shell for Solaris 10, "
                                "backquotes and all, generated by advisor and run under dash in its tests",
                  "pslint": "PowerShell: the collection has none"}


def _sanity_venv(venv: Path, requirements: Path | None) -> None:
    """The virtual environment ansible-test would make at venv, from this environment's distributions: those
    its requirements file names (none for a test without one), linked file by file, their bytecode left to
    be written under venv; with the metadata ansible-test reads back (meta.yaml.json: is libyaml there)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120)
    site = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    names = [] if requirements is None else [
        line.split("==")[0] for line in requirements.read_text().splitlines() if line and not line.startswith("#")]
    for name in names:
        dist = importlib.metadata.distribution(name)
        for file in dist.files or ():
            if file.parts[0] != ".." and "__pycache__" not in file.parts:  # not its scripts in bin/
                (site / file).parent.mkdir(parents=True, exist_ok=True)
                (site / file).symlink_to(dist.locate_file(file))
    (venv / "meta.yaml.json").write_text(json.dumps(yaml.__with_libyaml__ if "PyYAML" in names else None))
    (venv / "marker.txt").touch()


def test_ansible_test_sanity_passes_on_the_collection(tmp_path) -> None:
    root = tmp_path / "ansible_collections" / "advisor" / "fleet"  # the layout ansible-test needs; it writes in it
    shutil.copytree(COLLECTION, root, ignore=shutil.ignore_patterns("__pycache__", ".ansible"))
    (tmp_path / "tmp").mkdir()
    env = {"PATH": f"{BIN}:{os.environ['PATH']}", "HOME": str(tmp_path / "home"), "TMPDIR": str(tmp_path / "tmp"),
           "LC_ALL": "C.UTF-8"}  # its virtual environments go under HOME
    listed = subprocess.run([BIN / "ansible-test", "sanity", "--list-tests"], cwd=root, env=env,
                            capture_output=True, text=True, timeout=120)
    assert sorted(listed.stdout.split()) == sorted([*SANITY, *SANITY_NOT_RUN]), "a sanity test to run or to explain"
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    sanity = [BIN / "ansible-test", "sanity", "--python", python, "--color", "no"]
    requirements = Path(importlib.import_module("ansible_test").__file__).parent / "_data" / "requirements"
    made: set[Path] = set()
    for test in SANITY_VENV:  # one at a time: --explain stops at a test whose environment is not there yet
        explained = subprocess.run([*sanity, "--explain", "-v", f"--test={test}"], cwd=root, env=env,
                                   capture_output=True, text=True, timeout=120)
        venvs = {Path(venv) for venv in re.findall(r'^Created Python \S+ virtual environment using "venv": (.+)$',
                                                   explained.stdout, re.M)}
        assert venvs, explained.stdout + explained.stderr
        for venv in venvs - made:
            assert venv.is_relative_to(tmp_path / "home" / ".ansible" / "test" / "venv") and not venv.exists(), venv
            label = venv.parent.parent.name  # sanity.<test>, or sanity for a test without requirements
            _sanity_venv(venv, None if label == "sanity" else requirements / f"{label}.txt")
        made |= venvs
    res = subprocess.run([*sanity, *(f"--test={test}" for test in SANITY)], cwd=root, env=env,
                         capture_output=True, text=True, timeout=300)
    said = res.stdout + res.stderr
    assert res.returncode == 0, said
    for test in SANITY:
        assert re.search(rf'^Running sanity test "{test}"', said, re.M), test
    assert "ERROR" not in said and "FATAL" not in said and "Installing requirements" not in said, said
    assert not (tmp_path / "home" / ".ansible" / "test" / "cache").exists()  # nothing downloaded


def test_the_collection_builds_into_a_tarball_that_installs(env, tmp_path) -> None:
    """As the README says, from a folder that is not the checkout: the tarball goes where --output-path
    says, carries its licence and the documents its README links to, and installs elsewhere."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    left = set(ROOT.glob("*.tar.gz")) | set(COLLECTION.glob("*.tar.gz"))
    built = subprocess.run([BIN / "ansible-galaxy", "collection", "build", str(COLLECTION), "--output-path",
                            str(tmp_path / "dist")], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    assert set(ROOT.glob("*.tar.gz")) | set(COLLECTION.glob("*.tar.gz")) == left and list(elsewhere.iterdir()) == []
    tarball = tmp_path / "dist" / f"advisor-fleet-{__version__}.tar.gz"
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
        texts = {n: tar.extractfile(n).read().decode() for n in names if n.endswith(".md")}  # type: ignore[union-attr]
        manifest = json.loads(tar.extractfile("MANIFEST.json").read())  # type: ignore[union-attr]
    assert {"roles/advisor/files/collect-solaris.sh", "plugins/action/bundle.py", "LICENSE", "docs/fleet.md",
            "roles/advisor/meta/argument_specs.yml", "README.md", "CHANGELOG.md"} <= names
    info = manifest["collection_info"]
    assert info["license"] == ["Apache-2.0"] and "invalid" not in json.dumps(info)
    assert info["repository"] is None and info["documentation"] is None and info["issues"] is None
    for name, text in texts.items():  # every relative link resolves inside the tarball
        for target in re.findall(r"\]\(([^)#\s]+)", text):
            if "://" not in target:
                resolved = os.path.normpath(os.path.join(os.path.dirname(name), target))
                assert resolved in names, f"{name}: link {target} is not in the collection"
    assert "](docs/fleet.md)" in texts["README.md"]
    installed = {**env, "ANSIBLE_COLLECTIONS_PATH": str(tmp_path / "c")}  # not where the fixture installed it
    done = subprocess.run([BIN / "ansible-galaxy", "collection", "install", str(tarball), "-p", str(tmp_path / "c")],
                          cwd=elsewhere, env=installed, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "c" / "ansible_collections" / "advisor" / "fleet" / "playbooks" / "audit.yml").is_file()
    for doc in (["-t", "role", "advisor.fleet.advisor"], ["advisor.fleet.bundle"], ["advisor.fleet.gate"]):
        shown = subprocess.run([BIN / "ansible-doc", *doc], env=installed, capture_output=True, text=True, timeout=120)
        assert shown.returncode == 0 and shown.stdout and not shown.stderr, (doc, shown.stderr)


def test_collect_playbook_gets_every_host_and_review_reports_the_failed_with_ansible_s_reason(env, fleet, tmp_path) -> None:
    play = _play(env, fleet, "advisor.fleet.collect", tmp_path)
    assert play.returncode == 4, play.stdout[-3000:]  # 4: some hosts unreachable
    bundles = sorted(p.name for p in (tmp_path / "captures").iterdir())
    assert bundles == sorted(f"{h}.tar.gz" for h in fleet.hosts)  # one per host, the failed ones too
    review = run_cli("review", "captures/", "-f", "json,html", "-o", "reports/", cwd=tmp_path)  # as docs/fleet.md says
    assert review.returncode == 3 and (tmp_path / "reports" / "report.html").is_file(), review.stderr
    hosts = {h["host"]: h for h in json.loads((tmp_path / "reports" / "report.json").read_text())["hosts"]}
    assert sorted(hosts) == sorted(fleet.hosts)
    down = {h for h, r in hosts.items() if r["status"] == "unreachable"}
    refused = {h for h, a in fleet.hosts.items() if a in fleet.refused}
    assert down == refused | {"down-01", "down-02"}
    for h in refused:
        assert "Permission denied (publickey" in hosts[h]["errors"][0]
    for h in ("down-01", "down-02"):
        assert "Connection refused" in hosts[h]["errors"][0]
    for name, (_bundle, system) in fleet.served.items():
        if name in refused:
            continue
        assert hosts[name]["errors"] == [], (name, hosts[name]["errors"])
        assert hosts[name]["platform"] == {"SunOS": "solaris", "Linux": "linux", "HP-UX": "hpux"}[system], name


def test_bundles_from_the_collection_and_from_advisor_collect_give_the_same_report(env, fleet, tmp_path) -> None:
    names = [h for h, a in fleet.hosts.items() if a in fleet.serving and a not in fleet.refused][:10]
    limit = ",".join(names)
    play = _play(env, fleet, "advisor.fleet.collect", tmp_path, "--limit", limit)
    assert play.returncode == 0, play.stdout[-3000:]
    listed = subprocess.run([BIN / "ansible-inventory", "-i", str(fleet.inventory), "--list", "--limit", limit],
                            env=env, capture_output=True, text=True, timeout=120)
    (tmp_path / "inventory.json").write_text(listed.stdout)
    collected = run_cli("collect", "--inventory", str(tmp_path / "inventory.json"), "-i", str(fleet.key),
                        "--known-hosts", str(fleet.known), "-o", str(tmp_path / "advisor"), timeout=300)
    assert collected.returncode == 0, collected.stderr
    _, by_ansible = _review(tmp_path / "captures")
    _, by_advisor = _review(tmp_path / "advisor")
    assert sorted(by_ansible) == sorted(by_advisor) == sorted(names)
    for name in names:
        assert by_ansible[name]["findings"] or by_ansible[name]["status"] == "clean"
        assert comparable(by_ansible[name]) == comparable(by_advisor[name]), name


def test_become_and_the_privilege_variants(env, fleet, tmp_path) -> None:
    solaris = [h for h in fleet.hosts if h.startswith("solaris-")][:4]  # solaris-04 refuses sudo
    same_user = {**env, "ANSIBLE_BECOME_ALLOW_SAME_USER": "True"}  # the tests may log in as root: sudo all the same
    become = _play(same_user, fleet, "advisor.fleet.collect", tmp_path / "become", "--limit", ",".join(solaris), "--become")
    assert become.returncode == 2, become.stdout[-3000:]  # 2: a host failed (its sudo)
    _, hosts = _review(tmp_path / "become" / "captures")
    assert hosts["solaris-04"]["status"] == "unreachable"
    assert hosts["solaris-04"]["errors"] == ["Missing sudo password"]  # Ansible's own words
    assert all(hosts[h]["errors"] == [] for h in solaris if h != "solaris-04")
    assert hosts["solaris-01"]["detected"]["ldm_version"] == "3.4.0.3.6"  # the control domain's ldm, run as root
    assert any("sudo -H -S -n" in line and "/bin/sh" in line for line in fleet.sent())  # Ansible's own become

    variant = _play(env, fleet, "advisor.fleet.collect", tmp_path / "sudo", "--limit", ",".join(solaris),
                    "-e", "advisor_privilege=sudo")
    assert variant.returncode == 0, variant.stdout[-3000:]
    with tarfile.open(tmp_path / "sudo" / "captures" / "solaris-04.tar.gz") as tar:
        manifest = yaml.safe_load(tar.extractfile("solaris-04/manifest.yaml").read())  # type: ignore[union-attr]
    assert manifest["host"] == "solaris-04"
    ldm = next(c for c in manifest["commands"] if c["id"] == "ldm-version")
    assert ldm["command"] == "sudo -n ldm -V" and ldm["file"] is None and "a password is required" in ldm["stderr"]
    _, hosts = _review(tmp_path / "sudo" / "captures")
    assert "sudo -n ldm -V: sudo: a password is required" in hosts["solaris-04"]["not_collected"]

    rbac = _play(env, fleet, "advisor.fleet.collect", tmp_path / "pfexec", "--limit", "solaris-01",
                 "-e", "advisor_privilege=pfexec")
    assert rbac.returncode == 0, rbac.stdout[-3000:]
    _, hosts = _review(tmp_path / "pfexec" / "captures")
    assert hosts["solaris-01"]["errors"] == [] and hosts["solaris-01"]["detected"]["ldm_version"] == "3.4.0.3.6"
    assert any(line.endswith("pfexec ldm list -l -p") for line in fleet.sent())


def test_audit_playbook_reviews_its_own_hosts_and_fails_on_the_gate(env, fleet, tmp_path) -> None:
    tuned = [h for h, (b, _) in fleet.served.items() if b.endswith("-tuned") and fleet.hosts[h] not in fleet.refused]
    stale = tmp_path / "captures" / "linux-02.tar.gz"  # a bundle of another run, untuned: never judged here
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"not even a bundle")
    passed = _play(env, fleet, "advisor.fleet.audit", tmp_path, "--limit", ",".join(tuned),
                   "-e", "advisor_min_score=1")  # a number: the gate gets --min-score 1
    assert passed.returncode == 0, passed.stdout[-3000:]
    report = json.loads((tmp_path / "reports" / "report.json").read_text())
    assert sorted(h["host"] for h in report["hosts"]) == sorted(tuned)
    assert (tmp_path / "reports" / "report.html").is_file()

    failed = _play(env, fleet, "advisor.fleet.audit", tmp_path, "--limit", ",".join([*tuned, "linux-02", "down-01"]))
    assert failed.returncode == 2, failed.stdout[-3000:]
    assert "advisor gate exited 3 (a host was not collected): down-01: not collected: unreachable: " in failed.stdout
    hosts = {h["host"]: h for h in json.loads((tmp_path / "reports" / "report.json").read_text())["hosts"]}
    assert sorted(hosts) == sorted([*tuned, "linux-02", "down-01"])
    assert hosts["down-01"]["status"] == "unreachable" and "Connection refused" in hosts["down-01"]["errors"][0]
    assert hosts["linux-02"]["findings"]


def test_a_slow_host_keeps_what_it_gave_and_another_system_is_recorded_as_not_collected(env, fleet, tmp_path) -> None:
    """The task's timeout would drop the host: the script stops in time instead (its deadline is the
    timeout less the time to send the bundle back), and the bundle keeps what the other commands printed."""
    slow, other = fleet.hosts["solaris-07"], fleet.hosts["linux-08"]
    fleet.serving[slow].assign(slow, CAPTURES / "s11-guest-untuned", "uname-s=SunOS", "slow=60")
    fleet.serving[other].assign(other, CAPTURES / "linux-gw-untuned", "uname-s=AIX")
    try:
        play = _play(env, fleet, "advisor.fleet.collect", tmp_path, "--limit", "solaris-07,linux-08,linux-02",
                     "-e", "advisor_timeout=20")
    finally:
        fleet.serving[slow].assign(slow, CAPTURES / "s11-guest-untuned", "uname-s=SunOS")
        fleet.serving[other].assign(other, CAPTURES / "linux-gw-untuned", "uname-s=Linux")
    assert play.returncode == 2, play.stdout[-3000:]
    code, hosts = _review(tmp_path / "captures")
    assert code == 3 and hosts["solaris-07"]["errors"] == [] and "kstat -p" in hosts["solaris-07"]["incomplete"]
    assert hosts["solaris-07"]["findings"]  # judged on what it gave
    assert hosts["linux-08"]["errors"] == ["platform 'AIX' is not audited by this release"]
    assert hosts["linux-02"]["errors"] == [] and hosts["linux-02"]["findings"]


def test_a_play_with_advisor_sample_brings_back_second_readings_that_review_into_rates(env, fleet, tmp_path) -> None:
    """advisor_sample=1 on a Solaris, a Linux and an HP-UX host serving two-sample bundles: each bundle
    fetched holds the counters' second readings (`~2` files) and reviews with rates."""
    sampled = {"solaris-01": ("t5-primary-30s", "SunOS", ["kstat-p"]),
               "linux-02": ("linux-gw-30s", "Linux", ["proc-net-dev", "ethtool-stats@eth0"]),
               "hpux-03": ("hpux-rx6600-20s", "HP-UX", ["lanadmin-g@0", "lanadmin-g@1", "lanadmin-g@2"])}
    for host, (bundle, system, _) in sampled.items():
        fleet.serving[fleet.hosts[host]].assign(fleet.hosts[host], CAPTURES.parent / "sampled" / bundle, f"uname-s={system}")
    try:
        play = _play(env, fleet, "advisor.fleet.collect", tmp_path, "--limit", ",".join(sampled), "-e", "advisor_sample=1")
    finally:
        for host in sampled:
            bundle, system = fleet.served[host]
            fleet.serving[fleet.hosts[host]].assign(fleet.hosts[host], CAPTURES / bundle, f"uname-s={system}")
    assert play.returncode == 0, play.stdout[-3000:]
    for host, (bundle, _, counters) in sampled.items():
        with tarfile.open(tmp_path / "captures" / f"{host}.tar.gz") as tar:
            manifest = yaml.safe_load(tar.extractfile(f"{host}/manifest.yaml").read())  # type: ignore[union-attr]
            for name in counters:
                second = tar.extractfile(f"{host}/{name}~2.txt").read()  # type: ignore[union-attr]
                assert second == (CAPTURES.parent / "sampled" / bundle / f"{name}~2.txt").read_bytes(), (host, name)
        assert manifest["sample"] == "1s"
        assert {f"{n}~2" for n in counters} <= {c["id"] for c in manifest["commands"] if c.get("taken_at")}
    code, hosts = _review(tmp_path / "captures")
    assert code in (0, 1) and all(hosts[h]["errors"] == [] and hosts[h]["rates"] for h in sampled)
    assert hosts["solaris-01"]["rates"]["cpu_busy"] > 0.34
    eth0 = next(e for e in hosts["linux-02"]["rates"]["links"] if e["name"] == "eth0")
    assert eth0["in_bps"] * eth0["interval_s"] == pytest.approx(11_250_000_000 * 8) and eth0["line_bps"] == 1e10
    lan0 = next(e for e in hosts["hpux-03"]["rates"]["links"] if e["name"] == "lan0")
    assert lan0["in_bps"] == pytest.approx(4e8) and lan0["wrapped"] == ["Inbound Octets"]


def _recap(play: subprocess.CompletedProcess[str]) -> dict[str, dict[str, int]]:
    """PLAY RECAP's counts by host: {"linux-02": {"ok": 2, "changed": 1, ...}}."""
    return {m[1]: {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m[2])}
            for m in re.finditer(r"^(\S+)\s+:\s+(ok=\d+.*)$", play.stdout, re.M)}


def test_check_mode_collects_and_writes_nothing_and_changed_means_a_host_s_outputs_changed(env, fleet, tmp_path) -> None:
    """Collecting is read-only on the hosts: --check connects and collects, and writes nothing on the
    controller. A second run reports no change; a host whose outputs changed is the one changed."""
    hosts = ["solaris-01", "linux-02", "hpux-03", "down-01"]  # down-01: nothing listens
    keep = ("-e", "advisor_fail_uncollected=false")  # its record is kept, and compared, as a bundle too
    limit = ("--limit", ",".join(hosts))
    captures = tmp_path / "captures"

    def collected() -> dict[str, int]:  # collectors run on each host so far (each runs uname -a once; the action never)
        sent = fleet.sent()
        return {h: sum(1 for line in sent if line == f"{fleet.hosts[h]} uname -a") for h in hosts}

    def changed(play: subprocess.CompletedProcess[str]) -> dict[str, int]:
        assert play.returncode == 0, play.stdout[-3000:]
        return {h: counts["changed"] for h, counts in _recap(play).items()}

    before = collected()
    checked = _play(env, fleet, "advisor.fleet.collect", tmp_path, *limit, *keep, "--check")
    assert changed(checked) == {"solaris-01": 1, "linux-02": 1, "hpux-03": 1, "down-01": 1}  # none on the controller yet
    after = collected()
    in_check_mode = {h: after[h] - before[h] for h in hosts}
    assert all(in_check_mode[h] > 0 for h in hosts[:3]) and in_check_mode["down-01"] == 0, in_check_mode
    assert list(tmp_path.iterdir()) == []  # no captures folder, nothing else either

    assert changed(_play(env, fleet, "advisor.fleet.collect", tmp_path, *limit, *keep)) == dict.fromkeys(hosts, 1)
    assert {h: n - after[h] for h, n in collected().items()} == in_check_mode  # the same commands as a real run
    assert sorted(p.name for p in captures.iterdir()) == sorted(f"{h}.tar.gz" for h in hosts)
    assert changed(_play(env, fleet, "advisor.fleet.collect", tmp_path, *limit, *keep)) == dict.fromkeys(hosts, 0)

    address = fleet.hosts["linux-02"]
    fleet.serving[address].assign(address, CAPTURES / "ovm-dom0-tuned", "uname-s=Linux")  # its settings changed
    try:
        kept = {p.name: p.read_bytes() for p in captures.iterdir()}
        checked = _play(env, fleet, "advisor.fleet.collect", tmp_path, *limit, *keep, "--check")
        assert changed(checked) == {"solaris-01": 0, "linux-02": 1, "hpux-03": 0, "down-01": 0}
        assert {p.name: p.read_bytes() for p in captures.iterdir()} == kept  # check mode wrote nothing
        assert changed(_play(env, fleet, "advisor.fleet.collect", tmp_path, *limit, *keep)) == {
            "solaris-01": 0, "linux-02": 1, "hpux-03": 0, "down-01": 0}
    finally:
        fleet.serving[address].assign(address, CAPTURES / "ovm-dom0-untuned", "uname-s=Linux")
    _, reviewed = _review(captures / "linux-02.tar.gz")
    assert reviewed["linux-02"]["errors"] == [] and reviewed["linux-02"]["status"] == "clean"  # the tuned one


def _bundle(folder: str, files: dict[str, bytes]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"{folder}/{name}" if not name.startswith("/") else name.lstrip("/"))
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return raw.getvalue()


def test_the_bundle_is_read_back_from_base64_or_uuencode_and_damage_is_refused(bundle) -> None:
    data = _bundle("web1", {"manifest.yaml": b"format: advisor-capture/1\n", "kstat-p.txt": bytes(range(256)) * 50})
    name = "web1-20261123T010203Z.tar.gz"
    b64 = "\r\n".join(base64.encodebytes(data).decode().splitlines())  # a pty's line ends
    uu = "\n".join(["begin 600 bundle"] + [binascii.b2a_uu(data[i:i + 45]).decode().rstrip("\n")
                                           for i in range(0, len(data), 45)] + ["`", "end"])
    for encoding, text in (("base64", b64), ("uuencode", uu)):
        stdout = f"noise\n@@advisor-bundle {name}\n@@advisor-encoding {encoding}\n{text}\n@@advisor-end\n"
        assert bundle.decode(stdout) == (name, data)
        bundle.check(data, name)
    with pytest.raises(bundle.BundleError, match="cut short"):
        bundle.check(data[:len(data) // 2], name)
    with pytest.raises(bundle.BundleError, match="no complete bundle"):
        bundle.decode(f"@@advisor-bundle {name}\n@@advisor-encoding base64\n{b64}\n")
    with pytest.raises(bundle.BundleError, match="damaged"):
        bundle.decode(f"@@advisor-bundle {name}\n@@advisor-encoding base64\n!!{b64}\n@@advisor-end\n")
    damaged = bytearray(data)
    damaged[-8] ^= 0xFF  # the gzip trailer's checksum: zlib.error, not the tar reader's
    with pytest.raises(bundle.BundleError, match="not a whole gzip stream"):
        bundle.check(bytes(damaged), name)
    with pytest.raises(bundle.BundleError, match="not a whole gzip stream"):
        bundle.check(b"PK\x03\x04 a zip, not gzip", name)
    escaping = _bundle("web1", {"manifest.yaml": b"", "/etc/cron.d/x": b"boom"})
    with pytest.raises(bundle.BundleError, match="outside its folder"):
        bundle.check(escaping, name)


def test_the_script_prints_its_bundle_for_a_host_named_by_the_caller(bundle, tmp_path) -> None:
    """ADVISOR_OUT=- under dash: the bundle arrives on stdout, named as the inventory names the host
    (a name that cannot be a file name keeps its folder safe and its manifest exact)."""
    stub = {**_stub_host(tmp_path, CAPTURES / "s11-guest-untuned"), "ADVISOR_OUT": "-", "ADVISOR_HOST": 'db "1"\\err'}
    ran = subprocess.run(["dash", str(FILES / "collect-solaris.sh")], env=stub, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    name, data = bundle.decode(ran.stdout)
    assert name.startswith("host-") and name.endswith(".tar.gz")
    bundle.check(data, name)
    (tmp_path / "db.tar.gz").write_bytes(data)
    code, hosts = _review(tmp_path / "db.tar.gz")
    assert code == 0 and list(hosts) == ['db "1"\\err'] and hosts['db "1"\\err']["findings"]


def _one_stream_bomb(path: Path, kind: bytes, size: int) -> Path:
    """A bundle of one gzip stream whose first member's header (a long name, a pax
    header) asks for `size` bytes of zeros: a few hundred KiB on disk."""
    import zlib

    info = tarfile.TarInfo("web1/x")
    info.size, info.type = size, kind
    deflate = zlib.compressobj(1, zlib.DEFLATED, 31)
    chunk = bytes(64 << 20)
    with path.open("wb") as out:
        out.write(deflate.compress(info.tobuf(format=tarfile.GNU_FORMAT)))
        for _ in range(size // len(chunk)):
            out.write(deflate.compress(chunk))
        out.write(deflate.compress(bytes(size % len(chunk) + (-size % 512) + 1024)))
        out.write(deflate.flush())
    return path


# The peak is read from VmHWM: getrusage's would carry the (large) test process's own across fork and exec.
_CHECK = ("import re, sys\n"
          "sys.path.insert(0, sys.argv[1])\n"
          "from ansible_collections.advisor.fleet.plugins.action import bundle\n"
          "try:\n"
          "    bundle.check(open(sys.argv[2], 'rb').read(), 'web1-20261123T010203Z.tar.gz')\n"
          "except bundle.BundleError as exc:\n"
          "    print(exc)\n"
          "print(int(re.search(r'VmHWM:\\s+(\\d+) kB', open('/proc/self/status').read()).group(1)) << 10)\n")


def _checked_in_little_memory(env, bomb: Path, timeout: float = 120) -> str:
    """What the collection's check says of `bomb`, run in a process of its own that must stay under 128 MiB."""
    ran = subprocess.run([sys.executable, "-c", _CHECK, env["ANSIBLE_COLLECTIONS_PATH"], str(bomb)],
                         capture_output=True, text=True, timeout=timeout)
    said, peak = ran.stdout.splitlines()
    assert int(peak) < 128 << 20, (int(peak), ran.stderr)
    return said


@pytest.mark.parametrize("kind", [tarfile.GNUTYPE_LONGNAME, tarfile.XHDTYPE])
def test_a_bundle_asking_for_a_huge_member_name_is_refused_in_little_memory(env, tmp_path, kind: bytes) -> None:
    """tarfile reads such a header whole into the controller's memory, at the size it gives, on every fork."""
    bomb = _one_stream_bomb(tmp_path / "bomb.tar.gz", kind, 3 << 28)
    assert bomb.stat().st_size < 4 << 20
    assert _checked_in_little_memory(env, bomb) == ("the bundle is not a readable tar archive "
                                                    "(a member's name or extended header is 805,306,368 bytes)")


def test_a_bundle_of_many_long_names_is_refused_in_little_memory(env, tmp_path) -> None:
    """Each name within the limit, but tarfile keeps every member: 1,000 names of
    60 KiB took a 1 MB bundle to a gigabyte of the controller's memory."""
    info = tarfile.TarInfo("web1/" + "x" * (60 << 10))
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for _ in range(1000):
            tar.addfile(info, io.BytesIO())
    bomb = tmp_path / "bomb.tar.gz"
    bomb.write_bytes(gzip.compress(raw.getvalue()))
    assert bomb.stat().st_size < 2 << 20
    assert _checked_in_little_memory(env, bomb) == ("the bundle is not a readable tar archive "
                                                    "(its names and extended headers take more than 1,048,576 bytes)")


def test_a_bundle_with_crafted_pax_headers_is_refused_quickly(env, tmp_path) -> None:
    """The controller's Python may predate the fix for CVE-2024-6232: each of these
    headers held its tarfile for about 6 s, under the limits the check sets."""
    from test_pax_headers import _file, _pax, _record

    headers = b"".join(_pax(_record("comment", b"7" * (63 << 10))) + _file(f"web1/{n}", b"x") for n in range(16))
    bomb = tmp_path / "bomb.tar.gz"
    bomb.write_bytes(gzip.compress(headers + _file("web1/manifest.yaml", b"format: advisor-capture/1\n")
                                   + bytes(1024)))
    assert _checked_in_little_memory(env, bomb, timeout=30) == (
        "the bundle has extended (pax) headers whose runs of digits tarfile would take too long to read")


def test_a_bundle_of_several_gzip_streams_is_refused(bundle, tmp_path) -> None:
    """Gzip readers go on into a stream after the first; the size check stopped at its end."""
    one = _bundle("web1", {"manifest.yaml": b"format: advisor-capture/1\n"})
    with pytest.raises(bundle.BundleError, match="data after its gzip stream"):
        bundle.check(one + one, "web1-20261123T010203Z.tar.gz")
    bundle.check(one, "web1-20261123T010203Z.tar.gz")


def test_a_bundle_whose_name_gives_no_folder_or_with_an_absolute_member_is_refused(bundle) -> None:
    """With no folder in the name, every member counted as inside it, an absolute one too:
    one member named /manifest.yaml passed the check, and advisor review refused it only on unpacking."""
    manifest = b"format: advisor-capture/1\n"
    member = tarfile.TarInfo("/manifest.yaml")
    member.size = len(manifest)
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w:gz") as tar:
        tar.addfile(member, io.BytesIO(manifest))
    absolute = raw.getvalue()
    for name in (".tar.gz", "-20261123T010203Z.tar.gz"):
        with pytest.raises(bundle.BundleError, match=f"the bundle's name '{name}' gives no folder for its host"):
            bundle.check(absolute, name)
    with pytest.raises(bundle.BundleError, match="the bundle holds '/manifest.yaml', an absolute path"):
        bundle.check(absolute, "web1-20261123T010203Z.tar.gz")


def test_a_sparse_member_is_refused_by_the_size_unpacking_would_write(bundle) -> None:
    """A GNU sparse member whose real size is 100 GiB takes one header block: the
    check counted the bytes inflated, a few hundred, where unpacking writes 100 GiB."""
    manifest = b"format: advisor-capture/1\n"
    head = tarfile.TarInfo("web1/manifest.yaml")
    head.size = len(manifest)
    sparse = tarfile.TarInfo("web1/kstat-p.txt")
    sparse.type = tarfile.GNUTYPE_SPARSE  # no data regions: all of it a hole
    block = bytearray(sparse.tobuf(format=tarfile.GNU_FORMAT))
    block[483:495] = tarfile.itn(100 << 30, 12, tarfile.GNU_FORMAT)  # the member's real size
    block[148:155] = b"%06o\0" % tarfile.calc_chksums(bytes(block))[0]
    raw = (head.tobuf(format=tarfile.GNU_FORMAT) + manifest + bytes(-len(manifest) % 512) + bytes(block)
           + bytes(1024))
    data = gzip.compress(raw)
    assert len(data) < 200
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        member = tar.getmember("web1/kstat-p.txt")
    assert member.issparse() and member.size == 100 << 30
    with pytest.raises(bundle.BundleError) as refused:
        bundle.check(data, "web1-20261123T010203Z.tar.gz")
    assert str(refused.value) == ("the bundle holds 'web1/kstat-p.txt', a sparse file of 107,374,182,400 bytes "
                                  "(a collector writes none)")


def test_a_bundle_s_outputs_leave_out_when_it_was_collected(bundle) -> None:
    """changed compares what a host said, not when: the manifest's collected_at, the archive's
    times and the gzip header's are left out; one byte of one output is not."""
    def made(stamp: str, mtime: int, kstat: bytes) -> bytes:
        manifest = f"format: advisor-capture/1\nhost: web1\ncollected_at: \"{stamp}\"\ncommands: []\n".encode()
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w") as tar:
            for name, data in (("manifest.yaml", manifest), ("kstat-p.txt", kstat)):
                info = tarfile.TarInfo(f"web1/{name}")
                info.size, info.mtime = len(data), mtime
                tar.addfile(info, io.BytesIO(data))
        return gzip.compress(raw.getvalue(), mtime=mtime)

    first = made("2026-11-23T01:02:03Z", 1_700_000_000, b"unix:0:misc:x\t1\n")
    again = made("2026-11-24T01:02:03Z", 1_700_086_400, b"unix:0:misc:x\t1\n")
    other = made("2026-11-24T01:02:03Z", 1_700_086_400, b"unix:0:misc:x\t2\n")
    assert first != again
    assert bundle.outputs(first) == bundle.outputs(again) != bundle.outputs(other)
    assert sorted(bundle.outputs(first)) == ["kstat-p.txt", "manifest.yaml"]
