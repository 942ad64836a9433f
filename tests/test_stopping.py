"""advisor told to stop (SIGTERM from a pipeline's time limit, SIGHUP from a
closed terminal) leaves nothing of its own behind: Python ends on those signals
without running any cleanup, and a stopped review left its unpacked archives
(up to gigabytes) in the temporary folder."""

from __future__ import annotations

import errno
import io
import signal
import subprocess
import tarfile
import time
from pathlib import Path

import pytest

from conftest import CAPTURES, _entry_point, _env

UNTUNED = CAPTURES / "t5-primary-untuned"


@pytest.fixture(scope="module")
def big_bundle(tmp_path_factory) -> Path:
    """The untuned T5 bundle as a .tar.gz with a kstat dump of 4 M lines: seconds to unpack and read."""
    archive = tmp_path_factory.mktemp("big") / "t5.tar.gz"
    kstat = (UNTUNED / "kstat-p.txt").read_bytes()
    filler = b"".join(b"unix:0:misc%d:stat%d\t%d\n" % (i % 97, i, i) for i in range(4_000_000))
    with tarfile.open(archive, "w:gz", compresslevel=1) as tar:
        for path in sorted(UNTUNED.iterdir()):
            data = kstat + filler if path.name == "kstat-p.txt" else path.read_bytes()
            info = tarfile.TarInfo(f"t5/{path.name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return archive


def _start(tmp: Path, *args: str, ignore_hup: bool = False) -> subprocess.Popen[str]:
    def setup() -> None:
        if ignore_hup:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup starts it

    return subprocess.Popen([*_entry_point(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env({"TMPDIR": str(tmp)}), preexec_fn=setup)


def _wait_for(check, what: str, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"never saw {what}"
        time.sleep(0.01)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_a_review_told_to_stop_removes_what_it_unpacked(tmp_path: Path, big_bundle: Path, sig: signal.Signals) -> None:
    archive = big_bundle
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = _start(tmp, "review", str(archive), "-f", "json", "-o", str(tmp_path / "report.json"))
    _wait_for(lambda: any(tmp.glob("advisor-*/*/t5/*")), "the archive being unpacked")
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + sig, err
    assert list(tmp.iterdir()) == []
    assert not (tmp_path / "report.json").exists()


def test_a_stop_ignored_by_nohup_stays_ignored(tmp_path: Path, big_bundle: Path) -> None:
    archive = big_bundle
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = _start(tmp, "review", str(archive), "-f", "json", ignore_hup=True)
    _wait_for(lambda: any(tmp.glob("advisor-*/*/t5/*")), "the archive being unpacked")
    proc.send_signal(signal.SIGHUP)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err  # the review went on to its end
    assert '"host": "t5"' in out and list(tmp.iterdir()) == []


def test_a_report_that_cannot_be_written_whole_leaves_no_part_behind(tmp_path: Path, monkeypatch) -> None:
    from advisor.commands import output
    from advisor.errors import InputError
    from conftest import review

    report = review(UNTUNED)

    def full_disk(*_args, **_kwargs) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(output, "_render", full_disk)
    with pytest.raises(InputError, match=r"report.json: cannot write \(No space left on device\)"):
        output.write(report, ["json"], tmp_path / "report.json", [])
    assert list(tmp_path.iterdir()) == []
