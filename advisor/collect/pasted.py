"""Captures from a pasted transcript: one per host, one output per command.

Each output is written to the loader's scratch folder under a name of its own
(`ticket.txt@3`); the capture keeps where each one's lines came from, so that
evidence and errors are mapped back to the user's file (`ticket.txt:57`) by
`locate()`, in whichever process reviews the capture. Several outputs of one command for one host are joined where the
format is a list of lines or of domains (kstat, ndd, /etc/system, ldm list -l);
for a table, the full output wins over a filtered one and the first over
later ones, which are listed as not read.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from advisor import platform_registry as platforms
from advisor.collect.capture import Capture, RawOutput
from advisor.collect.origins import Origin
from advisor.collect.transcript import Segment, Transcript



@cache
def _ends_blank() -> frozenset[str]:
    """Outputs of which a pasted part is kept with a blank line after it (a listing's section ends at one)."""
    return frozenset(cid for cid, k in platforms.outputs().items() if k.output.part_ends_blank)


@cache
def _joinable() -> frozenset[str]:
    """Outputs of which pasted parts are joined into one (a list of lines, or of domains)."""
    return frozenset(cid for cid, k in platforms.outputs().items() if k.output.joinable)


@cache
def _uname_host() -> re.Pattern[str]:
    """`uname -a`'s node name, after what `uname -s` prints on any family advisor knows."""
    systems = "|".join(re.escape(f.uname) for f in platforms.families().values())
    return re.compile(rf"^\s*(?:{systems})\s+(\S+)\s")


def captures(transcript: Transcript, shown: str, stem: str, scratch: Path) -> list[Capture]:
    hosts: dict[str, list[Segment]] = {}
    current = None
    for seg in transcript.segments:
        name = seg.host or current or _host_from_output(seg) or stem
        if seg.host is None and current is None:
            current = name
        if seg.host is not None:
            current = seg.host
        hosts.setdefault(name, []).append(seg)
    out: list[Capture] = []
    for number, (host, segs) in enumerate(hosts.items()):
        capture = Capture(host=host, source=shown)
        capture.skipped = list(transcript.skipped) if number == 0 else []
        for cid, group in _by_command(segs).items():
            _add(capture, cid, group, shown, scratch / f"host-{number}")
        out.append(capture)
    return out


def _host_from_output(seg: Segment) -> str | None:
    if seg.command.command_id == "uname-a" and seg.lines and (m := _uname_host().match(seg.lines[0].text)):
        return m.group(1)
    return None


def _by_command(segs: list[Segment]) -> dict[str, list[Segment]]:
    groups: dict[str, list[Segment]] = {}
    for seg in segs:
        groups.setdefault(seg.command.command_id, []).append(seg)
    return groups


def _body(seg: Segment) -> list[tuple[int, str]]:
    cmd = seg.command
    lines = [(ln.number, ln.text) for ln in seg.lines]
    if cmd.command_id == "ndd-tcp" and cmd.argument:
        return _ndd_values(cmd.argument.split(), lines) or lines
    if cmd.command_id == "xl-info" and cmd.argument:
        return _named_value(cmd.argument, lines) or lines
    return lines


def _named_value(name: str, lines: list[tuple[int, str]]) -> list[tuple[int, str]] | None:
    """`xl info nr_cpus` prints `8`: named as `xl info` would show it. None unless
    it printed one bare value (a NAME that starts several fields prints several)."""
    values = [(n, text.strip()) for n, text in lines if text.strip()]
    if len(values) != 1 or " : " in values[0][1]:
        return None
    return [(values[0][0], f"{name:<23}: {values[0][1]}")]


def _ndd_values(names: list[str], lines: list[tuple[int, str]]) -> list[tuple[int, str]] | None:
    """`ndd -get /dev/tcp NAME...` prints each value alone, in the order named
    (a blank line between them): each gets its name. None unless the output is
    exactly one number per name."""
    values = [(n, text.strip()) for n, text in lines if text.strip()]
    if len(values) != len(names) or not all(v.lstrip("-").isdigit() for _n, v in values):
        return None
    return [(n, f"{name} {value}") for name, (n, value) in zip(names, values)]


def _add(capture: Capture, cid: str, group: list[Segment], shown: str, scratch: Path) -> None:
    full = [s for s in group if s.command.filtered is None]
    if cid in _joinable() and not full:
        chosen = group
    elif cid in _joinable():
        chosen = full
    else:
        chosen = [full[0] if full else group[0]]
    kept = {id(seg) for seg in chosen}  # by identity: comparing segments compares all their lines
    for seg in group:
        if id(seg) not in kept:
            capture.skipped.append(f"lines {seg.span}: `{seg.command.line}` (another {cid} output was read)")
    body = [pair for seg in chosen for pair in _body(seg) + ([(0, "")] if cid in _ends_blank() else [])]
    if not any(text.strip() for _n, text in body):
        capture.skipped.append(f"lines {chosen[0].span}: `{chosen[0].command.line}` printed nothing")
        return
    index = len(capture.origins) + 1
    display = f"{shown}@{index}"
    scratch.mkdir(exist_ok=True)
    path = scratch / f"segment-{index}.txt"
    path.write_text("".join(text + "\n" for _n, text in body), encoding="utf-8")
    commands = "; ".join(s.command.line for s in chosen)
    span = ", ".join(s.span for s in chosen)
    capture.origins[display] = Origin(shown, [n for n, _t in body], commands, span)
    filtered = "; ".join(s.command.line for s in chosen if s.command.filtered) or None
    grep = chosen[0].command.grep if len(chosen) == 1 else None
    capture.add(RawOutput(cid, display, path, commands, filtered=filtered, grep=grep))
