"""Benchmark: peak memory of one review as the kstat dump grows.

Builds one bundle per size (the untuned T5 control domain's outputs with a
kstat dump of 1 M and 10 M lines by default, padding statistics first and the
LDC and TCP statistics the rules read at the end), reviews each with
`advisor review --format json` in its own process and prints the process's
peak resident memory and wall time. The figure to track: peak RSS should not
grow with the dump.

    python bench/review_memory.py                         # 1 M and 10 M lines (about 300 MB on disk)
    python bench/review_memory.py --lines 100000 1000000
    python bench/review_memory.py --advisor "python -m advisor"    # another build of advisor

Not a test: nothing asserts a figure. Linux (reads ru_maxrss from wait4).
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fixtures" / "tools"))

import kstat_dump  # noqa: E402

TEMPLATE = ROOT / "fixtures" / "captures" / "t5-primary-untuned"


def write_dump(path: Path, lines: int) -> None:
    """`lines` lines of cpu padding, then eight vsw LDCs and the TCP statistics, streamed to disk."""
    tail = [line for n in range(8) for line in kstat_dump.ldc_lines("vsw", 0, n * 3, 1, 1)]
    tail += kstat_dump.tcp_lines(1, 0, 99999)
    padding = max(0, lines - len(tail))
    with path.open("w") as fh:
        batch = []
        for i in range(padding):
            batch.append(f"cpu:{i // 4096}:sys:stat{i % 4096}\t{i}\n")
            if len(batch) == 65536:
                fh.write("".join(batch))
                batch.clear()
        fh.write("".join(batch) + "\n".join(tail) + "\n")


def make_bundle(workdir: Path, lines: int) -> Path:
    bundle = workdir / f"memory-{lines}"
    if bundle.exists():
        shutil.rmtree(bundle)
    bundle.mkdir(parents=True)
    for p in TEMPLATE.iterdir():
        if p.name != "kstat-p.txt":
            shutil.copy(p, bundle / p.name)
    write_dump(bundle / "kstat-p.txt", lines)
    return bundle


def peak_rss(cmd: list[str]) -> tuple[float, float]:
    """(peak RSS in MiB, wall seconds) of one run."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{shlex.join(cmd)} exited {proc.returncode}")
    return usage.ru_maxrss / 1024, wall


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, nargs="+", default=[1_000_000, 10_000_000])
    ap.add_argument("--advisor", default=None, help="the command that runs advisor (default: the installed one)")
    ap.add_argument("--workdir", type=Path, default=ROOT / "bench" / "out")
    args = ap.parse_args()

    advisor = shlex.split(args.advisor) if args.advisor else [
        shutil.which("advisor") or str(Path(sys.executable).parent / "advisor")]
    for lines in args.lines:
        bundle = make_bundle(args.workdir, lines)
        size = (bundle / "kstat-p.txt").stat().st_size / 2**20
        rss, wall = peak_rss([*advisor, "review", str(bundle), "--format", "json", "-o", str(args.workdir / "report.json")])
        print(f"{lines:>12,} kstat lines ({size:7.1f} MiB): peak RSS {rss:7.1f} MiB, {wall:6.2f} s")


if __name__ == "__main__":
    main()
