"""Compiling CEL expressions once and running them with advisor's functions."""

from __future__ import annotations

import marshal
import re
from functools import cache
from typing import Any, NamedTuple

from advisor.errors import RulePackError
from advisor.versions import version_ge


def total(values: list[Any]) -> float:
    """The sum of a list of numbers as a double (CEL has no sum): `total(host.rates.links.map(l, l.in_bps))`.
    A null in it is an error, as CEL's own arithmetic on null is."""
    if not isinstance(values, list) or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in values):
        raise TypeError("total() takes a list of numbers")
    return float(sum(values))


FUNCTIONS = {"version_ge": version_ge, "total": total}  # each pure: its outcome a function of its arguments alone


def _load_cel():
    """The compiled CEL core alone. The `cel` package's __init__ also imports
    its interactive shell (prompt_toolkit, pygments), which every review would
    pay for nothing: a quarter of a one-bundle review and 13 MiB of its peak
    memory (bench/README.md). The core needs none of it. Falls back to the
    package when its layout is not the one known."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("cel")
    if spec and spec.origin:
        for so in sorted(Path(spec.origin).parent.glob("cel.*.so")) + sorted(Path(spec.origin).parent.glob("cel.*.pyd")):
            core_spec = importlib.util.spec_from_file_location("cel.cel", so)
            if core_spec and core_spec.loader:
                module = importlib.util.module_from_spec(core_spec)
                core_spec.loader.exec_module(module)
                if all(hasattr(module, name) for name in ("Context", "compile")):
                    return module
    import cel

    return cel


_cel = _load_cel()


LAZY = ("p", "s", "v")


@cache
def _uses(name: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A use of variable `name` other than reading a field of it, and the read of a field (its name)."""
    return re.compile(rf"\b{name}\b(?!\s*\.\s*[a-z_])"), re.compile(rf"\b{name}\s*\.\s*([a-z_][a-z0-9_]*)")


# Rules are compiled at every start, and a text is asked of again and again (by each of its
# expressions, by its rule for the host and its subject, by the engine): each text is read once.
@cache
def _fields_of(name: str, source: str) -> frozenset[str] | None:
    whole, field = _uses(name)
    return None if whole.search(source) else frozenset(field.findall(source))


def fields_read(name: str, sources: list[str]) -> set[str] | None:
    """The fields of variable `name` the expressions read (`host.links`), or
    None when one uses it otherwise (`host["links"]`, `size(s)`) and so needs all of it."""
    found: set[str] = set()
    for source in sources:
        fields = _fields_of(name, source)
        if fields is None:
            return None
        found |= fields
    return found


_NAME = re.compile(r"(?<![.\w])[A-Za-z_]\w*")


@cache
def names(source: str) -> frozenset[str]:
    """Every name the text may reference as a variable: each word not read as a field (`x.name`),
    functions and a macro's own names too (more than the core's Program.variables, which would
    have the text compiled, where a text run flattened alone needs only its flattened program)."""
    return frozenset(_NAME.findall(blanked(source)))


@cache  # the same answer, shared, for each expression of the same text: not to be changed
def reads(source: str) -> dict[str, frozenset[str] | None]:
    """For each lazy variable an expression names, the fields it reads (None: all of it).
    A text names one (`s` as a word) exactly when it uses it whole (None) or reads a field of it."""
    out = {}
    for name in LAZY:
        if name in source and ((fields := _fields_of(name, source)) is None or fields):
            out[name] = fields
    return out


_TOKENS = re.compile(r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")|//[^\n]*")  # a string, or a comment
MACROS = "all|exists|exists_one|map|filter"  # CEL's macros that bind a name: `.exists(c, c.x)`
# What follows a name, matched where the name ends. `(?<!\s)` starts them only at the start of a
# run of blanks: searched, they would otherwise try every blank of a long run again (quadratic).
_MACRO_AT = re.compile(rf"(?<!\s)\s*\.\s*({MACROS})\s*\(\s*([a-z_][a-z0-9_]*)\s*,")
_COUNTED_AT = re.compile(r"(?<!\s)\s*(?:\.\s*size\s*\(\s*\)|[!=]=\s*null\b)")  # `.size()`, `== null`, `!= null`
_FIELD_AT = re.compile(r"(?<!\s)\s*\.\s*([a-z_][a-z0-9_]*)\b(?!\s*\()")  # `.module`, not `.size()`


def _closing(text: str, start: int) -> int | None:
    """Where the parenthesis open before `start` closes (strings blanked out first)."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    return None


@cache
def blanked(source: str) -> str:
    """The expression with its strings emptied and its comments left out, to be
    read for the names it uses: a name or a `)` in them is not code."""
    return _TOKENS.sub(lambda m: "''" if m.group(1) else "", source)


# `host.ldcs` where the list itself is used (a map's field, `host.driver_conf.nxge`, is not it)
_LIST_USE = re.compile(r"(?<![\w.])([a-z_][a-z0-9_]*)\s*\.\s*([a-z_][a-z0-9_]*)\b(?!\s*\.\s*[a-z_][a-z0-9_]*\b(?!\s*\())")


def element_fields(path: str, sources: list[str]) -> set[str] | None:
    """The fields the expressions read of each element of the list at `path`
    (`host.ldcs`), or None when one may read an element whole. An element is
    read field by field only through a macro's variable
    (`host.ldcs.exists(c, c.module == 'vnet')`), perhaps after filters, whose
    result is elements again (`.filter(w, ...).map(w, w.name)`); besides that,
    the list may only be counted (`.size()`) or tested for null. Any other
    use (`size(host.ldcs)`, `host.ldcs[0]`, a filter's result left as it is,
    a macro's variable given whole) says None. `path` is a variable and one field of it."""
    head, _, rest = path.partition(".")
    fields: set[str] = set()
    for source in sources:
        text = blanked(source)
        if rest not in text:  # most texts: the engine asks this of every field of the host, at start
            continue
        for found in _LIST_USE.finditer(text):
            if found.groups() != (head, rest):
                continue
            at = found.end()
            while True:
                macro = _MACRO_AT.match(text, at)
                if macro is None:
                    if _COUNTED_AT.match(text, at):
                        break
                    return None
                end = _closing(text, macro.end())
                if end is None:
                    return None
                body = text[macro.end():end]
                for use in re.finditer(rf"(?<![\w.]){macro.group(2)}\b", body):
                    field = _FIELD_AT.match(body, use.end())
                    if field is None:
                        return None
                    fields.add(field.group(1))
                if macro.group(1) != "filter":
                    break
                at = end + 1
    return fields


class _Lazy:
    """The lazy variables' values, and each as the running expression reads it.
    The context's resolver is `given.get`, a builtin: the core asks it of every
    name an expression references (the host's too, whose answer None says "not
    mine"), and a Python method in its place cost a frame and a cut each time.
    Kept apart from the Scope, which holds the context: a context holding its
    scope would be a cycle through the CEL core, which Python's collector
    cannot see into, and every host's context would stay."""

    def __init__(self, values: dict[str, Any]):
        self.values = values
        self.given: dict[str, Any] = {}

    def view(self, name: str, fields: frozenset[str] | None) -> Any:
        """The variable as an expression reading `fields` of it (None: all) is given it."""
        value = self.values.get(name)
        if fields is None or not isinstance(value, dict):
            return value
        return {k: value[k] for k in fields if k in value}

    def give(self, reads: dict[str, frozenset[str] | None]) -> list[Any]:
        """Gives the lazy variables an expression reads (Expr.reads), as it reads them; those values.
        A name it does not read is never asked of: reads() counts every use of one."""
        views = [self.view(name, fields) for name, fields in reads.items()]
        self.given.update(zip(reads, views))
        return views

    def give_fields(self, fields: tuple[tuple[str, str, str], ...]) -> bool:
        """Gives each field a flattened text reads (Flat.fields) as a variable of its own; False
        when one is null or absent, or its variable no map: the text as written says what then."""
        values, given = self.values, self.given
        for flat, name, field in fields:
            record = values.get(name)
            if type(record) is not dict or (value := record.get(field)) is None:
                return False
            given[flat] = value
        return True


class Scope:
    """The variables of one evaluation, kept twice: as Python values for
    templates, and as a CEL context. The context converts every variable it
    holds again after any change, and a lazy variable again at each reference,
    at a cost that grows with the value's size (a few microseconds a value).
    So the variables that change per rule, subject and `let` (p, s, v) are read
    through a resolver, cut to the fields the running expression reads, and
    the host is given once per host, cut to the fields any rule reads (the
    Python side keeps every field, for templates)."""

    LAZY = frozenset(LAZY)

    def __init__(self, cel: dict[str, Any] | None = None, alone: dict[Any, tuple[bool, Any]] | None = None,
                 **variables: Any):
        self.ns: dict[str, Any] = dict(variables)
        self.lazy = _Lazy({k: v for k, v in {**variables, **(cel or {})}.items() if k in self.LAZY})
        # A lazy variable whose value is None reads as this registered null: the
        # resolver's None means "not mine".
        eager = {k: None if k in self.LAZY else v for k, v in {**variables, **(cel or {})}.items()}
        self.ctx = _cel.Context(variables=eager, functions=FUNCTIONS)
        self.ctx.set_variable_resolver(self.lazy.given.get)
        # Each outcome of an expression in this scope, by its text and what it read of the lazy
        # variables (Expr._remembered); the eager ones (host, intent) do not change while a scope lives.
        self.outcomes: dict[tuple[Any, ...], tuple[bool, Any]] = {}
        # and those of an expression that reads the lazy variables alone (`s.mtu > v.max`), true in
        # any scope: `alone` is another's (a plan's model of a host judged again: Engine.again)
        self.alone = {} if alone is None else alone
        self.eager = frozenset(eager.keys() - self.LAZY)
        self.host = eager.get("host")  # as CEL is given it (cut: Engine._for_cel), for Expr._host_outcome

    def set(self, name: str, value: Any) -> None:
        self.ns[name] = value
        if name in self.LAZY:
            self.lazy.values[name] = value
        else:
            self.ctx.add_variable(name, value)
            if name == "host":
                self.host = value


# A third of the rule packs' expressions repeat another ("true", "host.arch != 'x86'"):
# each text is compiled once. A compiled program holds no state between runs.
_programs: dict[str, Any] = {}

# The texts known to compile with this CEL core, kept between runs in the rule
# pack cache: a review compiles only the expressions it runs (about half of
# them), while a text not known is compiled at once, so that a broken pack is
# still refused before any host is judged.
_checked: set[str] | None = None
_compiled_now: set[str] = set()
MAX_CHECKED = 20_000  # texts kept; past it, only the last run's are


@cache
def _checked_key() -> str:
    """The cache's key for the texts known to compile: tied to the CEL core's file."""
    import os

    where = getattr(_cel, "__file__", None) or ""
    try:
        info = os.stat(where)
    except OSError:
        return f"cel-checked\0{where}"
    return f"cel-checked\0{where}\0{info.st_size}\0{info.st_mtime_ns}"


def _known() -> set[str]:
    global _checked
    if _checked is None:
        from advisor.engine import pack_cache

        data = pack_cache.get(_checked_key())
        texts: list = data if isinstance(data, list) else []
        _checked = set(texts) if all(isinstance(t, str) for t in texts) else set()
    return _checked


def _store(texts: set[str]) -> None:
    from advisor.engine import pack_cache

    pack_cache.put(_checked_key(), sorted(texts))


def remember_checked() -> None:
    """Keep the texts compiled in this run as known to compile (once, when new)."""
    known = _known()
    if _compiled_now <= known:
        return
    _store(known | _compiled_now if len(known) + len(_compiled_now) <= MAX_CHECKED else _compiled_now)
    known |= _compiled_now


def _forget(source: str) -> None:
    """A text the cache said compiles does not (the cache was altered): the cache is wrong, not the next run."""
    known = _known()
    if source in known:
        known.discard(source)
        _store(known)


_NAMED = {name: re.compile(rf"(?<![.\w]){name}\b") for name in LAZY}  # `host.s` is a field, not the variable
_BOUND = {name: re.compile(rf"\.\s*(?:{MACROS})\s*\(\s*{name}\s*,") for name in LAZY}


def bound_once(source: str) -> str:
    """The expression with each lazy variable it names more than once bound
    once, by a one-element comprehension: `[s].map(s, E)[0]`. The CEL core asks
    the resolver, and converts its answer, at every reference (a few to tens of
    microseconds a value, with every dict key tried as an int first); inside the
    comprehension `s` is a CEL value already. Its result and its errors are E's."""
    text = blanked(source)
    for name in LAZY:
        if len(_NAMED[name].findall(text)) > 1 and not _BOUND[name].search(text):  # `.all(p, p.x)`: that p is not ours
            source = f"[{name}].map({name}, {source}\n)[0]"  # the line break ends a trailing `// comment`
    return source


_FIELD_READ = re.compile(r"(?<![.\w])(p|s|v)\s*\.\s*([a-z_][a-z0-9_]*)\b(?!\s*\()")  # `s.mtu`, not `x.s.mtu`
_HAS = {name: re.compile(rf"\bhas\s*\(\s*{name}\s*\.") for name in LAZY}  # has() needs the field's select


class Flat(NamedTuple):  # not a dataclass, whose methods are compiled at import
    """An expression with each field it reads of a lazy variable (`s.mtu`) read
    as a variable of its own (`s__mtu`): the core converts a map, and each of
    its string keys, at a cost of a few microseconds each (most of a run's),
    where a plain value costs a fraction of one. Run when each such field is
    there and not null (Lazy.give_fields), it sees the values the text as
    written would, and gives the same outcome."""

    text: str
    fields: tuple[tuple[str, str, str], ...]  # (its variable, the lazy variable, the field)


@cache
def flattened(source: str) -> Flat | None:
    """The text with the fields it reads of p, s and v read as variables, or None
    when it reads none that way (a variable a macro binds, or that has() tests, is left as written)."""
    text = blanked(source)
    free = {name for name in LAZY if not _BOUND[name].search(text) and not _HAS[name].search(text)}
    fields: dict[str, tuple[str, str, str]] = {}

    def flat(m: re.Match[str]) -> str:
        name, field = m.groups()
        if name not in free:
            return m.group(0)
        fields[f"{name}__{field}"] = (f"{name}__{field}", name, field)
        return f"{name}__{field}"

    out, at = [], 0
    for token in _TOKENS.finditer(source):  # strings and comments as they are
        out += [_FIELD_READ.sub(flat, source[at:token.start()]), token.group(0)]
        at = token.end()
    out.append(_FIELD_READ.sub(flat, source[at:]))
    return Flat(bound_once("".join(out)), tuple(fields.values())) if fields else None


def _compile(source: str, where: str) -> Any:
    program = _programs.get(source)
    if program is None:
        try:
            program = _cel.compile(source)  # the text as written: a broken one is refused in its own words
        except ValueError as exc:
            _forget(source)
            first = str(exc).splitlines()[0]
            raise RulePackError(f"{where}: CEL does not compile: {first}") from None
        bound = bound_once(source)
        if bound != source:
            try:
                program = _cel.compile(bound)
            except ValueError:  # a text this does not foresee: run as written
                pass
        _programs[source] = program
        _compiled_now.add(source)
    return program


class Expr:
    """A CEL expression that remembers where it came from: compiled at once,
    or at its first run when its text is known to compile."""

    def __init__(self, source: str, where: str):
        self.source = source
        self.where = where
        self._program = _programs.get(source)
        self.reads = reads(source)
        self.flat = flattened(source) if self.reads else None
        self._flat_program: Any = None
        # a text of host fields alone that calls a function (`version_ge(host.ldm_version, '3.4')`):
        # the fields it reads, its outcome remembered by their values (Expr._host_outcome); found at its first run
        self._host_reads: tuple[str, ...] | None = None
        if self._program is None and source not in _known():
            self._program = _compile(source, where)

    @property
    def program(self) -> Any:
        if self._program is None:
            self._program = _compile(self.source, self.where)
        return self._program

    def run(self, scope: Scope) -> Any:
        if self.reads:
            return self._remembered(scope)
        fields = self._host_reads
        if fields is None:
            fields = self._host_reads = _host_call_reads(self.source)
        if fields:
            return self._host_outcome(scope, fields)
        return self.program.execute(scope.ctx)  # host and intent alone, no function: as fast to run as to look up

    def test(self, scope: Scope) -> bool:
        """A condition: true or false, or TypeError when a fact it needs is unknown."""
        value = self.run(scope)
        if not isinstance(value, bool):
            raise TypeError(f"condition gave {value!r}, not true or false")
        return value

    def _program_for(self, scope: Scope) -> Any:
        """The flattened program where its fields can be given, else the program as written."""
        if self.flat is None or not scope.lazy.give_fields(self.flat.fields):
            return self.program
        if self._flat_program is None:
            try:
                self._flat_program = _cel.compile(self.flat.text)
            except ValueError:  # a text this does not foresee: run as written
                self.flat = None
                return self.program
        return self._flat_program

    def _remembered(self, scope: Scope) -> Any:
        """The expression's outcome, run once per scope and per value of what it
        reads of the lazy variables. The CEL core converts a lazy variable's
        value at each reference, with every key of a map tried as a number first
        (several microseconds a value), while a program's outcome depends only
        on its variables, and the eager ones (host, intent) do not change while
        a scope lives: so `s.dring_mode != 4` runs once per distinct dring_mode
        of a host's channels, not once per channel. An error is raised again alike."""
        views = scope.lazy.give(self.reads)
        try:
            # marshal writes each value with its exact type (1, 1.0 and true differ, and so do
            # 0.0 and -0.0, unlike in a Python key) and refuses any type but the plain ones
            key = self.source, marshal.dumps(views, 2)
        except ValueError:  # a value of another type: run every time
            return self.program.execute(scope.ctx)
        outcomes = scope.alone if names(self.source).isdisjoint(scope.eager) else scope.outcomes
        known = outcomes.get(key)
        if known is None:
            try:
                known = (True, self._program_for(scope).execute(scope.ctx))
            except _REPEATABLE as exc:
                if type(exc) not in _REPEATABLE or _CALLS.search(blanked(self.source)):
                    raise
                known = (False, (type(exc), exc.args))  # not the exception: its traceback holds the scope
            outcomes[key] = known
        ok, value = known
        if not ok:
            kind, args = value
            raise kind(*args)
        return _fresh(value) if type(value) is list or type(value) is dict else value

    def _host_outcome(self, scope: Scope, fields: tuple[str, ...]) -> Any:
        """The outcome of a text that reads host fields alone and calls a function: a
        call from the core costs some 20 microseconds (its arguments and result
        converted), where the text runs ~17 times a host, ~9 of them again with
        the same values, and again on each plan's model of the host. Its functions
        are pure (FUNCTIONS), so its outcome is one of the values it reads (each
        field's presence too: an absent field errs, a null one does not), kept with
        those of Scope.alone. An error is not kept: the core prints each to stderr."""
        host = scope.host
        if type(host) is not dict or not names(self.source).isdisjoint(scope.eager - {"host"}):
            return self.program.execute(scope.ctx)
        try:
            key = self.source, marshal.dumps([(name in host, host.get(name)) for name in fields], 2)
        except ValueError:  # a value of another type: run every time
            return self.program.execute(scope.ctx)
        known = scope.alone.get(key)
        if known is None:
            known = scope.alone[key] = (True, self.program.execute(scope.ctx))
        value = known[1]
        return _fresh(value) if type(value) is list or type(value) is dict else value


@cache
def _host_call_reads(source: str) -> tuple[str, ...]:
    """The host fields a text reads when it calls one of FUNCTIONS and reads the host field
    by field (`host.ldm_version`); none otherwise (it runs every time, as cheap to run as to look up)."""
    if not _CALLS.search(blanked(source)):
        return ()
    return tuple(sorted(_fields_of("host", source) or ()))


# The errors the CEL core raises, remembered as their type and arguments and
# raised again alike. One raised in a text that calls a Python function is not
# remembered: the core prints each such failure to stderr as it happens.
_REPEATABLE = (TypeError, KeyError, IndexError, ValueError, RuntimeError, OverflowError, ZeroDivisionError)
_CALLS = re.compile(rf"\b(?:{'|'.join(FUNCTIONS)})\s*\(")


def _fresh(value: Any) -> Any:
    """A remembered value as a new run would give it: lists and maps new, so
    that no caller changes another's."""
    if isinstance(value, list):
        return [_fresh(item) for item in value]
    if isinstance(value, dict):
        return {k: _fresh(item) for k, item in value.items()}
    return value
