"""The HTML report as a person sees it, rendered in headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser import Page
from conftest import CAPTURES, run_cli

pytestmark = pytest.mark.slow  # headless Chromium


# Every word of letters whose rendered boxes sit on more than one line: a word
# broken mid-way (`word-break: break-all` split "fixtures" in an evidence path).
# A path or an address may still wrap, at its slashes and hyphens.
_BROKEN_WORDS = r"""(() => {
  const broken = [];
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = texts.nextNode(); node; node = texts.nextNode()) {
    for (const word of node.data.matchAll(/[A-Za-z]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) broken.push(word[0]);
    }
  }
  return broken;
})()"""


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
        assert page.evaluate(_BROKEN_WORDS) == []
        page.call("Emulation.setDeviceMetricsOverride", width=640, height=900, deviceScaleFactor=1, mobile=False)
        assert page.evaluate(_BROKEN_WORDS) == []  # not even in a narrow window
        page.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        widest = page.evaluate("Math.max(document.documentElement.scrollWidth, ...[...document.querySelectorAll("
                               "'body *')].map(e => Math.ceil(e.getBoundingClientRect().right)))")
        assert widest <= 1280, widest  # nothing overflows the window
        visible = page.evaluate("document.body.innerText")
        assert "Severity:" in visible and "Change plan" in visible and "Hosts (worst severity first" in visible
        assert page.evaluate("document.scripts.length") == 0
        assert page.requests == [url]  # the file itself, and nothing fetched
    finally:
        page.close()


def test_a_host_with_two_samples_shows_link_throughput_and_cpu_busy_as_charts(tmp_path: Path) -> None:
    sampled = CAPTURES.parent / "sampled/t5-primary-30s"
    res = run_cli("review", str(sampled), "-f", "html,json", "-o", str(tmp_path) + "/")
    assert res.returncode == 0, res.stderr
    rates = json.loads((tmp_path / "report.json").read_text())["hosts"][0]["rates"]
    url = (tmp_path / "report.html").as_uri()
    page = Page(url, width=1280, height=900)
    try:
        links = page.evaluate("[...document.querySelectorAll('svg.rates-links rect.rate-bar')].map(r => ["
                              "r.getAttribute('data-link'), r.getAttribute('data-dir'), r.getAttribute('data-share'),"
                              " r.getBoundingClientRect().width, r.previousElementSibling.getBoundingClientRect().width])")
        assert [(name, way) for name, way, *_ in links] == [(link["name"], way) for link in rates["links"]
                                                            for way in ("in", "out")]
        net0_in = next(bar for bar in links if bar[:2] == ["net0", "in"])
        assert float(net0_in[2]) == pytest.approx(0.62, abs=1e-3)
        assert net0_in[3] == pytest.approx(0.62 * net0_in[4], abs=1)  # drawn as its share of the line rate
        cpus = page.evaluate("[...document.querySelectorAll('svg.rates-cpu rect.cpu-bar')].map(r => "
                             "[r.getAttribute('data-cpu'), Number(r.getAttribute('data-busy'))])")
        assert cpus[0] == ["all CPUs", pytest.approx(0.35, abs=1e-3)] and len(cpus) == 1 + len(rates["cpus"])
        visible = page.evaluate("document.body.innerText")
        for said in ("Measured load over 30 s", "Throughput per link, in and out, against its line rate",
                     "net0 in", "6.2 Gb/s, 62% of 10 Gb/s", "35% busy",
                     "Findings ordered by severity, then by measured load over 30 s"):
            assert said in visible, said
        assert page.evaluate(_BROKEN_WORDS) == []
        widest = page.evaluate("Math.max(document.documentElement.scrollWidth, ...[...document.querySelectorAll("
                               "'body *')].map(e => Math.ceil(e.getBoundingClientRect().right)))")
        assert widest <= 1280, widest
        assert page.evaluate("document.scripts.length") == 0 and page.requests == [url]
    finally:
        page.close()
