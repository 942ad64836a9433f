"""Finding and validating rule packs: the bundled `rules/` and any `--rules DIR`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

import advisor
from advisor import datafile
from advisor.engine import pack_cache
from advisor.engine.model import Rule, Study
from advisor.errors import RulePackError


def bundled_rules_dir() -> Path:
    """Inside the wheel the rules live at advisor/rules; in a checkout, at ./rules."""
    packaged = Path(advisor.__file__).parent / "rules"  # a plain package: importlib.resources would only add its import
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rules"


def _describe(exc: ValidationError) -> str:
    """`checks[0].says: Field required`: the first error, where it is."""
    err = exc.errors()[0]
    field = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".")
    return f"{field + ': ' if field else ''}{datafile.error_text(err)}"


def _data(path: Path) -> Any:
    """A pack file's YAML, parsed, or taken from the cache when this exact text was parsed before."""
    text = datafile.read_text(path, RulePackError)
    data = pack_cache.get(text)
    if data is None:
        data = datafile.parse(text, RulePackError, str(path))
        pack_cache.put(text, data)
    return data


def load_file(path: Path) -> list[Rule]:
    shown = str(path)
    data = _data(path)
    if isinstance(data, dict) and "rules" in data:
        data = data["rules"]
    if not isinstance(data, list):
        raise RulePackError(f"{shown}: a rule pack is a list of rules (or a mapping with 'rules:')")
    rules = []
    for i, item in enumerate(data):
        if not isinstance(item, dict):
            raise RulePackError(f"{shown}: rule #{i + 1} is not a mapping")
        try:
            rules.append(Rule.model_validate({**item, "file": shown}))
        except ValidationError as exc:
            raise RulePackError(f"{shown}: {item.get('id', f'rule #{i + 1}')}: {_describe(exc)}") from None
    return rules


SOURCES = "sources.yaml"  # the studies rules cite, by key; not a rule pack


def load_studies(path: Path) -> dict[str, Study]:
    data = _data(path)
    if not isinstance(data, dict):
        raise RulePackError(f"{path}: a mapping of study keys to title, publisher, date")
    studies: dict[str, Study] = {}
    for key, value in data.items():
        try:
            studies[str(key)] = Study.model_validate(value)
        except ValidationError as exc:
            raise RulePackError(f"{path}: {key}: {_describe(exc)}") from None
    return studies


def load(extra_dirs: list[Path] | None = None) -> list[Rule]:
    dirs = [bundled_rules_dir(), *(extra_dirs or [])]
    rules: dict[str, Rule] = {}
    studies: dict[str, Study] = {}
    for directory in dirs:
        if not directory.is_dir():
            raise RulePackError(f"{directory}: rule directory not found")
        if (directory / SOURCES).is_file():
            studies.update(load_studies(directory / SOURCES))
        for path in sorted(directory.glob("*.y*ml")):
            if path.name == SOURCES:
                continue
            for rule in load_file(path):
                if rule.id in rules:
                    raise RulePackError(f"{path}: rule {rule.id} is already defined in {rules[rule.id].file}")
                rules[rule.id] = rule
    for rule in rules.values():
        if rule.source.ref not in studies:
            raise RulePackError(f"{rule.file}: {rule.id}: source {rule.source.ref!r} is not in {SOURCES}")
        rule.source.study = studies[rule.source.ref]
    return list(rules.values())
