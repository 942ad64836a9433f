"""`advisor diff OLD NEW`: two JSON reports, or two captures (reviewed now,
with their kstat counters compared)."""

from __future__ import annotations

import functools
from pathlib import Path

from pydantic import ValidationError

from advisor import datafile
from advisor.collect.offline import Loader
from advisor.commands import output
from advisor.commands.stdout import to_stdout
from advisor.engine import packs
from advisor.engine import policy as policy_mod
from advisor.engine.evaluate import Engine
from advisor.errors import InputError
from advisor.facts.models import HostFacts
from advisor.pipeline import load_captures, review_with_facts
from advisor.report import diff as diff_mod
from advisor.report import diff_render
from advisor.results.model import HostReport, Report, Severity

FORMATS = ("table", "json", "markdown")
Side = tuple[list[HostReport], dict[str, HostFacts], list[str]]


def _is_report(path: Path) -> bool:
    if not path.is_file() or path.suffix.lower() != ".json":
        return False
    with path.open("rb") as fh:
        return fh.read(64).lstrip().startswith(b"{")


def _side(path: Path, engine: Engine, loader: Loader) -> Side:
    if _is_report(path):
        data = datafile.load_json(path, InputError, "report")
        try:
            return Report.model_validate(data).hosts, {}, []
        except ValidationError as exc:
            raise InputError(f"{path}: not an advisor JSON report ({datafile.first_error(exc)})") from None
    captures, errors = load_captures([path], loader)
    hosts, facts = [], {}
    for capture in captures:
        report, host_facts = review_with_facts(capture, engine)
        hosts.append(report)
        facts[report.host] = host_facts
        errors += report.errors
    return hosts, facts, errors


def run_diff(old: Path, new: Path, fmt: str, out: Path | None, fail_on: str, policy_path: Path | None,
             rule_dirs: list[Path], force: bool = False) -> int:
    if fmt not in FORMATS:
        raise InputError(f"--format {fmt}: diff writes {', '.join(FORMATS)}")
    rules = packs.load(rule_dirs)
    engine = Engine(rules, policy_mod.load(policy_path, rules))
    with Loader() as loader:
        before, before_facts, errors = _side(old, engine, loader)
        after, after_facts, more = _side(new, engine, loader)
    pairs = diff_mod.pair(before, after)
    if not force:
        for b, a in pairs:
            if b and a and b.detected.nodename and a.detected.nodename and b.detected.nodename != a.detected.nodename:
                raise InputError(f"{old} and {new} are two different hosts ({b.detected.nodename} and "
                                 f"{a.detected.nodename}); give --force to compare them anyway")
    result = diff_mod.Diff(errors=errors + more, hosts=[
        diff_mod.compare(b, a, before_facts.get(b.host) if b else None, after_facts.get(a.host) if a else None)
        for b, a in pairs])
    if fmt != "json":  # JSON escapes what it must; text and Markdown show names from captures escaped
        from advisor.report import printable

        result = printable.report(result)
    text = {"table": diff_render.text, "markdown": diff_render.markdown,
            "json": lambda d: d.model_dump_json(indent=2) + "\n"}[fmt](result)
    if out is None:
        with to_stdout() as stream:
            stream.write(text)
    else:
        output.write_file(out, functools.partial(output.put, text))
    for e in result.errors:
        output.say(f"advisor: {e}")
    if result.errors:
        return 2
    floor = None if fail_on == "never" else Severity(fail_on).rank
    worse = [f for f in result.worst_new() if floor is not None and f.severity.rank >= floor]
    return 1 if worse else 0
