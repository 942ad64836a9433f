"""A report written as its hosts are judged. Each host's part of every report
is rendered when the host is done and kept in a temporary file, not in memory;
what needs every host (the fleet table, the summary, the gate, a chart) is made
at the end from the line kept per host (HostLine) and what a format tallies as
parts go by. Memory stays flat in the number of hosts."""

import tempfile
from typing import Protocol, TextIO

from pydantic import BaseModel

from advisor.results.model import HostLine, HostReport, Report, Summary, Tool, worst_first


class Fleet(BaseModel):
    """The report without its hosts' details: a line per host, in the order given."""

    tool: Tool
    summary: Summary
    errors: list[str] = []
    lines: list[HostLine] = []

    @classmethod
    def of(cls, report: Report) -> "Fleet":
        return cls(tool=report.tool, summary=report.summary, errors=report.errors,
                   lines=[HostLine.of(h) for h in report.hosts])

    def worst_first(self) -> list[HostLine]:
        return sorted(self.lines, key=worst_first)


class Writer(Protocol):
    """A format written part by part. `in_fleet_order`: parts in the fleet
    table's order (worst first), else in the order the hosts were given."""

    in_fleet_order: bool
    separator: str  # between two parts

    def part(self, h: HostReport) -> str: ...

    def head(self, fleet: Fleet) -> str: ...

    def tail(self, fleet: Fleet) -> str: ...


class Spill:
    """One format's parts, on disk until the report is assembled."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self._file = tempfile.TemporaryFile("w+b")  # gone with the process, whatever stops it
        self._parts: list[tuple[int, int]] = []

    def add(self, h: HostReport) -> None:
        data = self.writer.part(h).encode("utf-8", "surrogateescape")
        self._parts.append((self._file.tell(), len(data)))
        self._file.write(data)

    def assemble(self, fleet: Fleet, stream: TextIO) -> None:
        order = list(range(len(self._parts)))
        if self.writer.in_fleet_order:
            order.sort(key=lambda i: worst_first(fleet.lines[i]))
        stream.write(self.writer.head(fleet))
        for n, i in enumerate(order):
            offset, size = self._parts[i]
            self._file.seek(offset)
            stream.write((self.writer.separator if n else "") + self._file.read(size).decode("utf-8", "surrogateescape"))
        self._file.seek(0, 2)
        stream.write(self.writer.tail(fleet))

    def close(self) -> None:
        self._file.close()


def render(writer: Writer, report: Report) -> str:
    """The whole report at once (a few hosts, or hosts already in memory)."""
    import io

    spill = Spill(writer)
    try:
        for h in report.hosts:
            spill.add(h)
        out = io.StringIO()
        spill.assemble(Fleet.of(report), out)
        return out.getvalue()
    finally:
        spill.close()

