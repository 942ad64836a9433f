"""`--sample DURATION`: counters read twice, that far apart (issue #29).

After the first round of commands, the commands whose outputs are cumulative
counters (`Command.sampled`: `kstat -p` on Solaris) run again, DURATION after
they first ran; the second output is kept as `<id>~2.txt` (spec.SECOND) and
the manifest gives each reading's `taken_at`. Read-only like every command:
the same allowlisted lines, sent again.
"""

from __future__ import annotations

import re

from advisor.errors import InputError

LEAST_S = 1  # kstat's own interval is whole seconds, at least 1
MOST_S = 600  # ten minutes: longer holds every SSH session open for nothing, and a 32-bit counter wraps more
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(s|sec|m|min)?")


def parse_duration(text: str) -> float:
    """`30s`, `30`, `2m` or `1.5m` as seconds, between LEAST_S and MOST_S."""
    m = _DURATION.fullmatch(text.strip().lower())
    if m is None:
        raise InputError(f"--sample {text}: give a duration such as 30s or 2m")
    seconds = float(m.group(1)) * (60 if m.group(2) in ("m", "min") else 1)
    if not LEAST_S <= seconds <= MOST_S:
        raise InputError(f"--sample {text}: give between {LEAST_S} s and {MOST_S // 60} minutes")
    return seconds


def shown(seconds: float) -> str:
    """As the manifest records it: `30s`."""
    return f"{seconds:g}s"
