"""Which command output provides each fact, to name what is missing in `unknown`;
each platform pack says so of its own facts."""

from __future__ import annotations

from functools import cache

from advisor import platform_registry as platforms


@cache
def _by_prefix(kind: str) -> tuple[tuple[str, str], ...]:
    return tuple(pair for p in platforms.packs() for pair in (p.plan_keys if kind == "plan" else p.reads))


def command_family(command_id: str) -> str:
    """How the missing inputs of rules name a command's output (`kstat-p` -> `kstat -p`)."""
    found = platforms.known(command_id)
    named = found[0].output.family if found is not None else None
    return named or command_id.split("@", 1)[0]


@cache  # the rule packs name 107 distinct facts 284 times
def input_for(path: str, kind: str = "capture") -> str:
    """`s.extended_mapin_space` on a domain -> 'ldm list -l' (for a plan: its key)."""
    if kind == "plan":
        return next((key for prefix, key in _by_prefix("plan") if path.startswith(prefix)),
                    f"not stated in the plan ({path.removeprefix('host.')})")
    return next((command for prefix, command in _by_prefix("capture") if path.startswith(prefix)), path)
