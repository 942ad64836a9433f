"""Data flows one way: collect -> parse -> facts -> rules -> plan -> report.
A module imports only from its own layer or those below it, at the top of the
file or inside a function alike."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

# Lowest first. A package or module of advisor/ missing here fails the test: a new one is placed on purpose.
LAYERS = [
    {"__init__", "errors", "shell", "versions", "scratch", "datafile", "platform_spec", "platform_registry",
     "platforms"},  # what the packs declare and the registry that reads it; platforms: the packs' declarations
    {"collect"},  # reading what was captured
    {"parsers"},
    {"facts"},
    {"changes"},  # typed changes and what each does to the facts
    {"results"},  # what a review finds: below the engine that makes it and the views that show it
    {"engine"},
    {"changeplan"},
    {"pipeline"},
    {"report"},
    {"reference", "commands", "cli", "__main__"},
]
LAYER = {name: n for n, names in enumerate(LAYERS) for name in names}


def _in_pack(parts: list[str]) -> str:
    """The layer-unit of a module of a platform pack, by the parts after `platforms.<pack>`:
    its declaration (pack) sits with the registry, its readers of planned configurations
    (plans/: one more input, as what was captured) with collect, its parsers, change
    operations, restart strategy (plan, simulate) and script guards in their layers, and
    the rest (its facts builders) in the facts layer."""
    if not parts or parts[0] in ("pack", "__init__"):
        return "platforms"
    return {"parsers": "parsers", "changes": "changes", "lines": "collect", "plans": "collect", "plan": "changeplan",
            "simulate": "changeplan", "script": "report"}.get(parts[0], "facts")


def _unit(path: Path) -> str:
    rel = path.relative_to(ROOT / "advisor")
    if rel.parts[0] == "platforms":
        return "platforms" if len(rel.parts) == 2 else _in_pack([*rel.parts[2:-1], rel.stem])
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imported(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, unit of advisor) for every import of advisor's own code in a module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name.split(".")[1]) for a in node.names if a.name.startswith("advisor.")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            parts = node.module.split(".")
            if parts[0] != "advisor":
                continue
            if parts[1:2] == ["platforms"] and len(parts) > 2:
                inner = parts[3:]
                found += ([(node.lineno, _in_pack(inner))] if inner
                          else [(node.lineno, _in_pack([a.name])) for a in node.names])
            elif len(parts) > 1:
                found.append((node.lineno, parts[1]))
            else:  # from advisor import errors, scratch (or a name the package itself defines)
                found += [(node.lineno, a.name if (ROOT / "advisor" / a.name).exists()
                           or (ROOT / "advisor" / f"{a.name}.py").exists() else "__init__") for a in node.names]
    return found


def test_every_import_runs_down_or_across_the_layers() -> None:
    modules = sorted((ROOT / "advisor").rglob("*.py"))
    assert len(modules) > 80
    upward = []
    for path in modules:
        unit = _unit(path)
        assert unit in LAYER, f"{path}: {unit} has no layer in tests/test_layers.py"
        for line, target in _imported(ast.parse(path.read_text(encoding="utf-8"))):
            assert target in LAYER, f"{path}:{line}: imports advisor.{target}, which has no layer"
            if LAYER[target] > LAYER[unit]:
                upward.append(f"{path.relative_to(ROOT)}:{line}: {unit} imports {target}")
    assert upward == []


def test_the_layer_check_sees_an_import_inside_a_function() -> None:
    tree = ast.parse("def f():\n    from advisor.report import terminal\n    import advisor.engine.packs\n")
    assert _imported(tree) == [(2, "report"), (3, "engine")]
