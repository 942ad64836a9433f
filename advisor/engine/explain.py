"""A rule as an administrator reads it with no host at hand (`advisor rules
show`, docs/rules.md): each check as the rule says it in words; each remedy
as a command to type (a typed change as its operation renders it), a check to
make first, or a prerequisite in words, with <placeholders> where a host would
give the values. The CEL stays at hand for rule authors, labelled as such."""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor import changes
from advisor import platform_registry as platforms
from advisor.changes import Change
from advisor.engine.model import TEMPLATE, ChangeTemplate, Remedy, Rule
from advisor.facts.models import host_record
from advisor.results.model import Severity, without_comment

# how {s.name} is called, by the rule's subject
SUBJECT_NAMES = {"host": "host", **{name: s.noun for name, s in platforms.subjects().items()}}
KIND_SAID = {"change": "change", "check": "read-only check, never run by a script",
             "prerequisite": "prerequisite, listed first and never run by a script"}


@dataclass(frozen=True)
class Failure:
    """One check: when it fails in words, and the CEL that decides it."""

    severity: Severity
    says: str
    cel: str


@dataclass(frozen=True)
class Step:
    """One remedy: what it is and when it is given (`heading`); then a command
    to type, or what is needed in words; what to check before it."""

    heading: str
    command: str | None = None
    needs: str | None = None
    check_first: str | None = None
    held: str | None = None  # why the rendered command would not run as it stands
    cel: str | None = None  # its `when` and `for_each`


def fails_when(rule: Rule) -> str:
    """The title of a rule's checks."""
    return "Fails when" + (" (the first that holds decides)" if len(rule.checks) > 1 else "")


def failures(rule: Rule) -> list[Failure]:
    return [Failure(c.severity or rule.severity, c.says.strip(),
                    c.when + (f", only if {c.applies}" if c.applies else "")) for c in rule.checks]


def steps(rule: Rule) -> list[Step]:
    return [_step(rule, r) for r in rule.remediation]


def placed(template: str, rule: Rule) -> str:
    """The template with each value named as a placeholder (`<domain>`); a
    parameter as its default value."""
    return TEMPLATE.sub(lambda m: _name(m.group(0)[1:-1], rule), template).strip()


def _name(ref: str, rule: Rule) -> str:
    head, _, tail = ref.partition(".")
    if head == "p" and tail in rule.params:
        return str(rule.params[tail])
    if ref in rule.placeholders:
        return f"<{rule.placeholders[ref]}>"
    if ref == "s.name":
        return f"<{SUBJECT_NAMES[rule.subject]}>"
    return f"<{(tail or head).replace('_', ' ')}>"


def _step(rule: Rule, r: Remedy) -> Step:
    cel = "; ".join(part for part in (f"when {r.when}" if r.when else "",
                                      f"for each of {r.for_each}" if r.for_each else "") if part) or None
    check_first = placed(r.check_first, rule) if r.check_first else None
    if r.needs is not None:
        code, comment = _split(placed(r.needs, rule))
        return Step(_heading(rule, r), needs=f"{code} ({comment})" if comment else code, check_first=check_first,
                    cel=cel)
    if r.change is None:
        return Step(_heading(rule, r), command=placed(r.command or "", rule), check_first=check_first, cel=cel)
    command, held = _rendered(r.change, r, rule)
    return Step(_heading(rule, r), command=command, check_first=check_first, held=held, cel=cel)


def _split(text: str) -> tuple[str, str]:
    """Words and their trailing `# comment`."""
    code = without_comment(text)
    return code, text[len(code):].strip().lstrip("#").strip()


def _rendered(t: ChangeTemplate, r: Remedy, rule: Rule) -> tuple[str, str | None]:
    """A change as its operation renders it, and why it would be held. Each
    value goes in as a plain word, so that the command is quoted as it would be
    for a real value, and comes out as its placeholder."""
    names: dict[str, str] = {}

    def word(template: str) -> str:
        def stand_in(m: re.Match[str]) -> str:
            key = f"zq{len(names)}qz"
            names[key] = _name(m.group(0)[1:-1], rule)
            return key
        return TEMPLATE.sub(stand_in, template).strip()

    change = Change(op=t.op, target=word(t.target), value=word(t.value), prop=word(t.prop) if t.prop else None,
                    domain=word(t.domain) if t.domain else None)
    command, held = changes.command_line(change, host_record()(host="<host>", **r.shown_for),
                                         placed(r.note, rule) if r.note else None)
    for key, name in names.items():
        command = command.replace(key, name)
    return command, held


def _heading(rule: Rule, r: Remedy) -> str:
    parts = [KIND_SAID[r.kind] + (f", {r.says_when.strip()}" if r.says_when else "")]
    if r.kind == "change":
        parts.append(_timing(r))
    op = changes.get(r.change.op) if r.change else None
    if op is not None and op.sizes and r.change is not None:
        parts.append(f"sets the {op.sizes_said or op.sizes} of {placed(r.change.target, rule)}: one target, "
                     f"merged with other rules'")
    return "; ".join(parts)


def _timing(r: Remedy) -> str:
    """When a change takes effect: as its operation declares it, or as the rule says of a command."""
    op = changes.get(r.change.op) if r.change else None
    if op is not None and op.restarts not in (changes.always, changes.never):
        return "takes effect " + " ".join((op.restarts.__doc__ or "").split()).rstrip(".")
    later = op.restarts is changes.always if op is not None else r.takes_effect == "restart"
    return "takes effect at the restart of the domain or host it changes" if later else "takes effect at once"


@dataclass(frozen=True)
class LoadSaid:
    """What two samples of the counters do to a rule's findings (its `load`), in words."""

    intro: str
    unit: str
    measure: str  # CEL
    moves: list[str]


def load_said(rule: Rule) -> LoadSaid | None:
    load = rule.load
    if load is None:
        return None
    intro = ("With two samples of the counters (rates), its findings name what the host carries and weigh it "
             f"against the study's figure, {load.figure:g} {load.unit} ({load.says}; section {load.section})")
    moves = []
    if load.rises is not None and load.rises.above is not None:
        to = load.rises.to.value if load.rises.to else "one step higher"
        moves.append(f"at or above {load.rises.above:g} x the figure ({load.rises.above * load.figure:g} {load.unit}): "
                     f"severity rises to {to}")
    if load.falls is not None and load.falls.below is not None and load.falls.to is not None:
        moves.append(f"below {load.falls.below:g} x the figure ({load.falls.below * load.figure:g} {load.unit}): "
                     f"severity falls to {load.falls.to.value}")
    moves.append("without a second sample, or without a measure for the subject: judged as above")
    return LoadSaid(intro, load.unit, " ".join(load.measure.split()), moves)
