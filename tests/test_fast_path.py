"""The fast paths give exactly what the plain paths give.

Three things make a review fast: the kstat reader searches a dump for the
modules the facts use instead of reading every line; the CEL context is given
the host's facts once per host and the per-subject variables only when read,
each cut down to the fields the rules read; rule packs come from a cache of parsed
YAML. Each can be switched back to the plain way, and every bundled capture
must give the same JSON report either way; the kstat reader is also compared
with the line-by-line reader on generated dumps, block boundaries included.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from advisor.engine import cel_env, evaluate, packs, policy
from advisor.errors import ParseError
from advisor.platforms.solaris.parsers import kstat_wanted
from advisor.platforms.solaris.parsers import kstat
from conftest import CAPTURES, examples, run_cli


def _report(capture_dir: Path) -> dict:
    from advisor.collect.offline import Loader
    from advisor.pipeline import review_all, summarize
    from advisor.report import json_out

    engine = evaluate.Engine(packs.load([]), policy.load(None))
    with Loader() as loader:
        hosts = list(review_all(loader.load(capture_dir), engine, 1, [], None))
    return json.loads(json_out.render(summarize(hosts, [], len(engine.rules))))


def _fresh_cel(monkeypatch) -> None:
    """As a new process starts: nothing compiled, the cache's list of checked texts not yet read."""
    monkeypatch.setattr(cel_env, "_programs", {})
    monkeypatch.setattr(cel_env, "_checked", None)
    monkeypatch.setattr(cel_env, "_compiled_now", set())


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@pytest.mark.parametrize("capture", sorted(p.name for p in CAPTURES.iterdir()))
def test_every_bundled_capture_reviews_the_same_without_the_fast_paths(capture: str, monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    _fresh_cel(monkeypatch)
    fast = _report(CAPTURES / capture)
    _fresh_cel(monkeypatch)
    again = _report(CAPTURES / capture)  # rule packs now from the cache, expressions compiled when first run
    assert list((tmp_path / "cache" / "rules").glob("*.json")), "the rule packs were not cached"
    assert 0 < len(cel_env._programs) < len(cel_env._known()), "every expression was compiled again"
    monkeypatch.setenv("ADVISOR_NO_CACHE", "1")
    _fresh_cel(monkeypatch)
    monkeypatch.setattr(kstat, "scan_file", kstat._slow)
    monkeypatch.setattr(cel_env.Scope, "LAZY", frozenset())
    monkeypatch.setattr(evaluate, "_fields", lambda name, sources: None)
    monkeypatch.setattr(cel_env, "reads", lambda source: {})
    monkeypatch.setattr(cel_env, "bound_once", lambda source: source)
    monkeypatch.setattr(evaluate, "element_fields", lambda path, sources: None)
    plain = _report(CAPTURES / capture)
    assert fast == plain
    assert again == plain


@pytest.mark.parametrize("sources, fields", [
    (["host.ldcs == null || host.ldcs.exists(c, c.module == 'vnet' || (c.module == 'vsw' && c.lso_enabled != null))",
      "host.ldcs.map(c, c.lso_enabled == 0 && c.dring_mode in [1, 2], c.name)"],
     {"module", "lso_enabled", "dring_mode", "name"}),
    (["host.ldcs.filter(w, w.on == 'on' && w.n > p.few).map(w, w.name)"], {"on", "n", "name"}),  # a filter gives elements
    (["host.ldcs.filter(w, w.on).size() > 0 && host.ldcs.size() < 9 && host.ldcs != null"], {"on"}),
    (["host.ldcs.exists(c, c.name.startsWith('vnet') && c.counters.x > 0)"], {"name", "counters"}),
    (["host.ldcs.exists(b, b.ports.exists(p, p.kind == 'vif'))"], {"ports"}),
    (["'host.ldcs.exists(c, c)' == s.host.ldcs && host.ldcsx.exists(c, c)"], set()),  # a string, a field, another list
    (["host.ldcs.exists(c, c.a == 1 // (it's a note :)\n && c.b == 'x // y)' && c.d == \"'\")"], {"a", "b", "d"}),
    (["host.ldcs.filter(w, w.on)"], None),  # elements given out whole
    (["size(host.ldcs) > 0"], None),
    (["host.ldcs[0].name == 'x'"], None),
    (["host.ldcs.exists(c, c.size() > 1)"], None),
    (["host.ldcs.exists(c, has(c.name) && c['module'] == 'vnet')"], None),
    (["host.ldcs.map(c, c)"], None),
    (["host.ldcs.exists(c, host.links.exists(c, c.x))"], None),  # a name bound again: not followed
    (["'vnet' in host.ldcs"], None),
    (["host . ldcs .exists(c, c.a)"], {"a"}),  # blanks around the dots
    (["v.ldcs.exists(c, c) && host.ldcs.exists(c, c.b)"], {"b"}),  # another variable's list of that name
])
def test_the_fields_read_of_each_element_of_a_list(sources: list[str], fields: set[str] | None) -> None:
    """The host's CEL context keeps, of each record in a list, the fields the
    rules read of it: only what is read through a macro's variable is known,
    and any other use keeps every field."""
    assert cel_env.element_fields("host.ldcs", sources) == fields


@pytest.mark.parametrize("capture", ["t5-primary-untuned", "t2-primary-crowded", "ovm-dom0-pinned", "s10-guest-untuned",
                                     "linux-gw-untuned"])
def test_a_review_is_the_same_with_every_field_of_the_hosts_records_given_to_cel(capture: str, monkeypatch) -> None:
    """Judged with the records in the host's lists cut to the fields the rules
    read, or whole: the same results, findings, plans and messages (the slow
    tier compares every bundled capture)."""
    engine = evaluate.Engine(packs.load([]), policy.load(None))
    assert engine.element_fields.get("ldcs") and engine.element_fields.get("links")
    cut = _report(CAPTURES / capture)
    monkeypatch.setattr(evaluate, "element_fields", lambda path, sources: None)
    assert _report(CAPTURES / capture) == cut


@pytest.mark.parametrize("source, value", [
    ("s.mtu == 1500 && s.name == 'vsw0'", True),
    ("size(s) == 3", True),  # the whole subject: every field
    ("s['mtu'] == 1500", True),
    ("has(s.lso) && s.lso.on", True),  # a nested value comes whole
    ("has(s.absent)", False),
    ("v.n + p.k == 3 && 'a s.x' != ''", True),
])
def test_an_expression_sees_every_field_it_reads_of_a_subject(source: str, value: bool) -> None:
    """CEL converts a subject at each reference, so each expression is given
    only the fields it reads: what it reads must be all there."""
    assert cel_env.reads("s.mtu > 1 && size(s.name) > 0 || v.x") == {"s": frozenset({"mtu", "name"}),
                                                                      "v": frozenset({"x"})}
    assert cel_env.reads("size(s)") == {"s": None} and cel_env.reads("host.arch") == {}
    scope = cel_env.Scope(s={"mtu": 1500, "name": "vsw0", "lso": {"on": True}}, v={"n": 1}, p={"k": 2})
    assert cel_env.Expr(source, "test").test(scope) is value


@pytest.mark.parametrize("source", [
    "s.mtu > 1000 && s.name == 'vsw0' && v.n + v.n == 2",
    "s.mtu + s.name",  # a type error
    "s.absent == 1 || s.mtu == 1",  # no such key
    "s.names[3] == s.name",  # out of range
    "s.names.filter(n, n != s.name).map(n, n + '@' + s.name)",
    "[1, 2].all(p, p > 0) && s.mtu == p.k * 750 && s.mtu > 0",  # p bound by a macro: left as written
    "s.mtu > 1000 && s.name == 'vsw0' // a comment to the end of the text",
])
def test_a_subject_named_several_times_is_resolved_once_with_the_same_outcome(source: str) -> None:
    """Each lazy variable an expression names twice or more is bound once
    (`[s].map(s, E)[0]`): the resolver is asked once, and the value or the
    error is the one the expression as written gives."""
    def outcome(text: str) -> tuple[object, int]:
        scope = cel_env.Scope(s={"mtu": 1500, "name": "vsw0", "names": ["vsw0", "vsw1"]}, v={"n": 1}, p={"k": 2})
        asked: list[str] = []
        resolve = scope.lazy.given.get
        scope.ctx.set_variable_resolver(lambda name: asked.append(name) or resolve(name))
        scope.lazy.give(cel_env.reads(source))
        try:
            value: object = cel_env._cel.compile(text).execute(scope.ctx)
        except Exception as exc:  # noqa: BLE001 - the error is the outcome compared
            value = (type(exc), str(exc))
        return value, asked.count("s")

    bound = cel_env.bound_once(source)
    assert outcome(bound)[0] == outcome(source)[0]
    assert outcome(bound)[1] == 1
    assert cel_env.bound_once("s.mtu > 1") == "s.mtu > 1" and cel_env.bound_once("'s s' == s.name") == "'s s' == s.name"


def test_a_field_named_like_a_variable_is_not_the_variable() -> None:
    """`host.s` is a field of the host, not the subject: a host rule that names
    it twice has no `s` to bind, and is left as written."""
    assert cel_env.bound_once("host.s == 1 || host.s == 2") == "host.s == 1 || host.s == 2"
    assert cel_env.bound_once("host.s == s.x && s.y") == "[s].map(s, host.s == s.x && s.y\n)[0]"


def test_a_hosts_cel_context_is_freed_with_its_scope() -> None:
    """A context that held its own scope (through the resolver) would be a
    cycle through the CEL core, which the collector cannot see into: every
    host's converted facts would stay until the end of a fleet's review."""
    import gc
    import weakref

    scope = cel_env.Scope(cel={"host": {"arch": "sparc"}}, s={"mtu": 1}, host={"arch": "sparc"})
    assert cel_env.Expr("s.mtu == 1 && host.arch == 'sparc'", "test").test(scope)
    gone = weakref.ref(scope)
    del scope
    gc.collect()
    assert gone() is None


# Lines a kstat dump (or a damaged copy of one) can hold.
_NAMES = st.sampled_from(["vnet0ldc1", "vswldc3", "vnetldc0x0", "tcpstat", "tcp", "cpu_stat0", "misc"])
_STATS = st.sampled_from(sorted(kstat_wanted.LDC_STATS | kstat_wanted.TCP_LSO_STATS)
                         + ["outDataSegs", "ierrors", "x", "lso_enabledx", "dring_mode:1", "x:lso_enabled"])
_MODULES = st.sampled_from(["vnet", "vsw", "tcp", "cpu", "unix", "vnetx", "tc"])
_VALUES = st.sampled_from(["1", "0", "4", "12345678901", "", "a b", "\xe9t\xe9"])


@st.composite
def _line(draw) -> str:
    kind = draw(st.integers(0, 9))
    key = f"{draw(_MODULES)}:{draw(st.sampled_from(['0', '1', 'x']))}:{draw(_NAMES)}:{draw(_STATS)}"
    if kind <= 4:
        return f"{key}\t{draw(_VALUES)}"
    if kind == 5:
        return f"{key}{draw(st.sampled_from(['  ', ' ', '   ']))}{draw(_VALUES)}"  # tab lost in a terminal
    if kind == 6:
        return draw(st.sampled_from(["", "   ", "1700000000", "Mon Nov 23 10:00:00 UTC 2026"]))
    if kind == 7:
        return key  # no value: a cut line
    return draw(st.text(alphabet=st.sampled_from("vnetsw:cp \t01x.\xff"), max_size=12))


def _plain(path: Path):
    try:
        with path.open(encoding="utf-8", errors="replace") as fh:
            return kstat.parse_stream(fh, kstat_wanted.wanted, kstat_wanted.MODULES)
    except ParseError as exc:
        return ("error", str(exc), exc.line)


def _fast(path: Path):
    try:
        return kstat.scan_file(path, kstat_wanted.wanted, kstat_wanted.MODULES, kstat_wanted.STATISTICS)
    except ParseError as exc:
        return ("error", str(exc), exc.line)


@pytest.mark.slow  # a size, time or fuzz audit: the full run, not the fast tier
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_line(), max_size=40), ending=st.sampled_from(["\n", "\r\n", "\r"]),
       last_newline=st.booleans(), chunk=st.sampled_from([16, 64, 1 << 20]))
def test_the_kstat_search_reads_what_reading_every_line_reads(lines, ending, last_newline, chunk, tmp_path,
                                                              monkeypatch) -> None:
    monkeypatch.setattr(kstat, "CHUNK", chunk)
    path = tmp_path / "kstat-p.txt"
    text = ending.join(lines) + (ending if last_newline and lines else "")
    path.write_bytes(text.encode("utf-8", errors="surrogateescape").replace("\xff".encode(), b"\xff"))
    assert _fast(path) == _plain(path)


def test_the_kstat_search_keeps_line_numbers_across_blocks(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(kstat, "CHUNK", 4096)
    lines = [f"cpu:{i}:sys:user\t{i}" for i in range(5000)]
    lines[3001] = "vnet:0:vnetldc0x0:dring_mode\t4"
    path = tmp_path / "kstat-p.txt"
    path.write_text("\n".join(lines) + "\n")
    for statistics in (None, kstat_wanted.STATISTICS):
        kept = kstat.scan_file(path, kstat_wanted.wanted, kstat_wanted.MODULES, statistics)
        assert [(k.statistic, v.value, v.line) for k, v in kept.items()] == [("dring_mode", "4", 3002)]


@pytest.mark.parametrize("worth", [0.0, 1e9], ids=["workers-started", "all-in-process"])
def test_the_default_number_of_processes_reviews_the_same(worth: float, monkeypatch) -> None:
    """jobs=AUTO reviews here until the work left is worth workers (WORTH_A_POOL
    seconds), then hands the rest to them: hosts come back in order, the same."""
    from advisor import pipeline
    from advisor.collect.offline import Loader

    monkeypatch.setattr(pipeline, "WORTH_A_POOL", worth)
    engine = evaluate.Engine(packs.load([]), policy.load(None))
    with Loader() as loader:
        captures = [c for p in sorted(CAPTURES.iterdir()) for c in loader.load(p)]
        one = [h.model_dump() for h in pipeline.review_all(captures, engine, 1, [], None)]
        auto = [h.model_dump() for h in pipeline.review_all(captures, engine, pipeline.AUTO, [], None)]
        two = [h.model_dump() for h in pipeline.review_all(captures, engine, 2, [], None)]
    assert auto == one and two == one


def test_a_review_with_its_rule_packs_cached_imports_no_yaml(tmp_path: Path) -> None:
    """PyYAML is a tenth of a review's start: once the packs are cached, a bundle
    without a manifest is reviewed without it (the first run parses and caches)."""
    bundle = CAPTURES / "t5-primary-untuned"
    assert not (bundle / "manifest.yaml").exists()
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPROFILEIMPORTTIME": "1"}
    first = run_cli("review", str(bundle), "-f", "json", env=env, process=True)
    assert first.returncode == 0 and "| yaml" in first.stderr
    second = run_cli("review", str(bundle), "-f", "json", env=env, process=True)
    assert second.returncode == 0 and second.stdout == first.stdout
    assert "import time:" in second.stderr and "| yaml" not in second.stderr


_BROKEN_PACK = ("- id: site.x\n  title: t\n  subject: host\n  platforms: [solaris]\n  severity: high\n"
                "  checks: [{when: 'host.vcpus <', says: 'it has few vCPUs'}]\n  message: m\n  observed: o\n"
                "  expected: e\n  remediation: [x]\n  impact: live\n  effect: e\n"
                "  rationale: r\n  source: {ref: hp-tso-rp4440-2004, section: s}\n")


def test_an_expression_not_known_to_compile_is_refused_before_any_host_is_judged(tmp_path: Path) -> None:
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    bundle = str(CAPTURES / "t5-primary-tuned")
    assert run_cli("review", bundle, "-f", "json", env=env, process=True).returncode == 0  # the bundled packs' texts now known
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "mine.yaml").write_text(_BROKEN_PACK)
    res = run_cli("review", bundle, "--rules", str(tmp_path / "pack"), "-f", "json", env=env, process=True)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith(f"advisor: {tmp_path}/pack/mine.yaml: site.x: checks[0].when: CEL does not compile")


def test_a_cache_that_says_a_broken_text_compiles_costs_one_run(tmp_path: Path) -> None:
    """Only an altered cache can say so: the hosts it judged name the pack's line, and the next run refuses the pack."""
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    bundle = str(CAPTURES / "t5-primary-tuned")
    assert run_cli("review", bundle, "-f", "json", env=env, process=True).returncode == 0
    entries = list((tmp_path / "cache" / "rules").glob("*.json"))
    checked = [e for e in entries if "host.arch" in e.read_text() and '"data": ["' in e.read_text()]
    assert len(checked) == 1, "the texts known to compile are one cache entry"
    data = json.loads(checked[0].read_text())
    data["data"].append("host.vcpus <")
    checked[0].write_text(json.dumps(data))
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "mine.yaml").write_text(_BROKEN_PACK)
    first = run_cli("review", bundle, "--rules", str(tmp_path / "pack"), "-f", "json", env=env, process=True)
    assert first.returncode == 2
    assert f"could not be reviewed ({tmp_path}/pack/mine.yaml: site.x: checks[0].when: CEL does not compile" in first.stderr
    assert "RulePackError" not in first.stderr  # advisor's own errors are said in words, without their type
    second = run_cli("review", bundle, "--rules", str(tmp_path / "pack"), "-f", "json", env=env, process=True)
    assert second.returncode == 2 and second.stdout == ""
    assert second.stderr.startswith(f"advisor: {tmp_path}/pack/mine.yaml: site.x: checks[0].when: CEL does not compile")


def _imported(stderr: str) -> set[str]:
    """The modules a run's `-X importtime` lines name."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


def test_a_review_of_a_capture_imports_no_plan_reader_and_no_other_familys_facts(tmp_path: Path) -> None:
    """A plan's reader (its pydantic schema) and the facts modules of families the
    host is not of are a tenth of a review's own imports: they load only when used."""
    env = {"ADVISOR_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPROFILEIMPORTTIME": "1"}
    capture = run_cli("review", str(CAPTURES / "t5-primary-untuned"), "-f", "json", env=env, process=True)
    assert capture.returncode == 0 and "advisor.platforms.ldoms.facts" in _imported(capture.stderr)
    unused = {f"advisor.platforms.{m}" for m in ("ldoms.plans.schema", "xen.facts", "linux.facts")}
    unused |= {"tarfile", "advisor.collect.safetar"}  # a bundle folder is no archive: nothing to unpack
    assert not unused & _imported(capture.stderr)
    plan = run_cli("review", str(CAPTURES.parent / "plans" / "t5-good.yaml"), "-f", "json", env=env, process=True)
    assert plan.returncode == 0 and "advisor.platforms.ldoms.plans.schema" in _imported(plan.stderr)


def test_the_commands_signatures_hold_types_not_texts() -> None:
    """typer reads every command's signature at each run: an annotation kept as
    text (`from __future__ import annotations` in advisor/cli.py) is compiled
    again each time, some 260 compiles a run."""
    import inspect

    from advisor import cli

    commands = [c.callback for c in cli.app.registered_commands + cli.rules_app.registered_commands]
    assert len(commands) > 5 and all(c is not None for c in commands)
    for callback in commands:
        for parameter in inspect.signature(callback).parameters.values():
            assert not isinstance(parameter.annotation, str), f"{callback.__name__}: {parameter.name}"


def _fields_read_first(name: str, sources: list[str]) -> set[str] | None:
    """cel_env.fields_read as first written, before each text was read once and remembered."""
    import re

    whole = re.compile(rf"\b{name}\b(?!\s*\.\s*[a-z_])")
    if any(whole.search(src) for src in sources):
        return None
    field = re.compile(rf"\b{name}\s*\.\s*([a-z_][a-z0-9_]*)")
    return {found for src in sources for found in field.findall(src)}


_CEL_BITS = st.sampled_from(["s", "p", "v", "host", ".", " . ", "x", "cores", "_a1", "(", ")", "[", "]", "'", '"',
                             "size(", ".exists(c, ", "c.", " && ", "==", "null", "\n", "//", "é", "1", "s.p", "v.s"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_CEL_BITS, max_size=12).map("".join), max_size=4), st.sampled_from(["s", "p", "v", "host"]))
def test_the_fields_read_are_those_each_text_was_read_for_before(sources: list[str], name: str) -> None:
    """fields_read and reads remember each text's answer; the answers are the first version's."""
    import re

    assert cel_env.fields_read(name, sources) == _fields_read_first(name, sources)
    for source in sources:
        expected = {}
        for var in cel_env.LAZY:
            if re.search(rf"\b{var}\b", source):
                fields = _fields_read_first(var, [source])
                expected[var] = None if fields is None else frozenset(fields)
        assert cel_env.reads(source) == expected


_BUILT = """
import sys
from advisor import cli
from advisor.engine import model as rules
from advisor.results import model as results
code = cli.run(sys.argv[1:])
parts = [rules.Check, rules.Remedy, rules.Load, results.Report, results.MeasuredLoad, results.BaselineNote]
print(code, *[c.__name__ for c in parts if c.__pydantic_complete__])
"""


def test_a_review_builds_no_model_it_only_reads_within_another(tmp_path: Path) -> None:
    """A rule's checks and remedies, a finding's load, the whole report: their
    pydantic models are built within the models that hold them (defer_build), or
    at a first use of their own, which a JSON review of a capture never makes."""
    import subprocess
    import sys

    capture = str(CAPTURES / "t5-primary-untuned")
    res = subprocess.run([sys.executable, "-c", _BUILT, "review", capture, "-f", "json", "-o", str(tmp_path / "r.json")],
                         capture_output=True, text=True, env={**os.environ, "ADVISOR_CACHE_DIR": str(tmp_path / "c")})
    assert res.stdout.split() == ["0"], res.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["hosts"][0]["findings"] and report["hosts"][0]["findings"][0]["remediation"]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.sampled_from(["cpu:0:sys:user\t1", "vnet:0:vnetldc0x0:dring_mode\t4", "", "1700000000"]),
                      max_size=24), last_newline=st.booleans(), chunk=st.sampled_from([8, 16, 32, 1 << 20]))
def test_a_blank_line_inside_a_dump_is_seen_wherever_the_blocks_fall(lines, last_newline, chunk, tmp_path,
                                                                    monkeypatch) -> None:
    """An empty line with a line after it (interval mode's next sample) is seen when it
    opens or closes a block read, as where it lies inside one."""
    monkeypatch.setattr(kstat, "CHUNK", chunk)
    path = tmp_path / "kstat-p.txt"
    data = ("\n".join(lines) + ("\n" if last_newline and lines else "")).encode()
    path.write_bytes(data)
    try:
        scan = kstat.scan_file(path, kstat_wanted.wanted, kstat_wanted.MODULES, kstat_wanted.STATISTICS)
    except ParseError:
        return
    assert scan.blank_inside == (data.find(b"\n\n", 0, len(data.rstrip(b"\n"))) >= 0)


def test_a_blank_line_at_a_block_boundary_is_inside(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(kstat, "CHUNK", 16)
    first = b"cpu:0:sys:user\t1\n"  # 17 bytes: the second block begins with the blank line
    for data in (first + b"\ncpu:0:sys:user\t2\n", first + b"\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\ncpu:0:sys:user\t2\n"):
        path = tmp_path / "kstat-p.txt"
        path.write_bytes(data)
        assert kstat.scan_file(path, kstat_wanted.wanted, kstat_wanted.MODULES, kstat_wanted.STATISTICS).blank_inside
