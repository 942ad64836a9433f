"""Evaluating compiled rules against one host's facts.

For each rule and subject the outcome is pass, fail, not_applicable, or
unknown (a fact it needs is missing: the result names the command output that
would provide it). Unknown is never counted as pass.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache
from typing import Any, Callable

from advisor import platform_registry as platforms
from advisor.changes import Change
from advisor.engine.cel_env import MACROS, Expr, Scope, blanked, element_fields, remember_checked
from advisor.engine.cel_env import fields_read as _fields
from advisor.engine.inputs import command_family, input_for
from advisor.engine.model import TEMPLATE, Check, Remedy, Rule
from advisor.engine.policy import Policy
from advisor.errors import InputError, RulePackError, excerpt
from advisor.facts.models import HostFacts, domain_name, host_record, record_of
from advisor.results.model import (OTHER_PLATFORM, RUNTIME_REASON, Finding, FixStep, MeasuredLoad, Result,
                                   Severity, change_fields)
from advisor.shell import shell_word

Namer = Callable[[Any], str]



def _subjects() -> dict[str, tuple[str | None, Namer]]:
    """What a rule judges one by one: the host's fact listing them, and how a finding names one;
    the host itself, and what each platform pack declares."""
    table: dict[str, tuple[str | None, Namer]] = {"host": (None, lambda f: f"host {f.nodename or f.host}")}
    table.update({name: (s.field, s.label) for name, s in platforms.subjects().items()})
    return table


SUBJECTS = _subjects()

_NULL_TESTS = re.compile(r"\b(?:s|host|intent)\.[a-z0-9_.]+\s*[!=]=\s*null\b")
_REF = re.compile(r"\b(s|host|intent)\.([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)")


@dataclass
class CompiledCheck:
    check: Check
    when: Expr
    applies: Expr | None


class CompiledRule:
    def __init__(self, rule: Rule):
        where = f"{rule.file}: {rule.id}"
        self.rule = rule
        self.applies = Expr(rule.applies, f"{where}: applies")
        self.host_applies = Expr(rule.host_applies, f"{where}: host_applies")
        self.lets = {k: Expr(v, f"{where}: let.{k}") for k, v in rule.let.items()}
        self.checks = [
            CompiledCheck(c, Expr(c.when, f"{where}: checks[{i}].when"),
                          Expr(c.applies, f"{where}: checks[{i}].applies") if c.applies else None)
            for i, c in enumerate(rule.checks)
        ]
        self.remedies = [
            (r, Expr(r.when, f"{where}: remediation when") if r.when else None,
             Expr(r.for_each, f"{where}: remediation for_each") if r.for_each else None)
            for r in rule.remediation
        ]
        self.restarts = [Expr(r.also_restarts, f"{where}: remediation also_restarts") if r.also_restarts else None
                         for r in rule.remediation]
        sources = [rule.requires, rule.applies, rule.host_applies, *rule.let.values(),
                   *[t for c in rule.checks for t in (c.when, c.applies or "", *c.requires)]]
        self.inputs = {input_for(Engine._qualified(rule, f"{a}.{b}")) for a, b in _REF.findall(" ".join(
            s if isinstance(s, str) else " ".join(s) for s in sources)) if a != "intent"}
        self.impacts = [(c.value.value, Expr(c.when, f"{where}: impact when")) for c in rule.impact]
        self.load = (Expr(rule.load.measure, f"{where}: load.measure"), Expr(rule.load.shows, f"{where}: load.shows")) \
            if rule.load else None
        self.expressions = [e for e in (self.applies, self.host_applies, *self.lets.values(),
                                        *[x for c in self.checks for x in (c.when, c.applies)],
                                        *[x for _, w, f in self.remedies for x in (w, f)], *self.restarts,
                                        *[e for _, e in self.impacts], *(self.load or ())) if e is not None]
        # None: all of it; a path a rule requires is read as well, by the engine
        read = [e.source for e in self.expressions] + [*rule.requires, *[p for c in rule.checks for p in c.requires]]
        self.host_reads = _fields("host", read)
        # the fields of its subject read (`s.cores`); None: all of them (`size(s)`). A result on a
        # subject is made of these and the host fields it reads: `s` is the subject's record dumped
        self.subject_reads = _fields("s", read)
        if rule.subject == "host":  # its subject, s, is the host
            self.host_reads = _union([self.host_reads, self.subject_reads])
        _check_reads(rule, where, read)
        texts = [rule.message, rule.observed, rule.expected, *[t for r in rule.remediation for t in r.templates],
                 *[t for c in rule.checks for t in (c.message, c.observed, c.expected) if t]]
        for template in texts:
            _check_template(template, rule, where)


_READ = re.compile(r"(?<![\w.])(s|host|p|v)\s*\.\s*([a-z_][a-z0-9_]*)")
_BOUND = re.compile(rf"\.\s*(?:{MACROS})\s*\(\s*([a-z_][a-z0-9_]*)\s*,")


def _check_reads(rule: Rule, where: str, sources: list[str]) -> None:
    """A rule that reads a fact no record defines (`s.mtu_maxx`), a parameter
    or a `let` it does not have, is refused as its pack loads: it would
    otherwise judge every host `unknown` and blame a missing output."""
    attr = SUBJECTS[rule.subject][0]
    host: set[str] = set().union(*(host_record(family).fields() for family in rule.platforms))  # its families' alone
    subject = None if attr is None else record_of(attr)
    known = {"host": ("the host's facts", host),
             "s": (f"a {rule.subject}'s facts", host if attr is None else set(subject.fields()) if subject else None),
             "p": ("its params", set(rule.params)), "v": ("its let", set(rule.let))}
    for source in sources:
        bound, read = _names(source)
        for ns, name in read:
            what, names = known[ns]
            if ns in bound or names is None or name in names:
                continue
            near = difflib.get_close_matches(name, sorted(names), n=1)
            raise RulePackError(f"{where}: reads {ns}.{name}, which {what} do not define"
                                + (f" (the nearest: {ns}.{near[0]})" if near else ""))


@cache  # a text is read once, however many rules and expressions hold it
def _names(source: str) -> tuple[frozenset[str], list[tuple[str, str]]]:
    """The names a macro binds in the text (`pcpus.all(p, p.x)`: that p is each element, not
    the params), and each variable's field read, in order: (ns, name)."""
    text = blanked(source)
    return frozenset(_BOUND.findall(text)), _READ.findall(text)


def _check_template(template: str, rule: Rule, where: str) -> None:
    for ns, name in TEMPLATE.findall(template):
        if ns == "v" and name not in rule.let:
            raise RulePackError(f"{where}: template uses {{v.{name}}} but let: has no {name}")
        if ns == "p" and name not in rule.params:
            raise RulePackError(f"{where}: template uses {{p.{name}}} but params: has no {name}")


def _union(fields: list[set[str] | None]) -> set[str] | None:
    return None if any(f is None for f in fields) else set().union(*fields)  # type: ignore[arg-type]


def _cut(data: Any, fields: set[str] | None) -> Any:
    return {k: v for k, v in data.items() if k in fields} if fields is not None and isinstance(data, dict) else data


def _lookup(ns: dict[str, Any], path: str) -> Any:
    """`s.net_dev` or `host.driver_conf.nxge` in the CEL inputs; None when absent."""
    head, _, field = path.partition(".")
    value = ns.get(head)
    for part in field.split(".") if field else []:
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def _show(value: Any) -> str:
    if value is None:
        return "unknown"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):
        return ", ".join(_show(v) for v in value) if value else "none"
    return str(value)


def _word(text: str | None) -> str | None:
    return shell_word(text) if text else text


def render(template: str, ns: dict[str, Any], word: Callable[[str], str] = str) -> str:
    """The template with its {s.x} values shown; `word` may change each value as shown."""
    texts, paths = _parts(template)
    if not paths:
        return texts[0]
    shown = [texts[0]]
    for path, text in zip(paths, texts[1:]):
        shown += (word(_show(_lookup(ns, path))), text)
    return "".join(shown).strip()


@cache  # a rule's text is rendered for each subject that fails it: read once
def _parts(template: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The template's text between its values, and each value's path (`s.name`):
    one text more than paths; a template without values is its text, stripped."""
    texts: list[str] = []
    paths: list[str] = []
    at = 0
    for m in TEMPLATE.finditer(template):
        texts.append(template[at:m.start()])
        paths.append(m.group(1) if m.group(2) is None else f"{m.group(1)}.{m.group(2)}")
        at = m.end()
    texts.append(template[at:])
    return (tuple(texts), tuple(paths)) if paths else ((template.strip(),), ())


def render_command(template: str, ns: dict[str, Any]) -> str:
    """A command line: each value from the facts stands as one shell word."""
    return render(template, ns, shell_word)


class Engine:
    def __init__(self, rules: list[Rule], policy: Policy | None = None):
        self.policy = policy or Policy()
        self.rules = [CompiledRule(r) for r in rules if r.id not in self.policy.disabled]
        self.intents = self.policy.intents.model_dump()
        self.host_fields = _union([c.host_reads for c in self.rules])  # what CEL is given of a host
        # and of each record in a list of them: the fields the rules read of it (none cut when a rule
        # reads the host whole: it could reach a record through a name element_fields does not follow)
        sources = list(dict.fromkeys(e.source for c in self.rules for e in c.expressions))  # each text once
        self.element_fields = {name: fields for name in self.host_fields or ()
                               if (fields := element_fields(f"host.{name}", sources)) is not None}
        # rule id -> the program whose run-time output it reads (`kstat -p: ...` -> kstat)
        self.runtime_rules = {r.rule.id: r.rule.runtime.partition(":")[0].split()[0]
                              for r in self.rules if r.rule.runtime and r.rule.runtime.split()}
        # the outcomes of the texts that read p, s and v alone on the last host judged whole (Scope.alone),
        # for again() on that host's plans: most of what it judges again is the same subject
        self._alone: tuple[HostFacts, dict[Any, Any]] | None = None
        remember_checked()

    def params(self, rule: Rule) -> dict[str, Any]:
        return {**rule.params, **self.policy.params.get(rule.id, {})}

    def again(self, captured: HostFacts, facts: HostFacts, results: list[Result]) -> list[Result]:
        """The results on `facts` (a plan's model of the captured host), judging
        again only what its changes may move: a rule that reads a changed host
        fact, on every subject; a rule on subjects that changed (a domain whose
        cores the plan sets), on those subjects alone, and only where a field
        it reads changed (a rule on a domain's memory is not judged again on a
        domain whose cores alone changed). Every other result is kept from the
        captured host's `results`."""
        changed = {name for name in facts.fields() if getattr(facts, name) != getattr(captured, name)}
        whole: set[str] = set()
        some: dict[str, set[str]] = {}
        for compiled in self.rules:
            rule = compiled.rule
            attr, namer = SUBJECTS[rule.subject]
            if compiled.host_reads is None or compiled.host_reads & changed:
                whole.add(rule.id)
            elif attr in changed:
                moved = _moved(getattr(captured, attr), getattr(facts, attr), namer, compiled.subject_reads)
                if moved is None:
                    whole.add(rule.id)
                elif moved:  # none of the fields it reads moved: all its results are kept
                    some[rule.id] = moved
        alone = self._alone[1] if self._alone is not None and self._alone[0] is captured else None
        fresh, _none = self.evaluate(facts, findings=False, only=whole | some.keys(), subjects=some, alone=alone)
        kept = [r for r in results if r.rule not in whole and (r.rule not in some or r.subject not in some[r.rule])]
        return kept + fresh

    def evaluate(self, facts: HostFacts, findings: bool = True, only: set[str] | None = None,
                 subjects: dict[str, set[str]] | None = None,
                 alone: dict[Any, Any] | None = None) -> tuple[list[Result], list[Finding]]:
        """The rules' results on the facts (`only` these rules, if given, and of
        a rule in `subjects`, those subjects alone), and the findings of those
        that fail (left out with `findings=False`: a judgment of a plan needs
        only the results). `alone`: outcomes known already (Scope.alone)."""
        rules = self.rules if only is None else [c for c in self.rules if c.rule.id in only]
        reads = self.host_fields if only is None else _union([c.host_reads for c in rules])
        if only is None or reads is None:
            host = facts.dump()
            if only is None:  # a plan's model holds the captured values or the plan's own
                _within_cel(host, "host")
        else:  # a plan's judgment of a few rules: their facts alone, and their subjects
            host = facts.dump(only=reads | {a for c in rules if (a := SUBJECTS[c.rule.subject][0])})
        scope = Scope(cel={"host": self._for_cel(host, reads)}, alone=alone, host=host, intent=self.intents, p={}, s=None,
                      v={}, item=None)
        if only is None:
            self._alone = facts, scope.alone
        results: list[Result] = []
        found: list[Finding] = []
        for compiled in rules:
            start = len(results)
            self._evaluate_rule(compiled, facts, scope, results, found if findings else None,
                                (subjects or {}).get(compiled.rule.id))
            if facts.filtered:
                results[start:] = [_partial(compiled, facts, r) for r in results[start:]]
        return results, found

    def _for_cel(self, host: dict[str, Any], fields: set[str] | None) -> dict[str, Any]:
        """The host's facts as CEL is given them: the fields the rules read, and
        of the records in a list (`host.ldcs`), the fields the rules read of
        them. The CEL core converts each key of the host once a host (a few
        microseconds a key), and copies a list whole each time an expression
        reads it (`host.ldcs.exists(...)`); the fields no rule reads (`evidence`,
        `counters`) were three quarters of the untuned T5's context (11.7 kB
        as JSON, 3.0 kB cut). Templates and subjects (`s`) have every field
        still, from the dump."""
        out = {}
        for name, value in _cut(host, fields).items():
            keep = self.element_fields.get(name)
            if keep is not None and isinstance(value, list) and all(isinstance(v, dict) for v in value):
                value = [{k: v[k] for k in v if k in keep} for v in value]  # in the dump's order
            out[name] = value
        return out

    def _evaluate_rule(self, compiled: CompiledRule, facts: HostFacts, scope: Scope, results: list[Result],
                       findings: list[Finding] | None, subjects: set[str] | None = None) -> None:
        """Appends the rule's results (on `subjects` alone, if given), and its
        findings unless `findings` is None."""
        host = scope.ns["host"]
        rule = compiled.rule
        host_name = f"host {facts.nodename or facts.host}"
        if facts.platform == "unknown":
            results.append(Result(rule=rule.id, subject=host_name, status="unknown",
                                  missing=["uname -a or /etc/release (platform not identified)"]))
            return
        if facts.platform not in rule.platforms:
            results.append(Result(rule=rule.id, subject=host_name, status="not_applicable",
                                  reason=f"{OTHER_PLATFORM} {', '.join(rule.platforms)}"))
            return
        if facts.kind == "plan" and rule.runtime:
            results.append(Result(rule=rule.id, subject=host_name, status="not_applicable",
                                  reason=f"{RUNTIME_REASON} ({rule.runtime}), which a plan does not have"))
            return
        scope.set("p", self.params(rule))
        if not _holds(compiled.host_applies, scope):
            results.append(Result(rule=rule.id, subject=host_name, status="not_applicable",
                                  reason=f"not for this host ({rule.host_applies})"))
            return
        attr, namer = SUBJECTS[rule.subject]
        if attr is None:
            pairs = [(facts, host)]
        else:
            items = getattr(facts, attr)
            if items is None:
                results.append(Result(rule=rule.id, subject=host_name, status="unknown",
                                      missing=[input_for(f"host.{attr}", facts.kind)]))
                return
            if not items:
                results.append(Result(rule=rule.id, subject=host_name, status="not_applicable",
                                      reason=f"no {rule.subject} on this host"))
                return
            pairs = list(zip(items, host[attr]))
        for item, data in pairs:
            if subjects is not None and namer(item) not in subjects:
                continue
            scope.set("s", data)
            scope.set("v", {})
            result, finding = self._evaluate_subject(compiled, namer(item), scope, item, facts, findings is not None)
            results.append(result)
            if finding is not None and findings is not None:
                findings.append(finding)

    def _evaluate_subject(self, compiled: CompiledRule, subject: str, scope: Scope, item: Any,
                          facts: HostFacts, with_finding: bool = True) -> tuple[Result, Finding | None]:
        rule = compiled.rule
        ns = scope.ns

        def unknown(paths: list[str], reason: str | None = None) -> tuple[Result, None]:
            missing = sorted({input_for(self._qualified(rule, p), facts.kind) for p in paths}) or None
            return Result(rule=rule.id, subject=subject, status="unknown", missing=missing, reason=reason), None

        try:
            if not compiled.applies.test(scope):
                return Result(rule=rule.id, subject=subject, status="not_applicable"), None
        except (TypeError, KeyError, RuntimeError) as exc:
            return unknown(self._null_refs(rule.applies, ns), _brief(exc))
        missing = [p for p in rule.requires if _lookup(ns, p) is None]
        if missing:
            return unknown(missing)
        try:
            values: dict[str, Any] = {}
            for name, expr in compiled.lets.items():
                values[name] = expr.run(scope)
                scope.set("v", values)
        except (TypeError, KeyError, RuntimeError) as exc:
            return unknown(self._null_refs(" ".join(rule.let.values()), ns), _brief(exc))
        undecided: list[str] = []
        for cc in compiled.checks:
            try:
                absent = [p for p in cc.check.requires if _lookup(ns, p) is None]
                if absent:
                    undecided.extend(absent)
                    continue
                if cc.applies is not None and not cc.applies.test(scope):
                    continue
                if cc.when.test(scope):
                    severity, load = weigh(compiled, cc.check.severity or rule.severity, scope, facts)
                    if not with_finding:
                        return Result(rule=rule.id, subject=subject, status="fail", severity=severity), None
                    return self._fail(compiled, cc.check, subject, scope, item, facts, severity, load)
            except (TypeError, KeyError, RuntimeError):
                undecided.extend(self._null_refs(cc.check.when, ns) or [cc.check.when])
        if undecided:
            return unknown(undecided)
        return Result(rule=rule.id, subject=subject, status="pass", severity=rule.severity), None

    @staticmethod
    def _qualified(rule: Rule, path: str) -> str:
        return f"{rule.subject}.{path[2:]}" if path.startswith("s.") else path

    @staticmethod
    def _null_refs(source: str, ns: dict[str, Any]) -> list[str]:
        return [f"{a}.{b}" for a, b in _REF.findall(source) if _lookup(ns, f"{a}.{b}") is None]

    def _fail(self, compiled: CompiledRule, check: Check, subject: str, scope: Scope, item: Any,
              facts: HostFacts, severity: Severity, load: MeasuredLoad | None) -> tuple[Result, Finding]:
        rule = compiled.rule
        ns = scope.ns
        message = render(check.message or rule.message, ns)
        if load is not None:
            message = f"{message.rstrip('.')}. {load.carries}"
        domain = (item.name if rule.subject == "domain" else getattr(item, "domain", None)) or domain_name(facts)
        steps = self._steps(compiled, scope, domain, facts)
        needs = [] if any(s.kind == "change" for s in steps) else self._plan_needs(compiled, scope, facts)
        undo = [s.undo for s in steps if s.undo]
        impact = next((value for value, when in compiled.impacts if _holds(when, scope)), compiled.impacts[-1][0])
        finding = Finding(
            rule=rule.id, title=rule.title, severity=severity, subject=subject, domain=domain,
            message=message,
            observed=render(check.observed or rule.observed, ns),
            expected=render(check.expected or rule.expected, ns),
            evidence=self._evidence(rule, check, item, facts),
            remediation=[s.as_text() for s in steps], steps=steps, undo=undo, impact=impact, effect=rule.effect.strip(),
            source=rule.source.citation, source_url=rule.source.url, confidence=rule.confidence, plan_needs=needs,
            load=load,
        )
        return Result(rule=rule.id, subject=subject, status="fail", severity=severity), finding

    @staticmethod
    def _plan_needs(compiled: CompiledRule, scope: Scope, facts: HostFacts) -> list[str]:
        """The outputs that would let a change be planned, where none was: the
        facts a change's condition reads that this capture does not show (a
        test for `== null` reads an absence, and asks for nothing)."""
        needs: list[str] = []
        for remedy, when, _each in compiled.remedies:
            if remedy.change is None or when is None:
                continue
            for path in Engine._null_refs(_NULL_TESTS.sub("", remedy.when or ""), scope.ns):
                needs.append(input_for(Engine._qualified(compiled.rule, path), facts.kind))
        return list(dict.fromkeys(needs))

    @staticmethod
    def _steps(compiled: CompiledRule, scope: Scope, domain: str | None, facts: HostFacts) -> list[FixStep]:
        steps: list[FixStep] = []
        for (remedy, when, for_each), also in zip(compiled.remedies, compiled.restarts):
            if when is not None and not _holds(when, scope):
                continue
            for each in _items(for_each, scope):
                scope.ns["item"] = each
                steps.append(_step(remedy, also, scope, domain, facts))
        return steps

    @staticmethod
    def _evidence(rule: Rule, check: Check, item: Any, facts: HostFacts) -> list[str]:
        out: list[str] = []
        for of_host, path, field in _evidence_refs(" ".join([check.when, *rule.requires, *check.requires,
                                                              check.observed or rule.observed])):
            evidence = getattr(facts if of_host else item, "evidence", {})
            ev = evidence.get(path) or evidence.get(field)
            for part in (ev or "").split(", "):
                if part and part not in out:
                    out.append(part)
        return out


@cache  # the texts of a rule's check: the same for each subject that fails it
def _evidence_refs(text: str) -> tuple[tuple[bool, str, str], ...]:
    """The facts a check's texts read whose evidence a finding shows: whether
    the host's (else its subject's), the path read, and its first field."""
    return tuple((ns == "host", path, path.split(".")[0]) for ns, path in _REF.findall(text) if ns != "intent")


def _step(remedy: Remedy, also: Expr | None, scope: Scope, domain: str | None, facts: HostFacts) -> FixStep:
    """A remedy as a step for this subject (and item): its change's command, undo and
    effects from the change's operation, a command's from the rule's templates."""
    ns = scope.ns
    step: dict[str, Any] = {"kind": remedy.kind, "domain": _word(render(remedy.domain, ns) if remedy.domain else domain),
                            "check_first": render(remedy.check_first, ns) if remedy.check_first else None,
                            "also_restarts": [shell_word(str(d)) for d in _items(also, scope)] if also is not None else []}
    t = remedy.change
    if t is None:
        return FixStep(command=render_command(remedy.command or remedy.needs or "", ns), runs_in=remedy.runs_in,
                       takes_effect=remedy.takes_effect,
                       interrupts=render(remedy.interrupts, ns) if remedy.interrupts else None,
                       undo=render_command(remedy.undo, ns) if remedy.undo else None, **step)
    change = Change(op=t.op, target=render(t.target, ns), value=render(t.value, ns),
                    prop=render(t.prop, ns) if t.prop else None, domain=render(t.domain, ns) if t.domain else None)
    return FixStep(**step, **change_fields(change, facts, render(remedy.note, ns) if remedy.note else None))


_STEPS = tuple(Severity)  # critical first


def weigh(compiled: CompiledRule, severity: Severity, scope: Scope,
          facts: HostFacts) -> tuple[Severity, MeasuredLoad | None]:
    """A failing check's severity as the rule's `load` moves it, and what the
    host carries; the severity as it is, and None, without a second sample or
    a measure (null, or not computable from the rates there are)."""
    load = compiled.rule.load
    if load is None or compiled.load is None or facts.rates is None:
        return severity, None
    measure, shows = compiled.load
    try:
        value = measure.run(scope)
        names = shows.run(scope)
    except (TypeError, KeyError, RuntimeError, ValueError):
        return severity, None
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        return severity, None
    share = float(value) / load.figure
    moved = severity
    if load.rises is not None and load.rises.above is not None and share >= load.rises.above:
        up = load.rises.to or _STEPS[max(0, _STEPS.index(severity) - 1)]
        moved = up if up.rank > severity.rank else severity
    elif load.falls is not None and load.falls.below is not None and load.falls.to is not None \
            and share < load.falls.below:
        moved = load.falls.to if load.falls.to.rank < severity.rank else severity
    said = [s for s in (_traffic(facts.rates, [str(n) for n in names or []]),
                        _busy(facts) if load.cpu else "") if s]
    interval = facts.rates.interval_s
    over = f"Measured over {interval:.0f} s: " if interval else "Measured: "
    carries = (over + ("; ".join(said) + "; " if said else "")
               + f"{_figure(float(value))} {load.unit}, {_share(share)} of the study's {_figure(load.figure)} {load.unit} "
               + f"({load.says}, section {load.section}).")
    if moved != severity:
        carries += f" Severity {'raised' if moved.rank > severity.rank else 'lowered'} from {severity.value} " \
                   f"to {moved.value} by the measured load."
    return moved, MeasuredLoad(measured=float(value), unit=load.unit, figure=load.figure, share=share,
                               study=f"{load.says} (section {load.section})", carries=carries,
                               moved_from=severity if moved != severity else None)


def _share(share: float) -> str:
    return "under 1%" if 0 < share < 0.005 else f"{share:.0%}"


def _figure(value: float) -> str:
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def bits(bps: float) -> str:
    """6.2 Gb/s, 56 Mb/s, 900 kb/s."""
    for scale, unit in ((1e9, "Gb/s"), (1e6, "Mb/s"), (1e3, "kb/s")):
        if bps >= scale:
            return f"{bps / scale:.3g} {unit}"
    return f"{bps:.3g} b/s"


def _traffic(rates: Any, names: list[str]) -> str:
    """`net0 at 6.2 Gb/s in and 2.1 Gb/s out (62% of its 10 Gb/s line rate)` for each named link or port."""
    by_name = {r.name: r for r in (*rates.links, *rates.ports)}
    out: list[str] = []
    for name in dict.fromkeys(names):
        r = by_name.get(name)
        if r is None or r.in_bps is None or r.out_bps is None:
            continue
        said = f"{name} at {bits(r.in_bps)} in and {bits(r.out_bps)} out"
        shares = [s for s in (r.in_line_share, r.out_line_share) if s is not None]
        if shares and r.line_bps:
            said += f" ({max(shares):.0%} of its {bits(r.line_bps)} line rate)"
        out.append(said)
    return "; ".join(out)


def _busy(facts: HostFacts) -> str:
    """`primary 35% busy on its 8 CPUs`: the captured domain's CPUs together."""
    rates = facts.rates
    if rates is None or rates.cpu_busy is None:
        return ""
    who = domain_name(facts) or facts.nodename or facts.host
    count = len(rates.cpus)
    return f"{who} {rates.cpu_busy:.0%} busy on its {count} CPU{'s' if count != 1 else ''}" if count \
        else f"{who} {rates.cpu_busy:.0%} busy"


def _moved(before: list[Any] | None, after: list[Any] | None, namer: Namer,
           reads: set[str] | None = None) -> set[str] | None:
    """The subjects (as results name them) that differ between two lists of
    them in a field of `reads` (None: in any field), or None when the lists
    cannot be compared subject by subject (one is missing or empty, so a result
    names the host, or two subjects share a name). A subject in one list alone
    differs."""
    if not before or not after:
        return None
    old = {namer(item): item for item in before}
    new = {namer(item): item for item in after}
    if len(old) != len(before) or len(new) != len(after):
        return None
    return {name for name in old.keys() | new.keys() if _differ(old.get(name), new.get(name), reads)}


def _differ(before: Any, after: Any, reads: set[str] | None) -> bool:
    if before is None or after is None or reads is None:
        return bool(before != after)
    # a name read in a string literal ('s.x' in a message) need not be a field: it reads nothing
    return any(getattr(before, name, None) != getattr(after, name, None) for name in reads)


_INT64 = 1 << 63


def _within_cel(value: Any, path: str) -> None:
    """CEL's numbers are 64-bit: a fact past them (a capture of 400-digit
    counts) cannot be given to any rule. Said in words, naming the fact."""
    if _fits(value):  # the host's every value is walked: its path is spelt only when one is too large
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _within_cel(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _within_cel(item, f"{path}[{i}]")
    elif isinstance(value, int) and not isinstance(value, bool) and not -_INT64 <= value < _INT64:
        raise InputError(f"{excerpt(path, 80)} is a number of {len(str(abs(value))):,} digits; the rules compare "
                         f"numbers of at most 19")


def _fits(value: Any) -> bool:
    """Whether every int in `value` (a host's dump: its dicts and lists walked)
    is within CEL's 64 bits: _within_cel's walk without the path of each
    value, which cost a host about 2 M instructions (a string made for each of
    its 700 values). Told apart by exact type, the dump's own (`isinstance`
    costs more); anything else that isinstance would take for a dict, list or
    int (a subclass, which a dump has none of) leaves it to the walk that
    spells paths."""
    todo = [value]
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind is str:
            continue
        if kind is dict:
            todo.extend(item.values())
        elif kind is list:
            todo.extend(item)
        elif kind is int:
            if not -_INT64 <= item < _INT64:
                return False
        elif kind is not bool and kind is not float and item is not None and isinstance(item, (dict, list, int)):
            return False
    return True


def _partial(compiled: CompiledRule, facts: HostFacts, result: Result) -> Result:
    """A pass (or not applicable) that rests on a filtered output may rest on
    what the filter left out: unknown, naming the full command, unless the rule
    says the filter keeps all it reads (filtered_enough)."""
    if result.status not in ("pass", "not_applicable") or (result.reason or "").startswith(OTHER_PLATFORM):
        return result
    for cid, how in facts.filtered.items():
        family = command_family(cid)
        if not any(family in i for i in compiled.inputs) or _enough(compiled.rule, cid, how.grep):
            continue
        return Result(rule=result.rule, subject=result.subject, status="unknown", missing=[family],
                      reason=f"the output given was filtered (`{how.command}`); the rule needs the whole of `{family}`")
    return result


def _enough(rule: Rule, cid: str, grep: str | None) -> bool:
    names = rule.filtered_enough.get(cid.split("@", 1)[0])
    if not names or not grep:
        return False
    try:
        pattern = re.compile(grep)
    except re.error:
        return all(grep in n for n in names)
    return all(pattern.search(n) for n in names)


def _holds(expr: Expr, scope: Scope) -> bool:
    """A guard that cannot be evaluated (a fact is missing) does not hold."""
    try:
        return expr.test(scope)
    except (TypeError, KeyError, RuntimeError):
        return False


def _items(for_each: Expr | None, scope: Scope) -> list[Any]:
    if for_each is None:
        return [None]
    try:
        value = for_each.run(scope)
    except (TypeError, KeyError, RuntimeError):
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _brief(exc: Exception) -> str:
    return str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
