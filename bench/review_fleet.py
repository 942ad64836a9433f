"""Benchmark: review a synthetic fleet of capture bundles.

Writes N bundles (default 1000) whose kstat dumps have about L lines (default
100,000), reviews them with `advisor review --format json`, and splits the
same kstat files with awk. Prints bundles/s and kstat lines/s for both and the
ratio advisor / awk (the figure to track: lower is better).

    python bench/review_fleet.py                      # the full fleet (about 2.7 GB of dumps,
                                                      # copies of --distinct files)
    python bench/review_fleet.py --bundles 50 --lines 20000   # a quick run
    python bench/review_fleet.py --advisor "python -m advisor"  # another build of advisor

Not a test: nothing asserts a time. Needs awk on PATH.
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


def make_dumps(out: Path, distinct: int, lines: int) -> list[Path]:
    dumps = []
    for i in range(distinct):
        path = out / f"kstat-{i}.txt"
        ldcs = [("vsw", 0, n * 3, 4 if i % 2 else 1, 1) for n in range(8)]
        per_cpu = max(1, (lines - 2000) // 64 - 7)
        kstat_dump.dump(str(path), 64, ldcs, (168, 1000 * i, 99999), per_cpu_stats=per_cpu)
        dumps.append(path)
    return dumps


def make_fleet(out: Path, bundles: int, dumps: list[Path]) -> Path:
    fleet = out / "fleet"
    if fleet.exists():
        shutil.rmtree(fleet)
    fleet.mkdir(parents=True)
    small = [p for p in TEMPLATE.iterdir() if p.name != "kstat-p.txt"]
    for n in range(bundles):
        bundle = fleet / f"host{n:04d}"
        bundle.mkdir()
        for p in small:
            shutil.copyfile(p, bundle / p.name)  # copies: advisor refuses hard links in a bundle
        shutil.copyfile(dumps[n % len(dumps)], bundle / "kstat-p.txt")
    return fleet


def count_lines(paths: list[Path]) -> int:
    total = 0
    for p in paths:
        with p.open("rb") as fh:
            total += sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
    return total


def timed(cmd: list[str]) -> float:
    return measured(cmd)[0]


def measured(cmd: list[str], cwd: Path | None = None) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, the workers it waited for
    included) and the peak resident memory in bytes of the largest process of
    the run. The peak is read from /proc (VmHWM) ten times a second: wait4's
    ru_maxrss was seen to miss the parent's peak once it had forked workers."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, cwd=cwd)
    peak = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak = max([peak, *(_high_water(p) for p in _tree(proc.pid))])
        time.sleep(0.1)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):  # 1: the review has findings
        raise SystemExit(f"{cmd[0]} exited {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime, max(peak, usage.ru_maxrss << 10)


def _tree(root: int) -> list[int]:
    """The process and its children (the review's workers)."""
    try:
        with open(f"/proc/{root}/task/{root}/children") as fh:
            return [root, *map(int, fh.read().split())]
    except OSError:
        return [root]


def _high_water(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return next((int(line.split()[1]) << 10 for line in fh if line.startswith("VmHWM:")), 0)
    except OSError:
        return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bundles", type=int, default=1000)
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--distinct", type=int, default=10, help="distinct kstat dumps, copied into the bundles")
    ap.add_argument("--workdir", type=Path, default=ROOT / "bench" / "out")
    ap.add_argument("--advisor", default=None, help="the command that runs advisor (default: the installed one)")
    ap.add_argument("--jobs", default=None, help="advisor's --jobs (default: its own default)")
    ap.add_argument("--vs", default=None, help="a second advisor command (another build), timed on the same fleet")
    args = ap.parse_args()

    args.workdir.mkdir(parents=True, exist_ok=True)
    dumps = make_dumps(args.workdir, min(args.distinct, args.bundles), args.lines)
    fleet = make_fleet(args.workdir, args.bundles, dumps)
    kstat_files = sorted(fleet.glob("*/kstat-p.txt"))
    lines = count_lines(kstat_files)

    advisor = shlex.split(args.advisor) if args.advisor else [
        shutil.which("advisor") or str(Path(sys.executable).parent / "advisor")]
    jobs = ["--jobs", args.jobs] if args.jobs else []
    print(f"fleet: {args.bundles} bundles, {lines:,} kstat lines ({lines // args.bundles:,} per bundle)")
    t_awk = timed(["awk", "-F", "\t", "NF == 2 { n++ } END { print n }", *map(str, kstat_files)])
    print(f"awk split:      {t_awk:8.2f} s  {args.bundles / t_awk:10.1f} bundles/s  {lines / t_awk / 1e6:8.2f} M kstat lines/s")
    for name, command in [("advisor", advisor)] + ([("--vs", shlex.split(args.vs))] if args.vs else []):
        # run from the work folder: `python -m advisor` from a checkout imports that checkout first
        wall, cpu, peak = measured([*command, "review", str(fleet.resolve()), "--format", "json", "-o",
                                    str((args.workdir / "report.json").resolve()), *jobs], cwd=args.workdir)
        print(f"{name}: {wall:8.2f} s, {args.bundles / wall:.1f} bundles/s, {lines / wall / 1e6:.2f} M kstat lines/s; "
              f"{wall / t_awk:.2f}x awk; {cpu / args.bundles * 1000:.1f} ms of CPU per bundle; "
              f"peak memory {peak / 2**20:.0f} MiB")


if __name__ == "__main__":
    main()
