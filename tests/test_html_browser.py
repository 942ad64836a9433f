"""The HTML report as a person sees it, rendered in headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser import Page
from conftest import CAPTURES, run_cli

pytestmark = pytest.mark.slow  # headless Chromium


def test_the_html_report_renders_sorted_charted_and_within_1280_px(tmp_path: Path) -> None:
    res = run_cli("review", str(CAPTURES), "-f", "html,json", "-o", str(tmp_path) + "/")
    assert res.returncode == 0, res.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    url = (tmp_path / "report.html").as_uri()
    page = Page(url, width=1280, height=900)
    try:
        failing = {f["rule"] for h in report["hosts"] for f in h["findings"]}
        bars = page.evaluate("[...new Set([...document.querySelectorAll('rect.bar')]"
                             ".map(r => r.getAttribute('data-rule')))]")
        labels = page.evaluate("[...document.querySelectorAll('svg text[text-anchor=end]')].map(t => t.textContent)")
        assert sorted(bars) == sorted(failing) == sorted(labels)  # one bar (row) per failing rule
        hosts = page.evaluate("[...document.querySelectorAll('table.hosts a')].map(a => a.textContent)")
        headings = page.evaluate("[...document.querySelectorAll('section > h2')].map(h => h.firstChild.textContent)")
        assert len(hosts) == len(report["hosts"]) and [h.strip() for h in headings] == hosts  # the table's order
        widest = page.evaluate("Math.max(document.documentElement.scrollWidth, ...[...document.querySelectorAll("
                               "'body *')].map(e => Math.ceil(e.getBoundingClientRect().right)))")
        assert widest <= 1280, widest  # nothing overflows the window
        visible = page.evaluate("document.body.innerText")
        assert "Severity:" in visible and "Change plan" in visible and "Hosts (worst severity first" in visible
        assert page.evaluate("document.scripts.length") == 0
        assert page.requests == [url]  # the file itself, and nothing fetched
    finally:
        page.close()
