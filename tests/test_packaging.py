"""The rule packs ship inside the package, so a plain `pip install .` works anywhere."""

from __future__ import annotations

from pathlib import Path

import advisor
from advisor.engine import packs
from conftest import CAPTURES, ROOT, run_cli


def test_rules_are_found_from_any_directory(tmp_path: Path) -> None:
    res = run_cli("review", str(CAPTURES / "t5-primary-untuned"), "-f", "json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert f'"rules": {len(packs.load())}' in res.stdout


def test_installed_package_carries_its_rules() -> None:
    package = Path(advisor.__file__).resolve().parent
    rules_dir = packs.bundled_rules_dir()
    if package.parent != ROOT:  # installed, not imported from the checkout
        assert rules_dir == package / "rules"
    assert sorted(p.name for p in rules_dir.glob("*.yaml")) == ["hpux.yaml", "ldoms.yaml", "linux.yaml", "solaris.yaml", "sources.yaml", "xen.yaml"]
