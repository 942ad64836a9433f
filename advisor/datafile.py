"""Reading the YAML and JSON files advisor accepts (manifests, policies, rule
packs, inventories, baselines): safe_load only, errors naming file and line.

Limits, each refused with one line: a file over MAX_YAML_BYTES (YAML) or
MAX_JSON_BYTES (JSON); YAML nested deeper than MAX_DEPTH or whose aliases
would expand to more than MAX_NODES values (a "billion laughs" file is small
on disk and endless in memory); JSON nested deeper than Python can follow.
A value YAML itself cannot build (a date such as 2026-02-30) is named with its
line, like a syntax error."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from advisor.errors import AdvisorError, excerpt

MAX_YAML_BYTES = 16 << 20
MAX_JSON_BYTES = 256 << 20  # a baseline report of a large fleet
MAX_DEPTH = 64
MAX_NODES = 1_000_000


NOT_REGULAR = "not a regular file (a device, FIFO or socket); not read"


def regular(path: Path, error: type[AdvisorError], shown: str) -> os.stat_result:
    """The file's status, when it is a regular file (followed through links);
    else the error, in one line: a FIFO would block a read, a device never ends."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise error(f"{shown}: cannot read ({exc.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{shown}: {'a folder, not a file' if stat.S_ISDIR(info.st_mode) else NOT_REGULAR}")
    return info


def read_bytes(path: Path, error: type[AdvisorError], shown: str, limit: int) -> bytes:
    """A file the user named, read whole: a regular file, at most `limit`
    bytes, counted as read (a file in /proc says it holds none)."""
    info = regular(path, error, shown)
    try:
        if info.st_size > limit:
            raise error(f"{shown}: {info.st_size:,} bytes, more than the {limit >> 20} MiB advisor reads in such a "
                        f"file; refused")
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"{shown}: cannot read ({exc.strerror})") from None
    if len(data) > limit:
        raise error(f"{shown}: more than the {limit >> 20} MiB advisor reads in such a file; refused")
    return data


def _finite(text: str) -> float:
    """A JSON number Python reads as a float: one too large to hold is refused, not read as infinity."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(text)
    return value


class _NotJsonNumber(ValueError):
    """NaN, Infinity or -Infinity: Python's json reads them, JSON (RFC 8259) has no such number."""


def _no_constant(name: str) -> Any:
    raise _NotJsonNumber(name)


def load_json(path: Path, error: type[AdvisorError], what: str) -> Any:
    data = read_bytes(path, error, str(path), MAX_JSON_BYTES)
    try:
        return json.loads(data.decode("utf-8"), parse_float=_finite, parse_constant=_no_constant)
    except _NotJsonNumber as exc:
        text = data.decode("utf-8")
        at = re.search(rf"(?<![\w\"-]){re.escape(str(exc))}(?![\w\"])", text)
        line = f":{text.count(chr(10), 0, at.start()) + 1}" if at else ""
        raise error(f"{path}{line}: {what} holds {exc}, which is not a number JSON has; refused") from None
    except UnicodeDecodeError:
        raise error(f"{path}: {what} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise error(f"{path}:{exc.lineno}: {what} is not JSON ({exc.msg})") from None
    except ValueError:  # Python's limit on the digits of an integer it converts
        raise error(f"{path}: {what} holds a number too long to read; refused") from None
    except RecursionError:
        raise error(f"{path}: {what} is nested too deeply; refused") from None


def _yaml() -> Any:
    """PyYAML, imported on first use: it is a tenth of advisor's start, and a
    review of captures without a manifest reads no YAML (rule packs are cached)."""
    import yaml

    return yaml


def safe_loader() -> Any:
    """libyaml's loader where PyYAML was built with it: ten times faster than
    the pure-Python one, which stays the fallback. Both construct only plain types."""
    yaml = _yaml()
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class ShapeError(ValueError):
    """YAML too deep, or whose aliases expand too far: refused before it is built."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


class _Open:
    """A collection still open while the events are walked."""

    __slots__ = ("size", "anchor", "keys", "children")

    def __init__(self, anchor: str | None, mapping: bool, size: int = 1):
        self.size, self.anchor, self.children = size, anchor, 0  # size: the values it holds, itself counted
        self.keys: set[tuple[str, str]] | None = set() if mapping else None  # a mapping's keys so far

    def child(self, scalar: Any, line: int) -> None:
        """Counts a child; a mapping's key seen before, as YAML reads it (`a`
        and `"a"` are one key, `1` and `"1"` two), is refused. Keys that are
        collections are not compared."""
        is_key = self.children % 2 == 0
        self.children += 1
        if self.keys is None or not is_key or scalar is None or (scalar.implicit[0] and scalar.value == "<<"):
            return
        key = _key_as_read(scalar)
        if key in self.keys:
            raise ShapeError(f"key {scalar.value!r} is given twice in one mapping", line)
        self.keys.add(key)


_STR = "tag:yaml.org,2002:str"


def _key_as_read(scalar: Any) -> tuple[str, str]:
    """A scalar key as the loader will build it: its tag, and its value in a
    form that is equal where the built values are (`0x1` and `1` are one int)."""
    yaml = _yaml()
    if scalar.implicit[0]:  # plain: the resolver says what it is
        tag = yaml.resolver.Resolver().resolve(yaml.ScalarNode, scalar.value, (True, False))
    elif scalar.implicit[1] or scalar.tag is None:  # quoted
        tag = _STR
    else:
        tag = scalar.tag
    if tag == _STR:
        return tag, scalar.value
    try:
        return tag, repr(yaml.safe_load(yaml.serialize(yaml.ScalarNode(tag, scalar.value))))
    except yaml.YAMLError:
        return tag, scalar.value


def _check_shape(text: str) -> None:
    """Walks the YAML's events (libyaml's parser: no Python object is built)
    counting the values the document would hold once its aliases are expanded,
    and refusing a key given twice in one mapping: YAML keeps the last in
    silence, so a rule's second `requires:` dropped its first."""
    yaml = _yaml()
    sizes: dict[str, int] = {}
    stack = [_Open(None, mapping=False, size=0)]  # the document
    for event in yaml.parse(text, Loader=safe_loader()):
        line = event.start_mark.line + 1 if event.start_mark else 0
        if isinstance(event, yaml.CollectionStartEvent):
            stack[-1].child(None, line)
            stack.append(_Open(event.anchor, isinstance(event, yaml.MappingStartEvent)))
            if len(stack) > MAX_DEPTH + 1:
                raise ShapeError(f"nested more than {MAX_DEPTH} levels deep", line)
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            closed = stack.pop()
            size, anchor = closed.size, closed.anchor
        elif isinstance(event, yaml.ScalarEvent):
            stack[-1].child(event, line)
            size, anchor = 1, event.anchor
        elif isinstance(event, yaml.AliasEvent):
            stack[-1].child(None, line)
            size, anchor = sizes.get(event.anchor or "", 1), None
        else:
            continue
        if anchor:
            sizes[anchor] = size
        stack[-1].size += size
        if stack[-1].size > MAX_NODES or size > MAX_NODES:
            raise ShapeError(f"its aliases expand to more than {MAX_NODES:,} values", line)


def parse_yaml(text: str) -> Any:
    """safe_load, with libyaml's safe loader where PyYAML has it, after
    _check_shape has refused what would be too big or too deep to build."""
    yaml, loader_class = _yaml(), safe_loader()
    try:
        _check_shape(text)
    except yaml.YAMLError as exc:  # libyaml's own depth limit, met first where its scanner reads ahead
        mark = getattr(exc, "problem_mark", None)
        if "nesting depth" not in str(getattr(exc, "problem", "")):
            raise
        raise ShapeError(f"nested more than {MAX_DEPTH} levels deep", mark.line + 1 if mark else 0) from None
    if loader_class is yaml.SafeLoader:
        return yaml.safe_load(text)
    loader = loader_class(text)  # yaml.CSafeLoader: the same safe constructor over libyaml's parser
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def read_text(path: Path, error: type[AdvisorError], shown: str | None = None, limit: int = MAX_YAML_BYTES) -> str:
    shown = shown or str(path)
    try:
        return read_bytes(path, error, shown, limit).decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{shown}: not UTF-8 text") from None


def parse(text: str, error: type[AdvisorError], shown: str) -> Any:
    yaml = _yaml()
    try:
        return parse_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{shown}:{mark.line + 1}" if mark else shown
        raise error(f"{where}: not valid YAML ({excerpt(str(getattr(exc, 'problem', exc)), 120)})") from None
    except ShapeError as exc:
        raise error(f"{shown}:{exc.line}: {exc}; refused") from None
    except (ValueError, OverflowError, AttributeError, TypeError):  # a value YAML cannot build: 2026-02-30,
        # a number of 5,000 digits, !!timestamp on a word
        line, value = bad_value(text)
        raise error(f"{shown}:{line}: {value!r} is not a value YAML can read (no such date, or too long a number)") from None
    except RecursionError:
        raise error(f"{shown}: nested too deeply; refused") from None


def bad_value(text: str) -> tuple[str, str]:
    """(line, value) of the first scalar PyYAML's constructor refuses (its error does not say where)."""
    yaml = _yaml()
    constructor = yaml.SafeLoader("")
    pending = [yaml.compose(text, Loader=safe_loader())]
    while pending:
        node = pending.pop(0)
        if isinstance(node, yaml.ScalarNode):
            try:
                constructor.construct_object(node)
            except (ValueError, OverflowError, AttributeError, TypeError):
                return str(node.start_mark.line + 1), excerpt(node.value, 40)
        elif isinstance(node, yaml.SequenceNode):
            pending.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            pending.extend(n for pair in node.value for n in pair)
    return "?", ""


def load(path: Path, error: type[AdvisorError], shown: str | None = None) -> Any:
    shown = shown or str(path)
    return parse(read_text(path, error, shown), error, shown)


def error_text(err: Any) -> str:
    """A pydantic error's message without the `Value error, ` our validators' messages get."""
    return str(err["msg"]).removeprefix("Value error, ")


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.*-]{0,63}|\d{1,9}")


def located_error(text: str, exc: ValidationError, shown: str) -> str:
    """`file:line: intents.wan_rtt_ms: Input should be ...`: the first error,
    at the line of the key or value it is about. A key that is not a plain
    name (a line of some other file given as this one: a password hash) is
    not repeated: the message says where it is, not what it says."""
    err = exc.errors()[0]
    loc = [str(p) for p in err["loc"]]
    line = line_of(text, err["loc"])
    where = f"{shown}:{line}" if line else shown
    if all(_NAME.fullmatch(p) for p in loc):
        return f"{where}: {'.'.join(loc)}: {error_text(err)}" if loc else f"{where}: {error_text(err)}"
    return f"{where}: a key that is not a setting of this file ({error_text(err)})"


def line_of(text: str, loc: tuple[Any, ...]) -> int | None:
    """The line of the node at a validation error's location, following mapping keys and list indexes."""
    yaml = _yaml()
    try:
        node = yaml.compose(text, Loader=safe_loader())
    except yaml.YAMLError:
        return None
    line = None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if match is None:
                break
            line, node = match[0].start_mark.line + 1, match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            line = node.start_mark.line + 1
        else:
            break
    return line


def first_error(exc: ValidationError, skip: int = 0) -> str:
    """`intents.wan_rtt_ms: Input should be greater than 0` (the location without its first `skip` parts)."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"][skip:])
    return f"{loc}: {error_text(err)}" if loc else error_text(err)
