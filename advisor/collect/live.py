"""Collecting one host over SSH into a capture bundle.

The bundle is written into a hidden temporary folder and renamed into place
when complete (files 0600, folders 0700), with a manifest recording each
command, its exit status, stderr and the sha256 of its output. A command
that is not found, not permitted or times out is recorded as missing data.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import yaml

from advisor.collect.limits import MAX_PER_ITEM_BYTES
from advisor import scratch
from advisor.collect import allowlist, sampling
from advisor.collect.ssh import CollectError, CommandTimeout, KnownHosts, Session, SshOptions, disk_error, resolve
from advisor.collect.targets import Target
from advisor.errors import InputError, brief
from advisor.platform_spec import SECOND

STDERR_KEPT = 2000


@dataclass
class Collected:
    target: Target
    bundle: Path | None = None
    error: str | None = None
    settings_error: str | None = None  # the user's ssh_config refused for this host: input error, not a network one


def _safe_name(alias: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in alias) or "host"


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


class _Spool:
    """One command's stdout, written as it arrives to a private file in the
    bundle folder and hashed on the way: memory stays flat whatever a host
    prints, at any --parallel. Renamed into place when it is kept."""

    def __init__(self, folder: Path, limit: int | None = None):
        self.limit = limit  # past it, what arrives is counted, not written
        self.path = folder / f".stdout-{secrets.token_hex(4)}"
        self.fh = os.fdopen(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb")
        self.digest = hashlib.sha256()
        self.size = 0
        self.blank = True  # nothing but white space so far

    def write(self, data: bytes) -> None:
        self.size += len(data)
        if self.limit is not None and self.size > self.limit:
            return
        self.fh.write(data)
        self.digest.update(data)
        self.blank = self.blank and not data.strip()

    def read(self) -> bytes:
        self.fh.close()
        return self.path.read_bytes()

    def keep(self, target: Path) -> str:
        """Renamed to target (never over a file there); its sha256."""
        self.fh.close()
        if target.exists():
            raise FileExistsError(f"{target.name} written twice")
        self.path.rename(target)
        return self.digest.hexdigest()

    def discard(self) -> None:
        try:
            self.fh.close()
        except OSError:  # what was still buffered could not be written (a full disk): it is dropped anyway
            pass  # the file is closed all the same, and must not hide the error that brought us here
        self.path.unlink(missing_ok=True)


class _Section:
    """One item's part of a per-item command's output, kept the way a spool is."""

    def __init__(self, data: bytes):
        self.data, self.blank = data, not data.strip()

    def keep(self, target: Path) -> str:
        _write_private(target, self.data)
        return hashlib.sha256(self.data).hexdigest()

    def discard(self) -> None:
        pass


@dataclass
class Ran:
    id: str  # the command id whose output this is (the fallback's, when it ran)
    line: str
    status: int | None
    out: _Spool
    err: str


def _run_command(session: Session, command: allowlist.Command, privilege: str | None, folder: Path) -> Ran:
    line, cid = allowlist.wrapped(command, command.line, privilege), command.id
    limit = MAX_PER_ITEM_BYTES if command.per_item else None
    out = _Spool(folder, limit)
    try:
        status, err = session.run(line, out.write)
        if status != 0 and command.fallback:
            out.discard()
            out = _Spool(folder, limit)
            line = allowlist.wrapped(command, command.fallback, privilege)
            cid = command.fallback_id or command.id
            status, err = session.run(line, out.write)
    except CommandTimeout:
        return Ran(cid, line, None, out, f"timed out after {session.options.command_timeout:g} s")
    except BaseException:
        out.discard()
        raise
    return Ran(cid, line, status, out, err)


def collect_host(target: Target, options: SshOptions, dest: Path, privilege: str | None = None,
                 known: KnownHosts | None = None) -> Collected:
    """Writes dest/<alias>/, replacing an older bundle of that host: a host that
    cannot be collected leaves a bundle saying why (a later review of dest
    reports it as not collected, never judges it on an older bundle)."""
    try:
        collected = _collect(target, options, dest, privilege, known)
    except InputError as exc:  # its ssh_config entry (or a jump host's): this host only
        collected = Collected(target, error="its ssh_config entry was refused (said above)", settings_error=str(exc))
    if collected.bundle is None:
        _record_not_collected(target, dest, collected.settings_error or collected.error or "not collected")
    return collected


def _record_not_collected(target: Target, dest: Path, reason: str) -> None:
    final, tmp = _paths(dest, target)
    with scratch.held(tmp):
        tmp.mkdir(mode=0o700)
        _finish(target, tmp, final, not_collected=reason, commands=[])


def _paths(dest: Path, target: Target) -> tuple[Path, Path]:
    """dest/<alias> and the hidden folder it is written in first."""
    dest.mkdir(mode=0o700, parents=True, exist_ok=True)
    final = dest / _safe_name(target.alias)
    return final, dest / f".{final.name}.{secrets.token_hex(4)}.tmp"


def _finish(target: Target, tmp: Path, final: Path, **fields: object) -> Path:
    """Writes the manifest into tmp and swaps tmp in for final whole (never seen half written)."""
    manifest = {"format": "advisor-capture/1", "host": target.alias,
                "collected_at": datetime.now(timezone.utc).replace(microsecond=0).isoformat(), **fields}
    _write_private(tmp / "manifest.yaml", yaml.safe_dump(manifest, sort_keys=False).encode())
    with scratch.swap():  # never half done, nor begun once advisor is told to stop
        if final.exists():
            shutil.rmtree(final)
        tmp.rename(final)
    return final


@contextmanager
def _this_disk(alias: str) -> Iterator[None]:
    """Writing the bundle failing (a full disk, a file size limit) is said as such,
    wherever it shows: a write, the flush at close, the manifest, the rename.
    Session.run turns the connection's own OSErrors into CollectError."""
    try:
        yield
    except OSError as exc:
        raise disk_error(alias, exc) from None


def _collect(target: Target, options: SshOptions, dest: Path, privilege: str | None,
             known: KnownHosts | None) -> Collected:
    endpoint = resolve(target.spec, options, hostname=target.hostname, port=target.port, user=target.user)
    final, tmp = _paths(dest, target)
    with scratch.held(tmp):  # removed unless renamed into place, also when advisor is told to stop
        try:
            with Session(endpoint, options, known) as session:
                limit = min(options.command_timeout, options.connect_timeout + 20)
                out = bytearray()
                try:
                    status, _ = session.run(allowlist.DETECT.line, out.extend, timeout=limit, max_bytes=DETECT_BYTES)
                except CommandTimeout:
                    raise CollectError(f"{target.alias}: no answer to {allowlist.DETECT.line} in {limit:g} s") from None
                system = out.decode("utf-8", "replace").strip()
                if status != 0 or system not in allowlist.platforms_by_uname():
                    raise CollectError(f"{target.alias}: platform {system or '?'!r} is not audited by this release")
                _platform, commands = allowlist.platforms_by_uname()[system]
                with _this_disk(target.alias):
                    tmp.mkdir(mode=0o700)
                    entries, first = _round(session, commands, privilege, tmp, options.sample)
                    if options.sample is not None and first is not None:  # the counters again, that long after
                        time.sleep(max(0.0, options.sample - (time.monotonic() - first)))
                        entries += _round(session, [c for c in commands if c.sampled], privilege, tmp, 0.0, SECOND)[0]
            sampled = {"sample": sampling.shown(options.sample)} if options.sample is not None else {}
            with _this_disk(target.alias):
                return Collected(target, bundle=_finish(target, tmp, final, **sampled, commands=entries))
        except Exception as exc:  # noqa: BLE001 - whatever a host's output or the disk does, it costs this host only
            return Collected(target, error=str(exc) if isinstance(exc, CollectError)
                             else f"{target.alias}: collection failed ({brief(exc)})")


MAX_ITEMS = 1024  # interfaces a host's per-interface commands may report; a host lists far fewer
DETECT_BYTES = 4096  # `uname -s` prints a word


def _round(session: Session, commands: Iterable[allowlist.Command], privilege: str | None, folder: Path,
           sample: float | None, suffix: str = "") -> tuple[list[dict], float | None]:
    """Each command's manifest entries; with `sample`, the sampled ones carry
    their `taken_at`, and the monotonic time the first of them started is returned."""
    entries: list[dict] = []
    first: float | None = None
    for c in commands:
        if sample is None or not c.sampled:
            entries += _collect_one(session, c, privilege, folder)
            continue
        started, at = time.monotonic(), datetime.now(timezone.utc).replace(microsecond=0).isoformat()
        first = started if first is None else first
        entries += [{**e, "taken_at": at} for e in _collect_one(session, c, privilege, folder, suffix)]
    return entries, first


def _collect_one(session: Session, command: allowlist.Command, privilege: str | None, folder: Path,
                 suffix: str = "") -> list[dict]:
    """`suffix` (SECOND) names a second reading: `kstat-p~2`, `ethtool-S@eth0~2`."""
    ran = _run_command(session, command, privilege, folder)
    if command.per_item and ran.status == 0:
        if ran.out.size > MAX_PER_ITEM_BYTES:
            ran.out.discard()
            return [{"id": ran.id, "file": None, "command": ran.line, "exit_status": 1,
                     "stderr": f"{ran.out.size:,} bytes of output, more than the {MAX_PER_ITEM_BYTES:,} kept"}]
        data = ran.out.read()
        ran.out.discard()
        sections, seen = [], set()
        for section in allowlist.split_sections(data):  # an item named twice: its first output
            if section.item not in seen:
                seen.add(section.item)
                sections.append(section)
        entries = [_entry(f"{ran.id}@{s.item}{suffix}", f"{ran.id}@{s.item}{suffix}.txt", ran.line, s.exit_status,
                          _Section(s.text),
                          s.text.decode("utf-8", "replace") if s.exit_status != 0 else "", folder)
                   for s in sections[:MAX_ITEMS]]
        if len(sections) > MAX_ITEMS:
            entries.append({"id": ran.id, "file": None, "command": ran.line, "exit_status": 1,
                            "stderr": f"{len(sections):,} items, more than the {MAX_ITEMS:,} kept"})
        return entries
    name = f"{ran.id}.conf" if ran.id.startswith("driver-") else f"{ran.id}{suffix}.txt"
    return [_entry(ran.id + suffix, name, ran.line, ran.status, ran.out, ran.err, folder)]


def _entry(cid: str, name: str, line: str, status: int | None, out: _Spool | _Section, err: str,
           folder: Path) -> dict:
    """The manifest entry of one output; the file is kept only for a
    successful command with output (else it is missing data, never parsed)."""
    entry: dict = {"id": cid, "file": None, "command": line, "exit_status": status, "stderr": err.strip()[:STDERR_KEPT]}
    if status == 0 and not out.blank:
        entry["file"] = name
        entry["sha256"] = out.keep(folder / name)
        return entry
    out.discard()
    if status == 0:
        entry["stderr"] = entry["stderr"] or "no output"
    return entry
