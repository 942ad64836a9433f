"""Compiling CEL expressions once and running them with advisor's functions."""

from __future__ import annotations

from typing import Any

import cel

from advisor.errors import RulePackError
from advisor.versions import version_ge


FUNCTIONS = {"version_ge": version_ge}


class Scope:
    """The variables of one evaluation, kept twice: as Python values for
    templates, and converted once into a CEL context. Converting the host's
    facts is the costly part, so it happens once per host, not per expression."""

    def __init__(self, **variables: Any):
        self.ns: dict[str, Any] = dict(variables)
        self.ctx = cel.Context(variables=variables, functions=FUNCTIONS)

    def set(self, name: str, value: Any) -> None:
        self.ns[name] = value
        self.ctx.add_variable(name, value)


class Expr:
    """A compiled CEL expression that remembers where it came from."""

    def __init__(self, source: str, where: str):
        self.source = source
        try:
            self.program = cel.compile(source)
        except ValueError as exc:
            first = str(exc).splitlines()[0]
            raise RulePackError(f"{where}: CEL does not compile: {first}") from None

    def run(self, scope: Scope) -> Any:
        return self.program.execute(scope.ctx)

    def test(self, scope: Scope) -> bool:
        """A condition: true or false, or TypeError when a fact it needs is unknown."""
        value = self.program.execute(scope.ctx)
        if not isinstance(value, bool):
            raise TypeError(f"condition gave {value!r}, not true or false")
        return value
