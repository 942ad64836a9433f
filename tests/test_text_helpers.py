"""The shared parser helpers give what their plain versions give."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from advisor.parsers.text import Header
from advisor.results.model import without_comment


def _plain_split_aligned(header: Header, row: str) -> dict[str, str]:
    """split_aligned as first written, kept to compare the faster one with."""
    import re

    cells: dict[str, list[str]] = {}
    shift = 0
    col = -1
    for tok in re.finditer(r"\S+", row):
        pos = tok.start() - shift
        target = col + 1 if col + 1 < len(header.names) else col
        while target + 1 < len(header.names) and header.starts[target + 1] <= pos:
            target += 1
        if target < 0:
            target = 0
        col = max(col, target)
        cells.setdefault(header.names[col], []).append(tok.group())
        if col + 1 < len(header.names):
            overflow = (tok.end() - shift) - (header.starts[col + 1] - 1)
            if overflow > 0:
                shift += overflow
    return {name: " ".join(cells[name]) for name in header.names if name in cells}


_WORD = st.text(alphabet="abcXYZ01-@.", min_size=1, max_size=12)


@settings(max_examples=400, deadline=None)
@given(names=st.lists(st.sampled_from(["NAME", "MAC", "MTU", "ID", "VID", "PEER", "NAME"]), min_size=1, max_size=6),
       gaps=st.lists(st.integers(1, 12), min_size=6, max_size=6),
       cells=st.lists(st.one_of(st.just(""), _WORD), max_size=9),
       spaces=st.lists(st.integers(0, 14), min_size=9, max_size=9), indent=st.integers(0, 8))
def test_a_row_splits_as_the_plain_version_splits_it(names, gaps, cells, spaces, indent) -> None:
    """Columns under a header, empty cells, overflowing values, repeated names."""
    header_text = " " * indent + "".join(n + " " * g for n, g in zip(names, gaps)).rstrip()
    header = Header.parse(header_text)
    row = " " * indent + "".join(c + " " * s for c, s in zip(cells, spaces))
    assert header.split_aligned(row) == _plain_split_aligned(header, row)


def _plain_parse(text: str) -> tuple[tuple[str, ...], tuple[int, ...], int]:
    """Header.parse as first written (a regex's words), to compare the faster one with."""
    import re

    tokens = list(re.finditer(r"\S+", text))
    return tuple(t.group() for t in tokens), tuple(t.start() for t in tokens), tokens[0].start() if tokens else 0


# Every kind of white space str.split and `\s` know, and words that repeat (find() must not take an earlier one)
_SPACE = st.sampled_from([" ", "  ", "\t", "\u00a0", "\x1c", "\u3000", "\x0b"])
_CELL = st.sampled_from(["NAME", "MAC", "ID", "a", "aa", "a-a", "1", "11", "%", "\u00e9"])


@settings(max_examples=400, deadline=None)
@given(header=st.lists(st.tuples(_CELL, _SPACE), max_size=7), row=st.lists(st.tuples(_SPACE, _CELL), max_size=10),
       lead=st.sampled_from(["", " ", "\u2003 "]))
def test_split_by_words_found_with_find_is_what_the_regex_found(header, lead, row) -> None:
    """Names and cells found with str.split and str.find are the `\\S+` matches, in order:
    the cells come out in the order the plain version gives them (a dict's == would not see it)."""
    header_text = lead + "".join(w + s for w, s in header)
    row_text = "".join(s + w for s, w in row)
    parsed = Header.parse(header_text)
    assert (parsed.names, parsed.starts, parsed.indent) == _plain_parse(header_text)
    if parsed.names:
        assert list(parsed.split_aligned(row_text).items()) == list(_plain_split_aligned(parsed, row_text).items())


def test_a_command_is_cut_at_its_comment_outside_quotes() -> None:
    assert without_comment("  ldm set-vsw mtu=9000 primary-vsw0  ") == "ldm set-vsw mtu=9000 primary-vsw0"
    assert without_comment("ldm set-vsw mtu=9000 'vsw #1' # the switch of ldg1") == "ldm set-vsw mtu=9000 'vsw #1'"
    assert without_comment("echo a#b") == "echo a#b"


def _plain_without_comment(command: str) -> str:
    """without_comment as first written (every character walked), to compare the faster one with."""
    quote = None
    for i, char in enumerate(command):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and i and command[i - 1] in " \t":
            return command[:i].strip()
    return command.strip()


@settings(max_examples=600, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab #\t'\"=-\n")), max_size=30))
def test_a_command_is_cut_where_the_walk_over_its_characters_cut_it(command: str) -> None:
    """A command with no quote is cut by str.find: at the first `#` after a blank, as the walk cut it."""
    assert without_comment(command) == _plain_without_comment(command)


def _shlex_unquoted(word: str) -> str:
    """shell.unquoted as first written: every word through shlex."""
    import shlex

    try:
        parts = shlex.split(word)
    except ValueError:
        return word
    return parts[0] if len(parts) == 1 else word


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.text(alphabet=st.sampled_from(list("ab09_.,:/=@%+-' \"#\\<>;")), max_size=12), st.text(max_size=8)))
def test_a_name_placed_as_it_is_is_unquoted_as_shlex_unquotes_it(word: str) -> None:
    """A word shell_word left as it is goes back without shlex; every word gives what shlex gave it."""
    from advisor.shell import shell_word, unquoted

    assert unquoted(word) == _shlex_unquoted(word)
    if word and not word.startswith("-"):
        assert unquoted(shell_word(word)) == word
