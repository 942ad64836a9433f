"""Every bundled capture, damaged byte by byte as transfers and editors damage
files (cut short, NULs, invalid UTF-8, CRLF, a giant line, a giant or
superscript number), is reviewed into every report format with an exit status
of 0 to 3 and never an exception: what cannot be read is said in one line.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.commands.output import FORMATS
from advisor.commands.review import run_review
from conftest import CAPTURES, examples

BUNDLES = sorted(p.name for p in CAPTURES.iterdir() if p.is_dir())
_NUMBER = re.compile(rb"\d+")


def _damage(data: bytes, draw) -> bytes:
    op = draw(st.sampled_from(["truncate", "nul", "bad-utf8", "crlf", "giant-line", "giant-number", "superscript"]))
    at = draw(st.integers(0, len(data)))
    if op == "truncate":
        return data[:at]
    if op == "nul":
        return data[:at] + b"\0" * draw(st.integers(1, 8)) + data[at:]
    if op == "bad-utf8":
        return data[:at] + draw(st.sampled_from([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"])) + data[at:]
    if op == "crlf":
        return data.replace(b"\n", b"\r\n")
    if op == "giant-line":
        return data[:at] + draw(st.sampled_from([b"x", b"9", b" ", b"|"])) * (1 << 20) + data[at:]
    numbers = list(_NUMBER.finditer(data))
    if not numbers:
        return data
    m = numbers[draw(st.integers(0, len(numbers) - 1))]
    new = b"9" * 5000 if op == "giant-number" else "\u00b3\u00b2".encode()
    return data[:m.start()] + new + data[m.end():]


@pytest.fixture(scope="module")
def scratch():
    with tempfile.TemporaryDirectory() as tmp:
        yield Path(tmp)


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_damaged_capture_is_reported_in_every_format(scratch: Path, capsys, data: st.DataObject) -> None:
    source = CAPTURES / data.draw(st.sampled_from(BUNDLES))
    work = scratch / "case"
    shutil.rmtree(work, ignore_errors=True)
    bundle = work / source.name
    shutil.copytree(source, bundle)
    files = sorted(p for p in bundle.rglob("*") if p.is_file())
    for path in data.draw(st.lists(st.sampled_from(files), min_size=1, max_size=3, unique=True)):
        path.write_bytes(_damage(path.read_bytes(), data.draw))
    capsys.readouterr()
    code = run_review([bundle], ",".join(FORMATS), work / "out", "critical", None, None, [])
    err = capsys.readouterr().err
    assert code in (0, 1, 2, 3)
    assert all(line.startswith(("advisor: ", "advisor gate: ")) for line in err.splitlines() if line.strip()), err
    assert (work / "out" / "report.json").is_file()
