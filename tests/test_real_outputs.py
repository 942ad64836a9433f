"""Every real published output in tests/real/ is read as a user would paste it.

Each sample keeps its source and version in a header (see tests/real/README.md).
The test reviews each one: never a traceback; recognised (its command
identified and parsed, no input error) unless its header says `expect:
unreadable: <reason>`; a sample marked `expect: skipped: <reason>` is the
output of a command advisor does not read and must be set aside, listed as
skipped, never misread. The recognition rate is printed, and may not fall
below the floor recorded in tests/real/RATE nor below 90%.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import review

REAL = Path(__file__).parent / "real"
# `ldm list-bindings` prints the sections of `ldm list -l` and is read as such.
_ALIASES = {"ldm-list-bindings": {"ldm-list-l", "ldm-list-l-p"},
            "xl-list": {"xl-list", "xm-list"}, "xl-info": {"xl-info", "xm-info"},  # xm prints the same form
            "xm-info": {"xm-info", "xl-info"}}  # on Xen 4, without its command line, xm info is xl info's form


@dataclass
class Sample:
    path: Path
    family: str
    header: dict[str, str]
    body: str

    @property
    def unreadable(self) -> bool:
        return self.header.get("expect", "").startswith("unreadable")

    @property
    def skipped(self) -> bool:
        """The output of a command advisor does not read: it must be set aside, not misread."""
        return self.header.get("expect", "").startswith("skipped")


def _samples() -> list[Sample]:
    out = []
    for path in sorted(REAL.glob("*/*.txt")):  # not the golden files beside them (*.parsed.json)
        text = path.read_text(encoding="utf-8")
        head, sep, body = text.partition("\n---\n")
        assert sep, f"{path}: no '---' line after the header"
        header = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
        assert header.get("source") and header.get("expect"), f"{path}: header needs source and expect"
        out.append(Sample(path, path.parent.name, header, body))
    return out


SAMPLES = _samples()


def _recognised(sample: Sample, tmp_path: Path) -> tuple[bool, str]:
    """Identified (what printed it) and, where advisor has a parser for it, parsed."""
    from advisor.collect.offline import Loader

    pasted = tmp_path / f"{sample.path.stem}.paste"
    pasted.write_text(sample.body, encoding="utf-8")
    report = review(pasted)  # must not raise, whatever the text
    if sample.skipped:  # set aside: listed as skipped, or one clear line that nothing here is read
        said = report.errors + [s for h in report.hosts for s in h.skipped]
        identified = {i for h in report.hosts for i in h.detected.inputs}
        return bool(said) and not identified and len(report.errors) <= 1, f"said {said[:1]}, read {identified}"
    if report.errors:
        return False, report.errors[0]
    errors = [e for h in report.hosts for e in h.errors]
    if errors:
        return False, errors[0]
    with Loader() as loader:
        identified = {cid.split("@", 1)[0] for c in loader.load(pasted) for cid in c.outputs}
    if sample.header.get("command") == "transcript":
        return bool(identified), f"identified {sorted(identified)}"
    wanted = _ALIASES.get(sample.family, {sample.family})
    return bool(wanted & identified), f"identified {sorted(identified)}, not {sorted(wanted)}"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: f"{s.family}/{s.path.stem}")
def test_each_real_sample_is_read_without_a_traceback(sample: Sample, tmp_path: Path) -> None:
    ok, why = _recognised(sample, tmp_path)
    if not sample.unreadable:
        assert ok, f"{sample.path.relative_to(REAL)}: {why}"


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
def test_the_recognition_rate_does_not_drop(tmp_path: Path, capsys) -> None:
    by_form: dict[tuple[str, str], list[int]] = {}  # (command, form) -> [samples, recognised]
    for s in SAMPLES:
        (tmp_path / s.family).mkdir(exist_ok=True)
        ok = not s.unreadable and _recognised(s, tmp_path / s.family)[0]
        counts = by_form.setdefault((s.family, s.header.get("form", "the form the command prints by default")), [0, 0])
        counts[0] += 1
        counts[1] += ok
    recognised = sum(n for _total, n in by_form.values())
    rate = recognised / len(SAMPLES)
    floor = float((REAL / "RATE").read_text().split()[0])
    with capsys.disabled():
        print(f"\nreal outputs: {recognised} of {len(SAMPLES)} recognised ({rate:.0%}); "
              f"{sum(s.unreadable for s in SAMPLES)} marked unreadable with a reason")
        for (family, form), (total, n) in sorted(by_form.items()):
            print(f"  {family:<24} {n:>3} of {total:<3} {form}")
    assert rate >= max(floor, 0.9)
