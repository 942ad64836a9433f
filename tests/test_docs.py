"""Generated documents are current, reports validate against the schema, and
every `advisor` command the docs show is checked against advisor today: its
verb and options exist, and where it can run offline on the bundled fixtures,
it exits as documented and prints the sample shown after it."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

import jsonschema
import pytest

from advisor import reference
from conftest import CAPTURES, FIXTURES, ROOT, run_cli


def test_rule_reference_is_current() -> None:
    assert (ROOT / "docs/rules.md").read_text() == reference.rules_markdown(), \
        "docs/rules.md is stale: run python -m advisor.reference"


def test_report_schema_is_current() -> None:
    assert (ROOT / "docs/report.schema.json").read_text() == reference.report_schema(), \
        "docs/report.schema.json is stale: run python -m advisor.reference"


def test_json_report_validates_against_the_schema() -> None:
    schema = json.loads((ROOT / "docs/report.schema.json").read_text())
    res = run_cli("review", str(CAPTURES), str(CAPTURES.parent / "plans"), "-f", "json", "--fail-on", "high")
    report = json.loads(res.stdout)
    jsonschema.validate(report, schema)
    assert {h["kind"] for h in report["hosts"]} == {"capture", "plan"}
    assert report["summary"]["gate"] == "failed"
    for host in report["hosts"]:
        for finding in host["findings"]:
            assert set(finding) >= {"rule", "severity", "subject", "message", "observed", "expected", "evidence",
                                    "remediation", "impact", "effect", "source"}
        for result in host["results"]:
            assert set(result) >= {"rule", "subject", "status"}
            if result["status"] == "unknown":
                assert result["missing"]


# --- every `advisor` command in the docs' code blocks ---------------------------------------------------

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OFFLINE = {"review", "gate", "diff", "rules list", "rules show", "collector-script"}  # audit, collect: live over SSH
READS_PATHS = {"review", "gate", "diff"}  # run only when every path they name is in the repository
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
_AT = re.compile(r"(?:^|&&|\|\||;|\brun:|^\s*-|\bsh ')\s*(?:[\w./-]*/)?advisor\s+([a-z][\w-]*)(?=\s|$)")
_END = re.compile(r"&&|\|\||[|;>'\"]")
_COMMENT = re.compile(r"(?:^|\s)#\s")
_PROMPT = "$ "


@dataclass(frozen=True)
class Shown:
    """An `advisor` command in a doc, and what the doc says it does."""

    where: str  # README.md:66
    verb: str  # review, rules show
    args: tuple[str, ...]
    status: int = 0  # unless its comment says `exit N`
    sample: str | None = None  # the output shown after it

    @property
    def line(self) -> str:
        return shlex.join(["advisor", *self.verb.split(), *self.args])


@dataclass(frozen=True)
class Block:
    lang: str
    body: str
    line: int
    heading_before: bool  # a heading between it and the block before


def blocks(text: str) -> list[Block]:
    found, end = [], 0
    for m in _FENCE.finditer(text):
        gap = text[end:m.start()]
        found.append(Block(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 2,
                           bool(re.search(r"^#+ ", gap, re.M))))
        end = m.end()
    return found


def _commands_in(code: str, comment: str, where: str) -> list[Shown]:
    status = re.search(r"\bexit (\d)\b", comment)
    shown = []
    for m in _AT.finditer(code):
        rest = shlex.split(_END.split(code[m.end():], 1)[0])
        verb = m.group(1)
        if verb == "rules" and rest:
            verb, rest = f"rules {rest[0]}", rest[1:]
        shown.append(Shown(where, verb, tuple(rest), int(status.group(1)) if status else 0))
    return shown


def _line_commands(line: str, where: str) -> list[Shown]:
    code, *comment = _COMMENT.split(line, 1)
    return _commands_in(code, "".join(comment), where)


def _prompted(block: Block, name: str) -> list[Shown]:
    """`$ advisor ...` lines, each followed by the lines it prints."""
    shown: list[Shown] = []
    output: list[str] = []
    for n, line in enumerate(block.body.splitlines() + [_PROMPT], block.line):
        if not line.startswith(_PROMPT):
            output.append(line)
            continue
        if shown and output:
            shown[-1] = replace(shown[-1], sample="\n".join(output))
        output = []
        shown += _line_commands(line[len(_PROMPT):], f"{name}:{n}")
    return shown


def _plain(block: Block, name: str) -> list[Shown]:
    return [s for n, line in enumerate(block.body.splitlines(), block.line) for s in _line_commands(line, f"{name}:{n}")]


def shown_in(name: str, text: str) -> list[Shown]:
    """Every command of a doc; a `text` block right after a block of commands (no heading between)
    is what the last of them prints."""
    found: list[list[Shown]] = [[]]
    for block in blocks(text):
        if block.lang != "text":
            prompted = any(line.startswith(_PROMPT) for line in block.body.splitlines())
            found.append((_prompted if prompted else _plain)(block, name))
        else:
            if found[-1] and not block.heading_before:
                found[-1][-1] = replace(found[-1][-1], sample=block.body)
            found.append([])
    return [s for shown in found for s in shown]


def _all_shown() -> list[Shown]:
    return [s for doc in DOCS for s in shown_in(doc.relative_to(ROOT).as_posix(), doc.read_text())]


SHOWN = _all_shown()


@dataclass(frozen=True)
class Option:
    takes_value: bool
    choices: tuple[str, ...] = ()


def options(help_text: str) -> dict[str, Option]:
    """The options `advisor VERB --help` lists: `-f, --format FORMAT`, `--fail-on high|low` (choices are
    lower case; `FILE|DIR/` is a metavar), `--force`."""
    found = {}
    for m in re.finditer(r"^  (-\S.*?)(?:\s{2,}|$)", help_text.split("Options:", 1)[1], re.M):
        words = m.group(1).replace(",", " ").split()
        metavar = " ".join(w for w in words if not w.startswith("-"))
        option = Option(bool(metavar), tuple(metavar.split("|")) if "|" in metavar and metavar.islower() else ())
        found.update({w: option for w in words if w.startswith("-")})
    return found


def check_args(shown: Shown, known: dict[str, Option]) -> tuple[list[str], list[str]]:
    """The positional arguments of a command, and what is wrong with its options."""
    positional, wrong = [], []
    args = iter(shown.args)
    for arg in args:
        if not arg.startswith("-") or arg == "-":
            positional.append(arg)
            continue
        name, eq, value = arg.partition("=")
        option = known.get(name)
        if option is None:
            wrong.append(f"{name} is not an option of advisor {shown.verb}")
        elif option.takes_value and not eq:
            value = next(args, "")
        if option is not None and option.choices and value not in option.choices:
            wrong.append(f"{name} {value}: not one of {'|'.join(option.choices)}")
    return positional, wrong


def runnable(shown: Shown, positional: list[str]) -> bool:
    if shown.verb not in OFFLINE:
        return False
    return shown.verb not in READS_PATHS or all((ROOT / p).exists() for p in positional)


def printed_as_shown(sample: str, printed: str) -> bool:
    """The sample's lines are lines advisor printed, in order and together; a `...` line stands for
    lines left out."""
    lines = [line.rstrip() for line in printed.splitlines()]
    at = 0
    for chunk in re.split(r"^\.\.\.$", sample.strip("\n"), flags=re.M):
        want = [line.rstrip() for line in chunk.strip("\n").splitlines()]
        starts = [i for i in range(at, len(lines) - len(want) + 1) if lines[i:i + len(want)] == want]
        if not starts:
            return False
        at = starts[0] + len(want)
    return True


def _text_asserted(shown: Shown) -> bool:
    """`rules show` and HTML are changing elsewhere: their status is checked, not their text."""
    return shown.verb != "rules show" and "html" not in " ".join(shown.args)


class Advisor:
    """advisor run once per distinct command line, in a folder where the docs' relative paths work
    (fixtures/ is the repository's) and where what they write (-o out/) is thrown away."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.runs: dict[tuple[str, ...], subprocess.CompletedProcess[str]] = {}

    def __call__(self, *argv: str) -> subprocess.CompletedProcess[str]:
        if argv not in self.runs:
            self.runs[argv] = run_cli(*argv, cwd=self.cwd)
        return self.runs[argv]

    def options(self, verb: str) -> dict[str, Option]:
        res = self(*verb.split(), "--help")
        assert res.returncode == 0, f"advisor {verb}: no such verb ({res.stderr.strip()})"
        return options(res.stdout)


@pytest.fixture(scope="module")
def advisor(tmp_path_factory: pytest.TempPathFactory) -> Advisor:
    work = tmp_path_factory.mktemp("docs")
    (work / "fixtures").symlink_to(FIXTURES)
    return Advisor(work)


@pytest.mark.parametrize("shown", SHOWN, ids=[f"{s.where} {s.line}" for s in SHOWN])
def test_a_command_in_the_docs_works_as_they_say(shown: Shown, advisor: Advisor) -> None:
    positional, wrong = check_args(shown, advisor.options(shown.verb))
    assert wrong == [], f"{shown.where}: {shown.line}: {wrong}"
    assert all((ROOT / p).exists() for p in positional if p.startswith("fixtures/")), \
        f"{shown.where}: {shown.line}: names a fixture that is not in the repository"
    if not runnable(shown, positional):
        assert shown.sample is None, f"{shown.where}: a sample of a command that cannot run here"
        return
    res = advisor(*shown.verb.split(), *shown.args)
    assert res.returncode == shown.status, f"{shown.where}: {shown.line}: exit {res.returncode}\n{res.stderr}"
    if shown.sample is not None and _text_asserted(shown):
        assert printed_as_shown(shown.sample, res.stdout + res.stderr), \
            f"{shown.where}: {shown.line} prints today:\n{res.stdout}{res.stderr}"


def test_the_docs_show_what_these_commands_print() -> None:
    """The samples the docs show, each tied to its command (a doc edit cannot detach one unnoticed)."""
    sampled = {(s.where.split(":")[0], s.line) for s in SHOWN if s.sample is not None}
    assert sampled >= {
        ("README.md", "advisor review fixtures/captures/t5-primary-untuned"),
        ("docs/user-guide.md", "advisor gate fixtures/captures/t5-primary-untuned"),
        ("docs/user-guide.md", "advisor diff fixtures/captures/t5-primary-untuned fixtures/diff/t5-primary-after"),
        ("docs/user-guide.md", "advisor diff fixtures/captures/t5-primary-untuned fixtures/captures/t5-primary-tuned"),
        ("docs/plans.md", "advisor gate fixtures/plans/t5-bad.yaml -q"),
    }
    verbs = {s.verb for s in SHOWN}
    assert verbs >= OFFLINE | {"audit", "collect"}, verbs


_DOC = """## Example

```sh
advisor review fixtures/captures/t5-primary-untuned --fail-on high   # exit 1
advisor audit HOST --sudo && advisor gate captures/ -f junit
ansible-playbook site.yml   # then advisor gate as the play's result
```

Its verdict:

```text
advisor gate: failed
```

```console
$ advisor gate fixtures/plans/t5-good.yaml -q   # exit 0
gate passed
$ advisor rules list
```
"""


def test_commands_their_status_and_samples_are_read_from_a_doc() -> None:
    shown = shown_in("x.md", _DOC)
    assert [(s.where, s.line, s.status, s.sample) for s in shown] == [
        ("x.md:4", "advisor review fixtures/captures/t5-primary-untuned --fail-on high", 1, None),
        ("x.md:5", "advisor audit HOST --sudo", 0, None),
        ("x.md:5", "advisor gate captures/ -f junit", 0, "advisor gate: failed\n"),
        ("x.md:16", "advisor gate fixtures/plans/t5-good.yaml -q", 0, "gate passed"),
        ("x.md:18", "advisor rules list", 0, None),
    ]


def test_a_renamed_option_a_bad_choice_or_a_stale_sample_is_caught(advisor: Advisor) -> None:
    known = advisor.options("diff")
    assert known["--force"] == Option(False) and known["-f"] == known["--format"] == Option(True)
    assert check_args(Shown("x", "diff", ("a", "b", "--fail-on", "high", "--force")), known) == (["a", "b"], [])
    _, wrong = check_args(Shown("x", "diff", ("a", "b", "--forced", "--fail-on=severe")), known)
    assert wrong == ["--forced is not an option of advisor diff",
                     "--fail-on severe: not one of critical|high|medium|low|info|never"]
    printed = "one\ntwo  \nthree\nfour\n"
    assert printed_as_shown("two\nthree", printed) and printed_as_shown("one\n...\nfour\n", printed)
    assert not printed_as_shown("one\nthree", printed) and not printed_as_shown("four\n...\none", printed)
