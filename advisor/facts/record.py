"""The plain records facts are made of.

Facts are advisor's own working data, built by its code from parsed outputs
and never read from a file, so they are plain records rather than pydantic
models: building pydantic's validators for these 190 fields cost every review
about 7% of its work. A record is made with keywords, fills in its defaults (a
fresh list or dict each time), turns an int given for a float field into a
float (CEL tells 2 from 2.0), and refuses a field it does not have, when made
or set.
"""

from typing import Any, ClassVar

_REQUIRED = object()
_FLOATS = (float, float | None, "float", "float | None", "Optional[float]")  # strings: a module with postponed annotations


class Record:
    _defaults: ClassVar[dict[str, Any]] = {}
    _floats: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        defaults: dict[str, Any] = {}
        floats: set[str] = set()
        for base in reversed(cls.__bases__):  # a host's record is HostFacts with each platform pack's fields mixed in
            defaults.update(getattr(base, "_defaults", {}))
            floats |= getattr(base, "_floats", frozenset())
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if getattr(annotation, "__origin__", None) is ClassVar:
                continue
            defaults[name] = cls.__dict__.get(name, _REQUIRED)
            if annotation in _FLOATS:
                floats.add(name)
        cls._defaults = defaults
        cls._floats = frozenset(floats)

    def __init__(self, **values: Any) -> None:
        unknown = values.keys() - self._defaults.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        for name, default in self._defaults.items():
            if name in values:
                value = values[name]
                if name in self._floats and type(value) is int:
                    value = float(value)
            elif default is _REQUIRED:
                raise TypeError(f"{type(self).__name__} needs {name}")
            else:
                value = default.copy() if isinstance(default, (list, dict)) else default
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._defaults:  # a misspelt field would otherwise be a silent new attribute
            raise AttributeError(f"{type(self).__name__} has no field {name}")
        object.__setattr__(self, name, value)

    def dump(self, exclude: set[str] | frozenset[str] = frozenset(), only: set[str] | None = None) -> dict[str, Any]:
        """The fields (`only` these, if given) as plain dicts, lists and values (what CEL is given)."""
        return {name: _plain(getattr(self, name)) for name in self._defaults
                if name not in exclude and (only is None or name in only)}

    @classmethod
    def fields(cls) -> list[str]:
        return list(cls._defaults)

    def clone(self) -> "Record":
        """A copy whose records, lists and dicts are copies too; `evidence` is
        shared, as nothing that works on a copy writes it."""
        new = object.__new__(type(self))
        for name, value in vars(self).items():
            object.__setattr__(new, name, value if name == "evidence" else cloned(value))
        return new

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and vars(other) == vars(self)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def cloned(value: Any) -> Any:
    if isinstance(value, Record):
        return value.clone()
    if isinstance(value, list):
        return [cloned(v) for v in value]
    if isinstance(value, dict):
        return {k: cloned(v) for k, v in value.items()}
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return value.dump()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


class Fact(Record):
    evidence: dict[str, str] = {}
