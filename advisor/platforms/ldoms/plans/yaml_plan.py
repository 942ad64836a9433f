"""A YAML plan (docs/plans.md), read with safe_load; errors name the line.

A plan may take its domains from an `ldm list-constraints -x` file
(`constraints: ldg.xml`, relative to the plan) and add what the XML cannot
say: hardware, software levels, link speeds. A domain listed in both is the
XML domain with the plan's keys laid over it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from advisor import datafile
from advisor.errors import InputError, ParseError, excerpt
from advisor.platforms.ldoms.plans import constraints_xml
from advisor.platforms.ldoms.plans.located import LocatedPlan, Where
from advisor.platforms.ldoms.plans.schema import Plan

Lines = dict[tuple[Any, ...], int]


def _node_lines(node: yaml.Node, path: tuple[Any, ...], out: Lines) -> None:
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            k = key.value
            _node_lines(value, path + (k,), out)
            out[path + (k,)] = key.start_mark.line + 1  # a key's own line, not where its value starts
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _node_lines(value, path + (i,), out)


def _line_for(lines: Lines, loc: tuple[Any, ...]) -> int | None:
    for n in range(len(loc), -1, -1):
        if loc[:n] in lines:
            return lines[loc[:n]]
    return None


def _load(text: str) -> tuple[Any, Lines]:
    try:
        data = datafile.parse_yaml(text)  # refuses aliases that expand without end, and deep nesting
        node = yaml.compose(text, Loader=datafile.safe_loader())
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ParseError(f"not valid YAML ({excerpt(str(getattr(exc, 'problem', None) or exc), 120)})",
                         line=mark.line + 1 if mark else None) from None
    except datafile.ShapeError as exc:
        raise ParseError(f"{exc}; refused", line=exc.line) from None
    except (ValueError, OverflowError, AttributeError, TypeError):  # 2026-02-30, !!timestamp on a word
        line, value = datafile.bad_value(text)
        raise ParseError(f"{value!r} is not a value YAML can read (no such date, or too long a number)",
                         line=int(line) if line.isdigit() else None) from None
    lines: Lines = {}
    if node is not None:
        _node_lines(node, (), lines)
    return data, lines


def parse(text: str, file: str, folder: Path | None = None) -> LocatedPlan:
    data, lines = _load(text)
    if not isinstance(data, dict):
        raise ParseError("a plan is a mapping with format: advisor-plan/1 and domains:", line=1)
    try:
        plan = Plan.model_validate(data)
    except ValidationError as exc:
        raise ParseError(datafile.first_error(exc), line=_line_for(lines, tuple(exc.errors()[0]["loc"]))) from None
    where = _where(plan, data, lines, file)
    if plan.constraints is None:
        return LocatedPlan(plan, where, form="yaml")
    return _with_constraints(plan, data, where, file, folder, lines)


def _where(plan: Plan, data: dict[str, Any], lines: Lines, file: str) -> Where:
    def at(*loc: Any) -> str:
        return f"{file}:{_line_for(lines, loc) or 1}"

    where: Where = {("plan",): at()}
    for section in ("hardware", "software"):
        for key in (data.get(section) or {}):
            where[(section, str(key))] = at(section, key)
    for i, dom in enumerate(plan.domains):
        where[("domain", dom.name)] = at("domains", i)
        for key in (data["domains"][i] or {}):
            where[("domain", dom.name, str(key))] = at("domains", i, key)
        named: tuple[tuple[str, list[Any]], ...] = (("vsw", dom.vsws), ("vnet", dom.vnets), ("link", dom.links),
                                                    ("vf", dom.vfs))
        for kind, items in named:
            for j, item in enumerate(items):
                where[(kind, dom.name, item.name)] = at("domains", i, f"{kind}s", j)
    return where


def _with_constraints(plan: Plan, data: dict[str, Any], where: Where, file: str, folder: Path | None,
                      lines: Lines) -> LocatedPlan:
    line = lines.get(("constraints",))
    name = plan.constraints or ""
    path = (folder or Path(".")) / name
    shown = str(Path(file).parent / name)
    if Path(name).is_absolute() or ".." in Path(name).parts:
        raise ParseError(f"constraints: {name!r} must be a file beside the plan", line=line)
    try:
        text = datafile.read_text(path, InputError, name, constraints_xml.MAX_XML_CHARS)
    except InputError as exc:
        raise ParseError(f"constraints: {exc}", line=line) from None
    try:
        base = constraints_xml.parse(text, shown)
    except ParseError as exc:
        raise exc.located(shown) from None
    overlay = {d["name"]: d for d in data.get("domains") or []}
    merged = []
    for dom in base.plan.domains:
        fields = dom.model_dump(exclude_defaults=True)
        fields.update(overlay.pop(dom.name, {}))
        merged.append(fields)
    merged.extend(overlay.values())
    combined = {**data, "domains": merged}
    try:
        plan = Plan.model_validate(combined)
    except ValidationError as exc:
        raise ParseError(f"with {name}: {datafile.first_error(exc)}", line=line) from None
    return LocatedPlan(plan, {**base.where, **where}, form="yaml+xml")
