"""The rule packs ship inside the package, so a plain `pip install .` works anywhere."""

from __future__ import annotations

from pathlib import Path

import advisor
from advisor import platform_registry as platforms
from advisor.engine import packs
from conftest import CAPTURES, ROOT, run_cli


def test_rules_are_found_from_any_directory(tmp_path: Path) -> None:
    res = run_cli("review", str(CAPTURES / "t5-primary-untuned"), "-f", "json", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert f'"rules": {len(packs.load())}' in res.stdout


def test_installed_package_carries_its_rules() -> None:
    """Each platform pack's rules.yaml, and the studies they cite, are inside the package."""
    package = Path(advisor.__file__).resolve().parent
    files = [path for _pack, path in platforms.rule_files()]
    assert sorted(path.parent.name for path in files if path.is_file()) == ["hpux", "ldoms", "linux", "solaris", "xen"]
    assert platforms.STUDIES.is_file()
    assert all(path.resolve().is_relative_to(package) for path in [*files, platforms.STUDIES])


def _pins() -> dict[str, str]:
    from packaging.utils import canonicalize_name

    lines = (ln.strip() for ln in (ROOT / "constraints.txt").read_text().splitlines())
    return {canonicalize_name(name): version
            for name, _, version in (ln.partition("==") for ln in lines if ln and not ln.startswith("#"))}


def test_every_dependency_is_locked_to_a_version_its_range_admits() -> None:
    """CI and the README install with `-c constraints.txt`: a dependency
    missing from it would float to whatever the package index has that day."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = _pins()
    assert pins and all(v and v[0].isdigit() for v in pins.values()), pins
    extras = project["optional-dependencies"]
    for text in project["dependencies"] + extras["test"] + extras["lint"]:
        req = Requirement(text)
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not in constraints.txt"
        assert req.specifier.contains(pins[name], prereleases=True), f"{req.name}=={pins[name]} is outside {req.specifier}"


def test_the_readme_and_ci_install_from_the_lock() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    installs = [ln for text in (readme, ci) for ln in text.splitlines() if "pip install" in ln]
    assert installs and all("-c constraints.txt" in ln for ln in installs), installs


def test_ci_checks_types_and_lint_with_the_pinned_tools() -> None:
    """mypy and ruff run on a fresh clone as on a developer's machine: same versions, same settings."""
    import tomllib

    ci = (ROOT / ".ci" / "run").read_text()
    assert ".venv/bin/mypy" in ci and ".venv/bin/ruff check advisor tests bench ansible" in ci
    tools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]
    assert tools["mypy"]["files"] == ["advisor"] and "select" in tools["ruff"]["lint"]
