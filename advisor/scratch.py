"""What advisor writes for its own use, removed however it ends.

Scratch folders (archives unpacked, an audit's bundles), bundles being
collected and reports written beside their place before they are renamed into
it are removed when their block ends, on success or error, and also when
advisor is told to stop (SIGTERM, SIGHUP, SIGINT). Python ends on the first
two without running any cleanup: a review stopped by a pipeline's time limit
left its unpacked archives, up to gigabytes, in the temporary folder.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_held: dict[str, None] = {}  # the paths held, in the order taken
_owner: int | None = None  # the process that set the handlers (forked workers inherit them)


def _remove(path: str) -> None:
    """Whatever is at `path` now (nothing, once it was renamed into place)."""
    if os.path.isdir(path) and not os.path.islink(path):
        import shutil

        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            os.unlink(path)
        except OSError:
            pass


@contextmanager
def held(path: Path) -> Iterator[Path]:
    """`path`, a file or folder the block writes (and may rename into place), removed if it is still there when the block ends."""
    _held[str(path)] = None
    try:
        yield path
    finally:
        _held.pop(str(path), None)
        _remove(str(path))


@contextmanager
def folder(prefix: str) -> Iterator[Path]:
    """A new private (0700) scratch folder, removed with all it holds when the block ends."""
    import tempfile

    with held(Path(tempfile.mkdtemp(prefix=prefix))) as path:
        yield path


def beside(path: Path) -> Path:
    """The hidden file a report is written to whole before it is renamed to `path`."""
    return path.with_name(f".{path.name}.tmp")


def remove_on_stop() -> None:
    """SIGTERM, SIGHUP and SIGINT (Ctrl-C) remove what is held, then end advisor
    at once with 128 plus the signal's number, as a shell reports it: an audit
    no longer waits for the commands its threads are running, which may take
    minutes. A signal the caller set to be ignored (nohup, a background job)
    stays ignored."""
    global _owner
    _owner = os.getpid()
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _stopped)


def _stopped(signum: int, _frame: object) -> None:
    if os.getpid() != _owner:  # a review worker: its parent holds the folders and removes them
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    for _ in range(2):  # a collecting thread may create a folder again while the first pass runs
        for path in list(_held):
            _remove(path)
    if os.isatty(2):  # a progress line may have hidden the cursor; and end the line ^C began
        os.write(2, b"\x1b[?25h\n")
    os._exit(128 + signum)
