"""Every regular expression advisor runs over text that can hold captured
input finishes in time linear in that text: each one is searched over long
runs of the characters and words it names, at two sizes eight times apart,
and the larger may not cost more than a linear budget of the smaller.

A pattern whose cost grows with the square of a long token (a `\\S+` before
something the token never holds) took an hour on a 1 MiB line; one with nested
quantifiers grows exponentially and is stopped by the alarm below.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import advisor
from advisor import platform_registry as platforms
from advisor.platform_spec import Pattern

ROOT = Path(advisor.__file__).resolve().parent
_CALLS = {"compile": 1, "match": 2, "search": 2, "fullmatch": 2, "findall": 2, "finditer": 2, "split": 3,
          "sub": 4, "subn": 4}  # the function, and where its flags argument stands
_SMALL, _LARGE = 1 << 17, 1 << 20  # 128 KiB and a 1 MiB token
_GROWTH = 24  # linear is 8x; quadratic 64x
_NOISE = 0.03  # seconds under which the larger size is not judged: timer noise
_ALARM = 10  # seconds one search may take at all


def _flags(node: ast.expr | None) -> int:
    if node is None:
        return 0
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re":
        return int(getattr(re, node.attr))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _flags(node.left) | _flags(node.right)
    raise AssertionError(f"flags the test cannot read: {ast.dump(node)}")


_TREES = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(ROOT.rglob("*.py"))}
_ANCHORED = {"match", "fullmatch"}  # tried at the start only; every other method tries each position


def _methods_used() -> dict[str, set[str]]:
    """For each name a pattern may be held under, the methods called on it
    anywhere (`_ROW.match(...)`, `kstat._SPACED.fullmatch(...)`)."""
    used: dict[str, set[str]] = {}
    for tree in _TREES.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                holder = node.func.value
                name = holder.id if isinstance(holder, ast.Name) else holder.attr if isinstance(holder, ast.Attribute) else None
                if name:
                    used.setdefault(name, set()).add(node.func.attr)
    return used


def _written_in_calls() -> Iterator[tuple[str, re.Pattern, str]]:
    """Patterns written as literals in a call of the re module, with the call."""
    for path, tree in _TREES.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                    and node.func.attr in _CALLS and node.args):
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, (str, bytes)):
                at = _CALLS[node.func.attr]
                flags = node.args[at] if len(node.args) > at else next(
                    (k.value for k in node.keywords if k.arg == "flags"), None)
                how = node.func.attr if node.func.attr in _ANCHORED else "search"
                yield f"{path.relative_to(ROOT.parent)}:{node.lineno}", re.compile(first.value, _flags(flags)), how


def _held_by_modules() -> Iterator[tuple[str, re.Pattern, str]]:
    """Compiled patterns a module or class holds, those built from parts
    included: tried as they are used, where only match or fullmatch is."""
    used = _methods_used()
    for info in pkgutil.walk_packages([str(ROOT)], "advisor."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            holders = [(name, value)] + ([(f"{name}.{k}", v) for k, v in vars(value).items()]
                                         if isinstance(value, type) and value.__module__ == module.__name__ else [])
            for label, held in holders:
                methods = used.get(label.rpartition(".")[2], set())
                how = "fullmatch" if "fullmatch" in methods and methods <= _ANCHORED else (
                    "match" if methods == {"match"} else "search")
                if isinstance(held, re.Pattern):
                    yield f"{info.name}.{label}", held, how
                elif isinstance(held, (list, tuple)):
                    yield from ((f"{info.name}.{label}[{i}]", p, "search") for i, p in enumerate(_patterns_in(held)))


def _patterns_in(items: list | tuple) -> list[re.Pattern]:
    found: list[re.Pattern] = []
    for item in items:
        if isinstance(item, re.Pattern):
            found.append(item)
        elif isinstance(item, Pattern):
            found.append(item.compiled)
        elif isinstance(item, (list, tuple)):
            found += _patterns_in(item)
    return found


def _declared_by_packs() -> Iterator[tuple[str, re.Pattern, str]]:
    """How each platform pack recognises its outputs."""
    for output, pattern in platforms.patterns():
        yield f"advisor.platforms:{output.id}", pattern.compiled, "search"


def _patterns() -> dict[tuple[str | bytes, int, str], str]:
    """(pattern, flags, how it is tried) -> where it is written."""
    seen: dict[tuple[str | bytes, int, str], str] = {}
    for where, pattern, how in [*_written_in_calls(), *_declared_by_packs(), *_held_by_modules()]:
        seen.setdefault((pattern.pattern, pattern.flags, how), where)
    return seen


PATTERNS = _patterns()


def _units(pattern: str) -> list[str]:
    """What a long token is made of: common characters, and the words and
    punctuation the pattern itself names (a token that matches a long prefix
    and then fails is what makes a pattern backtrack)."""
    words = set(re.findall(r"[A-Za-z_]{2,}", re.sub(r"\\[A-Za-z]", " ", pattern)))
    marks = set(re.findall(r"\\?([^\w\s\\()\[\]{}?*+|^$])", pattern))
    units = {"x", "9", " ", "\t", "|", "@", ":", ".", "-", "=", "/", "x\n", " \n", "<!---->", *marks}
    units |= {w for w in words} | {f"{w} " for w in words} | {f"{w} : x\n" for w in words} | {f"{w}\n" for w in words}
    return sorted(units)


def _timed(pattern: re.Pattern, how: str, text: str | bytes) -> float:
    return min(_cost_of(lambda: getattr(pattern, how)(text)) for _ in range(2))


class _TooSlow(Exception):
    pass


def _alarm(_signum: int, _frame: object) -> None:
    raise _TooSlow


def test_the_search_finds_the_patterns_it_must_judge() -> None:
    """The collection above reaches inline literals, module constants built
    from parts, and identification's table: a test that judged nothing would pass."""
    wheres = set(PATTERNS.values())
    assert len(PATTERNS) > 150
    assert any(w.startswith("advisor.collect.transcript.") for w in wheres)
    assert any(w.startswith("advisor.platforms:") for w in wheres)
    assert any(w.startswith("advisor/platforms/") for w in wheres)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(PATTERNS, key=str), ids=lambda k: PATTERNS[k])
def test_every_pattern_is_linear_in_a_long_token(key: tuple[str | bytes, int, str]) -> None:
    pattern, how = re.compile(key[0], key[1]), key[2]
    source = key[0] if isinstance(key[0], str) else key[0].decode("latin-1")
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for unit in _units(source):
            def token(size: int, unit: str = unit) -> str | bytes:
                text = (unit * (size // len(unit) + 1))[:size] + "\x00"
                return text if isinstance(key[0], str) else text.encode("latin-1")
            for _attempt in range(3):  # a busy machine's noise: a growth seen three times is the pattern's
                signal.alarm(_ALARM)
                try:
                    small, large = _timed(pattern, how, token(_SMALL)), _timed(pattern, how, token(_LARGE))
                except _TooSlow:
                    pytest.fail(f"{PATTERNS[key]} ({how}): more than {_ALARM} s over {_LARGE:,} characters of {unit!r}")
                finally:
                    signal.alarm(0)
                if large < _NOISE or large < _GROWTH * small:
                    break
            assert large < _NOISE or large < _GROWTH * small, (
                f"{PATTERNS[key]} ({how}): {small:.4f} s over {_SMALL:,} characters of {unit!r}, {large:.4f} s over {_LARGE:,}")
    finally:
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("shape", ["x", "@1", "a@", ":9", "t.txt@3:"])
def test_error_locating_is_linear_in_a_long_token(shape: str) -> None:
    """`ticket.txt@3:12` in a message becomes `ticket.txt:57`: a message that
    quotes a long token (a pasted line of a megabyte) was quadratic here."""
    from advisor.collect.origins import Origin, locate, locate_evidence

    known = {"t.txt@3": Origin("t.txt", [10, 11, 12], "ldm ls -l", "10-12")}

    def cost(size: int) -> float:
        text = (shape * (size // len(shape) + 1))[:size]
        return min(_cost_of(lambda: (locate(text, known), locate_evidence(text, known))) for _ in range(3))

    small, large = cost(_SMALL * 8), cost(_LARGE * 8)
    assert large < _NOISE or large < _GROWTH * small, (shape, small, large)
    assert locate("t.txt@3:2: not a value", known) == "t.txt:11: not a value (lines 10-12: `ldm ls -l`)"
    assert locate_evidence("t.txt@3:3", known) == "t.txt:12" and locate_evidence("t.txt@3:3x", known) == "t.txt@3:3x"


def _cost_of(call) -> float:
    """CPU seconds, not wall: a busy machine that preempts one run must not read as growth."""
    start = time.process_time()
    call()
    return time.process_time() - start


def test_an_error_message_is_clipped_before_anything_reads_it() -> None:
    from advisor.errors import MESSAGE, clipped

    assert clipped("short") == "short"
    assert len(clipped("x" * (1 << 20))) == MESSAGE + 3
