"""The offline collector script runs under a plain POSIX shell (dash) against
the stub tools and leaves a bundle that reviews like the fixture it served."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from advisor import platform_registry as platforms
from advisor.collect import script
from conftest import CAPTURES, run_cli
from sshd_harness import STUB, TOOLS

SHELLS = ["dash"] + (["busybox"] if shutil.which("busybox") else [])  # dash: tests/install-deps.sh


def _stub_host(tmp_path: Path, bundle: Path, *flags: str) -> dict[str, str]:
    root = tmp_path / "stub"
    (root / "bin").mkdir(parents=True)
    for tool in TOOLS:
        (root / "bin" / tool).symlink_to(STUB)
    shutil.copytree(bundle, root / "hosts" / "127.0.0.2", ignore=shutil.ignore_patterns("manifest.yaml"))
    for flag in flags:
        (root / "hosts" / "127.0.0.2" / f".{flag}").write_text("")
    return {"PATH": f"{root / 'bin'}:/usr/bin:/bin", "ADVISOR_STUB_ROOT": str(root),
            "SSH_CONNECTION": "127.0.0.1 40000 127.0.0.2 22", "ADVISOR_OUT": str(tmp_path / "out"),
            "TMPDIR": str(tmp_path), "HOME": str(tmp_path)}


def _in_shell(shell: str, tmp_path: Path, text: str, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The collector script run by this shell (busybox runs it as `busybox sh`): its run and its one bundle."""
    path = tmp_path / "collect.sh"
    path.write_text(text)
    (tmp_path / "out").mkdir()
    argv = [shell, "sh", str(path)] if shell == "busybox" else [shell, str(path)]
    run = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    [tarball] = (tmp_path / "out").glob("*.tar.gz")
    return run, tarball


@pytest.mark.parametrize("shell", SHELLS)
def test_script_bundle_reviews_like_the_fixture(shell: str, tmp_path: Path) -> None:
    res = run_cli("collector-script", "--platform", "solaris")
    assert res.returncode == 0
    run, tarball = _in_shell(shell, tmp_path, res.stdout, _stub_host(tmp_path, CAPTURES / "s11-guest-untuned"))
    assert run.stdout.strip() == str(tarball) and tarball.name.startswith("ldg1-")
    assert not list(tmp_path.glob("advisor.*"))  # scratch folder removed
    with tarfile.open(tarball) as tar:
        names = tar.getnames()
        assert "ldg1/manifest.yaml" in names and "ldg1/kstat-p.txt" in names
        assert all(m.mode & 0o077 == 0 for m in tar.getmembers() if m.isfile())
    live = json.loads(run_cli("review", str(tarball), "-f", "json").stdout)["hosts"][0]
    fixture = json.loads(run_cli("review", str(CAPTURES / "s11-guest-untuned"), "-f", "json").stdout)["hosts"][0]
    assert live["host"] == "ldg1" and live["errors"] == []
    def key(h: dict) -> list[tuple[str, str, str]]:
        return [(f["rule"], f["subject"], f["message"]) for f in h["findings"]]  # both name node ldg1

    assert key(live) == key(fixture) and len(key(live)) >= 6
    assert any(m.startswith("ldm -V: sh: 1: ldm: not found") for m in live["not_collected"])


def test_script_sends_only_the_allowlist(tmp_path: Path) -> None:
    text = script.render("solaris", "sudo")
    runs = [line for line in text.splitlines() if line.startswith(("run ", "run_sampled "))]
    assert len(runs) == len(platforms.collected("solaris"))
    assert "'sudo -n ldm list -l -p'" in text and "'kstat -p'" in text
    assert "v=`sudo -n ndd -get /dev/tcp $p`" in text  # ndd runs inside a loop: it is wrapped where it starts
    assert "$(" not in text and "local " not in text and "[[" not in text  # Bourne shell


def test_script_escapes_stderr_into_valid_yaml(tmp_path: Path) -> None:
    env = _stub_host(tmp_path, CAPTURES / "t5-primary-tuned", "sudo-denied")
    path = tmp_path / "collect.sh"
    path.write_text(script.render("solaris", "sudo"))
    (tmp_path / "out").mkdir()
    run = subprocess.run(["dash", str(path)], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    [tarball] = (tmp_path / "out").glob("*.tar.gz")
    host = json.loads(run_cli("review", str(tarball), "-f", "json").stdout)["hosts"][0]
    assert "sudo -n ldm -V: sudo: a password is required" in host["not_collected"]
    assert os.environ.get("ADVISOR_OUT") is None


def test_xen_script_falls_back_to_xm_and_splits_interfaces(tmp_path: Path) -> None:
    env = _stub_host(tmp_path, Path(__file__).parent / "stubhost" / "xen-dom0")
    path = tmp_path / "collect.sh"
    path.write_text(script.render("xen"))
    (tmp_path / "out").mkdir()
    run = subprocess.run(["dash", str(path)], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    [tarball] = (tmp_path / "out").glob("*.tar.gz")
    with tarfile.open(tarball) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        manifest = __import__("yaml").safe_load(tar.extractfile("ovs-dom0/manifest.yaml").read())
    assert {"xm-vcpu-list.txt", "ethtool-k@lo.txt", "ip-link.txt", "manifest.yaml"} <= names
    entries = {c["id"]: c for c in manifest["commands"]}
    assert entries["xm-vcpu-list"]["file"] == "xm-vcpu-list.txt"
    assert entries["ethtool-k@lo"]["exit_status"] == 0
    with tarfile.open(tarball) as tar:  # per-interface outputs are checked like the others
        lo = tar.extractfile("ovs-dom0/ethtool-k@lo.txt").read()
    assert entries["ethtool-k@lo"]["sha256"] == __import__("hashlib").sha256(lo).hexdigest()
    failed = [c for i, c in entries.items() if i.startswith("ethtool-c@")]
    assert failed and all(c["file"] is None and c["exit_status"] == 127 and "not found" in c["stderr"] for c in failed)
    review = json.loads(run_cli("review", str(tarball), "-f", "json").stdout)["hosts"][0]
    assert review["errors"] == [] and review["platform"] == "linux"
    assert "ethtool-k@lo" in review["detected"]["inputs"] and "xm-vcpu-list" in review["detected"]["inputs"]


def _run_script(tmp_path: Path, text: str, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], dict]:
    path = tmp_path / "collect.sh"
    path.write_text(text)
    (tmp_path / "out").mkdir()
    run = subprocess.run(["dash", str(path)], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    [tarball] = (tmp_path / "out").glob("*.tar.gz")
    with tarfile.open(tarball) as tar:
        manifest = __import__("yaml").safe_load(tar.extractfile(f"{tar.getnames()[0].split('/')[0]}/manifest.yaml"))
    return run, {c["id"]: c for c in manifest["commands"]}


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_a_command_that_hangs_is_stopped_and_the_bundle_keeps_the_rest(tmp_path: Path) -> None:
    env = _stub_host(tmp_path, CAPTURES / "s11-guest-untuned")
    (tmp_path / "stub" / "hosts" / "127.0.0.2" / ".slow").write_text("30")
    _run, entries = _run_script(tmp_path, script.render("solaris"), {**env, "ADVISOR_COMMAND_TIMEOUT": "2"})
    assert entries["kstat-p"]["exit_status"] is None and entries["kstat-p"]["stderr"] == "timed out after 2 s"
    assert entries["uname-a"]["exit_status"] == 0 and entries["dladm-show-phys"]["file"] == "dladm-show-phys.txt"
    [tarball] = (tmp_path / "out").glob("*.tar.gz")
    res = run_cli("review", str(tarball), "-f", "json")
    assert res.returncode == 3  # incomplete, as a live collection that timed out
    assert "kstat -p" in json.loads(res.stdout)["hosts"][0]["incomplete"]


def test_an_output_past_the_limit_is_not_kept_and_no_more_is_written(tmp_path: Path) -> None:
    """ulimit -f stops the writer: the host's disk and the reader's memory stay bounded."""
    env = _stub_host(tmp_path, CAPTURES / "s11-guest-untuned")
    (tmp_path / "stub" / "hosts" / "127.0.0.2" / ".huge").write_text("5000000")
    text = script.render("solaris")
    small = text.replace(f'"$dir/$file" {script.MAX_OUTPUT_BYTES} ', '"$dir/$file" 1048576 ')
    assert small != text
    _run, entries = _run_script(tmp_path, small, env)
    assert entries["kstat-p"]["file"] is None and entries["kstat-p"]["stderr"] == "more than 1048576 bytes of output; not kept"
    assert entries["uname-a"]["exit_status"] == 0


def test_a_bundle_too_big_to_send_as_text_says_so(tmp_path: Path) -> None:
    env = {**_stub_host(tmp_path, CAPTURES / "s11-guest-untuned"), "ADVISOR_OUT": "-"}
    text = script.render("solaris").replace(f"-gt {script.MAX_SENT_BYTES} ", "-gt 100 ").replace(
        f"more than the {script.MAX_SENT_BYTES} sent", "more than the 100 sent")
    path = tmp_path / "collect.sh"
    path.write_text(text)
    run = subprocess.run(["dash", str(path)], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 3 and "@@advisor-bundle" not in run.stdout
    assert "more than the 100 sent as text: run the collector with ADVISOR_OUT=<folder>" in run.stderr


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_the_collection_stops_at_its_deadline_and_keeps_what_it_has(tmp_path: Path) -> None:
    env = _stub_host(tmp_path, CAPTURES / "s11-guest-untuned")
    (tmp_path / "stub" / "hosts" / "127.0.0.2" / ".slow").write_text("60")
    started = __import__("time").monotonic()
    _run, entries = _run_script(tmp_path, script.render("solaris"), {**env, "ADVISOR_DEADLINE": "3"})
    assert __import__("time").monotonic() - started < 30
    assert entries["kstat-p"]["exit_status"] is None and entries["kstat-p"]["stderr"] == "stopped: the collection's 3 s were up"
    after = list(entries)[list(entries).index("kstat-p") + 1:]
    assert after and all(entries[i]["stderr"] == "not run: the collection's 3 s were up" for i in after)
    assert entries["uname-a"]["exit_status"] == 0


def test_a_command_timeout_of_zero_is_refused_not_applied(tmp_path: Path) -> None:
    """0 seconds would stop every command at once and leave an empty bundle."""
    env = _stub_host(tmp_path, CAPTURES / "s11-guest-untuned")
    path = tmp_path / "collect.sh"
    path.write_text(script.render("solaris"))
    run = subprocess.run(["dash", str(path)], env={**env, "ADVISOR_COMMAND_TIMEOUT": "0"}, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and run.stderr == "ADVISOR_COMMAND_TIMEOUT=0: give whole seconds, at least 1\n"


@pytest.mark.parametrize("shell", SHELLS)
def test_with_a_sample_the_script_reads_the_counters_again_and_the_bundle_gives_rates(shell: str, tmp_path: Path) -> None:
    """ADVISOR_SAMPLE=1: kstat -p again a second after its first run, kept as kstat-p~2.txt."""
    sampled = CAPTURES.parent / "sampled/t5-primary-30s"
    env = {**_stub_host(tmp_path, sampled), "ADVISOR_SAMPLE": "1"}
    run, tarball = _in_shell(shell, tmp_path, script.render("solaris"), env)
    with tarfile.open(tarball) as tar:
        top = tar.getnames()[0].split("/")[0]
        manifest = __import__("yaml").safe_load(tar.extractfile(f"{top}/manifest.yaml"))
        second = tar.extractfile(f"{top}/kstat-p~2.txt").read()
    assert second == (sampled / "kstat-p~2.txt").read_bytes() and manifest["sample"] == "1s"
    readings = [c for c in manifest["commands"] if c["command"] == "kstat -p"]
    assert [c["id"] for c in readings] == ["kstat-p", "kstat-p~2"] and all(c["taken_at"] for c in readings)
    assert all(len(c["sha256"]) == 64 for c in readings)
    live = json.loads(run_cli("review", str(tarball), "-f", "json").stdout)["hosts"][0]
    fixture = json.loads(run_cli("review", str(sampled), "-f", "json").stdout)["hosts"][0]
    assert live["errors"] == [] and live["unused"] == []
    for side in (live, fixture):
        side["rates"].pop("samples")
    assert live["rates"] == fixture["rates"]


@pytest.mark.parametrize("platform, fixture, system, seconds", [
    ("linux", "linux-gw-30s", "Linux", ["proc-net-dev", "ethtool-stats@eth0"]),
    ("hpux", "hpux-rx6600-20s", "HP-UX", ["lanadmin-g@0", "lanadmin-g@1", "lanadmin-g@2"])])
def test_with_a_sample_the_linux_and_hpux_scripts_read_their_counters_again(tmp_path: Path, platform: str, fixture: str,
                                                                            system: str, seconds: list[str]) -> None:
    """ADVISOR_SAMPLE=1 on Linux (/proc/net/dev, ethtool -S; ethtool IF once) and HP-UX (lanadmin -g):
    the stub's second counters are kept as ~2 files and the bundle gives rates."""
    sampled = CAPTURES.parent / "sampled" / fixture
    env = {**_stub_host(tmp_path, sampled), "ADVISOR_SAMPLE": "1"}
    (tmp_path / "stub/hosts/127.0.0.2/.uname-s").write_text(system)  # what the stub answers to uname -s
    path = tmp_path / "collect.sh"
    path.write_text(script.render(platform))
    (tmp_path / "out").mkdir()
    run = subprocess.run(["dash", str(path)], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    [tarball] = (tmp_path / "out").glob("*.tar.gz")
    with tarfile.open(tarball) as tar:
        top = tar.getnames()[0].split("/")[0]
        manifest = __import__("yaml").safe_load(tar.extractfile(f"{top}/manifest.yaml"))
        for name in seconds:
            for file in (f"{name}.txt", f"{name}~2.txt"):
                assert tar.extractfile(f"{top}/{file}").read() == (sampled / file).read_bytes(), file
        names = tar.getnames()
    assert (f"{top}/ethtool@eth0.txt" in names) == (platform == "linux") and not any("ethtool@eth0~2" in n for n in names)
    by_id = {c["id"]: c for c in manifest["commands"]}
    assert all(by_id[f"{n}~2"]["taken_at"] and by_id[n]["taken_at"] for n in seconds) and manifest["sample"] == "1s"
    live = json.loads(run_cli("review", str(tarball), "-f", "json").stdout)["hosts"][0]
    assert live["errors"] == []
    links = {e["name"]: e for e in live["rates"]["links"]}
    if platform == "hpux":  # timed by the displays' date lines: the fixture's rates
        fixture_rates = json.loads(run_cli("review", str(sampled), "-f", "json").stdout)["hosts"][0]["rates"]
        live["rates"].pop("samples")
        fixture_rates.pop("samples")
        assert live["rates"] == fixture_rates and links["lan0"]["in_bps"] == pytest.approx(4e8)
    else:  # timed by the manifest's whole seconds
        interval = links["eth0"]["interval_s"]
        assert interval >= 1 and links["eth0"]["in_bps"] * interval == pytest.approx(11_250_000_000 * 8)
        assert links["eth0"]["line_bps"] == 1e10 and links["eth0"]["lso_share"] == pytest.approx(0.2)


@pytest.mark.parametrize("value", ["601", "05", "30s", "-1"])
def test_a_sample_out_of_bounds_is_refused(tmp_path: Path, value: str) -> None:
    env = _stub_host(tmp_path, CAPTURES / "s11-guest-untuned")
    path = tmp_path / "collect.sh"
    path.write_text(script.render("solaris"))
    run = subprocess.run(["dash", str(path)], env={**env, "ADVISOR_SAMPLE": value}, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and run.stderr == f"ADVISOR_SAMPLE={value}: give whole seconds, 1 to 600 (0: once)\n"


_VIRSH = """#!/bin/sh
# virsh of a KVM host with a guest whose name holds a blank; logs each call with its argument count
echo "$# $*" >> "$ADVISOR_STUB_ROOT/virsh.log"
host=$ADVISOR_STUB_ROOT/hosts/127.0.0.2
case "$1 $2" in
"list --name") printf 'db1\\nmy guest\\n\\n' ;;
"list --all") cat "$host/virsh-list.txt" ;;
"vcpupin db1"|"domiflist db1") cat "$host/virsh-$1@db1.txt" ;;
"vcpupin my guest"|"domiflist my guest") cat "$host/virsh-$1@rhel7.txt" ;;
*) echo "error: failed to get domain '$2'" >&2; exit 1 ;;
esac
"""


@pytest.mark.parametrize("shell", SHELLS)
def test_the_kvm_loop_reads_one_guest_name_a_line(shell: str, tmp_path: Path) -> None:
    """`virsh list --name` prints one name a line; a name with a blank is one guest, never two."""
    env = _stub_host(tmp_path, CAPTURES / "kvm-host-rhel8")
    virsh = tmp_path / "stub" / "bin" / "virsh"
    virsh.write_text(_VIRSH)
    virsh.chmod(0o755)
    _, tarball = _in_shell(shell, tmp_path, script.render("linux"), env)
    calls = (tmp_path / "stub" / "virsh.log").read_text().splitlines()
    assert "2 vcpupin my guest" in calls and "2 domiflist my guest" in calls  # one argument: the whole name
    assert not [c for c in calls if c.split()[-1] in ("my", "guest") and not c.endswith("my guest")]
    with tarfile.open(tarball) as tar:
        top = tar.getnames()[0].split("/")[0]
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        manifest = __import__("yaml").safe_load(tar.extractfile(f"{top}/manifest.yaml"))
    ids = {c["id"] for c in manifest["commands"]}
    assert {"virsh-vcpupin@db1.txt", "virsh-domiflist@db1.txt"} <= names
    assert {"virsh-vcpupin@db1", "virsh-domiflist@db1"} <= ids
    assert not {i for i in ids if i.endswith(("@my", "@guest"))}  # no guest named after half a name
