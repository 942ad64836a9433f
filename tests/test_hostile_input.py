"""Hostile and broken input: one clear line and exit status 2, never a
traceback, a hang, unbounded memory or a read outside what was given; every
other host and file still reported.

Each test builds its input (large ones are generated here, not kept) and runs
the installed `advisor` as a user would.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import CAPTURES

SECRET = "root:$6$SECRETHASHVALUE$abcdef:19000:0:99999:7:::"
BUNDLE = CAPTURES / "t5-primary-untuned"


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
    assert all(line.startswith("advisor: ") for line in lines), res.stderr
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
    import json

    hosts = {h["source"].rsplit("/", 1)[-1]: h for h in json.loads(res.stdout)["hosts"]}
    assert res.returncode == 2
    assert hosts["m-good"]["errors"] == [] and hosts["m-good"]["findings"]


def test_the_owners_own_hard_links_are_read(cli, tmp_path: Path) -> None:
    """A backup tree (rsnapshot, cp -al) links files its owner owns: nothing to refuse."""
    bundle = _bundle(tmp_path)
    (tmp_path / "elsewhere.txt").hardlink_to(bundle / "etc-system.txt")
    res = cli("review", str(bundle), "-f", "json")
    assert res.returncode == 0, res.stderr
