"""From a capture's raw outputs to HostFacts.

Each output is parsed on its own; one that cannot be read becomes an error
line naming the file and line, and facts are built from the others. Which
family the host is comes first; then each platform pack of that family adds
its facts, in the order the packs are declared (advisor.platforms).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from advisor import platform_registry as platforms
from advisor.collect.capture import Capture
from advisor.errors import ParseError, brief
from advisor.facts.models import Filtered, HostFacts, as_family
from advisor.parsers import parser_for

Builder = Callable[[HostFacts, dict[str, Any], dict[str, str]], Any]


@dataclass
class Built:
    facts: HostFacts
    errors: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)


def parse_outputs(capture: Capture) -> tuple[dict[str, Any], list[str], list[str]]:
    """Parsed outputs, errors, and the files no rule reads yet (not errors)."""
    parsed: dict[str, Any] = {}
    errors: list[str] = []
    unused: list[str] = []
    for command_id, output in capture.outputs.items():
        parser = parser_for(command_id)
        if parser is None:
            unused.append(output.file)
            continue
        try:
            parsed[command_id] = parser(output)
        except ParseError as exc:
            errors.append(exc.located(output.file).location_message())
        except UnicodeError as exc:
            errors.append(f"{output.file}: not text ({getattr(exc, 'reason', exc)})")
        except Exception as exc:  # noqa: BLE001 - a parser's surprise costs its file, not the host
            errors.append(f"{output.file}: not understood ({brief(exc)})")
    return parsed, errors, unused


def build(capture: Capture) -> Built:
    parsed, errors, unused = parse_outputs(capture)
    facts = HostFacts(host=capture.host, inputs=sorted(parsed))
    facts.filtered = {cid: Filtered(command=out.filtered, grep=out.grep)
                      for cid, out in capture.outputs.items() if out.filtered and cid in parsed}
    files = {cid: out.file for cid, out in capture.outputs.items()}
    plans = {cid for cid in parsed if (k := platforms.known(cid)) is not None and k[0].output.plan}
    for p in platforms.packs() if plans else ():  # a pack's plan reader is loaded only for a plan
        if p.plans is None:
            continue
        planned = as_family(facts, f.name if (f := platforms.family_of(p)) is not None else None)
        if _builder(p, p.plans)(planned, parsed, files):  # given the facts its family's hosts have
            unused += [files[cid] for cid in parsed if cid not in plans]
            return Built(planned, errors, unused)
    unused += [files[cid] for cid in sorted(plans)]  # a built system's listing says more than its constraints
    identify(facts, parsed, files)
    facts = as_family(facts)
    for p in platforms.packs_of(facts.platform):
        if p.facts is not None and not p.common:  # what every host says was read by identify
            _builder(p, p.facts)(facts, parsed, files)
    return Built(facts, errors, unused)


def _builder(p: platforms.Pack, ref: str) -> Builder:
    builder: Builder = platforms.load(p, ref)
    return builder


def identify(facts: HostFacts, parsed: dict[str, Any], files: dict[str, str]) -> None:
    """The host's family: from what every host says of itself (the packs of no family),
    then from an output that proves it, else from the outputs only one family prints."""
    for p in platforms.packs():
        if p.common and p.facts is not None:
            _builder(p, p.facts)(facts, parsed, files)
    for cid in parsed:
        if (k := platforms.known(cid)) is not None and k[0].output.proves_family and (f := platforms.family_of(k[0].pack)):
            facts.platform = f.name
    if facts.platform == "unknown":
        seen = {f.name for cid in parsed if (k := platforms.known(cid)) is not None and not k[0].output.plan
                and (f := platforms.family_of(k[0].pack)) is not None}
        facts.platform = next((name for name in platforms.families() if name in seen), "unknown")
