"""The cheaper forms of reading a bundle hold to the forms they replaced
(each old form kept here as the reference, run on random input)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from advisor.platforms.solaris.parsers import kstat

_BYTES = st.lists(st.sampled_from([b"\n", b"\r", b"", b"x", b"  ", b"1700000000", b"tcp:0:tcp:outDataSegs\t1"]),
                  max_size=12).map(b"".join)


def _old_tail(previous: list[bytes], block: bytes) -> list[bytes]:
    """kstat._tail before it took an offset: given the block's slice."""
    lines: list[bytes] = []
    end = len(block)
    while end > 0:
        start = block.rfind(b"\n", 0, end - 1) + 1
        lines.append(block[start:end])
        if kstat._substantive(lines[-1]):
            return lines[::-1]
        end = start
    return previous + lines[::-1]


@given(_BYTES)
def test_the_unended_length_is_that_of_the_block_stripped_of_its_last_newlines(block: bytes) -> None:
    assert kstat._unended(block) == len(block.rstrip(b"\n"))
    assert (block.find(b"\n\n", 0, kstat._unended(block)) >= 0) == (b"\n\n" in block.rstrip(b"\n"))


@given(st.lists(_BYTES, max_size=2), _BYTES, st.integers(0, 40))
def test_the_tail_of_a_block_from_an_offset_is_the_tail_of_its_slice(previous: list[bytes], block: bytes,
                                                                     offset: int) -> None:
    offset = min(offset, len(block))
    assert kstat._tail(previous, block, offset) == _old_tail(previous, block[offset:])
