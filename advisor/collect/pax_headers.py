# Copyright: advisor contributors
# Apache License 2.0 (see the advisor repository's pyproject.toml)
"""Extended (pax) headers checked before tarfile parses them.

Python before 3.11.10 and 3.12.6 (CVE-2024-6232) parses a pax header with
regular expressions whose time is quadratic in a run of digits, and in
records that do not end where their length says: a 64 KiB header held
tarfile for 13 s, and 1 MiB would hold it for about an hour. Each header is
checked first, in linear time: its records must be whole (as the fixed
tarfile requires), and the digit runs of all of an archive's headers may
cost the old expressions at most DIGIT_WORK steps (real headers, a few
numbers of up to 20 digits each, cost a few hundred).

This file is also the Ansible collection's module_utils/pax_headers.py
(the controller cannot import advisor): a test keeps the two identical.
Standard library only.
"""

from __future__ import annotations

import re
import tarfile

DIGIT_WORK = 1 << 28  # steps, at most a second or two of the old expressions, for a whole archive
_LENGTH = re.compile(rb"([0-9]{1,20}) ")
_DIGITS = re.compile(rb"[0-9]+")


class UnsafePaxHeader(ValueError):
    """Not a tarfile.HeaderError: tarfile would rewrap it, in other words, in a header that follows another."""


def check(buf: bytes, work: int = 0) -> int:
    """The digit work after this header (`work` is the archive's so far);
    UnsafePaxHeader if a record is not whole or the work is past DIGIT_WORK."""
    pos, size = 0, len(buf)
    while pos < size and buf[pos] != 0:  # a header ends at its padding
        length = _LENGTH.match(buf, pos)
        end = pos + int(length.group(1)) if length else 0
        if (length is None or not length.end() < end <= size or buf[end - 1] != 0x0A
                or buf.find(b"=", length.end(), end) <= length.end()):
            raise UnsafePaxHeader("an extended (pax) header whose records are not whole")
        pos = end
    for run in _DIGITS.finditer(buf):
        work += (run.end() - run.start()) ** 2
    if work > DIGIT_WORK:
        raise UnsafePaxHeader("extended (pax) headers whose runs of digits tarfile would take too long to read")
    return work


class _Replay:
    """A tar's file object that first gives back what was read from it."""

    def __init__(self, real, head: bytes):
        self.real, self.head = real, head

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            head, self.head = self.head, b""
            return head + self.real.read()
        head, self.head = self.head[:size], self.head[size:]
        return head + self.real.read(size - len(head)) if size > len(head) else head

    def tell(self) -> int:
        return self.real.tell() - len(self.head)

    def __getattr__(self, name: str):
        return getattr(self.real, name)


class CheckedPaxTarInfo(tarfile.TarInfo):
    """A TarInfo whose pax headers are checked before tarfile parses them."""

    # tarfile's own reader of pax headers (since Python 2.6), checked first; tarfile passes itself
    # positionally, as tarfile_ not to hide the module
    def _proc_pax(self, tarfile_):  # pylint: disable=arguments-renamed
        buf = tarfile_.fileobj.read(self._block(self.size))
        tarfile_._pax_digit_work = check(buf, tarfile_.__dict__.get("_pax_digit_work", 0))
        real = tarfile_.fileobj
        tarfile_.fileobj = _Replay(real, buf)
        try:
            return super()._proc_pax(tarfile_)
        finally:
            tarfile_.fileobj = real
