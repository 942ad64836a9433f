"""What every reporting verb shares: the gate, writing the report, the exit status."""

from __future__ import annotations

import functools
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from advisor import scratch
from advisor.engine.model import Rule, Severity
from advisor.errors import InputError, printable
from advisor.report.model import Report

EXIT_OK, EXIT_GATE, EXIT_INPUT, EXIT_UNREACHABLE = 0, 1, 2, 3


def _input_errors(report: Report) -> list[str]:
    return report.errors + [e for h in report.hosts if h.status != "unreachable" for e in h.errors]


def gate(report: Report, fail_on: str, min_score: float | None) -> None:
    """Sets summary.gate when a threshold was asked for. Input that could not be
    read fails it too: the gate has not judged everything it was given."""
    reasons = []
    unread = len(_input_errors(report))
    if unread:
        reasons.append(f"{unread} input(s) could not be read")
    blind = [h.host for h in report.hosts if h.status == "no-evidence"]
    if blind and (fail_on != "never" or min_score is not None):
        reasons.append(f"nothing could be evaluated on {', '.join(blind)} (no evidence)")
    if fail_on != "never":
        floor = Severity(fail_on).rank
        worst = [f for h in report.hosts for f in h.findings if f.severity.rank >= floor]
        if worst:
            reasons.append(f"{len(worst)} finding(s) at or above {fail_on}")
    if min_score is not None:
        low = [h.host for h in report.hosts if h.score is not None and h.score < min_score]
        if low:
            reasons.append(f"score below {min_score:g} on {', '.join(low)}")
    if fail_on != "never" or min_score is not None:
        report.summary.gate = "failed" if reasons else "passed"
        report.summary.gate_reason = "; ".join(reasons) or "no finding at or above the threshold"


FORMATS = {"table": "report.txt", "json": "report.json", "sarif": "report.sarif", "junit": "report.junit.xml",
           "markdown": "report.md", "html": "report.html", "script": "<host>.remediation.sh"}


def parse_formats(text: str) -> list[str]:
    """`json,junit` -> ["json", "junit"]; one clear error for an unknown name."""
    formats = [f.strip() for f in text.split(",") if f.strip()]
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise InputError(f"--format {text}: choose from {', '.join(FORMATS)} (several with commas)")
    return list(dict.fromkeys(formats))


_RENDERERS = {"json": "json_out", "sarif": "sarif", "junit": "junit", "markdown": "markdown", "html": "html"}


def _render(report: Report, fmt: str, rules: list[Rule], stream, mode: str = "full") -> None:
    # Each renderer is imported when its format is asked for: a JSON-only run
    # in a pipeline loads none of the others.
    causes = {r.id: r.follows_from for r in rules if r.follows_from}  # shown under the rules they follow from
    if fmt == "table":
        from advisor.report import terminal

        with terminal.Output(stream) as out:
            terminal.render(report, out, causes, mode)  # type: ignore[arg-type]
        return
    import importlib

    renderer = importlib.import_module(f"advisor.report.{_RENDERERS[fmt]}")
    extra = {"sarif": rules, "html": causes, "markdown": causes}
    stream.write(renderer.render(report, extra[fmt]) if fmt in extra else renderer.render(report))


def write_file(path: Path, fill: Callable[[TextIO], object], executable: bool = False) -> None:
    """A report or script at `path`, never replacing what advisor did not create:
    a new or regular file is written beside and renamed over (never seen half
    written); a character device or FIFO the user named (/dev/null, a pipe) is
    written in place, never renamed over; a symbolic link, a block device
    (a disk) or a socket is refused in one line."""
    try:
        try:
            found = os.lstat(path).st_mode
        except FileNotFoundError:
            found = None
        if found is not None and (stat.S_ISCHR(found) or stat.S_ISFIFO(found)):
            with os.fdopen(os.open(path, os.O_WRONLY | os.O_NOFOLLOW), "w", encoding="utf-8") as stream:
                fill(stream)
            return
        if found is not None and not stat.S_ISREG(found):
            what = "a symbolic link" if stat.S_ISLNK(found) else "a block device" if stat.S_ISBLK(found) else \
                "not a regular file"
            raise InputError(f"{path}: {what}; advisor writes a report only to a regular file, a character device "
                             f"or a pipe it is given, and never replaces anything else")
        with scratch.beside(path, 0o700 if executable else 0o666) as tmp:
            with tmp.open("w", encoding="utf-8") as stream:
                fill(stream)
            if executable:  # only once it is whole
                tmp.chmod(0o755)
            tmp.replace(path)
    except OSError as exc:  # a full disk as well as a folder it may not write
        raise InputError(f"{path}: cannot write ({exc.strerror})") from None


def put(text: str, stream: TextIO) -> None:
    stream.write(text)


def _mkdir(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{folder}: cannot create folder ({exc.strerror})") from None


def _write_scripts(report: Report, output: Path | None, into_folder: bool) -> None:
    """A script per host: to stdout or -o FILE for one host, else into -o DIR."""
    from advisor.report import script

    scripts = script.render(report)
    if not into_folder and len(scripts) <= 1:
        text = next(iter(scripts.values()), "")
        if output is None:
            sys.stdout.write(text)
        else:
            write_file(output, functools.partial(put, text))
        return
    if output is None:
        raise InputError("--format script writes several scripts here (one per host, and one for the control "
                         "domain where a guest's ldm steps run): give -o DIR")
    _mkdir(output)
    for name, text in scripts.items():
        write_file(output / name, functools.partial(put, text), executable=True)
    if scripts:
        print(printable(f"wrote {len(scripts)} script(s) into {output}: {', '.join(scripts)}"))


def write(report: Report, formats: list[str], output: Path | None, rules: list[Rule], mode: str = "full") -> None:
    """One format to stdout or -o FILE; several into the folder -o DIR. JSON
    and SARIF escape what they must; every other format gets the report with
    unprintable characters from captures shown escaped."""
    shown = report
    if set(formats) - {"json", "sarif"}:
        from advisor.report import printable as escaped

        shown = escaped.report(report)
    if len(formats) > 1 and output is None:
        raise InputError("several --format values need -o DIR for the reports")
    if "script" in formats:
        _write_scripts(shown, output, into_folder=len(formats) > 1 or bool(output and output.is_dir()))
        formats = [f for f in formats if f != "script"]
        if not formats:
            return
    if len(formats) > 1 or (output is not None and output.is_dir()):
        assert output is not None
        _mkdir(output)
        targets: list[tuple[str, Path | None]] = [(fmt, output / FORMATS[fmt]) for fmt in formats]
    else:
        targets = [(formats[0], output)]
    written: list[str] = []  # what went into the folder -o DIR/, said on stdout (stderr is for what went wrong)
    for fmt, path in targets:
        chosen = report if fmt in ("json", "sarif") else shown
        if path is None:
            _render(chosen, fmt, rules, sys.stdout, mode)
            continue
        write_file(path, functools.partial(_render, chosen, fmt, rules, mode=mode))
        written.append(str(path))
    if written and (len(targets) > 1 or (output is not None and output.is_dir())):
        print(printable(f"wrote {', '.join(written)}"))


def verdict(report: Report) -> str:
    """The gate's one line for a pipeline log."""
    s = report.summary
    lowest = "-" if s.lowest_score is None else f"{s.lowest_score:g}"
    return f"advisor gate: {s.gate or 'passed'}: {s.gate_reason or 'no threshold'} ({s.hosts} host(s), lowest score {lowest})"


def say(message: str) -> None:
    """One line on stderr: names and reasons come from captures and hosts, so
    an escape sequence or line break in them is shown escaped."""
    print(printable(message), file=sys.stderr)


def exit_status(report: Report) -> int:
    """2 unreadable input, 3 a host not (completely) collected, 1 gate failed,
    else 0. Each error is printed on stderr as one line."""
    unreachable = [h for h in report.hosts if h.status == "unreachable"]
    incomplete = [h for h in report.hosts if h.incomplete]
    input_errors = _input_errors(report)
    for e in input_errors:
        say(f"advisor: {e}")
    for h in unreachable:
        say(f"advisor: {h.host}: not collected: {'; '.join(h.errors)}")
    for h in incomplete:
        say(f"advisor: {h.host}: incomplete: {', '.join(h.incomplete)} did not finish")
    if input_errors:
        return EXIT_INPUT
    if unreachable or incomplete:
        return EXIT_UNREACHABLE
    return EXIT_GATE if report.summary.gate == "failed" else EXIT_OK
