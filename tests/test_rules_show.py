"""`advisor rules show` and docs/rules.md say each rule in words: the checks as
the rule says them, commands after `$ ` only, prose never; the CEL only on
lines labelled so; never a name of the project's own notes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.commands.rules import show_rule
from advisor.engine import packs
from advisor.results.model import without_comment
from conftest import ROOT, run_cli

RULES = sorted(r.id for r in packs.load())
CEL = re.compile(r"\b(?:s|v|p|host|intent|item)\.[a-z_]|!=|==|&&|\|\||[{}]|\.size\(|version_ge\(")
# the first word of every command the rules have a user type; `<xl or xm>` is the one placeholder for a tool
COMMANDS = {"ldm", "dladm", "ipadm", "ndd", "nwmgr", "lanadmin", "ethtool", "ip", "xl", "xm", "svcadm", "kstat",
            "grep", "pkg", "patchadd", "ioscan", "lspci"}
INTERNAL = re.compile(r"domain-facts|\bseeds?\b \d|\b00\d_[0-9a-f]{16}\.txt")


def _shown(rule_id: str, capsys: pytest.CaptureFixture[str], cel: bool = False) -> list[str]:
    show_rule(rule_id, [], cel)
    return capsys.readouterr().out.splitlines()


def _first_word(command: str) -> str:
    return command[:command.index(">") + 1] if command.startswith("<") else command.split()[0]


@pytest.mark.parametrize("rule_id", RULES)
def test_every_line_but_the_labelled_cel_is_words(rule_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    plain = _shown(rule_id, capsys)
    assert not any("condition (CEL)" in line for line in plain), "the CEL is shown only when asked for"
    with_cel = _shown(rule_id, capsys, cel=True)
    assert any(line.lstrip().startswith("condition (CEL): ") for line in with_cel)
    for line in plain + [x for x in with_cel if not x.lstrip().startswith(("condition (CEL): ", "measured (CEL, "))]:
        if line.lstrip().startswith("$ "):
            continue  # a command: `!=` or `||` may be shell
        assert not CEL.search(line), f"{rule_id}: CEL in the text: {line!r}"
        assert not INTERNAL.search(line), f"{rule_id}: names the project's notes: {line!r}"


@pytest.mark.parametrize("rule_id", RULES)
def test_a_dollar_line_is_a_command_and_words_are_never_after_one(rule_id: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    rule = next(r for r in packs.load() if r.id == rule_id)
    commands = [line.lstrip()[2:] for line in _shown(rule_id, capsys) if line.lstrip().startswith("$ ")]
    for command in commands:
        words = _first_word(command).strip("<>").split(" or ")
        assert set(words) <= COMMANDS, f"{rule_id}: not a command: {command!r}"
        assert "{" not in command, f"{rule_id}: a template left in {command!r}"
        assert not re.search(r"\bor (later|newer)\b", without_comment(command)), f"{rule_id}: words after `$ `"
    said = [r for r in rule.remediation if r.needs is None]
    assert len(commands) == len(said), "each command or change is one `$ ` line; a prerequisite in words is none"


def test_the_checks_and_fixes_read_as_the_brief_asks(capsys: pytest.CaptureFixture[str]) -> None:
    text = "\n".join(_shown("ldoms.dring-mode", capsys))
    assert "has not negotiated RxDringData mode (its dring_mode is not 4)" in " ".join(text.split())
    assert "s.dring_mode" not in text and "!v.ready" not in text
    assert "    $ ldm set-domain extended-mapin-space=on <captured domain>" in text.splitlines()
    assert "$ Solaris" not in text and "needs: Solaris 11.1 SRU 9 or later" in text
    lines = _shown("ldoms.jumbo-frames", capsys)
    assert not any(line.lstrip().startswith("$ ldm 3.1") for line in lines)
    assert any(line.lstrip().startswith("needs: ldm 3.1 or later with Solaris 11.1 SRU 9") for line in lines)
    wan = _shown("solaris.tcp-window-wan", capsys)
    assert "    $ ndd -set /dev/tcp tcp_recv_hiwat <bytes>   # not persistent: add it to a startup script" in wan
    assert "    $ ipadm set-prop -p recv_buf=<bytes> tcp" in wan


def test_the_cel_is_shown_labelled_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _shown("ldoms.dring-mode", capsys, cel=True)
    assert "      condition (CEL): s.dring_mode != 4, only if !v.ready" in lines
    assert "      condition (CEL): when host.local_mapin == 'off'" in lines
    res = run_cli("rules", "show", "ldoms.dring-mode", "--cel")
    assert res.returncode == 0 and "condition (CEL): s.dring_mode != 4" in res.stdout


def test_the_rule_reference_says_the_same_in_words() -> None:
    doc = (ROOT / "docs" / "rules.md").read_text()
    assert not INTERNAL.search(doc)
    for line in doc.splitlines():
        if line.startswith("- [") or line.startswith("- change") or line.startswith("- prerequisite"):
            words = re.sub(r"`[^`]*`", "", line)  # a command or expression is a code span
            assert not CEL.search(words), line


def _pack(tmp_path: Path, check: str) -> Path:
    (tmp_path / "site.yaml").write_text(
        "- id: site.few-vcpus\n  title: t\n  subject: host\n  platforms: [solaris]\n  severity: high\n"
        f"  checks: [{check}]\n  message: m\n  observed: o\n  expected: e\n"
        "  remediation: ['ldm list']\n  impact: live\n  effect: e\n  rationale: r\n"
        "  source: {ref: hp-tso-rp4440-2004, section: s}\n")
    return tmp_path


def test_a_check_without_words_is_refused_naming_the_rule(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "{when: 'host.vcpus < 2'}")
    res = run_cli("rules", "show", "site.few-vcpus", "--rules", str(pack))
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == f"advisor: {pack}/site.yaml: site.few-vcpus: checks[0].says: Field required\n"
    told = run_cli("rules", "show", "site.few-vcpus", "--rules", str(_pack(tmp_path, "{when: 'host.vcpus < 2', "
                                                                                      "says: 'it has one vCPU'}")))
    assert told.returncode == 0 and "[high] it has one vCPU" in told.stdout


def test_a_remedy_condition_without_words_is_refused(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "{when: 'host.vcpus < 2', says: 'it has one vCPU'}")
    site = pack / "site.yaml"
    site.write_text(site.read_text().replace("['ldm list']", "[{command: 'ldm list', when: 'true'}]"))
    res = run_cli("rules", "show", "site.few-vcpus", "--rules", str(pack))
    assert res.returncode == 2
    assert res.stderr.startswith(f"advisor: {site}: site.few-vcpus: remediation[0]: says_when puts")


def test_a_rule_weighed_by_measured_load_says_so_as_docs_rules_md_does(capsys: pytest.CaptureFixture[str]) -> None:
    """One truth in every view: what two samples do to the findings is in `rules show` as in docs/rules.md."""
    show_rule("ldoms.service-cores", [])
    plain = capsys.readouterr().out
    assert "Weighed by measured load" in plain and "severity rises to high" in plain and "(CEL" not in plain
    show_rule("ldoms.service-cores", [], cel=True)
    assert "measured (CEL, Gb/s per whole core): " in capsys.readouterr().out
    docs = (ROOT / "docs" / "rules.md").read_text()
    assert "at or above 0.5 x the figure (5 Gb/s per whole core): severity rises to high" in docs
    assert "at or above 0.5 x the figure (5 Gb/s per whole core): severity rises to high" in " ".join(plain.split())
