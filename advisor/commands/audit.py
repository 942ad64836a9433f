"""`advisor audit` and `advisor collect`: live hosts over SSH.

A fleet is collected in parallel threads (SSH waits on the network); each
host fails alone with its reason. `audit` then reviews the bundles exactly as
`advisor review` would, from a private scratch folder that is removed
afterwards unless `--save-capture` names a folder to keep them in.
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import nullcontext
from pathlib import Path

from advisor import scratch
from advisor.collect.live import Collected, collect_host
from advisor.collect.offline import load_bundle
from advisor.collect.ssh import KnownHosts, SshOptions
from advisor.collect.targets import Target
from advisor.commands import output
from advisor.commands.stdout import to_stdout
from advisor.errors import InputError
from advisor.engine import packs, policy as policy_mod
from advisor.engine.evaluate import Engine
from advisor.pipeline import review_all, unreachable


def _progress(total: int):
    """A live progress line on a terminal; nothing when stderr is piped."""
    if not sys.stderr.isatty() or total < 2:
        return nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("collecting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("{task.description}", markup=False),  # host names as written, never markup
                    console=Console(stderr=True, emoji=False), transient=True)


def collect_all(targets: list[Target], options: SshOptions, dest: Path, privilege: str | None,
                parallel: int) -> list[Collected]:
    known = KnownHosts(options)
    results: dict[int, Collected] = {}
    with _progress(len(targets)) as progress, ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        task = progress.add_task("", total=len(targets)) if progress else None
        futures = {pool.submit(collect_host, t, options, dest, privilege, known): i for i, t in enumerate(targets)}
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            if progress is not None:
                progress.update(task, advance=1, description=targets[i].alias)
    return [results[i] for i in range(len(targets))]


def run_audit(targets: list[Target], options: SshOptions, privilege: str | None, parallel: int,
              save_dir: Path | None, fmt: str, out: Path | None, fail_on: str, min_score: float | None,
              policy_path: Path | None, rule_dirs: list[Path], jobs: int) -> int:
    formats = output.parse_formats(fmt)
    rules = packs.load(rule_dirs)
    engine = Engine(rules, policy_mod.load(policy_path, rules))
    with nullcontext(save_dir) if save_dir else scratch.folder("advisor-audit-") as dest:
        collected = collect_all(targets, options, dest, privilege, parallel)
        captures, order = [], []
        for c in collected:
            if c.bundle is not None:
                shown = str(c.bundle) if save_dir else f"ssh://{c.target.alias}"
                try:
                    captures.append(load_bundle(c.bundle, shown, c.target.alias))
                except InputError as exc:  # what this host sent cannot be read: this host only
                    c.bundle, c.error = None, str(exc)
            order.append(c)
        reviewed = iter(review_all(captures, engine, jobs, rule_dirs, policy_path))
        with output.Reports(formats, out, rules) as reports:
            for c in order:
                reports.add(next(reviewed) if c.bundle is not None
                            else unreachable(c.target.alias, f"ssh://{c.target.alias}", c.error or ""))
            fleet = reports.finish([c.settings_error for c in order if c.settings_error], len(engine.rules),
                                   fail_on, min_score)
    return output.exit_status(fleet)


def run_collect(targets: list[Target], options: SshOptions, privilege: str | None, parallel: int, dest: Path) -> int:
    collected = collect_all(targets, options, dest, privilege, parallel)
    failed = 0
    for c in collected:
        if c.settings_error:
            output.say(f"advisor: {c.settings_error}")
        if c.bundle is not None:
            with to_stdout() as out:
                print(f"{c.target.alias}: {c.bundle}", file=out)
        else:
            failed += 1
            output.say(f"advisor: {c.target.alias}: not collected: {c.error}")
    if any(c.settings_error for c in collected):
        return output.EXIT_INPUT
    return output.EXIT_UNREACHABLE if failed else output.EXIT_OK
