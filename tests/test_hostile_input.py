"""Hostile and broken input: one clear line and exit status 2, never a
traceback, a hang, unbounded memory or a read outside what was given; every
other host and file still reported.

Each test builds its input (large ones are generated here, not kept) and runs
the installed `advisor` as a user would.
"""

from __future__ import annotations

import gzip
import json
import lzma
import os
import re
import shutil
import subprocess
import tarfile
import time
from pathlib import Path

import pytest

from advisor import datafile
from advisor.collect import safetar, sosreport
from advisor.errors import InputError
from conftest import CAPTURES, run_cli, run_cli_measured

SECRET = "root:$6$SECRETHASHVALUE$abcdef:19000:0:99999:7:::"
BUNDLE = CAPTURES / "t5-primary-untuned"


BASE_MEMORY = 256 << 20  # advisor itself needs about 45 MiB


def _largest_file(args: tuple[str, ...]) -> int:
    sizes = [0]
    for arg in args:
        path = Path(arg)
        if path.is_file():
            sizes.append(path.stat().st_size)
        elif path.is_dir():
            sizes += [p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink()]
    return max(sizes)


@pytest.fixture
def cli():
    """The installed advisor, whose peak memory must stay within a small multiple of its largest input."""
    def run(*args: str, **kwargs):
        res, peak = run_cli_measured(*args, **kwargs)
        bound = BASE_MEMORY + 4 * _largest_file(args)
        assert peak <= bound, f"peak memory {peak >> 20} MiB, over the bound of {bound >> 20} MiB"
        return res
    return run


def _bundle(tmp_path: Path, name: str = "b") -> Path:
    dest = tmp_path / name
    shutil.copytree(BUNDLE, dest)
    return dest


def _secret(tmp_path: Path) -> Path:
    path = tmp_path / "shadow"
    path.write_text(SECRET + "\n")
    return path


def _one_line_errors(res) -> list[str]:
    assert "Traceback" not in res.stderr, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert all(line.startswith(("advisor: ", "advisor gate: ")) for line in lines), res.stderr
    return lines


def test_a_link_out_of_a_bundle_folder_is_not_followed(cli, tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    (bundle / "etc-system.txt").unlink()
    (bundle / "etc-system.txt").symlink_to(_secret(tmp_path))
    res = cli("review", str(bundle), "-f", "json")
    assert res.returncode == 2
    errors = _one_line_errors(res)
    assert any("etc-system.txt: a symbolic link to outside the bundle" in e for e in errors)
    assert "SECRETHASH" not in res.stdout + res.stderr
    assert '"findings"' in res.stdout  # the rest of the bundle is still reviewed


def test_fifos_devices_and_other_users_hard_links_in_a_bundle_are_not_read(cli, tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    secret = _secret(tmp_path)
    (bundle / "ndd-tcp.txt").hardlink_to(secret)
    if os.geteuid() == 0:
        os.chown(bundle, 12345, 12345)  # a customer's folder, reviewed by root
    os.mkfifo(bundle / "kstat-p2.txt")
    (bundle / "dev.txt").symlink_to("/dev/zero")  # outside the bundle, and endless
    res = cli("review", str(bundle), "-f", "json", timeout=60)
    assert res.returncode == 2
    errors = "\n".join(_one_line_errors(res))
    if os.geteuid() == 0:  # only root can give the folder to another user here
        assert "ndd-tcp.txt: a hard link to a file of another user (uid 0)" in errors
    assert "kstat-p2.txt: not a regular file" in errors
    assert "dev.txt: a symbolic link to outside the bundle" in errors
    assert "SECRETHASH" not in res.stdout + res.stderr


def test_a_manifest_cannot_name_a_file_outside_its_bundle(cli, tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    _secret(tmp_path)
    (bundle / "manifest.yaml").write_text(
        "host: t5\ncommands:\n  - {command: cat /etc/system, file: ../shadow}\n"
        "  - {command: cat /etc/system, file: link.txt}\n")
    (bundle / "link.txt").symlink_to(tmp_path / "shadow")
    res = cli("review", str(bundle), "-f", "json")
    errors = "\n".join(_one_line_errors(res))
    assert res.returncode == 2
    assert "'../shadow' is outside the bundle" in errors and "'link.txt' is outside the bundle" in errors
    assert "SECRETHASH" not in res.stdout + res.stderr


def test_a_sosreport_hostname_link_is_not_followed(cli, tmp_path: Path) -> None:
    sos = tmp_path / "sosreport-x-2026"
    (sos / "sos_commands" / "general").mkdir(parents=True)
    (sos / "sos_commands" / "general" / "hostname").symlink_to(_secret(tmp_path))
    (sos / "sos_commands" / "networking").mkdir()
    (sos / "sos_commands" / "networking" / "ethtool_-k_eth0").write_text("Features for eth0:\ntcp-segmentation-offload: on\n")
    res = cli("review", str(sos), "-f", "json")
    assert "root" not in res.stdout.split('"host"')[1][:40]
    assert "SECRETHASH" not in res.stdout + res.stderr


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_many_unrecognised_files_are_summarised(cli, tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    for i in range(2000):
        (bundle / f"junk{i:05d}.dat").write_text(f"nothing {i}\n")
    res = cli("review", str(bundle), "-f", "json")
    errors = _one_line_errors(res)
    assert res.returncode == 2
    assert len(errors) < 10
    assert any("1,995 more files not recognised" in e for e in errors)


@pytest.mark.parametrize("other_first", [True, False])
def test_a_hostile_bundle_does_not_stop_the_others(cli, tmp_path: Path, other_first: bool) -> None:
    bad = _bundle(tmp_path, "fleet/a-bad" if other_first else "fleet/z-bad")
    (bad / "etc-system.txt").unlink()
    (bad / "etc-system.txt").symlink_to(_secret(tmp_path))
    _bundle(tmp_path, "fleet/m-good")
    res = cli("review", str(tmp_path / "fleet"), "-f", "json")
    hosts = {h["source"].rsplit("/", 1)[-1]: h for h in json.loads(res.stdout)["hosts"]}
    assert res.returncode == 2
    assert hosts["m-good"]["errors"] == [] and hosts["m-good"]["findings"]


def test_the_owners_own_hard_links_are_read(cli, tmp_path: Path) -> None:
    """A backup tree (rsnapshot, cp -al) links files its owner owns: nothing to refuse."""
    bundle = _bundle(tmp_path)
    (tmp_path / "elsewhere.txt").hardlink_to(bundle / "etc-system.txt")
    res = cli("review", str(bundle), "-f", "json")
    assert res.returncode == 0, res.stderr


# --- archives -----------------------------------------------------------------------------------

_ZEROS = 1 << 20


def _bomb(path: Path, members: list[tuple[str, int]], compress, kind: bytes = tarfile.REGTYPE) -> Path:
    """A real tar of members (of type `kind`) full of zeros, compressed as concatenated streams
    (gzip and xz allow it) so that gigabytes cost a few megabytes and milliseconds to build."""
    zeros = compress(bytes(_ZEROS))
    with path.open("wb") as out:
        for name, size in members:
            info = tarfile.TarInfo(name)
            info.size = size
            info.type = kind
            out.write(compress(info.tobuf(format=tarfile.GNU_FORMAT)))
            whole, rest = divmod(size, _ZEROS)
            out.write(zeros * whole)
            out.write(compress(bytes(rest + (-size % 512))))
        out.write(compress(bytes(1024)))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("suffix, compress", [(".tar.gz", gzip.compress), (".tar.xz", lzma.compress)])
def test_an_archive_bomb_is_refused_before_it_is_written(cli, tmp_path: Path, suffix: str, compress) -> None:
    bomb = _bomb(tmp_path / f"bomb{suffix}", [("b/uname-a.txt", 3 << 30)], compress)
    assert bomb.stat().st_size < 16 << 20
    started = time.monotonic()
    res = cli("review", str(bomb), str(BUNDLE), "-f", "json", timeout=60)
    errors = _one_line_errors(res)
    assert time.monotonic() - started < 20
    assert res.returncode == 2 and "larger than 2147483648 bytes; refused" in errors[0], errors
    assert json.loads(res.stdout)["hosts"][0]["host"] == BUNDLE.name  # the other input is still reported


@pytest.mark.slow
@pytest.mark.parametrize("kind, size, said", [
    (tarfile.GNUTYPE_LONGNAME, 3 << 29, "a member's name or extended header is 1,610,612,736 bytes; refused"),
    (tarfile.XHDTYPE, 3 << 29, "a member's name or extended header is 1,610,612,736 bytes; refused"),
    (b"Q", 9 << 30, "holds more than 8 GiB; refused"),  # a type advisor skips: skipping still decompresses it
])
def test_headers_and_skipped_members_cannot_exhaust_memory_or_time(tmp_path: Path, kind: bytes, size: int,
                                                                     said: str) -> None:
    bomb = _bomb(tmp_path / "bomb.tar.gz", [("b/x", size), ("b/uname-a.txt", 10)], gzip.compress, kind)
    started = time.monotonic()
    res, peak = run_cli_measured("review", str(bomb), str(BUNDLE), "-f", "json", timeout=120)
    assert time.monotonic() - started < 30
    errors = _one_line_errors(res)
    assert res.returncode == 2 and errors == [f"advisor: {bomb}: {said}"], errors
    assert peak < 256 << 20, peak
    assert json.loads(res.stdout)["hosts"][0]["host"] == BUNDLE.name


@pytest.mark.slow
def test_many_long_names_in_skipped_members_cannot_exhaust_memory(tmp_path: Path) -> None:
    """tarfile keeps every member it passes, with its name: 400 names of 700 KiB in
    the parts of a sosreport advisor skips took a 1.3 MB archive to 326 MB."""
    bomb = tmp_path / "sosreport-h-1.tar.gz"
    with bomb.open("wb") as out:
        for n in range(400):
            info = tarfile.TarInfo(f"sosreport-h-1/var/{n:08d}" + "x" * (700 << 10))
            out.write(gzip.compress(info.tobuf(format=tarfile.GNU_FORMAT), compresslevel=1))
        out.write(gzip.compress(bytes(1024)))
    res, peak = run_cli_measured("review", str(bomb), str(BUNDLE), "-f", "json", timeout=120)
    errors = _one_line_errors(res)
    assert res.returncode == 2 and errors == [f"advisor: {bomb}: its names and extended headers take more than "
                                              f"64 MiB; refused"], errors
    assert peak < 256 << 20, peak
    assert json.loads(res.stdout)["hosts"][0]["host"] == BUNDLE.name


@pytest.mark.slow
def test_an_archive_of_too_many_members_is_refused(cli, tmp_path: Path) -> None:
    folder = tarfile.TarInfo("d")
    folder.type = tarfile.DIRTYPE
    path = tmp_path / "many.tar.gz"
    path.write_bytes(gzip.compress(folder.tobuf() * (safetar.MAX_MEMBERS + 1) + bytes(1024), compresslevel=1))
    res = cli("review", str(path), "-f", "json", timeout=120)
    errors = _one_line_errors(res)
    assert res.returncode == 2 and f"more than {safetar.MAX_MEMBERS:,} members; refused" in errors[0], errors


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_an_archive_of_many_small_files_is_refused_before_it_writes_them_all(cli, tmp_path: Path) -> None:
    """100,000 one-line files took past a minute to unpack (each file is a create): a bundle holds a few dozen."""
    path = tmp_path / "many-files.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        for name in sorted(p.name for p in BUNDLE.iterdir()):
            tar.add(BUNDLE / name, arcname=f"b/{name}")
        for i in range(safetar.MAX_UNPACKED + 1):
            info = tarfile.TarInfo(f"b/x{i}.txt")
            info.size = 2
            tar.addfile(info, __import__("io").BytesIO(b"x\n"))
    started = time.monotonic()
    res = cli("review", str(path))
    assert res.returncode == 2 and time.monotonic() - started < 60
    assert _one_line_errors(res) == [f"advisor: {path}: more than {safetar.MAX_UNPACKED:,} files to unpack; refused "
                                     f"(a capture bundle holds a few dozen)"]


def test_what_one_archive_unpacks_is_bounded_in_total_and_by_free_disk(tmp_path: Path, monkeypatch) -> None:
    """The limits themselves are gigabytes; scaled down here so that a real archive reaches them."""
    archive = _bomb(tmp_path / "three.tar.gz", [(f"b/{n}.txt", 3 << 20) for n in "abc"], gzip.compress)
    monkeypatch.setattr(safetar, "MAX_TOTAL_BYTES", 8 << 20)
    with pytest.raises(InputError, match="unpacks to more than"):
        safetar.extract(archive, _empty(tmp_path / "one"), "three.tar.gz")
    monkeypatch.setattr(safetar, "MAX_TOTAL_BYTES", 64 << 20)
    monkeypatch.setattr(safetar, "SPARE_BYTES", shutil.disk_usage(tmp_path).free)
    with pytest.raises(InputError, match=r"not enough free disk .* member 'b/a.txt'"):
        safetar.extract(archive, _empty(tmp_path / "two"), "three.tar.gz")


def test_only_the_files_advisor_reads_are_unpacked_from_a_sosreport(tmp_path: Path) -> None:
    members = [("sosreport-h-1/sos_commands/kernel/uname_-a", 10), ("sosreport-h-1/var/log/journal.log", 5 << 20),
               ("sosreport-h-1/sos_commands/networking/ethtool_-k_eth0", 10)]
    archive = _bomb(tmp_path / "sosreport-h-1.tar.gz", members, gzip.compress)
    dest = _empty(tmp_path / "out")
    safetar.extract(archive, dest, archive.name, sosreport.wanted)
    unpacked = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert unpacked == ["sosreport-h-1/sos_commands/kernel/uname_-a",
                        "sosreport-h-1/sos_commands/networking/ethtool_-k_eth0"]


def _empty(path: Path) -> Path:
    path.mkdir()
    return path


# --- data files: YAML, JSON, XML ------------------------------------------------------------------

_BOMB = "".join(f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n" for p, c in zip("abcdefg", "bcdefgh"))


@pytest.mark.parametrize("name, text, said", [
    ("alias-bomb", "a: &a [x, x, x, x, x, x, x, x, x]\n" + _BOMB, "aliases expand to more than"),
    ("deep", "a: " + "[" * 100_000 + "]" * 100_000 + "\n", "nested more than 64 levels"),
    ("no-such-date", "waivers:\n  - {rule: x, reason: why, owner: me, expires: 2026-02-30}\n",
     ":2: '2026-02-30' is not a value YAML can read"),
    ("huge-number", "params:\n  ldoms.ldc-budget: {threshold: " + "9" * 5000 + "}\n", ":2: '99999"),
    ("infinite", "intents:\n  wan_rtt_ms: .inf\n", "finite number"),
    ("out-of-range", "params:\n  ldoms.ldc-budget: {threshold: 99999999999999999999}\n", "out of range"),
])
def test_a_hostile_policy_is_refused_in_one_line(cli, tmp_path: Path, name: str, text: str, said: str) -> None:
    policy = tmp_path / f"{name}.yaml"
    policy.write_text(text)
    res = cli("review", str(BUNDLE), "--policy", str(policy), "-f", "json", timeout=60)
    assert res.returncode == 2
    errors = _one_line_errors(res)
    assert len(errors) == 1 and said in errors[0] and str(policy) in errors[0], errors


@pytest.mark.parametrize("text", ['ldoms.service-cores: 1\n"ldoms.service-cores": 2\n',
                                  "params:\n  a: {x: 1}\n  'a': {x: 2}\n", "1: x\n0x1: y\n"])
def test_a_key_given_twice_is_refused_whether_quoted_or_not(tmp_path: Path, text: str) -> None:
    """`a:` and `"a":` are one key as YAML reads them: the last one won, in silence."""
    from advisor import datafile
    from advisor.errors import InputError

    with pytest.raises(InputError, match=r"given twice in one mapping"):
        datafile.parse(text, InputError, "policy.yaml")
    assert datafile.parse('1: x\n"1": y\n', InputError, "p.yaml") == {1: "x", "1": "y"}  # an int, a word
    assert datafile.parse('true: a\n"true": b\n', InputError, "p.yaml") == {True: "a", "true": "b"}


@pytest.mark.parametrize("name, said", [('k\\0t.txt', "a file name holding a NUL character"),
                                        ("x" * 256, "a file name longer than 255 bytes")])
def test_a_manifest_naming_a_file_no_file_system_holds_costs_its_bundle_only(
        cli, tmp_path: Path, name: str, said: str) -> None:
    """A NUL or a 256-byte name in one manifest stopped the review of the whole fleet."""
    fleet = tmp_path / "fleet"
    shutil.copytree(CAPTURES / "t5-primary-tuned", fleet / "a")
    shutil.copytree(BUNDLE, fleet / "b")
    (fleet / "a" / "manifest.yaml").write_text(
        f'host: a\ncommands:\n  - {{id: kstat-p, file: "{name}", command: "kstat -p", exit_status: 0}}\n')
    res = cli("review", str(fleet), "-f", "json")
    assert res.returncode == 2
    assert [h["host"] for h in json.loads(res.stdout)["hosts"]] == ["b"]
    assert _one_line_errors(res) == [f"advisor: {fleet / 'a' / 'manifest.yaml'}:3: commands.0.file: {said}"]


def test_c1_controls_and_line_separators_are_escaped_in_json_and_sarif(cli, tmp_path: Path) -> None:
    """U+009B (a terminal's CSI) and U+009D from a capture reached JSON and SARIF
    strings raw; the other views already showed them escaped."""
    bundle = tmp_path / "b"
    shutil.copytree(BUNDLE, bundle)
    hostile = "t5\u009b2J\u009d0;x\u2028y"
    (bundle / "manifest.yaml").write_text(f"host: {json.dumps(hostile)}\ncommands: []\n")
    for fmt in ("json", "sarif"):
        res = cli("review", str(bundle), "-f", fmt)
        assert res.returncode == 0, res.stderr
        assert not any(c in res.stdout for c in "\u009b\u009d\u2028"), fmt
        assert hostile in json.dumps(json.loads(res.stdout), ensure_ascii=False)  # the same strings, escaped


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_baseline_holding_nan_or_infinity_is_refused_at_its_line(cli, tmp_path: Path, constant: str) -> None:
    report = json.loads(cli("review", str(BUNDLE), "-f", "json").stdout)
    text = json.dumps(report, indent=2).replace('"score": 26.2', f'"score": {constant}', 1)
    assert constant in text
    baseline = tmp_path / "base.json"
    baseline.write_text(text)
    res = cli("review", str(BUNDLE), "--baseline", str(baseline), "-q")
    line = text[:text.index(f'"score": {constant}')].count("\n") + 1
    assert res.returncode == 2 and _one_line_errors(res) == [
        f"advisor: {baseline}:{line}: baseline holds {constant}, which is not a number JSON has; refused"]


@pytest.mark.parametrize("text, line, said", [
    ("params:\n  ldoms.service-cores:\n    recommended_cores_per_10g: lots\n", 3,
     "params.ldoms.service-cores.recommended_cores_per_10g: 'lots' is not a number"),
    ("params:\n  ldoms.service-cores: {min_cores_per_10g: true}\n", 2, "True is not a number"),
    ("params:\n  ldoms.service-cores:\n    recommended_cores_per_10g: -2\n", 3, "-2 is negative"),
    ("params:\n  ldoms.service-cores:\n    cores: 4\n", 3, "ldoms.service-cores has no parameter 'cores'"),
    ("params:\n  ldoms.no-such-rule: {x: 1}\n", 2, "params.ldoms.no-such-rule: no such rule"),
])
def test_a_rule_parameter_a_rule_cannot_use_is_refused_and_cannot_open_a_gate(
        cli, tmp_path: Path, text: str, line: int, said: str) -> None:
    """`recommended_cores_per_10g: lots` turned the failing ldoms.service-cores
    into unknown: the score rose from 26.2 to 27.6, and a gate could pass."""
    policy = tmp_path / "policy.yaml"
    policy.write_text(text)
    for verb in ("review", "gate"):
        res = cli(verb, str(BUNDLE), "--policy", str(policy), "--min-score", "27")
        assert res.returncode == 2 and res.stdout == ""
        errors = _one_line_errors(res)
        assert errors == [f"advisor: {policy}:{line}: " + errors[0].split(f"{policy}:{line}: ", 1)[1]], errors
        assert said in errors[0]
    good = tmp_path / "good.yaml"
    good.write_text("params:\n  ldoms.service-cores: {recommended_cores_per_10g: 3, min_cores_per_10g: 1.5}\n")
    assert cli("review", str(BUNDLE), "--policy", str(good), "-q").returncode == 0


@pytest.mark.parametrize("text, line", [
    ("root:$6$Xy1pQ$hashedpasswordhashedpassword:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n", 1),
    ("params: {}\n\"hunter2 secret\": 1\n", 2),
    ("intents:\n  wan_rtt_ms: 50\n  \"pw=$6$Xy1pQ$secret\": 1\n", 3),
])
def test_a_policy_refusal_names_the_line_not_what_it_says(cli, tmp_path: Path, text: str, line: int) -> None:
    """A file that is not a policy (a shadow file, in the probe) was echoed in
    the refusal: its keys are named only when they are plain names."""
    policy = tmp_path / "policy.yaml"
    policy.write_text(text)
    res = cli("review", str(BUNDLE), "--policy", str(policy), "-f", "json", timeout=60)
    assert res.returncode == 2
    [error] = _one_line_errors(res)
    assert error.startswith(f"advisor: {policy}:{line}: ") and "$6$" not in error and "hunter2" not in error, error


@pytest.mark.parametrize("text", ["a: " + "[" * 100_000 + "]" * 100_000 + "\n",
                                  "a:\n" + "".join("  " * i + "- \n" for i in range(2_000))])
def test_deep_nesting_is_refused_in_advisor_s_words_whichever_parser_meets_it_first(text: str) -> None:
    """libyaml's scanner reads a flow collection ahead of the events advisor
    counts, and refuses it at its own depth (1,000 in PyYAML 6.0.4) first."""
    with pytest.raises(InputError, match=r"^policy.yaml:\d+: nested more than 64 levels deep; refused$"):
        datafile.parse(text, InputError, "policy.yaml")


def test_a_deeply_nested_plan_is_refused_in_advisor_s_words(cli, tmp_path: Path) -> None:
    plan = tmp_path / "deep.yaml"
    plan.write_text("format: advisor-plan/1\ndomains: " + "[" * 100_000 + "]" * 100_000 + "\n")
    res = cli("gate", str(plan), "-f", "json", timeout=60)
    errors = _one_line_errors(res)
    assert res.returncode == 2 and "deep.yaml:2: nested more than 64 levels deep; refused" in errors[0], errors


@pytest.mark.parametrize("where, text, said", [
    ("policy", "params:\n  ldoms.ldc-budget: {{threshold: !!python/object/apply:os.system ['touch {pwned}']}}\n",
     ":2: not valid YAML (could not determine a constructor for the tag"),
    ("policy", "waivers: !!python/object/new:subprocess.Popen [['touch', '{pwned}']]\n", ":1: not valid YAML"),
    ("plan", "format: advisor-plan/1\ndomains: !include {secret}\n", ":2: not valid YAML"),
    ("manifest", "host: !!python/name:os.system\ncommands: []\n", "manifest.yaml:1: not valid YAML"),
    ("policy", "intents:\n  site: '" + "A" * (17 << 20) + "'\n", "16 MiB"),
])
def test_yaml_tags_build_nothing_and_huge_scalars_are_refused(cli, tmp_path: Path, where: str, text: str,
                                                              said: str) -> None:
    pwned, secret = tmp_path / "pwned", _secret(tmp_path)
    body = text.replace("{pwned}", str(pwned)).replace("{secret}", str(secret)).replace("{{", "{").replace("}}", "}")
    bundle = _bundle(tmp_path)
    args = ["review", str(bundle)]
    if where == "policy":
        (tmp_path / "p.yaml").write_text(body)
        args += ["--policy", str(tmp_path / "p.yaml")]
    elif where == "plan":
        (tmp_path / "plan.yaml").write_text(body)
        args.append(str(tmp_path / "plan.yaml"))
    else:
        (bundle / "manifest.yaml").write_text(body)
    res = cli(*args, "-f", "json", timeout=60)
    errors = _one_line_errors(res)
    assert res.returncode == 2 and any(said in e for e in errors), errors
    assert not pwned.exists() and "SECRETHASH" not in res.stdout + res.stderr


def test_a_hostile_manifest_costs_its_bundle_only(cli, tmp_path: Path) -> None:
    bad = _bundle(tmp_path, "fleet/bad")
    (bad / "manifest.yaml").write_text("host: t5\ncollected: 2026-13-01T00:00:00Z\ncommands: []\n")
    _bundle(tmp_path, "fleet/good")
    res = cli("review", str(tmp_path / "fleet"), "-f", "json")
    errors = _one_line_errors(res)
    assert res.returncode == 2 and any("manifest.yaml:2:" in e for e in errors)
    assert [h["source"].rsplit("/", 1)[-1] for h in json.loads(res.stdout)["hosts"]] == ["good"]


@pytest.mark.parametrize("edit, said", [
    (lambda m: m, "uname-a.txt: sha256 differs from manifest.yaml; not read"),  # the file was changed after collection
    (lambda m: m.replace("sha256: d72e", "sha256: [d72e", 1).replace("a1c}", "a1c]}", 1), "manifest.yaml:"),
    (lambda m: m.replace("exit_status: 0", "exit_status: " + "9" * 5000, 1), "manifest.yaml:5:"),
    (lambda m: m.replace("host: ldg7", "host: " + "h" * 100_000, 1),  # not a host name: a damaged manifest
     "manifest.yaml:2: host: String should have at most 255 characters"),
])
def test_a_manifest_that_does_not_match_its_files_is_said(cli, tmp_path: Path, edit, said: str) -> None:
    bundle = tmp_path / "s11"
    shutil.copytree(CAPTURES / "s11-guest-tuned", bundle)
    (bundle / "uname-a.txt").write_text("SunOS evil 5.11 11.4.0.15.0 sun4v sparc sun4v\n")
    manifest = bundle / "manifest.yaml"
    manifest.write_text(edit(manifest.read_text()))
    res = cli("review", str(bundle), str(BUNDLE), "-f", "json")
    errors = _one_line_errors(res)
    assert res.returncode == 2 and any(said in e for e in errors), errors
    assert "evil" not in res.stdout and BUNDLE.name in {h["host"] for h in json.loads(res.stdout)["hosts"]}


@pytest.mark.parametrize("text, said", [
    ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
    ('{"hosts": 5}', "not an advisor JSON report"),
])
def test_a_hostile_baseline_is_refused_in_one_line(cli, tmp_path: Path, text: str, said: str) -> None:
    baseline = tmp_path / "old.json"
    baseline.write_text(text)
    res = cli("review", str(BUNDLE), "--baseline", str(baseline), "-f", "json", timeout=60)
    errors = _one_line_errors(res)
    assert res.returncode == 2 and said in errors[0]


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_an_xml_file_of_fifty_thousand_domains_is_refused_quickly(cli, tmp_path: Path) -> None:
    item = ('<Content id="d{i}"><Section><Item><rasd:OtherResourceType>ldom_info</rasd:OtherResourceType>'
            '<gprop:GenericProperty key="name">d{i}</gprop:GenericProperty></Item></Section></Content>\n')
    xml = tmp_path / "many-constraints.xml"
    xml.write_text('<?xml version="1.0"?>\n<Envelope xmlns:rasd="r" xmlns:gprop="g">\n'
                   + "".join(item.format(i=i) for i in range(50_000)) + "</Envelope>\n")
    res = cli("gate", str(xml), "-f", "json", timeout=60)
    errors = _one_line_errors(res)
    assert res.returncode == 2 and any("50,000 domains, more than the 1,024" in e for e in errors)


GOOD_XML = Path(__file__).parent.parent / "fixtures" / "plans" / "t5-good-constraints.xml"
_LAUGHS = "".join(f'<!ENTITY l{i + 1} "{f"&l{i};" * 10}">' for i in range(9))
_XI = '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="{secret}" parse="text"/>'


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@pytest.mark.parametrize("name, edit, said", [
    ("laughs", lambda x, s: x.replace("<Envelope", f'<!DOCTYPE Envelope [<!ENTITY l0 "lol">{_LAUGHS}]>\n<Envelope', 1)
     .replace("primary-vsw0", "&l9;"), ":2: XML refused: a <!DOCTYPE> declaration"),
    ("external-entity", lambda x, s: x.replace("<Envelope", f'<!DOCTYPE Envelope [<!ENTITY x SYSTEM "file://{s}">]>\n'
                                               "<Envelope", 1).replace("primary-vsw0", "&x;"), "XML refused"),
    ("parameter-entity", lambda x, s: x.replace("<Envelope", f'<!DOCTYPE Envelope [<!ENTITY % p SYSTEM "{s}"> %p;]>\n'
                                                "<Envelope", 1), "XML refused"),
    ("external-dtd", lambda x, s: x.replace("<Envelope", f'<!DOCTYPE Envelope SYSTEM "{s}">\n<Envelope', 1),
     "XML refused"),
    ("xinclude", lambda x, s: x.replace("<References/>", f"<References>{_XI.format(secret=s)}</References>"), None),
    ("deep", lambda x, s: x.replace("<References/>", "<a>" * 100_000 + "</a>" * 100_000), None),
    ("superscript-cores", lambda x, s: x.replace('"wcore">4<', '"wcore">\u00b32<'), ":19: domain primary: cores: "),
    ("thousand-digit-cores", lambda x, s: x.replace('"wcore">4<', f'"wcore">{"9" * 5000}<'),
     ":21: a number of more than 4,300 digits; not one any command prints"),  # refused as it is read, at its own line
    ("absurd-cores", lambda x, s: x.replace('"wcore">4<', '"wcore">99999999999999999999<'), "less than or equal to 65536"),
    ("big-attribute", lambda x, s: x.replace("<References/>", f'<References x="{"A" * (17 << 20)}"/>'), "16 Mi"),
])
def test_hostile_constraints_xml_reads_nothing_outside_and_costs_its_file_only(
        cli, tmp_path: Path, name: str, edit, said: str | None) -> None:
    secret = _secret(tmp_path)
    xml = tmp_path / f"{name}-constraints.xml"
    xml.write_text(edit(GOOD_XML.read_text(), secret), encoding="utf-8")
    res = cli("review", str(xml), str(BUNDLE), "-f", "json", timeout=60)
    errors = _one_line_errors(res)
    assert "SECRETHASH" not in res.stdout + res.stderr
    hosts = [h["host"] for h in json.loads(res.stdout)["hosts"]]
    if said is None:  # read as a plan: the XInclude is not followed, the depth is no danger
        assert res.returncode in (0, 1) and not errors and len(hosts) == 2, errors
    else:
        assert res.returncode == 2 and len(errors) == 1 and said in errors[0] and f"{xml}" in errors[0], errors
        assert BUNDLE.name in hosts  # the other input is still reported


def test_an_output_too_large_to_hold_is_refused(cli, tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    with (bundle / "ldm-version.txt").open("w") as fh:  # one 70 MB token: a file meant to exhaust memory
        fh.write("Logical Domains Manager (v " + "A" * (70 << 20) + ")\n")
    res = cli("review", str(bundle), "-f", "json", timeout=60)
    errors = _one_line_errors(res)
    assert res.returncode == 2 and any("ldm-version.txt" in e and "refused" in e for e in errors)
    assert '"findings"' in res.stdout


def test_a_ten_megabyte_token_is_read_in_time(cli, tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    (bundle / "ldm-version.txt").write_text("Logical Domains Manager (v " + "9" * (10 << 20) + ")\n")
    res = cli("review", str(bundle), "-f", "json", timeout=60)
    _one_line_errors(res)
    assert res.returncode in (0, 2)


# --- names and values from captures in every renderer ----------------------------------------------

HOSTILE_NAME = "evil\\e[31mRED\\e]0;title\\a<script>x</script>]]>&amp;\\0|`x`\\nsecond [bold]b[/bold]"


def test_the_table_shows_text_as_it_is_never_as_emoji(tmp_path: Path) -> None:
    """rich turns `:fire:` into an emoji unless told not to; a path or value is shown as written."""
    shutil.copytree(BUNDLE, tmp_path / "x:fire:y")
    res = run_cli("review", "x:fire:y", cwd=tmp_path)
    assert res.returncode == 0 and "  source   x:fire:y\n" in res.stdout and "\N{FIRE}" not in res.stdout


def _reviewed_as(cli, tmp_path: Path, host: str, formats: str) -> Path:
    """The folder of reports of a bundle whose manifest names `host` (a YAML scalar, as written)."""
    bundle = _bundle(tmp_path)
    (bundle / "manifest.yaml").write_text(f"host: {host}\ncommands: []\n")
    out = tmp_path / "out"
    res = cli("review", str(bundle), "-f", formats, "-o", f"{out}/")
    assert res.returncode == 0, res.stderr
    return out


def test_names_from_captures_cannot_inject_into_any_report(cli, tmp_path: Path) -> None:
    import xml.dom.minidom

    out = _reviewed_as(cli, tmp_path, f'"{HOSTILE_NAME}"', "table,json,html,junit,sarif,markdown,script")
    for path in out.iterdir():
        raw = path.read_bytes()
        assert b"\x1b" not in raw and b"\x00" not in raw and b"\x07" not in raw, path.name
    xml.dom.minidom.parse(str(out / "report.junit.xml"))
    json.loads((out / "report.sarif").read_text())
    assert json.loads((out / "report.json").read_text())["hosts"][0]["host"].startswith("evil\x1b[31m")
    assert "<script>x</script>" not in (out / "report.html").read_text()
    table = (out / "report.txt").read_text()
    assert "evil\\x1b[31mRED" in table and "[bold]b[/bold]" in table  # shown, escaped, not interpreted
    for script in out.glob("*.sh"):
        assert all(not line.startswith("second") for line in script.read_text().splitlines())


def test_a_value_from_a_capture_stays_one_shell_word_in_a_command() -> None:
    from advisor.engine.evaluate import render_command

    ns = {"s": {"name": "ldg1; reboot", "cores": 4}}
    assert render_command("ldm set-core {s.cores} {s.name}", ns) == "ldm set-core 4 'ldg1; reboot'"
    assert render_command("ldm set-core {s.cores} {s.name}", {"s": {"name": "ldg1", "cores": 4}}) == \
        "ldm set-core 4 ldg1"
    assert render_command("ldm stop {s.name}", {"s": {"name": "ldg1 primary"}}) == "ldm stop 'ldg1 primary'"


# --- live-audit settings -------------------------------------------------------------------------

@pytest.mark.parametrize("inventory, said", [
    ('{"_meta": "x", "all": {"hosts": ["a"]}}', "_meta.hostvars is not a mapping"),
    ('{"_meta": {"hostvars": []}, "all": {"hosts": ["a"]}}', "_meta.hostvars is not a mapping"),
    ('{"all": {"hosts": [5]}}', "all.hosts is not a list of host names"),
    ('{"_meta": {"hostvars": {"a": {"ansible_port": "ssh"}}}}', "ansible_port 'ssh' is not a port number"),
])
def test_a_hostile_inventory_is_refused_in_one_line(cli, tmp_path: Path, inventory: str, said: str) -> None:
    path = tmp_path / "inventory.json"
    path.write_text(inventory)
    res = cli("audit", "--inventory", str(path), "-f", "json", timeout=60)
    errors = _one_line_errors(res)
    assert res.returncode == 2 and said in errors[0], errors


@pytest.mark.parametrize("line", ["Port abc", "ConnectTimeout soon", "Port 99999999999999999999"])
def test_a_non_numeric_ssh_config_value_is_refused_in_one_line(cli, tmp_path: Path, line: str) -> None:
    config = tmp_path / "ssh_config"
    config.write_text(f"Host t5\n  HostName 127.0.0.1\n  {line}\n")
    res = cli("audit", "t5", "--ssh-config", str(config), "-f", "json", timeout=60)
    errors = _one_line_errors(res)
    assert res.returncode == 2 and f"{config}: Host t5:" in errors[0], errors


# --- work stays linear --------------------------------------------------------------------------

@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@pytest.mark.parametrize("fill", [" " * (1 << 18), "\t" * (1 << 18), "x" * (1 << 18)])
def test_a_long_run_of_blanks_or_one_word_in_every_file_is_read_in_time(cli, tmp_path: Path, fill: str) -> None:
    """Quadratic patterns (a lazy `.*?` or two adjacent `\\s` runs) took minutes on such a line."""
    bundles = [p for p in sorted(CAPTURES.iterdir()) if p.is_dir() and not p.name.startswith("sosreport")]
    for source in bundles:
        bundle = shutil.copytree(source, tmp_path / source.name)
        for path in bundle.iterdir():
            if path.name != "manifest.yaml":
                lines = path.read_text().splitlines(True)
                half = len(lines) // 2
                path.write_text("".join(lines[:half]) + f"{lines[half].rstrip()}{fill}end\n" + "".join(lines[half + 1:])
                                if lines else fill)
    res = cli("review", *map(str, (tmp_path / b.name for b in bundles)), "-f", "json", timeout=120)
    _one_line_errors(res)
    assert res.returncode in (0, 1, 2, 3) and len(json.loads(res.stdout)["hosts"]) == len(bundles)


@pytest.mark.parametrize("name", ["t5\ntouch /tmp/advisor-pwned", "t5\rtouch /tmp/advisor-pwned",
                                  "t5\u2028touch /tmp/advisor-pwned", "t5\\\ntouch /tmp/advisor-pwned"])
def test_a_line_break_alone_in_a_name_starts_no_line_in_any_report(cli, tmp_path: Path, name: str) -> None:
    """A name whose only unprintable character is a line break: JSON writes it as
    `\\n`, which the check for unprintable text once missed, so a remediation
    script carried `touch ...` as a line of its own, for sh to run."""
    out = _reviewed_as(cli, tmp_path, json.dumps(name), "table,markdown,script")
    for path in out.iterdir():
        lines = path.read_text().splitlines()
        assert not any(line.lstrip().startswith("touch") for line in lines), path.name
    assert "touch /tmp/advisor-pwned)  solaris  score" in (out / "report.txt").read_text()  # on the name's line, escaped


def test_the_script_writer_keeps_a_comment_on_its_line_whatever_it_is_given() -> None:
    """The second guard: a script made from a report that was never made printable."""
    from advisor.report import script
    from advisor.results.model import HostReport

    from conftest import review

    [host] = review(BUNDLE).hosts
    hostile = HostReport.model_validate({**host.model_dump(), "host": "t5\ntouch /tmp/x",
                                        "source": "a\rsecond-line\u2028third-line"})
    for text in script.render_host(hostile).values():
        assert not any(line.startswith(("touch", "second-line", "third-line")) for line in text.splitlines())


def test_a_host_not_collected_is_said_on_one_line_with_its_name_escaped(cli, tmp_path: Path) -> None:
    bundle = _bundle(tmp_path)
    (bundle / "manifest.yaml").write_text(
        'host: "evil\\e[31m\\nsecond"\nnot_collected: "unreachable: banner \\e]0;title\\a\\nthird"\ncommands: []\n')
    res = cli("review", str(bundle), "-f", "json")
    assert res.returncode == 3, res.stderr
    [line] = res.stderr.splitlines()
    assert "\x1b" not in res.stderr and "\x07" not in res.stderr
    assert line == "advisor: evil\\x1b[31m\\nsecond: not collected: unreachable: banner \\x1b]0;title\\x07\\nthird"


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_names_that_are_not_utf8_cost_nothing_but_their_line(cli, tmp_path: Path) -> None:
    """A file or bundle folder named with bytes that are not UTF-8 reached the
    reports as a lone surrogate, which no JSON can hold: the whole fleet's review
    ended in a traceback with exit status 1 (a failed gate's)."""
    fleet = tmp_path / "fleet"
    shutil.copytree(BUNDLE, fleet / "good")
    shutil.copytree(BUNDLE, fleet / "odd-file")
    (fleet / "odd-file" / os.fsdecode(b"x\xff.txt")).write_text("hello\n")
    shutil.copytree(BUNDLE, fleet / os.fsdecode(b"host\xfe"))
    out = tmp_path / "out"
    res = cli("review", str(fleet), "-f", "table,json,html,junit,sarif,markdown,script", "-o", f"{out}/")
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    errors = res.stderr.splitlines()
    assert errors == [f"advisor: {fleet}/odd-file/x\\xff.txt: cannot tell which command printed this file; not read"]
    report = json.loads((out / "report.json").read_text())
    assert sorted(h["host"] for h in report["hosts"]) == ["good", "host\\xfe", "odd-file"]
    assert len(list(out.glob("*.remediation.sh"))) == 3


@pytest.mark.parametrize("name", ["t5\u200bx", "t5\U000e0041\u061c\ufeffx", "t5\uffff", "t5\u2066x"])
def test_invisible_characters_in_a_name_are_shown(cli, tmp_path: Path, name: str) -> None:
    """Zero-width, tag and bidi characters would let a name pass for another
    ("t5\\u200bx" shows as "t5x"); a noncharacter made the JUnit and HTML reports invalid XML."""
    import xml.dom.minidom

    quoted = "".join(c if c.isascii() and c.isprintable() else f"\\U{ord(c):08X}" for c in name)  # YAML's escapes
    out = _reviewed_as(cli, tmp_path, f'"{quoted}"', "table,html,junit,markdown")
    escaped = "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)
    assert escaped in (out / "report.txt").read_text() and name not in (out / "report.txt").read_text()
    xml.dom.minidom.parse(str(out / "report.junit.xml"))
    assert name not in (out / "report.md").read_text() and name not in (out / "report.html").read_text()


def test_markdown_shows_names_from_captures_as_text(cli, tmp_path: Path) -> None:
    """A merge-request comment rendered an <img> (a tracking pixel), a link, an
    image from a domain's name, and a broken code span from a backtick in a file name."""
    from markdown_it import MarkdownIt

    import re

    bundle = _bundle(tmp_path)
    (bundle / "kstat-p.txt").rename(bundle / "k`s|t.txt")
    (bundle / "manifest.yaml").write_text(
        'host: "a|b <img src=https://evil.example/h.png> [ok](https://evil.example) *x* _y_ `z`"\ncommands:\n'
        '  - {id: kstat-p, file: "k`s|t.txt", command: "kstat -p", exit_status: 0}\n')
    res = cli("review", str(bundle), "-f", "markdown")
    assert res.returncode in (0, 1), res.stderr
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(res.stdout)
    assert "<img" not in html and "evil.example\"" not in html and "<em>" not in html
    assert all("oracle.com/" in link for link in re.findall(r"<a [^>]*>", html))  # only the studies' own addresses
    assert re.search(r"<code>[^<]*k`s\|t\.txt:\d+</code>", html)  # the whole evidence in one code span
    [row] = [r for r in (cut.split("</tr>")[0] for cut in html.split("<tr>")) if "evil.example" in r]
    assert row.count("<td") == 10  # the host stays in its column


def _read_fifo(fifo: Path, into: list[str]) -> None:
    with fifo.open(encoding="utf-8") as stream:
        into.append(stream.read())


def test_a_report_to_a_pipe_or_device_is_written_in_place_never_renamed_over(cli, tmp_path: Path) -> None:
    """As root, `-o /dev/null` renamed a file over the device. A FIFO and a
    character device (a null device made here, in the test's own folder) stay
    what they were, and get the report."""
    import stat
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, got), daemon=True)  # a rename over it leaves it unopened
    reader.start()
    res = cli("review", str(BUNDLE), "-f", "json", "-o", str(fifo))
    reader.join(30)
    assert res.returncode == 0 and stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got and json.loads(got[0])["hosts"][0]["host"] == BUNDLE.name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]  # nothing left beside it
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        return  # only root makes device nodes; CI runs as root
    res = cli("review", str(BUNDLE), "-f", "markdown", "-o", str(device))
    assert res.returncode == 0 and stat.S_ISCHR(device.lstat().st_mode), res.stderr


@pytest.mark.parametrize("formats", ["json", "script", "json,markdown"])
def test_a_symbolic_link_is_never_replaced_by_a_report(cli, tmp_path: Path, formats: str) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("kept\n")
    out = tmp_path / "out"
    if "," in formats:
        out.mkdir()
        link = out / "report.md"
    else:
        link = out
    link.symlink_to(target)
    res = cli("review", str(BUNDLE), "-f", formats, "-o", str(out) + ("/" if "," in formats else ""))
    errors = _one_line_errors(res)
    assert res.returncode == 2 and any(f"{link}: a symbolic link" in e for e in errors), errors
    assert link.is_symlink() and target.read_text() == "kept\n"


def _outside(tmp_path: Path) -> Path:
    """A folder elsewhere, every file of which is a secret line."""
    out = tmp_path / "elsewhere"
    out.mkdir()
    for name in ("ethtool_-k_eth0", "uname-a.txt", "plan.yaml", "release.txt"):
        (out / name).write_text(SECRET + "\n")
    return out


def test_a_linked_folder_inside_a_sosreport_is_not_followed(tmp_path: Path) -> None:
    """sos_commands/networking linked to a folder elsewhere: its files are not
    read, and nothing of them is printed."""
    sos = tmp_path / "sosreport-lnxgw01-2026-11-20-qzxwt"
    shutil.copytree(CAPTURES / sos.name, sos)
    shutil.rmtree(sos / "sos_commands" / "networking")
    (sos / "sos_commands" / "networking").symlink_to(_outside(tmp_path), target_is_directory=True)
    res = run_cli("review", str(sos), "-f", "json")
    assert res.returncode == 2 and SECRET not in res.stdout + res.stderr and "Traceback" not in res.stderr
    assert "networking/ethtool_-k_eth0: a symbolic link to outside the bundle" in res.stderr


def test_a_fleet_or_plans_folder_does_not_follow_links_to_elsewhere(tmp_path: Path) -> None:
    """A bundle or a plan linked into the folder given is said and not read;
    the folder's own bundles are reported."""
    fleet = tmp_path / "fleet"
    fleet.mkdir()
    shutil.copytree(BUNDLE, fleet / "t5")
    outside = _outside(tmp_path)
    (fleet / "linked").symlink_to(outside, target_is_directory=True)
    res = run_cli("review", str(fleet), "-f", "json")
    assert res.returncode == 2 and SECRET not in res.stdout + res.stderr
    assert f"{fleet}/linked: a symbolic link to outside the folder given; not read" in res.stderr
    assert [h["host"] for h in json.loads(res.stdout)["hosts"]] == ["t5"]
    plans = tmp_path / "plans"
    plans.mkdir()
    shutil.copy(CAPTURES.parent / "plans" / "t5-bad.yaml", plans / "t5-bad.yaml")
    (plans / "other.yaml").symlink_to(outside / "plan.yaml")
    res = run_cli("review", str(plans), "-f", "json")
    assert SECRET not in res.stdout + res.stderr and f"{plans}/other.yaml: a symbolic link to outside" in res.stderr
    assert len(json.loads(res.stdout)["hosts"]) == 1


def test_links_back_to_the_fleet_folder_read_it_once(tmp_path: Path) -> None:
    """Two links to `.` in a fleet folder hung the review (one reported the host 40 times)."""
    fleet = tmp_path / "fleet"
    fleet.mkdir()
    shutil.copytree(BUNDLE, fleet / "t5")
    (fleet / "again").symlink_to(".", target_is_directory=True)
    (fleet / "and-again").symlink_to(".", target_is_directory=True)
    res = run_cli("review", str(fleet), "-f", "json", timeout=60)
    assert [h["host"] for h in json.loads(res.stdout)["hosts"]] == ["t5"]


def _special(tmp_path: Path, kind: str, name: str = "input") -> Path:
    """A FIFO (a read would block), a device that never ends, or a link to one."""
    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero" if kind == "link-to-zero" else "/dev/urandom")
    return path


_POSITIONS = {
    "capture": lambda p: ("review", str(p)),
    "policy": lambda p: ("review", str(BUNDLE), "--policy", str(p)),
    "baseline": lambda p: ("review", str(BUNDLE), "--baseline", str(p)),
    "diff": lambda p: ("diff", str(p), str(BUNDLE)),
    "gate": lambda p: ("gate", str(p)),
    "hosts-file": lambda p: ("audit", "--hosts-file", str(p)),
    "inventory": lambda p: ("audit", "--inventory", str(p)),
    "ssh-config": lambda p: ("audit", "--ssh-config", str(p), "h.invalid"),
    "known-hosts": lambda p: ("audit", "--known-hosts", str(p), "h.invalid"),
    "identity": lambda p: ("audit", "-i", str(p), "h.invalid"),
}


@pytest.mark.parametrize("kind", ["fifo", "link-to-zero", "link-to-urandom"])
@pytest.mark.parametrize("position", sorted(_POSITIONS))
def test_a_fifo_or_a_device_is_refused_wherever_a_file_is_named(tmp_path: Path, position: str, kind: str) -> None:
    """Read, a FIFO blocks for ever and /dev/zero fills memory: each is one line, exit 2, at once."""
    path = _special(tmp_path, kind)
    started = time.monotonic()
    res = run_cli(*_POSITIONS[position](path), timeout=30)
    assert res.returncode == 2 and time.monotonic() - started < 20
    assert any("not a regular file (a device, FIFO or socket); not read" in line for line in _one_line_errors(res))


def test_a_plans_constraints_file_that_is_a_fifo_is_refused_at_its_line(tmp_path: Path) -> None:
    _special(tmp_path, "fifo", "c.xml")
    plan = tmp_path / "plan.yaml"
    text = (CAPTURES.parent / "plans" / "t5-good-from-constraints.yaml").read_text()
    lines = text.splitlines()
    at = next(n for n, line in enumerate(lines, 1) if line.startswith("constraints:"))
    lines[at - 1] = "constraints: c.xml"
    plan.write_text("\n".join(lines) + "\n")
    res = run_cli("gate", str(plan), timeout=30)
    assert res.returncode == 2 and f"{plan}:{at}: constraints: c.xml: not a regular file" in res.stderr


def test_a_plans_constraints_file_is_measured_before_it_is_read(tmp_path: Path) -> None:
    """A constraints file was read whole, then its size checked: a file of 2 GiB took 2 GiB."""
    big = tmp_path / "c.xml"
    big.write_text(GOOD_XML.read_text())
    os.truncate(big, 2 << 30)  # sparse: costs no disk
    plan = tmp_path / "plan.yaml"
    lines = (CAPTURES.parent / "plans" / "t5-good-from-constraints.yaml").read_text().splitlines()
    at = next(n for n, line in enumerate(lines, 1) if line.startswith("constraints:"))
    lines[at - 1] = "constraints: c.xml"
    plan.write_text("\n".join(lines) + "\n")
    res, peak = run_cli_measured("gate", str(plan), timeout=60)
    assert res.returncode == 2 and peak < 128 << 20, f"{peak >> 20} MiB"
    assert _one_line_errors(res)[0] == (f"advisor: {plan}:{at}: constraints: c.xml: 2,147,483,648 bytes, more than "
                                        f"the 16 MiB advisor reads in such a file; refused")


def test_a_json_number_of_5000_digits_is_refused_in_one_line(tmp_path: Path) -> None:
    report = json.loads(run_cli("review", str(BUNDLE), "-f", "json").stdout)
    report["hosts"][0]["score"] = 0
    text = json.dumps(report).replace('"score": 0', '"score": ' + "9" * 5000, 1)
    baseline = tmp_path / "old.json"
    baseline.write_text(text)
    for args in (("review", str(BUNDLE), "--baseline", str(baseline)), ("diff", str(baseline), str(baseline))):
        res = run_cli(*args)
        assert res.returncode == 2, args
        assert [f"advisor: {baseline}: " in line and "a number too long to read; refused" in line
                for line in _one_line_errors(res)] == [True] * len(_one_line_errors(res))


def test_a_kstat_dump_of_one_gigabyte_line_is_refused_at_that_line(cli, tmp_path: Path) -> None:
    """Kept whole, the line was copied again with each 1 MiB block read: a minute and 600 MiB."""
    bundle = _bundle(tmp_path)
    dump = bundle / "kstat-p.txt"
    dump.write_bytes(b"unix:0:system_misc:ncpus\t8\nunix:0:x:y\t")
    os.truncate(dump, 1 << 30)  # sparse: the rest of the line reads as NULs
    started = time.monotonic()
    res = cli("review", str(bundle))
    assert res.returncode == 2 and time.monotonic() - started < 20
    assert _one_line_errors(res) == [f"advisor: {dump}:2: a line of more than 1 MiB; not a kstat -p line"]


@pytest.mark.parametrize("ending", [b"\n", b"\r"])  # a lone carriage return: the file is read in text mode
def test_a_kstat_line_past_the_limit_is_refused_at_its_line_however_the_file_is_read(
        tmp_path: Path, monkeypatch, ending: bytes) -> None:
    """The limit, lowered (1 MiB, 64-byte blocks): a line is never held whole past it."""
    from advisor.errors import ParseError
    from advisor.platforms.solaris.parsers import kstat_wanted
    from advisor.platforms.solaris.parsers import kstat

    monkeypatch.setattr(kstat, "MAX_LINE", 100)
    monkeypatch.setattr(kstat, "CHUNK", 64)
    dump = tmp_path / "kstat-p.txt"
    dump.write_bytes(b"unix:0:a:b\t1" + ending + b"vnet:0:vnetldc0x1:dring_mode\t4\n"
                     + b"vnet:0:vnetldc0x1:lso_enabled\t" + b"x" * 300 + b"\n")
    with pytest.raises(ParseError) as refused:
        kstat.scan_file(dump, kstat_wanted.wanted, kstat_wanted.MODULES, kstat_wanted.STATISTICS)
    assert (refused.value.line, str(refused.value).split(": ", 1)[-1]) == (3, "a line of more than 0 MiB; "
                                                                              "not a kstat -p line")


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@pytest.mark.parametrize("ending", [b"\n", b"\r"])
def test_a_kstat_line_of_256_mib_is_refused_at_once_in_flat_memory(tmp_path: Path, ending: bytes) -> None:
    """It took 32 s, in the square of its size; with a lone carriage return in
    the file (read in text mode) it was read whole: 7 s and 800 MiB."""
    dump = tmp_path / "kstat-p.txt"
    with dump.open("wb") as fh:
        fh.write(b"unix:0:a:b\t1" + ending + b"vnet:0:vnetldc0x1:dring_mode\t")
        for _ in range(256):
            fh.write(b"x" * (1 << 20))
        fh.write(b"\n")
    started = time.monotonic()
    res, peak = run_cli_measured("review", str(dump))
    assert res.returncode == 2 and time.monotonic() - started < 20 and peak < 128 << 20, f"{peak >> 20} MiB"
    assert _one_line_errors(res) == [f"advisor: {dump}:2: a line of more than 1 MiB; not a kstat -p line"]


def test_an_etc_system_that_sets_more_variables_than_the_limit_is_refused_at_the_first_past_it() -> None:
    """The limit, lowered: a variable set again is one variable, as the kernel reads it."""
    from advisor.errors import ParseError
    from advisor.platforms.solaris.parsers import etc_system

    text = "* tuned\nset a=1\nset m:b=2\nset a=3\nset c=0x4\n"
    assert {k: s.value for k, s in etc_system.parse(text, limit=3).items()} == {"a": 3, "m:b": 2, "c": 4}
    with pytest.raises(ParseError) as refused:
        etc_system.parse(text + "set a=5\nset d=6\n", limit=3)
    assert refused.value.line == 7 and "more than 3 variables set" in str(refused.value)


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@pytest.mark.parametrize("line, refused", [("set mod{i}:var{i} = 0x{i:x}\n", True),
                                           ("set ip:ip_soft_rings_cnt = 16\n", False),
                                           ("* a comment, line {i}\n", False)])
def test_an_etc_system_of_63_mb_is_read_in_proportion_to_its_size(tmp_path: Path, line: str, refused: bool) -> None:
    """1.8 million variables (63 MB, under the 64 MiB an output may have) passed
    4 GiB: every rule reading /etc/system was given all of them at each run, and
    each line was held as an object. Refused past 10,000 variables; any other
    /etc/system of that size is read in about 16 s and 160 MiB."""
    from advisor.platforms.solaris.parsers import etc_system

    bundle = CAPTURES.parent / "captures" / "s10-guest-untuned"
    dest = tmp_path / "b"
    shutil.copytree(bundle, dest)
    system = dest / "etc-system.txt"
    before = system.read_text().count("\n")
    held = len(etc_system.parse(system.read_text()))
    with system.open("a") as fh:
        for start in range(0, 1_800_000, 1000):
            fh.write("".join(line.format(i=i) for i in range(start, start + 1000)))
    started = time.monotonic()
    res, peak = run_cli_measured("review", str(dest), "-q", timeout=300)
    assert time.monotonic() - started < 60 and peak < 384 << 20, f"{peak >> 20} MiB"
    if refused:
        assert res.returncode == 2 and _one_line_errors(res) == [
            f"advisor: {system}:{before + etc_system.MAX_SETTINGS - held + 1}: more than 10,000 variables set; not an /etc/system advisor reads "
            f"(one sets a few dozen)"]
    else:
        assert res.returncode == 0 and "Traceback" not in res.stderr


def test_a_paste_of_a_million_empty_prompts_is_not_read_as_a_session(cli, tmp_path: Path) -> None:
    """1.8 million prompts (16 MB) took 20 s and 450 MiB as a session; past a million lines it is one output."""
    paste = tmp_path / "session.txt"
    paste.write_text("# uname -a\n# \n" * 900_000)
    started = time.monotonic()
    res = cli("review", str(paste))
    assert res.returncode == 2 and time.monotonic() - started < 10
    assert _one_line_errors(res) == [f"advisor: {paste}: cannot tell which command printed this file"]


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_a_paste_of_more_than_100000_commands_is_refused_at_the_first_past_it(cli, tmp_path: Path) -> None:
    paste = tmp_path / "session.txt"
    paste.write_text("h# ldm -V\n" * 100_001)
    res = cli("review", str(paste))
    assert res.returncode == 2
    assert _one_line_errors(res) == [f"advisor: {paste}:100001: more than 100,000 command lines in one pasted file; "
                                     f"split it"]


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_repeated_commands_in_one_paste_are_read_in_linear_time(cli, tmp_path: Path) -> None:
    """Choosing one segment of many compared each with every other, lines and all."""
    paste = tmp_path / "session.txt"
    paste.write_text("".join(f"h# ldm list -l ldg{i}\n" for i in range(20_000)))
    started = time.monotonic()
    res = cli("review", str(paste))
    assert res.returncode in (0, 2) and "Traceback" not in res.stderr and time.monotonic() - started < 30


@pytest.mark.slow
def test_a_paste_of_ten_thousand_hosts_reports_each_in_bounded_memory(tmp_path: Path) -> None:
    paste = tmp_path / "fleet.txt"
    paste.write_text("".join(f"root@host{i}:~# uname -a\nSunOS host{i} 5.11 11.4.42.111.0 sun4v sparc sun4v\n"
                             for i in range(10_000)))
    res, peak = run_cli_measured("review", str(paste), "-q", timeout=600)
    assert res.returncode == 0 and "10000 host(s)" in res.stdout
    assert peak < 1 << 30, f"{peak >> 20} MiB"


@pytest.mark.parametrize("config, line, said", [
    ("Host x\n  HostName\n", 2, "'HostName'"),  # a keyword without its value
    ("Host x\n  Port\n", 2, "'Port'"),
    ("=\nHost x\n", 1, "'='"),  # a line of `=` alone
])
def test_an_ssh_config_line_paramiko_cannot_parse_is_one_line_before_any_connects(tmp_path: Path, config: str,
                                                                                   line: int, said: str) -> None:
    path = tmp_path / "ssh_config"
    path.write_text(config)
    res = run_cli("audit", "--ssh-config", str(path), "x.invalid")
    assert res.returncode == 2
    assert _one_line_errors(res) == [f"advisor: {path}:{line}: not an ssh_config line (a keyword and its value): {said}"]


def test_a_host_name_of_100000_characters_is_refused_wherever_it_is_given(tmp_path: Path) -> None:
    name = "h" * 100_000
    hosts = tmp_path / "hosts"
    hosts.write_text(f"web1\n{name}\n")
    inventory = tmp_path / "inventory.json"
    inventory.write_text(json.dumps({"_meta": {"hostvars": {}}, "all": {"hosts": [name]}}))
    said = "a host name of 100,000 characters; at most 253 (a DNS name)"
    for args, where in ((("audit", name), "host"), (("audit", "--hosts-file", str(hosts)), f"{hosts}:2"),
                        (("audit", "--inventory", str(inventory)), None)):
        res = run_cli(*args)
        [error] = _one_line_errors(res)
        assert res.returncode == 2 and error.endswith(said) and (where is None or f": {where}: " in error), error
    bundle = _bundle(tmp_path)  # a capture's own host name is shown, escaped and whole, never a path
    (bundle / "uname-a.txt").write_text(f"SunOS {name} 5.11 11.4.42.111.0 sun4v sparc sun4v\n")
    res = run_cli("review", str(bundle), "-f", "json")
    assert res.returncode == 0 and "Traceback" not in res.stderr


@pytest.mark.parametrize("yaml_text, line", [("key: !!timestamp hello\n", 1),
                                              ("params:\n  ldoms.service-cores: !!timestamp soon\n", 2)])
def test_a_yaml_tag_on_a_value_it_cannot_build_is_one_line(tmp_path: Path, yaml_text: str, line: int) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text(yaml_text)
    res = run_cli("review", str(BUNDLE), "--policy", str(policy))
    assert res.returncode == 2
    [error] = _one_line_errors(res)
    assert error.startswith(f"advisor: {policy}:{line}: ") and "is not a value YAML can read" in error


@pytest.mark.slow
def test_a_plan_of_1024_domains_of_60_vnets_is_judged_in_linear_time(tmp_path: Path) -> None:
    """Each domain's vnets were found by a scan of every vnet, twice: past a minute. Now about 30 s."""
    head = ("format: advisor-plan/1\nhost: big\nhardware: {model: SPARC-T5, threads_per_core: 8}\n"
            "software: {ldm: \"3.4\", solaris: \"11.3\", sru: 35}\ndomains:\n"
            "  - name: primary\n    roles: [control, service, io]\n    cores: 4\n    memory: 16G\n"
            "    links:\n      - {name: net0, device: ixgbe0, speed: 10G, mtu: 1500}\n"
            "    vsws:\n      - {name: primary-vsw0, net_dev: net0}\n")
    guests = "".join(f"  - name: ldg{d}\n    role: guest\n    cores: 1\n    memory: 4G\n    vnets:\n"
                     + "".join(f"      - {{name: vnet{v}, vsw: primary-vsw0}}\n" for v in range(60))
                     for d in range(1, 1024))
    plan = tmp_path / "big.yaml"
    plan.write_text(head + guests)
    started = time.monotonic()
    res, peak = run_cli_measured("gate", str(plan), timeout=300)
    assert res.returncode in (0, 1) and "Traceback" not in res.stderr, res.stderr[-2000:]
    assert time.monotonic() - started < 150 and peak < 1 << 30


def _channels(fh, count: int, stats: tuple[str, ...] = ("dring_mode", "lso_enabled", "opackets64", "norcvbuf")) -> None:
    for i in range(count):
        fh.write("".join(f"vnet:{i}:vnetldc0x{i:x}:{stat}\t2\n" for stat in stats))


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@pytest.mark.parametrize("channels", [4_097, 250_000])
def test_a_kstat_dump_of_more_channels_than_a_domain_can_have_is_refused(cli, tmp_path: Path, channels: int) -> None:
    """250,000 distinct vnet channels took 1.9 GB and a traceback; 49,000 (under the
    100,000 statistics then allowed) were judged for more than ten minutes. A
    domain has at most 4,080 LDC endpoints: refused at the 4,097th, in a second."""
    from advisor.platforms.solaris.parsers import kstat_wanted
    from advisor.platforms.solaris.parsers import kstat

    bundle = _bundle(tmp_path)
    dump = bundle / "kstat-p.txt"
    before = dump.read_text().count("\n")
    # the channels the review's scan keeps (a dump of one sample is read for the rules' statistics)
    held = {(k.module, k.instance, k.name) for k in kstat.scan_file(dump, kstat_wanted.for_rules, kstat_wanted.RULE_MODULES)
            if k.module in ("vnet", "vsw")}
    with dump.open("a") as fh:
        _channels(fh, channels)
    started = time.monotonic()
    res = cli("review", str(bundle))
    assert res.returncode == 2 and time.monotonic() - started < 30
    first = before + 4 * (kstat.MAX_KSTATS - len(held)) + 1  # the first line of the first kstat past the limit
    assert _one_line_errors(res) == [
        f"advisor: {dump}:{first}: more than 4,096 of the kstats advisor reads (vnet and vsw channels: a domain "
        f"has at most 4,080); not the dump of one host"]


def test_the_kstats_a_dump_may_hold_are_counted_by_channel_not_by_statistic(tmp_path: Path) -> None:
    """The limit, lowered: a channel's statistics, any number of rounds of them, count once."""
    from advisor.errors import ParseError
    from advisor.platforms.solaris.parsers import kstat_wanted
    from advisor.platforms.solaris.parsers import kstat

    dump = tmp_path / "kstat-p.txt"
    with dump.open("w") as fh:
        for _round in range(3):
            _channels(fh, 3, ("dring_mode", "lso_enabled", "opackets64", "ierrors"))
    args = (dump, kstat_wanted.wanted, kstat_wanted.MODULES, kstat_wanted.STATISTICS)
    assert len(kstat.scan_file(*args, limit=3)) == 12
    with dump.open("a") as fh:
        # multircv is read by no rule nor rate (obytes64, once here, now is: rates)
        fh.write("cpu:0:sys:user\t1\nvnet:9:vnetldc0x9:multircv\t1\nvnet:9:vnetldc0x9:lso_enabled\t1\n")
    with pytest.raises(ParseError) as refused:
        kstat.scan_file(*args, limit=3)
    assert refused.value.line == 39 and "more than 3 of the kstats advisor reads" in str(refused.value)
    assert len(kstat.scan_file(*args, limit=4)) == 13


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_a_kstat_dump_of_the_most_channels_a_domain_has_is_judged_in_proportion(tmp_path: Path) -> None:
    """4,080 channels that all fail ldoms.dring-mode and ldoms.lso took 112 s:
    each expression converted the list of every channel again, LSO's filter
    copied the channels it had gathered at each one, and the plan asked each of
    its steps about each finding. Now about 5 s and 130 MiB, every view written."""
    bundle = _bundle(tmp_path)
    with (bundle / "kstat-p.txt").open("a") as fh:
        _channels(fh, 4_080, ("dring_mode", "lso_enabled"))
    out = tmp_path / "out"
    started = time.monotonic()
    res, peak = run_cli_measured("review", str(bundle), "-f", "json,sarif,junit,html,script", "-o", f"{out}/",
                                 timeout=300)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-2000:]
    assert time.monotonic() - started < 60 and peak < 512 << 20, f"{peak >> 20} MiB"
    assert len(json.loads((out / "report.json").read_text())["hosts"][0]["findings"]) > 4_080


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_ten_million_lines_of_the_modules_advisor_reads_stream_in_flat_memory(tmp_path: Path) -> None:
    """10 million lines of vnet statistics ran 76 s to the memory cap; the statistics the
    rules do not read are now passed over at search speed, those they read kept once each."""
    bundle = _bundle(tmp_path)
    with (bundle / "kstat-p.txt").open("a") as fh:
        unread = "vnet:0:vnetldc0x1:obytes\t12345\n" * 1000
        for _ in range(10_000):
            fh.write(unread)
        read = "vnet:0:vnetldc0x1:opackets64\t12345\nvnet:0:vnetldc0x1:dring_mode\t4\n" * 500
        for _ in range(1_000):
            fh.write(read)
    started = time.monotonic()
    res, peak = run_cli_measured("review", str(bundle), "-q", timeout=300)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-2000:]
    assert time.monotonic() - started < 60 and peak < 128 << 20, f"{peak >> 20} MiB"


def test_a_json_float_too_large_to_hold_is_refused_not_read_as_infinity(tmp_path: Path) -> None:
    report = json.loads(run_cli("review", str(BUNDLE), "-f", "json").stdout)
    report["hosts"][0]["score"] = 0
    baseline = tmp_path / "old.json"
    baseline.write_text(json.dumps(report).replace('"score": 0', '"score": ' + "9" * 5000 + ".5", 1))
    res = run_cli("review", str(BUNDLE), "--baseline", str(baseline))
    assert res.returncode == 2
    assert _one_line_errors(res) == [f"advisor: {baseline}: baseline holds a number too long to read; refused"]


def test_a_plan_with_a_timestamp_tag_on_a_word_names_its_line(tmp_path: Path) -> None:
    plan = tmp_path / "plan.yaml"
    plan.write_text((CAPTURES.parent / "plans" / "t5-good.yaml").read_text() + "notes: !!timestamp hello\n")
    res = run_cli("gate", str(plan))
    lines = (CAPTURES.parent / "plans" / "t5-good.yaml").read_text().count("\n") + 1
    assert res.returncode == 2 and f"{plan}:{lines}: 'hello' is not a value YAML can read" in res.stderr
    assert "AttributeError" not in res.stderr


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@pytest.mark.parametrize("name", ["comments.xml", "ldm-list-constraints-x.xml"])
def test_thirty_empty_xml_comments_are_refused_at_once(cli, tmp_path: Path, name: str) -> None:
    """210 bytes that an identification pattern once took exponential time over."""
    loose = tmp_path / name
    loose.write_text("<!---->" * 30)
    bundle = _bundle(tmp_path)
    (bundle / name).write_text("<!---->\n" * 30)
    for path in (loose, bundle):
        started = time.monotonic()
        res = cli("review", str(path))
        assert res.returncode == 2 and time.monotonic() - started < 10
        _one_line_errors(res)


@pytest.mark.slow
def test_a_policy_of_60000_waivers_is_read_in_proportion_to_its_size(tmp_path: Path) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text("waivers:\n" + "".join(
        f"  - {{rule: ldoms.inter-vnet-link, subject: \"vsw primary-vsw{i}*\", host: \"h{i}\", "
        f"reason: \"accepted risk {i}\", owner: unix-team, expires: 2027-06-30}}\n" for i in range(60_000)))
    started = time.monotonic()
    res, peak = run_cli_measured("review", str(BUNDLE), "--policy", str(policy), "-q", timeout=300)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr[-2000:]
    assert time.monotonic() - started < 150 and peak < 1 << 30


def _ldm_renamed(tmp_path: Path, line_start: str, name: str, virtinfo: bool) -> Path:
    """The untuned T5 bundle with one domain's `ldm list -l` header (and virtinfo's name of it) renamed."""
    bundle = _bundle(tmp_path)
    listing = bundle / "ldm-list-l.txt"
    listing.write_text("".join(f"{name:<{len(line_start)}}{line[len(line_start):]}" if line.startswith(line_start)
                               else line for line in listing.read_text().splitlines(keepends=True)))
    if virtinfo:
        info = bundle / "virtinfo.txt"
        info.write_text(info.read_text().replace("Domain name: primary", f"Domain name: {name}"))
    return bundle


def _script_lines(tmp_path: Path, bundle: Path) -> tuple[dict, dict[str, str]]:
    out = tmp_path / "out"
    res = run_cli("review", str(bundle), "-f", "json,script", "-o", f"{out}/")
    assert res.returncode in (0, 1) and "Traceback" not in res.stderr, res.stderr
    scripts = {p.name: p.read_text() for p in out.glob("*.sh")}
    for name, text in scripts.items():
        assert subprocess.run(["dash", "-n"], input=text, text=True).returncode == 0, name
    return json.loads((out / "report.json").read_text())["hosts"][0], scripts


@pytest.mark.parametrize("name", ["-a", "<domain>", "ctl$1"])
def test_a_control_domain_named_as_ldm_would_refuse_stops_the_plan(tmp_path: Path, name: str) -> None:
    """Named `-a` or `<domain>`, part 2 of its script was a line sh cannot
    parse, found only once part 1 and its reboot had run."""
    host, scripts = _script_lines(tmp_path, _ldm_renamed(tmp_path, "primary ", name, virtinfo=True))
    assert host["plan"]["phases"] == [] and host["findings"]
    assert any(note.startswith(f"domain {name!r}: a name ldm refuses") for note in host["plan"]["notes"])
    assert "no change is planned: the control domain's name is one ldm refuses" in host["plan"]["notes"]
    for text in scripts.values():
        assert not [line for line in text.splitlines() if not line.startswith("#") and ("ldm " in line or name in line)]


def test_a_guest_named_as_ldm_would_refuse_has_no_step_and_the_others_keep_theirs(tmp_path: Path) -> None:
    host, scripts = _script_lines(tmp_path, _ldm_renamed(tmp_path, "ldg1 ", "-a", virtinfo=False))
    assert any(note.startswith("domain '-a': a name ldm refuses") for note in host["plan"]["notes"])
    commands = [s["command"] for phase in host["plan"]["phases"] for s in phase["steps"]]
    assert "ldm stop ldg2" in commands and not [c for c in commands if "-a" in c.split() or "dash" in c]
    [text] = scripts.values()
    assert "    ldm stop ldg2" in text.splitlines()


def test_a_script_sh_cannot_read_is_never_written_to_run(capsys) -> None:
    """Every script is read whole by sh -n before it is written: one it refuses runs nothing."""
    from advisor.report import script
    from conftest import review

    [host] = review(BUNDLE).hosts
    good = script.render_host(host)
    assert all(script.checked(host, name, text) == text for name, text in good.items())
    stub = script.checked(host, "t5.remediation.sh", "#!/bin/sh\nreboot\nflags=`ldm list <a> | awk '{ print }'`\n")
    assert subprocess.run(["dash", "-n"], input=stub, text=True).returncode == 0
    assert "reboot" not in stub and stub.rstrip().endswith("exit 1")
    [said] = capsys.readouterr().err.splitlines()
    assert said.startswith("advisor: t5.remediation.sh: sh -n refused it (") and said.endswith(
        "; written as a script that runs nothing")


# Seven internal errors reached the user as one line naming a Python exception
# (`could not be reviewed (OverflowError: ...)`); each is handled where it arises.
_PYTHON_ERROR = re.compile(r"\b(?:[A-Z][A-Za-z]*(?:Error|Exception)|KeyError|StopIteration|Traceback)\b")


def _edited(tmp_path: Path, capture: str, file: str, edit) -> tuple[Path, list[str]]:
    """A copy of a bundled capture with one file edited; every error line its review gives."""
    from conftest import review

    dest = tmp_path / capture
    shutil.copytree(CAPTURES / capture, dest)
    (dest / file).write_text(edit((dest / file).read_text()))
    report = review(dest)
    said = list(report.errors) + [e for h in report.hosts for e in h.errors]
    assert not [line for line in said if _PYTHON_ERROR.search(line) or "too large to hold in memory" in line], said
    return dest, said


@pytest.mark.parametrize("capture, file", [("linux-gw-untuned", "ip-link.txt"), ("ovm-dom0-untuned", "xl-list.txt"),
                                           ("hpux-rx6600-lanscan-v", "nwmgr-vmtu@lan0.txt")])
def test_a_number_of_more_than_4300_digits_is_refused_at_its_line_in_words(tmp_path: Path, capture: str,
                                                                         file: str) -> None:
    """int() refuses it: `not understood (ValueError: Exceeds the limit (4300 digits) ...)`."""
    dest, said = _edited(tmp_path, capture, file, lambda text: re.sub(r"\d+", "9" * 5000, text, count=1))
    line = next(n for n, text in enumerate((CAPTURES / capture / file).read_text().splitlines(), 1)
                if re.search(r"\d", text))
    assert f"{dest / file}:{line}: a number of more than 4,300 digits; not one any command prints" in said


def test_a_kstat_instance_of_5000_digits_is_refused_at_its_line_in_words(tmp_path: Path) -> None:
    dest, said = _edited(tmp_path, "s10-guest-tuned", "kstat-p.txt",
                         lambda text: text + f"vnet:{'9' * 5000}:vnetldc0x1:dring_mode\t4\n")
    assert said == [f"{dest / 'kstat-p.txt'}:{len((CAPTURES / 's10-guest-tuned' / 'kstat-p.txt').read_text().splitlines()) + 1}"
                    f": instance 99999999999999999999... of 5,000 digits; not a kstat instance"]


@pytest.mark.parametrize("capture, file", [("s10-guest-tuned", "kstat-p.txt"), ("ovm-dom0-pinned", "xl-info.txt")])
def test_superscript_digits_are_not_read_as_a_number(tmp_path: Path, capture: str, file: str) -> None:
    """'²'.isdigit() is true and int('²') fails: `could not be reviewed (ValueError: invalid literal for int() ...)`."""
    _edited(tmp_path, capture, file, lambda text: re.sub(r"\d+", lambda m: "\u00b2" * len(m.group()), text))


@pytest.mark.parametrize("capture, file, numbers, said", [
    ("t5-primary-untuned", "ldm-list-devices.txt", r"\d+", None),  # a size: none (OverflowError: float infinity)
    ("hpux-rx6600-lanscan-v", "nwmgr-attrs@lan0.txt", r"\d+", None),  # a speed: none (the same)
    ("t2-primary-crowded", "ldm-list-l-p.txt", r"(?<=mem=)\d+",
     "ldm-list-l-p.txt:2: mem= of 400 digits; no machine has that memory"),  # OverflowError: integer division
    ("ovm-dom0-pinned", "xl-info.txt", r"\d+",
     "xl-info.txt:5: nr_cpus of 400 digits; Xen runs on at most 16,384 CPUs"),  # a set of every CPU: all memory
    ("t5-primary-untuned", "ldm-list-l.txt", r"\d+", "could not be reviewed (host.domains[0].vcpus is a number of "
                                                    "400 digits; the rules compare numbers of at most 19)"),
])
def test_a_number_of_400_digits_is_said_in_words(tmp_path: Path, capture: str, file: str, numbers: str,
                                                 said: str | None) -> None:
    """Too large for a float (OverflowError), for memory, or for CEL's 64-bit numbers
    (`ValueError: Failed to convert variable 'host'`)."""
    _dest, errors = _edited(tmp_path, capture, file, lambda text: re.sub(numbers, "9" * 400, text))
    assert said is None or any(e.endswith(said) for e in errors), errors


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@pytest.mark.parametrize("kind", ["superscript", "400 digits", "5000 digits", "1e999", "NUL"])
def test_no_error_on_any_bundled_capture_edited_so_names_a_python_exception(tmp_path: Path, kind: str) -> None:
    """The probe that found the seven: every file of every bundled capture, its numbers replaced.
    Run under a cap on this process's memory: nr_cpus of 400 digits once took all of it."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (_vm_size() + (2 << 30), hard))
    try:
        _every_capture_edited(tmp_path, kind)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _vm_size() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) << 10
    return 0


def _every_capture_edited(tmp_path: Path, kind: str) -> None:
    edit = {"superscript": lambda t: re.sub(r"\d+", lambda m: "\u00b2" * len(m.group()), t),
            "400 digits": lambda t: re.sub(r"\d+", "9" * 400, t),
            "5000 digits": lambda t: re.sub(r"\d+", "9" * 5000, t),
            "1e999": lambda t: re.sub(r"\d+", "1e999", t),
            "NUL": lambda t: "\n".join(line[:len(line) // 2] + "\0" + line[len(line) // 2:] for line in t.splitlines())}[kind]
    for capture in sorted(CAPTURES.iterdir()):
        for file in sorted(f.name for f in capture.iterdir() if f.is_file() and f.name != "manifest.yaml"):
            shutil.rmtree(tmp_path / capture.name, ignore_errors=True)
            _edited(tmp_path, capture.name, file, edit)


@pytest.mark.parametrize("name, refused", [
    ("ldg1", False), ("primary", False), ("web-1_a+b#c.d:e;f~(g)", False), ("9ldg", False),
    ("-a", True), ("<domain>", True), ("ldg 1", True), ("", True), ("x" * 257, True),
    ("ldgé", True), ("ldg²", True), ("é", True),
])
def test_a_domain_name_is_judged_by_ldm_s_own_rule_in_ascii(name: str, refused: bool) -> None:
    from advisor.platforms.ldoms.plan import ldm_refuses

    assert ldm_refuses(name) is refused
