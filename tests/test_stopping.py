"""advisor told to stop (SIGTERM from a pipeline's time limit, SIGHUP from a
closed terminal) leaves nothing of its own behind: Python ends on those signals
without running any cleanup, and a stopped review left its unpacked archives
(up to gigabytes) in the temporary folder."""

from __future__ import annotations

import errno
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from conftest import CAPTURES, _entry_point, _env

pytestmark = pytest.mark.slow  # processes stopped mid-run

UNTUNED = CAPTURES / "t5-primary-untuned"


@pytest.fixture(scope="module")
def big_bundle(tmp_path_factory) -> Path:
    """The untuned T5 bundle as a .tar.gz with a kstat dump of 4 M lines: seconds to unpack and read."""
    folder = tmp_path_factory.mktemp("big")
    dump = folder / "kstat-p.txt"
    with dump.open("wb") as out:  # in pieces: the test process stays small (its peak passes to what it starts)
        out.write((UNTUNED / "kstat-p.txt").read_bytes())
        for start in range(0, 4_000_000, 100_000):
            out.write(b"".join(b"unix:0:misc%d:stat%d\t%d\n" % (i % 97, i, i) for i in range(start, start + 100_000)))
    archive = folder / "t5.tar.gz"
    with tarfile.open(archive, "w:gz", compresslevel=1) as tar:
        for path in sorted(UNTUNED.iterdir()):
            tar.add(dump if path.name == "kstat-p.txt" else path, arcname=f"t5/{path.name}")
    dump.unlink()
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

    from advisor.report import stream

    monkeypatch.setattr(stream.Spill, "assemble", full_disk)  # the disk fills as the report is put together
    with pytest.raises(InputError, match=r"report.json: cannot write \(No space left on device\)"):
        output.write(report, ["json"], tmp_path / "report.json", [])
    assert list(tmp_path.iterdir()) == []


_COLLECTING = r'''
import sys, time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from advisor import scratch
from advisor.collect import allowlist, live
from advisor.collect.ssh import SshOptions
from advisor.collect.targets import Target


class Trickling:
    """A host session whose every command trickles output: threads are busy writing when the stop comes."""
    options = SshOptions()

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def run(self, line, sink, timeout=None, max_bytes=0):
        if line == allowlist.DETECT.line:
            sink(b"SunOS\n")
            return 0, ""
        for _ in range(20):
            sink(b"x" * 4096)
            time.sleep(0.001)
        return 0, ""


live.Session, live.resolve = Trickling, lambda *args, **kwargs: None
scratch.remove_on_stop()
print("collecting", flush=True)
with ThreadPoolExecutor(16) as pool:
    list(pool.map(lambda i: live.collect_host(Target(f"host{i}"), SshOptions(), Path(sys.argv[1])), range(16)))
'''


def test_a_collection_told_to_stop_keeps_every_bundle_of_the_run_before(tmp_path: Path) -> None:
    """The stop removed each thread's unfinished folder while the threads ran on:
    each then recorded its host as not collected, over that host's good bundle
    of the run before (3 to 12 of 16, run after run)."""
    dest = tmp_path / "bundles"
    good = "format: advisor-capture/1\nhost: good\ncommands: []\n"
    for i in range(16):
        (dest / f"host{i}").mkdir(parents=True)
        (dest / f"host{i}" / "manifest.yaml").write_text(good)
    for _ in range(5):
        proc = subprocess.Popen([sys.executable, "-c", _COLLECTING, str(dest)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline() == "collecting\n"
        _wait_for(lambda: len(list(dest.glob(".*.tmp/*"))) >= 64, "every host writing")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 128 + signal.SIGTERM
        assert sorted(p.name for p in dest.iterdir()) == sorted(f"host{i}" for i in range(16))
        assert all((dest / f"host{i}" / "manifest.yaml").read_text() == good for i in range(16))


def test_a_report_is_written_beside_its_place_under_a_name_of_its_own(tmp_path: Path) -> None:
    """The hidden name was fixed: what was there (another run's report being
    written, a folder of the user's) was removed or written over."""
    (tmp_path / ".report.json.tmp").mkdir()
    (tmp_path / ".report.json.tmp" / "keep").write_text("mine")
    res = subprocess.run([*_entry_point(), "review", str(UNTUNED), "-f", "json", "-o", str(tmp_path / "report.json")],
                         capture_output=True, text=True, env=_env({}), timeout=120)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / ".report.json.tmp" / "keep").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".report.json.tmp", "report.json"]


@pytest.mark.parametrize(("stop", "status", "ends_within"), [
    # Stopped alone (the pipeline's time limit kills the process, not its group), the review left its workers
    # asleep, holding its stderr open.
    (signal.SIGTERM, 128 + signal.SIGTERM, 30),
    # SIGKILL runs no handler (a pipeline's time limit may send it), and a SIGTERM that comes while a worker is
    # being forked finds it not yet among the children: each worker watches for its review's end, and ends too.
    (signal.SIGKILL, -signal.SIGKILL, 60),
], ids=["sigterm", "sigkill"])
def test_review_workers_end_with_the_review(tmp_path: Path, big_bundle: Path, stop: int, status: int,
                                            ends_within: int) -> None:
    import os

    inputs = tmp_path / "in"
    inputs.mkdir()
    for n in range(4):
        os.link(big_bundle, inputs / f"t5-{n}.tar.gz")
    proc = subprocess.Popen([*_entry_point(), "review", str(inputs), "-j", "2", "-f", "json"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env({}))
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    _wait_for(lambda: len(children.read_text().split()) >= 2, "the workers")
    workers = [int(pid) for pid in children.read_text().split()]
    proc.send_signal(stop)
    proc.communicate(timeout=ends_within)  # returns only once no process holds the stderr pipe open
    assert proc.returncode == status
    _wait_for(lambda: not any(Path(f"/proc/{pid}").exists() and "Z" not in _state(pid) for pid in workers),
              "the workers ending", timeout=10)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
