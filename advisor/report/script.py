"""`--format script`: a POSIX shell script per host with the remediation steps.

advisor runs none of it. The script refuses to run until the administrator has
read it and sets ADVISOR_CONFIRM=yes. Steps are grouped by domain (guests
first, the control domain last, since its reboot interrupts the services every
guest uses); inside a domain, live changes come first, then those that need a
domain reboot, a delayed reconfiguration, a host reboot. `ldm start-reconf`
opens the delayed-reconfiguration block once, and the reboots the findings ask
for are given once, at the end of their domain's section. Reversible steps
carry the command that undoes them as a comment; steps with placeholders to
fill in are commented out.
"""

from __future__ import annotations

import re

from advisor import __version__
from advisor.report.model import Finding, HostReport, Report

IMPACT_ORDER = ["live", "domain-reboot", "delayed-reconfiguration", "host-reboot"]
_REBOOT = re.compile(r"^\s*(?:shutdown\b|init\s+6\b|reboot\b)|\bldm stop\b.*\bldm start\b")
_START_RECONF = re.compile(r"^\s*ldm start-reconf\s+\S+\s*$")
_PLACEHOLDER = re.compile(r"\b[A-Z]+_[A-Z_]+\b")
_SIZING = re.compile(r"^ldm set-(core|vcpu|memory) (\d+)([KMGT]?) (\S+)\s*$")
_UNIT = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def _code(cmd: str) -> str:
    return cmd.split(" #", 1)[0].strip()


def _largest_sizing(findings: list[Finding]) -> dict[tuple[str, str], str]:
    """Two findings may size one domain (service-cores asks 4 cores, whole-core
    keeps 1): the largest request is the one given, the others are superseded."""
    best: dict[tuple[str, str], tuple[int, str]] = {}
    for f in findings:
        for cmd in f.remediation:
            if m := _SIZING.match(_code(cmd)):
                key, amount = (m.group(1), m.group(4)), int(m.group(2)) * _UNIT[m.group(3)]
                if key not in best or amount > best[key][0]:
                    best[key] = (amount, _code(cmd))
    return {key: cmd for key, (_amount, cmd) in best.items()}


def file_name(host: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", host) + ".remediation.sh"


def _quote_comment(text: str) -> str:
    return " ".join(text.split())


def _domain_order(h: HostReport) -> list[str | None]:
    """Guests first; the control domain (always named primary) last."""
    domains = list(dict.fromkeys(f.domain for f in h.findings))
    return sorted(domains, key=lambda d: (d == "primary", d is None, d or ""))


def _step(f: Finding, commands: list[str], done: set[str], sizing: dict[tuple[str, str], str]) -> list[str]:
    lines = [f"# [{f.severity.value}] {f.rule} on {f.subject} (impact: {f.impact})",
             f"#   {_quote_comment(f.message)}"]
    if f.effect:
        lines.append(f"#   effect: {_quote_comment(f.effect)[:300]}")
    lines += [f"#   undo: {u}" for u in f.undo]
    for cmd in commands:
        code = _code(cmd)
        m = _SIZING.match(code)
        if m and sizing[(m.group(1), m.group(4))] != code:
            lines.append(f"# (superseded by: {sizing[(m.group(1), m.group(4))]}) {cmd}")
        elif code in done:
            lines.append(f"# (done above) {cmd}")
        else:
            lines.append(f"# edit first: {cmd}" if _PLACEHOLDER.search(code) else cmd)
            done.add(code)
    return lines


def _section(domain: str | None, host: str, findings: list[Finding]) -> list[str]:
    where = f"domain {domain}" if domain else f"host {host}"
    lines = [f"# ==== {where} " + "=" * max(4, 60 - len(where)),
             "# ldm commands run on the control domain; the others in this domain itself." if domain else "", ""]
    reconf: list[str] = []
    reboots: list[str] = []
    ordered = sorted(findings, key=lambda f: (IMPACT_ORDER.index(f.impact) if f.impact in IMPACT_ORDER else 0,
                                               -f.severity.rank, f.rule, f.subject))
    opened = False
    done: set[str] = set()
    sizing = _largest_sizing(findings)
    for f in ordered:
        commands = []
        for cmd in f.remediation:
            if _START_RECONF.match(cmd):
                if cmd not in reconf:
                    reconf.append(cmd)
            elif _REBOOT.search(_code(cmd)):
                reboots.append(cmd)
            else:
                commands.append(cmd)
        if f.impact == "delayed-reconfiguration" and reconf and not opened:
            lines += ["# -- delayed reconfiguration: the changes below take effect at the reboot at the end", *reconf, ""]
            opened = True
        lines += _step(f, commands, done, sizing) + [""]
    if reconf and not opened:
        lines += [*reconf, ""]
    if reboots:
        lines += [f"# -- reboots the steps above need ({where}), once:", *_merged(reboots), ""]
    return lines


def _merged(commands: list[str]) -> list[str]:
    """The same command asked for by several findings, once, with every note."""
    notes: dict[str, list[str]] = {}
    for cmd in commands:
        code, _, note = cmd.partition(" #")
        bucket = notes.setdefault(code.strip(), [])
        if note.strip() and note.strip() not in bucket:
            bucket.append(note.strip())
    return [f"{code}   # {'; '.join(n)}" if n else code for code, n in notes.items()]


def render_host(h: HostReport) -> str:
    lines = [
        "#!/bin/sh",
        f"# Remediation for {h.host}, written by advisor {__version__} from {h.source}.",
        f"# Score {h.score if h.score is not None else '-'}; {len(h.findings)} finding(s). advisor ran none of this.",
        "# Read every step, edit what needs your values, then run it with ADVISOR_CONFIRM=yes.",
        "set -eu",
        'if [ "${ADVISOR_CONFIRM:-}" != yes ]; then',
        '    echo "review this script, then run it with ADVISOR_CONFIRM=yes" >&2',
        "    exit 1",
        "fi",
        "set -x",
        "",
    ]
    if not h.findings:
        lines += ["# Nothing to change.", ""]
    for domain in _domain_order(h):
        lines += _section(domain, h.host, [f for f in h.findings if f.domain == domain])
    return "\n".join(lines).rstrip() + "\n"


def render(report: Report) -> dict[str, str]:
    """File name -> script, one per host that was judged."""
    return {file_name(h.host): render_host(h) for h in report.hosts if h.status != "unreachable"}
