"""Captures -> facts -> rule results -> report. One function per stage."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal

from advisor import __version__
from advisor.changeplan import build as changeplan
from advisor.changeplan import simulate
from advisor.collect import origins
from advisor.collect.capture import Capture
from advisor.collect.offline import Loader
from advisor.engine import waivers
from advisor.engine.evaluate import Engine
from advisor.errors import InputError, brief, clipped
from advisor.facts.build import build
from advisor.facts.models import HostFacts, detected
from advisor.results import score as scoring
from advisor.results.model import Detected, Finding, HostReport, Report, Result, Tool, summary_of, tag
from advisor.results.rates import Rates


def load_captures(paths: list[Path], loader: Loader) -> tuple[list[Capture], list[str]]:
    """Every path that can be read; one error line for each that cannot."""
    errors: list[str] = []
    return list(iter_captures(paths, loader, errors)), errors


def iter_captures(paths: list[Path], loader: Loader, errors: list[str]) -> Iterator[Capture]:
    """Every capture that can be read, each when it is asked for; one line in
    `errors` for each input that cannot be, as it is met."""
    for path in paths:
        try:
            yield from loader.iter_load(path)
        except InputError as exc:
            errors.append(str(exc))
        except Exception as exc:  # noqa: BLE001 - one unreadable input must not cost the others
            errors.append(f"{path}: cannot be read ({brief(exc)})")
        errors.extend(loader.take_errors())


def _detected(facts: HostFacts) -> Detected:
    return Detected(nodename=facts.nodename, os=facts.os_name, arch=facts.arch, domain_roles=facts.roles,
                    cpu_model=facts.cpu_model, inputs=facts.inputs, **detected(facts))


def _status(errors: list[str], findings: list, results: list) -> Literal["clean", "findings", "no-evidence", "error"]:
    """clean only when something was judged: a host whose every check lacked its
    input has no evidence, which is not a pass."""
    if errors:
        return "error"
    if findings:
        return "findings"
    evaluated = any(r.status in ("pass", "fail") for r in results)
    return "clean" if evaluated else "no-evidence"


def by_measured_load(f: Finding) -> tuple[int, float, str, str]:
    """Where two samples give rates: severity (as the measured load moved it),
    then the share of its study's figure the finding's subject carries, most
    first (to a thousandth: two channels that carry the same are equal); a
    finding without a measure after those with one."""
    return -f.severity.rank, -(round(f.load.share, 3) if f.load is not None else -1.0), f.rule, f.subject


def review_capture(capture: Capture, engine: Engine) -> HostReport:
    if capture.not_collected is not None:
        report = unreachable(capture.host, capture.source, capture.not_collected)
        report.collected_at = capture.collected_at  # when the attempt failed
        return report
    try:
        return review_with_facts(capture, engine)[0]
    except Exception as exc:  # noqa: BLE001 - one host's odd values must not cost the fleet its report
        return HostReport(host=capture.host, source=capture.source, platform="unknown", detected=Detected(),
                          score=None, status="error", counts=scoring.counts([]), results=[], findings=[],
                          errors=[f"{capture.source}: could not be reviewed ({brief(exc)})"])


def review_with_facts(capture: Capture, engine: Engine) -> tuple[HostReport, HostFacts]:
    built = build(capture)
    results, findings = engine.evaluate(built.facts)
    not_collected = [f"{m.command or m.command_id}: {m.reason}" for m in capture.missing.values()]
    errors = [origins.locate(clipped(e), capture.origins) for e in capture.errors + built.errors]
    for f in findings:
        f.evidence = [origins.locate_evidence(e, capture.origins) for e in f.evidence]
    findings.sort(key=by_measured_load if built.facts.rates is not None
                  else lambda f: (-f.severity.rank, f.rule, f.subject))
    host = built.facts.host  # a plan may name the system it plans
    accepted = waivers.apply(host, results, findings, engine.policy)
    report = HostReport(
        host=host, source=capture.source, platform=built.facts.platform, kind=built.facts.kind,
        detected=_detected(built.facts), score=scoring.score(results),
        status=_status(errors, accepted.findings, results),
        counts=scoring.counts(results), results=results, findings=accepted.findings, errors=errors,
        not_collected=not_collected, unused=[origins.locate(u, capture.origins) for u in built.unused],
        skipped=capture.skipped,
        incomplete=[m.command or m.command_id for m in capture.missing.values() if m.unfinished],
        waived=accepted.waived, expired_waivers=accepted.expired, collected_at=capture.collected_at,
        rates=Rates.of(built.facts.rates),
    )
    report.plan = (simulate.proven(lambda held: changeplan.build(accepted.findings, built.facts, held), built.facts,
                                   report.score, report.findings,
                                   lambda facts: _judge(engine, host, built.facts, results, facts),
                                   engine.runtime_rules)
                   if accepted.findings else changeplan.build(accepted.findings, built.facts))
    steps = report.plan.by_finding() if report.plan is not None else {}
    for f in report.findings:
        f.plan_steps = [n for n, _s in steps.get(f.tag, [])]
    return report, built.facts


def _judge(engine: Engine, host: str, captured: HostFacts, results: list[Result],
           facts: HostFacts) -> tuple[float | None, set[str]]:
    """The score of a host's facts as a plan leaves them, and what fails
    ("rule on subject"), waivers applied. Only what the plan's changes may
    move is judged again; the other results are kept."""
    merged = engine.again(captured, facts, results)
    waived = waivers.accepted(host, merged, engine.policy)
    return scoring.score(merged, waived), {tag(r.rule, r.subject) for r in merged
                                           if r.status == "fail" and (r.rule, r.subject) not in waived}


_worker_engine: Engine | None = None


def _init_worker(rule_dirs: list[Path], policy_path: Path | None, parent: int) -> None:
    """A forked worker has the parent's engine already; a spawned one compiles its own."""
    from advisor.engine import packs
    from advisor.engine import policy as policy_mod

    _end_with(parent)
    global _worker_engine
    if _worker_engine is None:
        _worker_engine = Engine(packs.load(rule_dirs), policy_mod.load(policy_path))


def _end_with(parent: int) -> None:
    """The worker ends once the review that started it has: else it waits for
    work forever, holding the review's stderr open (and a pipeline's step with
    it). The review's stop handler ends the workers it knows, but a SIGKILL
    runs no handler, and a SIGTERM that comes while a worker is being forked
    finds it not yet listed among the children."""
    import os
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(128 + 15)  # as if told to stop with SIGTERM, as its review was (or would have been)

    threading.Thread(target=watch, name="end-with-the-review", daemon=True).start()


def _review_in_worker(capture: Capture) -> HostReport:
    assert _worker_engine is not None
    return review_capture(capture, _worker_engine)


AUTO = 0  # jobs: decide from the work itself
WORTH_A_POOL = 0.5  # seconds of reviewing here after which the rest go to worker processes


def review_all(captures: Iterable[Capture], engine: Engine, jobs: int,
               rule_dirs: list[Path], policy_path: Path | None) -> Iterator[HostReport]:
    """Hosts in the order given, each as soon as it is judged (the caller
    writes it and lets it go), the captures read as they are needed. With
    jobs > 1, in that many processes (the rules are compiled once per process:
    compiled CEL does not cross them). With AUTO, hosts are reviewed here
    until they have taken WORTH_A_POOL seconds, and only the rest go to
    workers, one per CPU: a few hosts never wait for processes to start."""
    if jobs == AUTO:
        return _review_auto(iter(captures), engine, rule_dirs, policy_path)
    if jobs <= 1:
        return (review_capture(c, engine) for c in captures)
    return _review_pooled(iter(captures), engine, jobs, rule_dirs, policy_path)


def _review_auto(captures: Iterator[Capture], engine: Engine, rule_dirs: list[Path],
                 policy_path: Path | None) -> Iterator[HostReport]:
    import itertools
    import os
    import time

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    start = time.perf_counter()
    for capture in captures:
        yield review_capture(capture, engine)
        if cpus > 1 and time.perf_counter() - start > WORTH_A_POOL:
            following = next(captures, None)
            if following is not None:
                yield from _review_pooled(itertools.chain([following], captures), engine, cpus, rule_dirs, policy_path)
            return


BATCH = 4  # hosts a worker is sent at a time


def _review_pooled(captures: Iterator[Capture], engine: Engine, jobs: int, rule_dirs: list[Path],
                   policy_path: Path | None) -> Iterator[HostReport]:
    """At most two batches per worker in flight: reports that are done wait
    for their turn to be written, and must not pile up while they wait."""
    import itertools
    import os
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    global _worker_engine
    _worker_engine = engine  # inherited by forked workers
    try:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                                 initargs=(rule_dirs, policy_path, os.getpid())) as pool:
            flying: deque[Future[list[HostReport]]] = deque()
            while batch := list(itertools.islice(captures, BATCH)):
                flying.append(pool.submit(_review_batch, batch))
                if len(flying) >= jobs * 2:
                    yield from flying.popleft().result()
            while flying:
                yield from flying.popleft().result()
    finally:
        _worker_engine = None


def _review_batch(captures: list[Capture]) -> list[HostReport]:
    return [_review_in_worker(c) for c in captures]


def unreachable(host: str, source: str, reason: str) -> HostReport:
    """The report of a host that could not be collected."""
    return HostReport(host=host, source=source, platform="unknown", detected=Detected(), score=None,
                      status="unreachable", counts=scoring.counts([]), results=[], findings=[], errors=[reason])


def summarize(hosts: list[HostReport], input_errors: list[str], rules: int) -> Report:
    return Report(tool=Tool(version=__version__, rules=rules), hosts=hosts, summary=summary_of(hosts, input_errors),
                  errors=input_errors)
