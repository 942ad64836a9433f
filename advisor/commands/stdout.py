"""Standard output, for a reader that may stop reading early (`advisor review ... | head`)."""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from typing import TextIO


@contextlib.contextmanager
def to_stdout() -> Iterator[TextIO]:
    """sys.stdout for the block, flushed at its end. A reader that leaves before
    the end (`| head`) has chosen to read no more: the rest is dropped and the
    command goes on, so every file it writes is whole and its exit status is the
    one it would have had (a gate that failed still exits 1, one that passed 0).
    Written anywhere but through this, the same reader's leaving would end the
    command with status 1, which says "the gate failed"."""
    try:
        yield sys.stdout
        sys.stdout.flush()
    except BrokenPipeError:
        _drop_stdout()


def _drop_stdout() -> None:
    """From now on what is written to stdout goes nowhere: file descriptor 1
    becomes the null device, so neither a later write nor the flush at exit
    fails on the closed pipe again (what is still buffered is flushed there)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):  # not a file (a test's capture)
        sys.stdout = io.StringIO()
        return
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, fd)
    finally:
        os.close(null)
