"""Values from captures placed in shell commands advisor writes."""

from __future__ import annotations

import re
import shlex

_SAFE = re.compile(r"[A-Za-z0-9_.,:/=@%+-]*")
# advisor's own placeholders (`<domain>` where a loose dump names none), kept
# as the reader is meant to replace them; on their own they only make a shell
# refuse the line (`<` wants a file, `>` a word)
_PLACEHOLDER = re.compile(r"<[a-z][a-z ]*>")
_NUMBER = re.compile(r"-[0-9]+(\.[0-9]+)?")
# What stands for a value that begins with a dash: a command would read it as an
# option (`ldm stop -a` stops every domain). ldm names begin with a letter or a
# digit; a capture naming a domain so is damaged or forged, and its steps are
# held as comments, as every placeholder is.
_DASHED = "<a name that begins with a dash>"


def shell_word(text: str) -> str:
    """As is when it holds only characters names and numbers have, else quoted
    so a shell reads it as one word: a domain named `x;reboot` in a capture
    must not make a remediation script run reboot. A value that begins with a
    dash (not a negative number) is never placed: quoting does not keep a
    command from reading it as an option."""
    if text.startswith("-") and not _NUMBER.fullmatch(text):
        return _DASHED
    return text if _SAFE.fullmatch(text) or _PLACEHOLDER.fullmatch(text) else shlex.quote(text)


def unquoted(word: str) -> str:
    """A name as shell_word placed it, unquoted again (`'vsw #1'` is `vsw #1`)."""
    if _SAFE.fullmatch(word):  # placed as it is (most names): nothing to unquote, no shlex
        return word
    try:
        parts = shlex.split(word)
    except ValueError:
        return word
    return parts[0] if len(parts) == 1 else word
