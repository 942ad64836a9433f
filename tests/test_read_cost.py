"""The cheaper forms of reading a bundle hold to the forms they replaced
(each old form kept here as the reference, run on random input)."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from advisor.collect import offline
from advisor.collect.capture import RawOutput
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


_PARTS = st.lists(st.sampled_from(["a", "b-c", ".", "..", "x.txt", "", "\udcff"]), max_size=4)


@given(_PARTS, _PARTS, st.booleans())
def test_a_path_relative_to_its_bundle_is_what_relative_to_gives(root_parts: list[str], rest: list[str],
                                                                 absolute: bool) -> None:
    root = Path(("/" if absolute else "") + "/".join(root_parts) or ".")
    path = root.joinpath(*[p for p in rest if p not in ("", ".", "..")] or ["f"])
    assert offline._relative(path, root, os.path.join(str(root), "")) == path.relative_to(root).as_posix()


def _old_files(loader: offline.Loader, path: Path, shown: str) -> list[Path]:
    """Loader._files as it was: every entry stat'ed, and judged by its name and place."""
    return [p for p in path.iterdir() if p.is_file() and not p.name.startswith(".") and not offline.is_archive(p)
            and loader._inside(p, path, shown)]


def test_a_folders_files_are_those_every_entry_stated_gives(tmp_path: Path) -> None:
    folder, outside = tmp_path / "b", tmp_path / "elsewhere.txt"
    folder.mkdir()
    outside.write_text("x")
    (folder / "sub").mkdir()
    for name in ("kstat-p.txt", ".hidden", "h1.tar.gz", "X.TGZ", "manifest.yaml", "odd\udcff.txt"):
        (folder / name).write_bytes(b"x")
    (folder / "in-link.txt").symlink_to(folder / "kstat-p.txt")
    (folder / "out-link.txt").symlink_to(outside)
    (folder / "dangling.txt").symlink_to(folder / "none")
    (folder / "dir-link").symlink_to(folder / "sub")
    with offline.Loader() as new, offline.Loader() as old:
        assert new._files(folder, "b") == _old_files(old, folder, "b")
        assert new.errors == old.errors and len(new.errors) == 1


def _old_text(path: Path) -> str:
    """RawOutput.text's reading as it was: the file in text mode."""
    return path.read_text(encoding="utf-8", errors="replace")


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from([b"\r", b"\n", b"\r\n", b"a", b"\xff", b"\xe9", b"\xc3", b"\xa9", b"\xe2\x80",
                                 b"\xa8", b"\x00", "\u2028".encode()]), max_size=30).map(b"".join),
       st.sampled_from([0, 8189, 8190, 8191, 8192]))
def test_an_outputs_text_is_what_text_mode_reads(tmp_path: Path, raw: bytes, pad: int) -> None:
    path = tmp_path / "out.txt"
    path.write_bytes(b"a" * pad + raw)  # pads that put the sequences across text mode's 8 kB reads
    assert RawOutput("x", "out.txt", path).text() == _old_text(path)
