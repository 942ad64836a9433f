"""A paragraph that fits is returned whole without measuring its words
(layout._wrap_paragraph's shortcut): the same lines as the word-by-word walk."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from advisor.report import layout


def _first_version(text: str, width: int) -> list[str]:
    """layout._wrap_paragraph before the shortcut: every word measured."""
    lines: list[str] = []
    line, used = "", 0
    for word in layout._WORD.findall(text):
        size = layout.cells(word.rstrip())
        if used + size <= width:
            line += word
            used += layout.cells(word)
        elif size > width:
            if line:
                lines.append(line)
            *whole, line = layout._chop(word, width)
            lines += whole
            used = layout.cells(line)
        else:
            lines.append(line)
            line, used = word, layout.cells(word)
    lines.append(line)
    return [ln.rstrip() for ln in lines]


# words and blanks of every kind, ASCII mostly (the shortcut's case), wide and combining characters too
_TEXT = st.text(alphabet=st.sampled_from("ab xyz-./\t\r\x0b\x0c\x1c\x1f\u00a0\u3000漢é\u0301"), max_size=60)


@given(text=_TEXT, width=st.integers(min_value=1, max_value=70))
@settings(max_examples=2000, deadline=None)
def test_a_paragraph_wraps_as_the_first_version_wrapped_it(text: str, width: int) -> None:
    assert layout._wrap_paragraph(text, width) == _first_version(text, width)
