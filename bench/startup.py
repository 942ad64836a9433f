"""Benchmark: how long advisor takes to start and to review one small bundle.

Runs each command --runs times (default 11) and prints the median and the
fastest wall time: `advisor --help`, `advisor --version`, and
`advisor review <the untuned T5 bundle> --format json` and the terminal table,
and bench/floor.py (typer and pydantic alone, with the review's parameters).

    python bench/startup.py
    python bench/startup.py --advisor "python -m advisor"    # another build of advisor

Measure with compiled bytecode, as an installed advisor runs: unset
PYTHONDONTWRITEBYTECODE and run once before measuring. Where `perf stat` can
count instructions, each command's count is printed too: unlike wall time it
does not move with what else the machine is doing, so two builds compare on a
busy machine. Not a test: nothing asserts a time.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "fixtures" / "captures" / "t5-primary-untuned"


def timed(cmd: list[str], runs: int) -> list[float]:
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # warm caches, write bytecode
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def instructions(cmd: list[str]) -> int | None:
    """Instructions one run retires, by `perf stat`; None where perf cannot count them."""
    perf = shutil.which("perf")
    if perf is None:
        return None
    res = subprocess.run([perf, "stat", "-x,", "-e", "instructions", "--", *cmd], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    for line in res.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("instructions") and fields[0].isdigit():
            return int(fields[0])
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--advisor", default=None, help="the command that runs advisor (default: the installed one)")
    args = ap.parse_args()

    advisor = shlex.split(args.advisor) if args.advisor else [
        shutil.which("advisor") or str(Path(sys.executable).parent / "advisor")]
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set: every run compiles advisor's modules again")
    cases = {
        "advisor --help": ["--help"],
        "advisor --version": ["--version"],
        "review one bundle, json": ["review", str(BUNDLE), "--format", "json"],
        "review one bundle, table": ["review", str(BUNDLE)],
    }
    commands = {name: [*advisor, *argv] for name, argv in cases.items()}
    # what typer and pydantic cost alone, with the review's parameters and one model: the same run's floor
    commands["floor (bench/floor.py)"] = [sys.executable, str(ROOT / "bench" / "floor.py"), "review", "x", "-f", "json"]
    for name, cmd in commands.items():
        times = timed(cmd, args.runs)
        counted = instructions(cmd)
        count = f"   {counted / 1e6:,.0f} M instructions" if counted else ""
        print(f"{name:28s} median {statistics.median(times):6.3f} s   fastest {min(times):6.3f} s{count}")


if __name__ == "__main__":
    main()
