"""A host's identity: its node name, and which family it is, from `uname -a`
and its release file. The family's own pack reads the rest of them."""

from __future__ import annotations

from typing import Any

from advisor.facts.models import HostFacts
from advisor.platform_registry import family_for_uname

# Release files of Solaris's relatives, which are not Linux though they are not Oracle Solaris
_SOLARIS_LIKE = ("OpenSolaris", "OpenIndiana", "OmniOS", "SmartOS")


def identify(facts: HostFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    if (u := parsed.get("uname-a")) is not None:
        facts.nodename = u.node or None
        facts.platform = family_for_uname(u.system) or facts.platform
    if (r := parsed.get("release")) is not None:
        if r.major:
            facts.platform = "solaris"
        elif files.get("release", "") and not r.name.startswith(_SOLARIS_LIKE):
            facts.platform = "linux"
            facts.os_name = r.name
