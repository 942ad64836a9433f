"""What advisor writes for its own use, removed however it ends.

Scratch folders (archives unpacked, an audit's bundles), bundles being
collected and reports written beside their place before they are renamed into
it are removed when their block ends, on success or error, and also when
advisor is told to stop (SIGTERM, SIGHUP, SIGINT). Python ends on the first
two without running any cleanup: a review stopped by a pipeline's time limit
left its unpacked archives, up to gigabytes, in the temporary folder.

A stop takes the lock that every creation of such a path and every swap of a
finished bundle into place holds: a swap under way is finished first, and no
thread creates or replaces anything after it (a collecting thread whose folder
was removed would otherwise record its host as not collected over the good
bundle of an earlier run).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

_held: dict[str, None] = {}  # the paths held, in the order taken
_lock = threading.RLock()  # reentrant: the handler runs in the main thread, which may hold it
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
def _holding(path: Path) -> Iterator[Path]:
    try:
        yield path
    finally:
        with _lock:
            _held.pop(str(path), None)
            _remove(str(path))


def held(path: Path) -> AbstractContextManager[Path]:
    """`path`, a new file or folder the block creates (and may rename into
    place), removed if it is still there when the block ends."""
    with _lock:
        _held[str(path)] = None
    return _holding(path)


def folder(prefix: str) -> AbstractContextManager[Path]:
    """A new private (0700) scratch folder, removed with all it holds when the block ends."""
    import tempfile

    with _lock:
        path = tempfile.mkdtemp(prefix=prefix)
        _held[path] = None
    return _holding(Path(path))


def beside(path: Path, mode: int = 0o666) -> AbstractContextManager[Path]:
    """A new hidden file beside `path` (`.NAME.<random>.tmp`, created here, never
    one already there), to write whole before it is renamed to `path`; removed
    if it is still there when the block ends. OSError when it cannot be created."""
    import secrets

    with _lock:
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode))
        _held[str(tmp)] = None
    return _holding(tmp)


@contextmanager
def swap() -> Iterator[None]:
    """Replacing a finished bundle in place: done whole before a stop removes anything, never begun after one."""
    with _lock:
        yield


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
    _lock.acquire()  # never released: no thread creates or swaps anything from here on
    for _ in range(2):  # a file a thread was creating inside a folder as the first pass ran
        for path in list(_held):
            _remove(path)
    workers = sys.modules.get("multiprocessing")
    for child in workers.active_children() if workers else []:  # review workers, which would be left orphaned
        child.terminate()
    if os.isatty(2):  # a progress line may have hidden the cursor; and end the line ^C began
        os.write(2, b"\x1b[?25h\n")
    os._exit(128 + signum)
