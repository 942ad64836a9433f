"""Which parser reads which output: each platform pack names the parser of
each of its outputs (advisor.platforms). A parser's module is imported the
first time an output it reads is met: a review of a Solaris bundle never
loads the HP-UX or Xen parsers."""

from __future__ import annotations

from functools import cache
from typing import Any, Callable

from advisor import platform_registry as platforms
from advisor.collect.capture import RawOutput

Parser = Callable[[RawOutput], Any]


def _parser(known: platforms.Known) -> Parser:
    ref = known.output.parser
    assert ref is not None
    loaded: list[Callable[[Any], Any]] = []

    def parse(output: RawOutput) -> Any:
        if not loaded:
            loaded.append(platforms.load(known.pack, ref, "parsers"))
        return loaded[0](output if known.output.given == "output" else output.text())

    parse.__qualname__ = f"{known.pack.name}.{ref.replace(':', '.')}"
    return parse


@cache
def parsers() -> dict[str, Parser]:
    """command id (`ethtool-k`, `driver-{name}`) -> its parser, for every output one reads."""
    return {cid: _parser(k) for cid, k in platforms.outputs().items() if k.output.parser is not None}


def parser_for(command_id: str) -> Parser | None:
    """`ethtool-k@eth0` is read by the ethtool-k parser, `driver-ixgbe` by driver-{name}'s."""
    found = platforms.known(command_id)
    return None if found is None else parsers().get(found[0].output.id)
