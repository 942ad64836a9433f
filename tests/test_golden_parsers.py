"""Golden files, as jc keeps them: beside every real sample (tests/real/) and
every format variant (fixtures/parsers/), `<name>.parsed.json` holds the
command id it was read as and the record its parser returned (tests/golden.py
writes it). A change in what a parser returns shows as a diff of these files.

A tests/real sample is read as test_real_outputs reads it: its body pasted
into a file, loaded (a transcript split into its outputs, a bare output
identified), and each output parsed as a review parses it, but for kstat -p:
a review keeps only the statistics rules read, the golden file all that
kstat.parse reads. Errors and what was set aside are kept too, so an
`unreadable` or `skipped` sample has a golden file as well. A variant is parsed
as test_parser_fixtures parses it: as the output of its folder's command.

    ADVISOR_UPDATE_GOLDEN=1 pytest tests/test_golden_parsers.py

writes every golden file again (and the missing ones); review the diff.
"""

from __future__ import annotations

import re

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import FIXTURES, GOLDEN, ROOT
from advisor.collect.offline import Loader
from advisor.platforms.solaris.parsers import kstat
from golden import dumps
from test_parser_fixtures import VARIANTS, parse_file
from test_real_outputs import SAMPLES, Sample

UPDATE = os.environ.get("ADVISOR_UPDATE_GOLDEN") == "1"
COMMAND = "ADVISOR_UPDATE_GOLDEN=1 pytest tests/test_golden_parsers.py"


def golden_path(sample: Path) -> Path:
    return sample.with_name(sample.stem + GOLDEN)


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@dataclass
class Output:
    command_id: str  # what it was read as
    command: str | None  # the command line the sample shows (or advisor's own for that id)
    lines: str | None  # where it sits in the sample, for a transcript; record line numbers count from its first line
    parsed: Any = None  # the parser's record; null when not read (the host's errors say why)
    unused: str | None = None  # identified, but no parser reads it


@dataclass
class Host:
    host: str
    outputs: list[Output]
    errors: list[str]
    skipped: list[str]


@dataclass
class RealGolden:
    sample: str
    source: str
    expect: str
    hosts: list[Host]
    errors: list[str]  # the sample as a whole could not be read


@dataclass
class VariantGolden:
    sample: str
    command_id: str
    parsed: Any


def _real(sample: Sample, folder: Path, loader: Loader) -> RealGolden:
    from advisor.collect import origins
    from advisor.facts.build import parse_outputs
    from advisor.pipeline import load_captures

    pasted = folder / f"{sample.path.stem}.paste"  # as test_real_outputs hands it over
    pasted.write_text(sample.body, encoding="utf-8")
    hosts = []
    captures, errors = load_captures([pasted], loader)
    for capture in captures:
        parsed, parse_errors, unused = parse_outputs(capture)
        outputs = []
        for command_id, raw in capture.outputs.items():
            origin = capture.origins.get(raw.file)
            out = Output(command_id, raw.command, origin.span if origin else None)
            if command_id == "kstat-p" and command_id in parsed:  # every statistic, not only those rules read
                out.parsed = kstat.parse(raw.text())
            elif command_id in parsed:
                out.parsed = parsed[command_id]
            elif raw.file in unused:
                out.unused = "identified; advisor has no parser for it"
            outputs.append(out)
        hosts.append(Host(capture.host, outputs,
                          [origins.locate(e, capture.origins) for e in capture.errors + parse_errors],
                          capture.skipped))
    return RealGolden(_rel(sample.path), sample.header["source"], sample.header["expect"], hosts, errors)


def _variant(path: Path) -> VariantGolden:
    command_id = path.parent.name
    return VariantGolden(_rel(path), command_id, parse_file(command_id, path))


def _check(sample: Path, text: str) -> None:
    golden = golden_path(sample)
    if UPDATE:
        if not golden.exists() or golden.read_text(encoding="utf-8") != text:
            golden.write_text(text, encoding="utf-8")
        return
    assert golden.exists(), f"{_rel(golden)} is missing; write it with: {COMMAND}"
    assert golden.read_text(encoding="utf-8") == text, \
        f"{_rel(sample)} no longer parses as {_rel(golden)} says; if the change is meant: {COMMAND}"


@pytest.fixture(scope="module")
def loader() -> Iterator[Loader]:
    """One loader (and its scratch folder) for every sample: a folder made and
    removed per sample would cost more than the parsing."""
    with Loader() as held:
        yield held


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: f"real/{s.family}/{s.path.stem}")
def test_real_sample_parses_as_its_golden_file(sample: Sample, tmp_path_factory: pytest.TempPathFactory,
                                               loader: Loader) -> None:
    folder = tmp_path_factory.getbasetemp() / "golden" / sample.family
    folder.mkdir(parents=True, exist_ok=True)
    # The paths a load names are the test's own: shown relative to its folder.
    text = dumps(_real(sample, folder, loader)).replace(f"{folder}/", "")
    _check(sample.path, text)


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_variant_parses_as_its_golden_file(path: Path) -> None:
    # A path the parser records (a plan's evidence) is shown from the checkout, wherever it lies.
    _check(path, dumps(_variant(path)).replace(f"{ROOT}/", ""))


def test_every_golden_file_has_its_sample() -> None:
    """One golden file per sample: none left behind by a removed or renamed sample, none shared by two."""
    samples = [s.path for s in SAMPLES] + VARIANTS
    goldens = [golden_path(p) for p in samples]
    assert len(set(goldens)) == len(goldens), "two samples with one stem would share a golden file"
    found = {*(FIXTURES / "parsers").glob(f"*/*{GOLDEN}"), *(ROOT / "tests" / "real").glob(f"*/*{GOLDEN}")}
    orphans = sorted(found - set(goldens))
    if UPDATE:
        for p in orphans:
            p.unlink()
        return
    assert not orphans, f"golden files without a sample: {[_rel(p) for p in orphans]}; remove them with: {COMMAND}"


def test_no_golden_file_names_the_folder_it_was_written_in() -> None:
    """A golden written in one checkout must hold in another (CI's clone)."""
    absolute = re.compile(r'"/[^"]*/(?:fixtures|tests)/')
    found = [*(FIXTURES / "parsers").glob(f"*/*{GOLDEN}"), *(ROOT / "tests" / "real").glob(f"*/*{GOLDEN}")]
    assert len(found) > 400
    assert [_rel(p) for p in found if absolute.search(p.read_text(encoding="utf-8"))] == []
