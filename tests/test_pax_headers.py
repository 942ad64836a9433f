"""Extended (pax) headers are checked before tarfile parses them: the Python
this project runs on (3.11.7) predates the fix for CVE-2024-6232, whose regular
expressions take time quadratic in a header's digits or broken records.

Real headers (written by GNU tar and by Python's tarfile) read exactly as
tarfile reads them; crafted ones are refused in one line, quickly, with every
other input still reported.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import tarfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.collect import pax_headers
from conftest import CAPTURES, ROOT, examples, run_cli

BUNDLE = CAPTURES / "t5-primary-untuned"


def _members(data: bytes, tarinfo: type[tarfile.TarInfo]) -> list[tuple]:
    with tarfile.open(fileobj=io.BytesIO(data), tarinfo=tarinfo) as tar:
        return [(m.name, m.size, m.mtime, m.type, m.linkname, m.uname, m.pax_headers,
                 tar.extractfile(m).read() if m.isfile() else None) for m in tar]


def _gnu_tar_pax(tmp_path: Path) -> bytes:
    """An archive by GNU tar in pax format, as sosreports are made: long and non-ASCII
    names, a long link, sub-second times, an extended attribute of digits."""
    top = tmp_path / "sosreport-h-1"
    deep = top / ("d" * 120) / ("e" * 120)
    deep.mkdir(parents=True)
    (deep / "kstat-p.out").write_text("unix:0:system_misc:ncpus\t64\n")
    os.setxattr(deep / "kstat-p.out", "user.advisor-test", b"1234567890")
    (top / "naïve-ünïcode.txt").write_text("x\n")
    (top / "link").symlink_to("d" * 120 + "/" + "e" * 120 + "/kstat-p.out")
    out = tmp_path / "gnu.tar"
    subprocess.run(["tar", "--format=pax", "--xattrs", "-cf", str(out), "-C", str(tmp_path), top.name], check=True)
    return out.read_bytes()


def _python_pax() -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT,
                      pax_headers={"comment": "global header"}) as tar:
        info = tarfile.TarInfo("b/" + "n" * 300 + "/uname-a.txt")
        info.mtime, info.uname, info.size = 1700000000.123456, "ünïcode", 3
        info.pax_headers = {"SCHILY.xattr.security.selinux": "system_u:object_r:etc_t:s0", "12345": "67890"}
        tar.addfile(info, io.BytesIO(b"abc"))
    return raw.getvalue()


def test_real_pax_headers_read_exactly_as_tarfile_reads_them(tmp_path: Path) -> None:
    gnu, python = _gnu_tar_pax(tmp_path), _python_pax()
    assert any("SCHILY.xattr.user.advisor-test" in m[6] for m in _members(gnu, tarfile.TarInfo))
    assert any("SCHILY.xattr.security.selinux" in m[6] for m in _members(python, tarfile.TarInfo))
    for data in (gnu, python):
        assert _members(data, pax_headers.CheckedPaxTarInfo) == _members(data, tarfile.TarInfo)


def _pax(payload: bytes, kind: bytes = tarfile.XHDTYPE) -> bytes:
    info = tarfile.TarInfo("././@PaxHeader")
    info.type, info.size = kind, len(payload)
    return info.tobuf(format=tarfile.USTAR_FORMAT) + payload + bytes(-len(payload) % 512)


def _file(name: str, data: bytes) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    return info.tobuf(format=tarfile.USTAR_FORMAT) + data + bytes(-len(data) % 512)


def _record(keyword: str, value: bytes) -> bytes:
    body = b" " + keyword.encode() + b"=" + value + b"\n"
    length = len(body) + 1
    length += len(str(length + len(str(length)))) - 1
    return str(length).encode() + body


NOT_WHOLE = "an extended (pax) header whose records are not whole"
DIGITS = "extended (pax) headers whose runs of digits tarfile would take too long to read"
CRAFTED = {  # without the check, how long Python 3.11.7's tarfile takes over each
    # `\d+ hdrcharset=` is tried at each digit of a run: about an hour
    "digits": (_pax(b"1" * (1 << 20)), NOT_WHOLE),
    "digits in a whole record": (_pax(_record("comment", b"1" * ((1 << 20) - 64))), DIGITS),
    # records that end before their '=': each is read on to the far '=' (about ten minutes)
    "broken records": (_pax(b"3 x" * (1 << 18) + b"="), NOT_WHOLE),
    # runs of digits within whole records, each allowed, too many in all (about two minutes)
    "many headers": (b"".join(_pax(_record("comment", b"7" * 8192)) + _file(f"b/{n}", b"x") for n in range(1000)),
                     DIGITS),
    # the same after a global header, which tarfile reads on through a header of its own
    "after a global header": (_pax(_record("comment", b"g"), tarfile.XGLTYPE)
                              + _pax(_record("comment", b"1" * ((1 << 20) - 64))), DIGITS),
}


@pytest.mark.parametrize("name", CRAFTED)
def test_crafted_pax_headers_are_refused_in_one_line_and_quickly(tmp_path: Path, name: str) -> None:
    """The time limit is a hang's: without the check each of these holds advisor for minutes to hours."""
    headers, said = CRAFTED[name]
    archive = tmp_path / "crafted.tar.gz"
    archive.write_bytes(gzip.compress(headers + _file("b/uname-a.txt", b"SunOS h 5.11\n") + bytes(1024)))
    res = run_cli("review", str(archive), str(BUNDLE), "-f", "json", timeout=60)
    assert res.returncode == 2
    assert res.stderr == f"advisor: {archive}: {said}; refused\n"
    assert json.loads(res.stdout)["hosts"][0]["host"] == BUNDLE.name  # the other input is still reported


def test_the_digit_work_of_an_archive_adds_up_across_headers() -> None:
    one = _record("comment", b"7" * 2048)
    work = pax_headers.check(one)
    assert work == 2048 ** 2 + len(str(len(one))) ** 2
    with pytest.raises(pax_headers.UnsafePaxHeader, match="runs of digits"):
        pax_headers.check(one, pax_headers.DIGIT_WORK - work + 1)


@pytest.mark.parametrize("buf", [b"", bytes(512), _record("path", b"a") + bytes(100)])
def test_an_empty_or_padded_header_is_whole(buf: bytes) -> None:
    pax_headers.check(buf)


@pytest.mark.parametrize("buf", [b"5 a=b", b"99 path=x\n", b"6 =ab\n", b"6 abcd\n", b"x path=a\n",
                                 b"0 path=a\n", b"123456789012345678901 path=a\n"])
def test_a_record_that_is_not_whole_is_refused(buf: bytes) -> None:
    with pytest.raises(pax_headers.UnsafePaxHeader, match="not whole"):
        pax_headers.check(buf)


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=2048))
def test_the_check_never_fails_otherwise_on_any_bytes(buf: bytes) -> None:
    try:
        assert pax_headers.check(buf) >= 0
    except pax_headers.UnsafePaxHeader:
        pass


_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=40)


@settings(max_examples=examples(200), deadline=None)
@given(st.dictionaries(_TEXT.filter(lambda k: "=" not in k), _TEXT, min_size=1, max_size=6))
def test_every_header_tarfile_writes_is_whole(headers: dict[str, str]) -> None:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT, pax_headers=headers) as tar:
        tar.addfile(tarfile.TarInfo("x"))
    size = tarfile.TarInfo.frombuf(raw.getvalue()[:512], "utf-8", "strict").size
    assert pax_headers.check(raw.getvalue()[512:512 + size]) >= 0
    assert _members(raw.getvalue(), pax_headers.CheckedPaxTarInfo) == _members(raw.getvalue(), tarfile.TarInfo)


def test_the_ansible_collection_carries_the_same_check() -> None:
    """The controller cannot import advisor: the collection has a copy, which must not drift."""
    ours = (ROOT / "advisor" / "collect" / "pax_headers.py").read_bytes()
    assert (ROOT / "ansible" / "plugins" / "module_utils" / "pax_headers.py").read_bytes() == ours


def test_a_header_too_large_after_a_global_one_is_said_as_such(tmp_path: Path) -> None:
    """tarfile rewraps a HeaderError from a header that follows a pax header: this
    one was said as 'the gzip archive is corrupt or cut short'."""
    big = tarfile.TarInfo("././@PaxHeader")
    big.type, big.size = tarfile.XHDTYPE, 2 << 20
    archive = tmp_path / "big.tar.gz"
    archive.write_bytes(gzip.compress(_pax(_record("comment", b"g"), tarfile.XGLTYPE) + big.tobuf()
                                      + bytes(big.size) + bytes(1024)))
    res = run_cli("review", str(archive), str(BUNDLE), "-f", "json", timeout=60)
    assert res.returncode == 2
    assert res.stderr == f"advisor: {archive}: a member's name or extended header is 2,097,152 bytes; refused\n"
    assert json.loads(res.stdout)["hosts"][0]["host"] == BUNDLE.name
