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
    _required: ClassVar[frozenset[str]] = frozenset()
    _fresh: ClassVar[tuple[str, ...]] = ()  # fields whose default is a list or dict, copied for each record

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
        cls._required = frozenset(name for name, default in defaults.items() if default is _REQUIRED)
        cls._fresh = tuple(name for name, default in defaults.items() if isinstance(default, (list, dict)))

    def __init__(self, **values: Any) -> None:
        # Written into the instance's dict at once, in the fields' order: a
        # review makes about 190 records a host, and setting each field through
        # object.__setattr__ cost about 2 ms of the host's 40 (bench/README.md).
        defaults = self._defaults
        unknown = values.keys() - defaults.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        missing = self._required - values.keys()
        if missing:
            raise TypeError(f"{type(self).__name__} needs {next(n for n in defaults if n in missing)}")
        state = self.__dict__
        state.update(defaults)
        for name in self._fresh:
            if name not in values:
                state[name] = state[name].copy()
        state.update(values)
        for name in self._floats:
            if name in values and type(values[name]) is int:  # a default is kept as written
                state[name] = float(values[name])

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._defaults:  # a misspelt field would otherwise be a silent new attribute
            raise AttributeError(f"{type(self).__name__} has no field {name}")
        object.__setattr__(self, name, value)

    def dump(self, exclude: set[str] | frozenset[str] = frozenset(), only: set[str] | None = None) -> dict[str, Any]:
        """The fields (`only` these, if given) as plain dicts, lists and values (what CEL is given)."""
        state = self.__dict__  # every field is in it (__init__, clone): read without getattr's lookup
        names = self._defaults if not exclude and only is None else \
            [name for name in self._defaults if name not in exclude and (only is None or name in only)]
        return {name: value if type(value := state[name]) in _SCALARS else _plain(value) for name in names}

    @classmethod
    def fields(cls) -> list[str]:
        return list(cls._defaults)

    def clone(self) -> "Record":
        """A copy whose records, lists and dicts are copies too; `evidence` is
        shared, as nothing that works on a copy writes it."""
        new = object.__new__(type(self))
        # filled at once, a plain value as it is (the most of them): half the cost of a plan's model
        new.__dict__.update({name: value if name == "evidence" or type(value) in _SCALARS else cloned(value)
                             for name, value in vars(self).items()})
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


# What _plain returns as it is: a host's dump holds about 700 values, most of
# them these, and a call of _plain for each cost about a third of the dump.
_SCALARS = frozenset({str, int, float, bool, type(None)})


def _plain(value: Any) -> Any:
    if isinstance(value, Record):
        return value.dump()
    if isinstance(value, list):
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else _plain(v) for k, v in value.items()}
    return value


class Fact(Record):
    evidence: dict[str, str] = {}
