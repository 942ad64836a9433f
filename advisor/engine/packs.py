"""Finding and validating rule packs: each platform pack's `rules.yaml` and any `--rules DIR`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor import datafile
from advisor import platform_registry as platforms
from advisor.engine import pack_cache
from advisor.engine.model import Rule, Study
from advisor.errors import RulePackError


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


def load_file(path: Path, family: str | None = None) -> list[Rule]:
    """The rules of one file; a platform pack's (`family`) judge hosts of its family alone."""
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
        name = item.get("id", f"rule #{i + 1}")
        if family is not None:
            item = {"platforms": [family], **item}
            if item["platforms"] != [family]:
                raise RulePackError(f"{shown}: {name}: platforms: a rule of this pack judges {family} hosts alone")
        try:
            rules.append(Rule.model_validate({**item, "file": shown}))
        except ValidationError as exc:
            raise RulePackError(f"{shown}: {name}: {_describe(exc)}") from None
    return rules


SOURCES = "sources.yaml"  # in a --rules DIR: the studies its rules cite, by key; not a rule pack


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


def _add(rules: dict[str, Rule], path: Path, found: list[Rule]) -> None:
    for rule in found:
        if rule.id in rules:
            raise RulePackError(f"{path}: rule {rule.id} is already defined in {rules[rule.id].file}")
        rules[rule.id] = rule


def load(extra_dirs: list[Path] | None = None) -> list[Rule]:
    rules: dict[str, Rule] = {}
    studies = load_studies(platforms.STUDIES)
    for p, path in platforms.rule_files():
        family = platforms.family_of(p)
        _add(rules, path, load_file(path, family.name if family else None))
    for directory in extra_dirs or []:
        if not directory.is_dir():
            raise RulePackError(f"{directory}: rule directory not found")
        if (directory / SOURCES).is_file():
            studies.update(load_studies(directory / SOURCES))
        for path in sorted(directory.glob("*.y*ml")):
            if path.name != SOURCES:
                _add(rules, path, load_file(path))
    for rule in rules.values():
        if rule.source.ref not in studies:
            raise RulePackError(f"{rule.file}: {rule.id}: source {rule.source.ref!r} is not in {SOURCES}")
        rule.source.study = studies[rule.source.ref]
    return list(rules.values())
