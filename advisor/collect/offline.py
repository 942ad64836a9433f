"""Offline ways in: bundle folders, tarred bundles, Explorer archives, loose files.

Every path the user names becomes zero or more captures; a path that cannot be
read at all becomes one error line, and the other paths are still loaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from datetime import timezone
from collections.abc import Callable
from functools import cache
from collections.abc import Iterator
from pathlib import Path

from advisor import datafile, scratch
from advisor import platform_registry as platforms
from advisor.collect import explorer, manifest as manifest_mod, safefs, sosreport
from advisor.collect.archive_names import is_archive, is_archive_name
from advisor.collect.capture import Capture, Missing, RawOutput
from advisor.collect.commands import command_id_for_name, command_line, commands
from advisor.collect.identify import identify, identify_among
from advisor.errors import InputError, brief, readable

MAX_PASTED_BYTES = 64 << 20  # a pasted session larger than this is read as one output
MAX_PASTED_LINES = 1_000_000  # and one of more lines: reading a paste costs about 250 bytes a line


@cache
def _command_lines() -> dict[str, str]:
    """Every command line advisor runs (as a manifest may name one) -> its command id."""
    from advisor.collect import allowlist

    lines = {line: cid for cid, line in commands().items()}
    for _family, collected in allowlist.platforms_by_uname().values():
        for c in collected:
            for line in filter(None, (c.line, c.fallback)):
                for privilege in (None, "sudo", "pfexec"):
                    lines[allowlist.wrapped(c, line, privilege)] = c.id
    return lines



class Loader:
    """Holds the scratch folder that archives are unpacked into for one run."""

    def __init__(self) -> None:
        self._held = contextlib.ExitStack()
        self._scratch = self._held.enter_context(scratch.folder("advisor-"))
        self._count = 0
        self._seen: set[Path] = set()  # folders read already (two links to one folder: it is read once)
        self.errors: list[str] = []

    def close(self) -> None:
        self._held.close()

    def __enter__(self) -> "Loader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def take_errors(self) -> list[str]:
        """Errors of inputs inside a folder that were skipped so the rest could be read."""
        taken, self.errors = self.errors, []
        return taken

    def load(self, path: Path) -> list[Capture]:
        return list(self.iter_load(path))

    def iter_load(self, path: Path) -> Iterator[Capture]:
        """The captures under `path`, each read when it is asked for: a fleet's
        bundles are not all held in memory at once."""
        shown = readable(str(path))
        if not path.exists():
            raise InputError(f"{shown}: no such file or directory")
        if path.is_dir():
            yield from self._load_dir(path, shown)
            return
        yield from self._load_file(path, shown)

    def _load_file(self, path: Path, shown: str) -> list[Capture]:
        datafile.regular(path, InputError, shown)  # a FIFO or a device given as a capture
        if is_archive(path):
            return self._load_archive(path, shown)
        if command_id_for_name(path.name) is None:
            self._count += 1
            scratch = self._scratch / f"pasted-{self._count}"
            scratch.mkdir()
            found = _load_pasted(path, shown, scratch)
            if found:
                return found
        return [_load_loose(path, shown)]

    def _load_archive(self, path: Path, shown: str) -> list[Capture]:
        self._count += 1
        dest = self._scratch / str(self._count)
        dest.mkdir()
        from advisor.collect import safetar  # tarfile: loaded for an archive alone

        safetar.extract(path, dest, shown, _members_wanted(path.name))
        root = _find_root(dest, explorer.is_explorer_root)
        if root is not None:
            return [_load_explorer(root, shown, explorer.host_from_name(path.name))]
        sos = _find_root(dest, sosreport.is_sos_root)
        if sos is not None:
            return [_load_sosreport(sos, shown, f"{shown}/{sos.name}" if sos is not dest else shown)]
        entries = [p for p in dest.iterdir() if not p.name.startswith("._")]
        inner = entries[0] if len(entries) == 1 and entries[0].is_dir() else dest
        host = inner.name if inner is not dest else _strip_archive_suffix(path.name)
        return [load_bundle(inner, shown, host, shown_prefix=shown)]

    def _load_dir(self, path: Path, shown: str) -> Iterator[Capture]:
        real = path.resolve()
        if real in self._seen:
            return
        self._seen.add(real)
        if explorer.is_explorer_root(path):
            yield _load_explorer(path, shown, explorer.host_from_name(path.name))
            return
        if sosreport.is_sos_root(path):
            yield _load_sosreport(path, shown, shown)
            return
        # archives beside each other are a fleet's bundles (one per host), never a bundle's outputs
        files = self._files(path, shown)
        if files and _all_plans(files):  # a folder of planned configurations: one system each
            for p in sorted(files):
                yield _load_loose(p, f"{shown.rstrip('/')}/{readable(p.name)}")
            return
        if files:
            yield load_bundle(path, shown, path.name)
            return
        children = 0
        for child in sorted(path.iterdir()):
            if child.name.startswith("."):
                continue
            if (child.is_dir() or is_archive(child)) and self._inside(child, path, shown):
                children += 1
                try:
                    yield from self.iter_load(child)
                except InputError as exc:  # one bad bundle of a fleet: said, and the others read
                    self.errors.append(str(exc))
                except (OSError, ValueError) as exc:  # the same, for what the file system refuses
                    self.errors.append(f"{shown.rstrip('/')}/{readable(child.name)}: cannot be read ({brief(exc)})")
        if not children:
            raise InputError(f"{shown}: no capture bundle or command output found")

    def _files(self, folder: Path, shown: str) -> list[Path]:
        """The folder's own files that may be outputs (not hidden, not archives), in listing order. An
        entry that is no link is judged by its type as listed: no stat of its own (a fleet folder's hosts)."""
        files: list[Path] = []
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") or is_archive_name(entry.name):
                    continue
                if not entry.is_symlink():
                    if entry.is_file(follow_symlinks=False):
                        files.append(folder / entry.name)
                    continue
                p = folder / entry.name
                if p.is_file() and self._inside(p, folder, shown):
                    files.append(p)
        return files

    def _inside(self, child: Path, folder: Path, shown: str) -> bool:
        """A folder's entry is read only when it stays inside the folder the
        user named: a link to elsewhere (a plan, a bundle, /etc) is said, not followed."""
        if safefs.inside(child, folder):
            return True
        self.errors.append(f"{shown.rstrip('/')}/{readable(child.name)}: a symbolic link to outside the folder "
                           f"given; not read")
        return False


def _members_wanted(name: str) -> Callable[[str], bool] | None:
    """Explorer and sosreport archives, known by their names, are unpacked only for the files advisor reads."""
    if explorer.host_from_name(name) is not None:
        return explorer.wanted
    if name.startswith("sosreport-"):
        return sosreport.wanted
    return None


@cache
def _plans() -> frozenset[str]:
    return frozenset(cid for cid, k in platforms.outputs().items() if k.output.plan)


def _all_plans(files: list[Path]) -> bool:
    """Plans and constraint files only: no manifest, no command output."""
    return all(p.name != "manifest.yaml" and (command_id_for_name(p.name) or identify(p)) in _plans() for p in files)


@cache
def _forms() -> list[set[str]]:
    """Forms of one command: a file named for one may hold another (ldm-list-l.txt from `ldm list -l -p`)."""
    groups: dict[str, set[str]] = {}
    for cid, k in platforms.outputs().items():
        if k.output.form_of is not None:
            groups.setdefault(k.output.form_of, set()).add(cid)
    return list(groups.values())


def _form(named: str | None, path: Path) -> str | None:
    """The form the content shows, within the family the file name says."""
    family = next((f for f in _forms() if named in f), None)
    if family is None:
        return named
    return identify_among(path, family) or named


def _find_root(path: Path, is_root) -> Path | None:
    """An unpacked archive's folder of that kind: the path itself or a child."""
    if is_root(path):
        return path
    return next((c for c in sorted(path.iterdir()) if c.is_dir() and is_root(c)), None)


def _strip_archive_suffix(name: str) -> str:
    for suffix in (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def _load_loose(path: Path, shown: str) -> Capture:
    if path.stat().st_size == 0 or not _head(path).strip():
        raise InputError(f"{shown}: the file is empty")
    command_id = command_id_for_name(path.name) or identify(path)
    if command_id is None:
        raise InputError(f"{shown}: cannot tell which command printed this file")
    capture = Capture(host=path.stem, source=shown)
    capture.add(RawOutput(command_id, shown, path, command_line(command_id)))
    return capture


def _head(path: Path, size: int = 65536) -> bytes:
    with path.open("rb") as fh:
        return fh.read(size)


def _load_pasted(path: Path, shown: str, scratch: Path) -> list[Capture] | None:
    """A terminal session or a mail: one capture per host, or None when the
    file is not a transcript (no prompt before a command advisor reads)."""
    from advisor.collect import pasted, transcript  # only for files not named for their command

    if path.stat().st_size > MAX_PASTED_BYTES:
        return None
    raw = path.read_bytes()
    if b"\0" in raw[:65536] or raw.count(b"\n") > MAX_PASTED_LINES:
        return None
    text = raw.decode("utf-8", errors="replace")
    try:
        parts = transcript.split(text) or transcript.one_output(text)
    except transcript.TooManyCommands as exc:
        raise InputError(f"{shown}:{exc.line}: {exc}") from None
    if parts is None:
        return None
    if not parts.segments:
        raise InputError(f"{shown}: none of its commands is one advisor reads ({parts.skipped[0]})")
    return pasted.captures(parts, shown, path.stem, scratch)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def load_bundle(root: Path, shown: str, host: str, shown_prefix: str | None = None) -> Capture:
    """One bundle folder; files are shown to the user as <shown_prefix>/<name>."""
    prefix = shown_prefix or shown

    base = os.path.join(str(root), "")

    def show(p: Path, rel: str | None = None) -> str:
        return f"{prefix}/{readable(_relative(p, root, base) if rel is None else rel)}"

    capture = Capture(host=host, source=shown)
    listed: set[str] = set()
    manifest_path = root / "manifest.yaml"
    if manifest_path.is_file() or manifest_path.is_symlink():
        why = safefs.refusal(manifest_path, root)
        if why:
            capture.errors.append(f"{show(manifest_path)}: {why}")
        else:
            man = manifest_mod.load(manifest_path, show(manifest_path))
            capture.host = man.host or host
            capture.not_collected = man.not_collected
            capture.collected_at = man.collected_at
            for entry in man.commands:
                _add_manifest_entry(capture, root, entry, show)
                if entry.file:
                    listed.add(entry.file)
    files, stopped = safefs.walk(root)
    if stopped:
        capture.errors.append(f"{shown}: more than {safefs.MAX_FILES:,} files; the rest were not looked at")
    unknown: list[str] = []
    for path in files:
        rel = _relative(path, root, base)
        if rel in listed or rel == "manifest.yaml" or path.name.startswith("."):
            continue
        why = safefs.refusal(path, root)
        if why:
            capture.errors.append(f"{show(path, rel)}: {why}")
            continue
        command_id = _form(command_id_for_name(path.name), path) or identify(path)
        if command_id is None:
            unknown.append(show(path, rel))
            continue
        capture.add(RawOutput(command_id, show(path, rel), path, command_line(command_id)))
    capture.errors += _unrecognised(unknown)
    return capture


def _relative(path: Path, root: Path, base: str) -> str:
    """path.relative_to(root).as_posix(), `base` being `root/` as text: a slice of
    the path's text where it starts so (relative_to and as_posix cost 35,000 instructions a file)."""
    text = str(path)
    return text[len(base):] if text.startswith(base) else path.relative_to(root).as_posix()


SHOWN_UNRECOGNISED = 5


def _unrecognised(shown: list[str]) -> list[str]:
    """One line per file advisor cannot place, then one line for the rest."""
    lines = [f"{name}: cannot tell which command printed this file; not read" for name in shown[:SHOWN_UNRECOGNISED]]
    if len(shown) > SHOWN_UNRECOGNISED:
        lines.append(f"{len(shown) - SHOWN_UNRECOGNISED:,} more files not recognised (the first: "
                     f"{shown[SHOWN_UNRECOGNISED]})")
    return lines


def _add_manifest_entry(capture: Capture, root: Path, entry: manifest_mod.ManifestCommand, show) -> None:
    command_id = entry.id or (command_id_for_name(entry.file) if entry.file else None) or _command_lines().get(entry.command)
    if command_id is None and entry.file:
        command_id = Path(entry.file).stem
    if command_id is None:
        capture.errors.append(f"{capture.source}/manifest.yaml: command {entry.command!r} has no file")
        return
    if entry.exit_status not in (None, 0) or not entry.file:
        fallback = f"exit status {entry.exit_status}" if entry.exit_status else "no output file recorded"
        reason = (entry.stderr.strip().splitlines() or [fallback])[0]
        unfinished = entry.exit_status is None and not entry.file
        capture.missing[command_id] = Missing(command_id, entry.command, reason, unfinished)
        return
    path = root / entry.file
    if not (root / entry.file).resolve().is_relative_to(root.resolve()) or ".." in Path(entry.file).parts:
        capture.errors.append(f"{capture.source}/manifest.yaml: file {entry.file!r} is outside the bundle; refused")
        return
    if not path.exists() and not path.is_symlink():
        capture.errors.append(f"{show(root / entry.file)}: listed in manifest.yaml but missing")
        return
    why = safefs.refusal(path, root)
    if why:
        capture.errors.append(f"{show(path)}: {why}")
        return
    if entry.sha256 and _sha256(path) != entry.sha256.lower():
        capture.errors.append(f"{show(path)}: sha256 differs from manifest.yaml; not read")
        return
    at = entry.taken_at  # without a zone: as the collector writes it, UTC (only differences are used)
    taken = None if at is None else (at if at.tzinfo is not None else at.replace(tzinfo=timezone.utc)).timestamp()
    capture.add(RawOutput(command_id, show(path), path, entry.command, entry.exit_status, entry.stderr, taken_at=taken))


def _load_sosreport(root: Path, shown: str, prefix: str) -> Capture:
    capture = Capture(host=sosreport.host_name(root), source=shown)
    for path, command_id in sosreport.files(root):
        display = f"{prefix}/{path.relative_to(root).as_posix()}"
        why = safefs.refusal(path, root)
        if why:
            capture.errors.append(f"{display}: {why}")
            continue
        capture.add(RawOutput(command_id, display, path, command_line(command_id)))
    if not capture.outputs and not capture.errors:
        capture.errors.append(f"{shown}: sosreport holds none of the files advisor reads")
    return capture


def _load_explorer(root: Path, shown: str, host: str | None) -> Capture:
    capture = Capture(host=host or root.name, source=shown)
    for rel, command_id in explorer.explorer_files().items():
        path = root / rel
        if not path.exists() and not path.is_symlink():
            continue
        why = safefs.refusal(path, root)
        if why:
            capture.errors.append(f"{shown}/{rel}: {why}")
            continue
        capture.add(RawOutput(command_id, f"{shown}/{rel}", path, command_line(command_id)))
    if not capture.outputs and not capture.errors:
        capture.errors.append(f"{shown}: Explorer archive holds none of the files advisor reads")
    return capture
