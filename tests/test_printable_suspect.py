"""report.printable._suspect says what the one pattern it replaced said: whether
a serialized report holds a character outside printable ASCII or an escape."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from advisor.report import printable

_FIRST_VERSION = re.compile(r"\\[nrtbfu]|[^\x20-\x7e]")

# JSON-ish text: printable ASCII alone (backslashes before escape letters and others), or mixed
# with controls, DEL and characters above ASCII
_JSONISH = st.sampled_from('\\nrtbfu"a {}:,')
_TEXT = st.one_of(st.text(alphabet=_JSONISH, max_size=40),
                  st.text(alphabet=st.one_of(_JSONISH, st.sampled_from("\x00\x1b\x1f\x7f\x85\u2028é"), st.characters()),
                          max_size=40))


@given(text=_TEXT)
@settings(max_examples=3000, deadline=None)
def test_suspect_says_what_the_pattern_said(text: str) -> None:
    assert printable._suspect(text) == (_FIRST_VERSION.search(text) is not None)
