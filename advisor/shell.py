"""Values from captures placed in shell commands advisor writes."""

from __future__ import annotations

import re
import shlex

_SAFE = re.compile(r"[A-Za-z0-9_.,:/=@%+ -]*")


def shell_word(text: str) -> str:
    """As is when it holds only characters names and numbers have, else quoted
    so a shell reads it as one word: a domain named `x;reboot` in a capture
    must not make a remediation script run reboot."""
    return text if _SAFE.fullmatch(text) else shlex.quote(text)
