"""What every reporting verb shares: the gate, writing the report, the exit status."""

from __future__ import annotations

import functools
import io
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

from pydantic import BaseModel

from advisor import __version__, scratch
from advisor.commands.stdout import to_stdout
from advisor.engine.model import Rule
from advisor.errors import InputError, printable
from advisor.report import stream
from advisor.report.stream import Fleet, Writer
from advisor.results.model import HostLine, HostReport, Report, Severity, Tool, summary_of

EXIT_OK, EXIT_GATE, EXIT_INPUT, EXIT_UNREACHABLE = 0, 1, 2, 3
M = TypeVar("M", bound=BaseModel)
_ESCAPING = {"json", "sarif"}  # formats that escape what they must themselves; the others get printable text


def _input_errors(fleet: Fleet) -> list[str]:
    return fleet.errors + [e for h in fleet.lines if h.status != "unreachable" for e in h.errors]


def gate(fleet: Fleet, fail_on: str, min_score: float | None) -> None:
    """Sets summary.gate when a threshold was asked for. Input that could not be
    read fails it too: the gate has not judged everything it was given."""
    reasons = []
    unread = len(_input_errors(fleet))
    if unread:
        reasons.append(f"{unread} input(s) could not be read")
    blind = [h.host for h in fleet.lines if h.status == "no-evidence"]
    if blind and (fail_on != "never" or min_score is not None):
        reasons.append(f"nothing could be evaluated on {', '.join(blind)} (no evidence)")
    if fail_on != "never":
        floor = Severity(fail_on).rank
        worst = sum(n for h in fleet.lines for s, n in h.finding_counts().items() if Severity(s).rank >= floor)
        if worst:
            reasons.append(f"{worst} finding(s) at or above {fail_on}")
    if min_score is not None:
        low = [h.host for h in fleet.lines if h.score is not None and h.score < min_score]
        if low:
            reasons.append(f"score below {min_score:g} on {', '.join(low)}")
    if fail_on != "never" or min_score is not None:
        fleet.summary.gate = "failed" if reasons else "passed"
        fleet.summary.gate_reason = "; ".join(reasons) or "no finding at or above the threshold"


FORMATS = {"table": "report.txt", "json": "report.json", "sarif": "report.sarif", "junit": "report.junit.xml",
           "markdown": "report.md", "html": "report.html", "script": "<host>.remediation.sh"}


def parse_formats(text: str) -> list[str]:
    """`json,junit` -> ["json", "junit"]; one clear error for an unknown name."""
    formats = [f.strip() for f in text.split(",") if f.strip()]
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise InputError(f"--format {text}: choose from {', '.join(FORMATS)} (several with commas)")
    return list(dict.fromkeys(formats))


def _writer(fmt: str, rules: list[Rule], stream: TextIO | None, mode: str) -> Writer:
    """A format's writer. Each renderer is imported when its format is asked
    for: a JSON-only run in a pipeline loads none of the others."""
    causes = {r.id: r.follows_from for r in rules if r.follows_from}  # shown under the rules they follow from
    if fmt == "table":
        from advisor.report import terminal

        return terminal.Writer(terminal.Output(stream or io.StringIO(), color=None if stream else False),
                               causes, mode)  # type: ignore[arg-type]
    if fmt == "json":
        from advisor.report import json_out

        return json_out.Writer()
    if fmt == "sarif":
        from advisor.report import sarif

        return sarif.Writer(rules)
    if fmt == "junit":
        from advisor.report import junit

        return junit.Writer()
    if fmt == "markdown":
        from advisor.report import markdown

        return markdown.Writer(causes)
    from advisor.report import html

    return html.Writer(causes)


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


class _Scripts:
    """A script per host: into -o DIR as each host is judged, or, for one host,
    to stdout or -o FILE at the end. A host whose script would take a file name
    already written (two bundles of one host, `web;01` and `web_01`) gets the
    name with a digest of where its bundle came from: one never silently takes
    the other's place."""

    def __init__(self, output: Path | None, into_folder: bool) -> None:
        self.output, self.into_folder = output, into_folder
        self.taken: set[str] = set()
        self.held: dict[str, str] = {}  # the one host's scripts, when not into a folder

    def add(self, h: HostReport) -> None:
        from advisor.report import script

        if h.status == "unreachable":
            return
        scripts = script.render_host(h)
        if self.taken & set(scripts):
            scripts = script.render_host(h, script.tag_of(h))
        self.taken |= set(scripts)
        if not self.into_folder:
            self.held.update(scripts)
            if len(self.held) > 1:
                raise InputError("--format script writes several scripts here (one per host, and one for the "
                                 "control domain where a guest's ldm steps run): give -o DIR")
            return
        assert self.output is not None
        _mkdir(self.output)
        for name, text in scripts.items():
            write_file(self.output / name, functools.partial(put, text), executable=True)

    def finish(self) -> None:
        if not self.into_folder:
            text = next(iter(self.held.values()), "")
            if self.output is None:
                with to_stdout() as out:
                    out.write(text)
            else:
                write_file(self.output, functools.partial(put, text))
        elif self.taken:
            with to_stdout() as out:
                print(printable(f"wrote {len(self.taken)} script(s) into {self.output}: {', '.join(sorted(self.taken))}"),
                      file=out)


class Reports:
    """The reports asked for, written as the hosts are judged: each host's part
    of each report goes to disk when the host is done (report.stream), and only
    a line per host stays in memory. One format to stdout or -o FILE; several
    into the folder -o DIR. JSON and SARIF escape what they must; every other
    format gets each host with unprintable characters from captures shown escaped."""

    def __init__(self, formats: list[str], output: Path | None, rules: list[Rule], mode: str = "full",
                 previous: dict[str, set[tuple[str, str]]] | None = None) -> None:
        if len(formats) > 1 and output is None:
            raise InputError("several --format values need -o DIR for the reports")
        into_folder = len(formats) > 1 or (output is not None and output.is_dir())
        self.scripts = _Scripts(output, into_folder) if "script" in formats else None
        formats = [f for f in formats if f != "script"]
        if into_folder and formats:
            assert output is not None
            _mkdir(output)
        self.targets = [(fmt, output / FORMATS[fmt] if into_folder and output is not None else output)
                        for fmt in formats]
        self.spills = [stream.Spill(_writer(fmt, rules, sys.stdout if path is None else None, mode))
                       for fmt, path in self.targets]
        self.previous = previous
        self.lines: list[HostLine] = []
        self.into_folder = into_folder
        self.escaped = self.scripts is not None or any(fmt not in _ESCAPING for fmt in formats)

    def add(self, h: HostReport) -> None:
        if self.previous is not None:
            from advisor.engine import baseline

            baseline.apply_host(h, self.previous)
        self.lines.append(HostLine.of(h))
        shown = _printable(h) if self.escaped else h
        for (fmt, _path), spill in zip(self.targets, self.spills):
            spill.add(h if fmt in _ESCAPING else shown)
        if self.scripts is not None:
            self.scripts.add(shown)

    def finish(self, input_errors: list[str], rules: int, fail_on: str, min_score: float | None) -> Fleet:
        """Writes every report, with the summary and the gate; the fleet, for the exit status."""
        fleet = Fleet(tool=Tool(version=__version__, rules=rules), summary=summary_of(self.lines, input_errors),
                      errors=input_errors, lines=self.lines)
        gate(fleet, fail_on, min_score)
        if self.scripts is not None:
            self.scripts.finish()
        shown = _printable(fleet) if self.escaped else fleet
        written: list[str] = []  # what went into the folder -o DIR/, said on stdout (stderr is for what went wrong)
        for (fmt, path), spill in zip(self.targets, self.spills):
            chosen = fleet if fmt in _ESCAPING else shown
            if path is None:
                with to_stdout() as out:
                    spill.assemble(chosen, out)
                continue
            write_file(path, functools.partial(spill.assemble, chosen))
            written.append(str(path))
        if written and self.into_folder:
            with to_stdout() as out:
                print(printable(f"wrote {', '.join(written)}"), file=out)
        return fleet

    def close(self) -> None:
        for spill in self.spills:
            spill.close()

    def __enter__(self) -> "Reports":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _printable(model: M) -> M:
    from advisor.report import printable

    return printable.report(model)


def write(report: Report, formats: list[str], output: Path | None, rules: list[Rule], mode: str = "full") -> None:
    """A report already in memory, written as Reports writes one."""
    with Reports(formats, output, rules, mode) as reports:
        for h in report.hosts:
            reports.add(h)
        reports.finish(report.errors, report.tool.rules, "never", None)


def verdict(fleet: Fleet) -> str:
    """The gate's one line for a pipeline log."""
    s = fleet.summary
    lowest = "-" if s.lowest_score is None else f"{s.lowest_score:g}"
    return f"advisor gate: {s.gate or 'passed'}: {s.gate_reason or 'no threshold'} ({s.hosts} host(s), lowest score {lowest})"


def say(message: str) -> None:
    """One line on stderr: names and reasons come from captures and hosts, so
    an escape sequence or line break in them is shown escaped."""
    print(printable(message), file=sys.stderr)


def exit_status(fleet: Fleet) -> int:
    """2 unreadable input, 3 a host not (completely) collected, 1 gate failed,
    else 0. Each error is printed on stderr as one line."""
    unreachable = [h for h in fleet.lines if h.status == "unreachable"]
    incomplete = [h for h in fleet.lines if h.incomplete]
    input_errors = _input_errors(fleet)
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
    return EXIT_GATE if fleet.summary.gate == "failed" else EXIT_OK
