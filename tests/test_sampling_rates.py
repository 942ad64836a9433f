"""Rates from two readings on Linux (/proc/net/dev, ethtool -S) and HP-UX
(lanadmin -g), on the two-sample bundles fixtures/tools/make_sampled_rates.py writes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from advisor.platforms.hpux.rates import display_time
from conftest import facts_of, FIXTURES, review

LINUX = FIXTURES / "sampled/linux-gw-30s"
HPUX = FIXTURES / "sampled/hpux-rx6600-20s"
SPAN = 1 << 32


def _links(path: Path):
    return {e.name: e for e in facts_of(path).rates.links}


def test_linux_rates_per_interface_from_proc_net_dev_and_ethtool_s() -> None:
    rates = facts_of(LINUX).rates
    assert rates.interval_s == 30.0  # the manifest's taken_at: /proc/net/dev prints no time
    eth0 = {e.name: e for e in rates.links}["eth0"]
    assert eth0.in_bps == pytest.approx(3e9) and eth0.out_bps == pytest.approx(1.2e9)
    assert eth0.in_pps == pytest.approx(250_000) and eth0.out_pps == pytest.approx(100_000)
    assert eth0.drops_per_s == pytest.approx(2.0)
    assert eth0.no_buffer_per_s == pytest.approx(1.5) and eth0.lso_share == pytest.approx(0.2)
    assert eth0.line_bps == 1e10  # ethtool eth0: Speed: 10000Mb/s
    assert eth0.in_line_share == pytest.approx(0.3) and eth0.out_line_share == pytest.approx(0.12)
    assert eth0.evidence["line_bps"].endswith("/ethtool@eth0.txt:23")
    eth1 = {e.name: e for e in rates.links}["eth1"]
    assert eth1.in_bps == pytest.approx(3e8) and "not read twice" in eth1.reasons["lso_share"]


def test_a_linux_interface_whose_counters_restarted_has_no_rate_and_says_why() -> None:
    eth2 = _links(LINUX)["eth2"]
    assert eth2.in_bps is None and eth2.in_pps is None
    assert eth2.reasons["in_bps"] == "the counter went down (2681662018 -> 1048576): it was reset"


def test_a_linux_link_without_a_known_speed_says_why_it_has_no_share_of_line_rate(tmp_path: Path) -> None:
    links = _links(LINUX)
    assert links["lo"].line_bps is None  # no `ethtool lo` in the bundle
    assert links["lo"].reasons["in_line_share"] == "no line rate: `ethtool IFACE` (its Speed) was not read"
    assert links["eth2"].reasons["line_bps"] == "no line rate: `ethtool IFACE` printed no Speed"  # virtio: link alone
    bundle = tmp_path / "gw"
    shutil.copytree(LINUX, bundle)
    down = (FIXTURES.parent / "tests/real/ethtool/ubuntuforums-2008-e1000e-speed-unknown-65535.txt").read_text()
    (bundle / "ethtool@eth1.txt").write_text(down.split("\n---\n", 1)[1].replace("eth0", "eth1"))
    (bundle / "ethtool@eth0.txt").unlink()
    manifest = yaml.safe_load((LINUX / "manifest.yaml").read_text())  # its times kept; not the files changed here
    manifest["commands"] = [c for c in manifest["commands"] if c["id"] not in ("ethtool@eth0", "ethtool@eth1")]
    (bundle / "manifest.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False))
    links = _links(bundle)
    assert links["eth0"].in_bps == pytest.approx(3e9) and links["eth0"].line_bps is None
    assert links["eth0"].reasons["out_line_share"] == "no line rate: `ethtool IFACE` (its Speed) was not read"
    assert links["eth1"].in_bps == pytest.approx(3e8) and links["eth1"].in_line_share is None
    assert links["eth1"].reasons["in_line_share"] == \
        "no line rate: `ethtool IFACE` says Speed: Unknown! (65535) (no link detected)"


def test_linux_readings_without_a_time_give_no_rate(tmp_path: Path) -> None:
    bundle = tmp_path / "b"
    shutil.copytree(LINUX, bundle)
    (bundle / "manifest.yaml").unlink()  # by content and name: no taken_at
    facts = facts_of(bundle)
    eth0 = {e.name: e for e in facts.rates.links}["eth0"]
    assert eth0.in_bps is None and "no time" in eth0.reasons["in_bps"] and facts.rates.interval_s is None


def test_hpux_rates_with_a_32_bit_octets_wrap() -> None:
    lan0 = _links(HPUX)["lan0"]
    assert lan0.interval_s == 20.0  # the displays' date lines, not the manifest's taken_at (a second later)
    assert lan0.wrapped == ["Inbound Octets"]
    assert (669505687 - 3964472983) % SPAN == 1_000_000_000  # the true delta
    assert lan0.in_bps == pytest.approx(1_000_000_000 * 8 / 20) and lan0.in_line_share == pytest.approx(0.4)
    assert lan0.out_bps == pytest.approx(1e8) and lan0.line_bps == 1e9
    assert lan0.in_pps == pytest.approx(700_100 / 20) and lan0.drops_per_s == pytest.approx(1.0)
    assert lan0.reasons == {"no_buffer_per_s": "lanadmin -g counts no no-buffer events",
                            "lso_share": "lanadmin -g does not count LSO sends"}


def test_an_hpux_interface_that_went_down_and_up_has_no_rate() -> None:
    lan1 = _links(HPUX)["lan1"]
    assert lan1.in_bps is None and lan1.out_pps is None
    assert lan1.reasons["in_bps"].startswith("the interface changed state between the readings (Last Change 284 -> 91234)")


def test_an_ambiguous_32_bit_wrap_gives_no_rate(tmp_path: Path) -> None:
    """40 s at 1 Gb/s: Inbound Octets can go round its whole range, so no rate."""
    bundle = tmp_path / "b"
    shutil.copytree(HPUX, bundle)
    second = bundle / "lanadmin-g@0~2.txt"
    second.write_text(second.read_text().replace("10:01:01", "10:01:21"))
    (bundle / "manifest.yaml").unlink()
    lan0 = _links(bundle)["lan0"]
    assert lan0.in_bps is None and "whole range" in lan0.reasons["in_bps"]
    assert lan0.in_pps is not None  # packets cannot go round in 40 s


def test_the_display_date_line() -> None:
    assert display_time("Tue , Feb 9,2010  14:22:27") - display_time("Tue , Feb 9,2010  14:22:07") == 20
    assert display_time("no date") is None


@pytest.mark.parametrize("bundle", [LINUX, HPUX], ids=lambda p: p.name)
def test_json_carries_the_rates(bundle: Path) -> None:
    host = json.loads(review(bundle).hosts[0].model_dump_json())
    assert host["rates"]["links"] and host["rates"]["samples"]
