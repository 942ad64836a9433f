"""Values from captures placed in shell commands advisor writes."""

from __future__ import annotations

import re
import shlex

_SAFE = re.compile(r"[A-Za-z0-9_.,:/=@%+-]*")
# advisor's own placeholders (`<domain>` where a loose dump names none), kept
# as the reader is meant to replace them; on their own they only make a shell
# refuse the line (`<` wants a file, `>` a word)
_PLACEHOLDER = re.compile(r"<[a-z][a-z ]*>")


def shell_word(text: str) -> str:
    """As is when it holds only characters names and numbers have, else quoted
    so a shell reads it as one word: a domain named `x;reboot` in a capture
    must not make a remediation script run reboot."""
    return text if _SAFE.fullmatch(text) or _PLACEHOLDER.fullmatch(text) else shlex.quote(text)
