"""Two samples of a host's counters (issue #29): read from a bundle of two
dumps, from one dump of two samples, or from a pasted session of two runs;
rates as facts and in the JSON report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.errors import ParseError
from advisor.platforms.solaris import kstat_rates
from advisor.platforms.solaris.parsers import kstat, kstat_wanted
from conftest import facts_of, CAPTURES, FIXTURES, ROOT, examples, review

SAMPLED = FIXTURES / "sampled/t5-primary-30s"
REAL = ROOT / "tests/real/kstat-p"
INTERVAL = 30.0004  # fixtures/tools/make_sampled_t5.py


def _body(sample: Path) -> str:
    return sample.read_text().split("\n---\n", 1)[1]


def _by_name(entries):
    return {e.name: e for e in entries}


def test_a_bundle_of_two_dumps_gives_rates_per_link_port_and_cpu() -> None:
    rates = facts_of(SAMPLED).rates
    assert rates is not None and rates.interval_s == pytest.approx(INTERVAL)
    net0 = _by_name(rates.links)["net0"]
    assert net0.in_bps == pytest.approx(6.2e9, rel=1e-6) and net0.out_bps == pytest.approx(2.1e9, rel=1e-6)
    assert net0.line_bps == 10e9 and net0.in_line_share == pytest.approx(0.62, rel=1e-6)
    assert net0.in_pps == pytest.approx(int(6.2e9 / 8 * INTERVAL / 1450) / INTERVAL, rel=1e-6)
    assert net0.drops_per_s == 0
    assert net0.reasons == {"lso_share": "the link kstat does not count LSO sends"}
    net2 = _by_name(rates.links)["net2"]  # down: counts nothing, has no line rate
    assert net2.in_bps == 0 and net2.in_line_share is None and "no line rate" in net2.reasons["in_line_share"]
    busy = {c.name: c.busy for c in rates.cpus}
    assert busy == pytest.approx({f"cpu{i}": b for i, b in enumerate([0.25, 0.45, 0.30, 0.40, 0.35, 0.38, 0.32, 0.35])},
                                 abs=1e-6)
    assert rates.cpu_busy == pytest.approx(0.35, abs=1e-4)
    assert rates.tcp_lso_share == 0  # 90,000 segments sent, none by LSO
    port = _by_name(rates.ports)["vsw:0:vswldc0x0"]
    assert port.in_bps == pytest.approx(120_000_000 * 8 / INTERVAL) and port.out_pps == pytest.approx(60_000 / INTERVAL)
    assert port.drops_per_s == pytest.approx((3 + 0 + 2) / INTERVAL)  # tx_no_desc, rx_allocb_fail, rx_lost_pkts
    assert port.lso_share is None and "lso_opackets" in port.reasons["lso_share"]


def test_a_32_bit_counter_that_wrapped_gives_its_true_delta() -> None:
    net0 = _by_name(facts_of(SAMPLED).rates.links)["net0"]
    before = (SAMPLED / "kstat-p.txt").read_text()
    after = (SAMPLED / "kstat-p~2.txt").read_text()
    assert "link:0:net0:norcvbuf\t4294967000\n" in before and "link:0:net0:norcvbuf\t1204\n" in after
    assert net0.wrapped == ["norcvbuf"]
    assert net0.no_buffer_per_s == pytest.approx((1500 + 3) / INTERVAL)  # norcvbuf + noxmtbuf


def test_a_channel_created_again_between_the_samples_has_no_rate_and_says_why() -> None:
    port = _by_name(facts_of(SAMPLED).rates.ports)["vsw:1:vswldc0x9"]
    for value in ("in_bps", "out_bps", "in_pps", "out_pps", "drops_per_s", "no_buffer_per_s"):
        assert getattr(port, value) is None
        assert port.reasons[value].startswith("the object was re-created between the samples (crtime 598.891952836 ->")


def test_every_value_left_none_has_its_reason() -> None:
    rates = facts_of(SAMPLED).rates
    for entry in (*rates.links, *rates.ports, *rates.cpus):
        for name, value in entry.dump().items():
            if value is None:
                assert entry.reasons.get(name), (entry.name, name)


def test_the_first_sample_is_what_the_rules_read_and_the_report_has_rates() -> None:
    sampled, single = review(SAMPLED).hosts[0], review(CAPTURES / "t5-primary-untuned").hosts[0]
    # the same findings; with rates they are ordered by measured load, and some severities move (test_load_rules)
    assert sorted((f.rule, f.subject) for f in sampled.findings) == sorted((f.rule, f.subject) for f in single.findings)
    assert "kstat-p~2" in sampled.detected.inputs and not sampled.unused and not sampled.errors
    data = json.loads(sampled.model_dump_json())
    assert data["rates"]["interval_s"] == pytest.approx(INTERVAL)
    assert data["rates"]["samples"] == f"{SAMPLED}/kstat-p.txt, {SAMPLED}/kstat-p~2.txt"
    assert "rates" not in json.loads(single.model_dump_json())  # one sample: the report is as it was


def _copy(tmp_path: Path) -> Path:
    bundle = tmp_path / "t5-primary"
    shutil.copytree(SAMPLED, bundle)
    return bundle


def _numbers(rates) -> dict:
    out = {}
    for entry in (*rates.links, *rates.ports, *rates.cpus):
        for name, value in entry.dump().items():
            if isinstance(value, float):
                out[(entry.name, name)] = round(value, 6)
            elif name == "reasons":
                out[(entry.name, name)] = value
    return out


def test_without_a_manifest_and_under_another_name_the_second_dump_is_still_the_second_sample(tmp_path: Path) -> None:
    expected = _numbers(facts_of(SAMPLED).rates)
    bundle = _copy(tmp_path)
    (bundle / "manifest.yaml").unlink()
    assert _numbers(facts_of(bundle).rates) == expected
    (bundle / "kstat-p~2.txt").rename(bundle / "kstat-later.out")  # known by its content
    assert _numbers(facts_of(bundle).rates) == expected
    (bundle / "kstat-p.txt").rename(bundle / "zz-kstat-earlier.out")  # read second: the samples' times order them
    (bundle / "kstat-later.out").rename(bundle / "kstat-p.txt")
    assert _numbers(facts_of(bundle).rates) == expected


@pytest.mark.parametrize("layout", ["interval-T-u", "interval", "two-runs"])
def test_one_dump_of_two_samples_is_read_as_the_two_files(tmp_path: Path, layout: str) -> None:
    """`kstat -p -T u 30 2`: an epoch line before each sample, one blank line
    between them (illumos kstat(1M) Examples 4 and 6); or two runs one after the other."""
    first, second = (SAMPLED / "kstat-p.txt").read_text(), (SAMPLED / "kstat-p~2.txt").read_text()
    text = {"interval-T-u": f"1795168841\n{first}\n1795168871\n{second}",
            "interval": f"{first}\n{second}", "two-runs": first + second}[layout]
    bundle = _copy(tmp_path)
    (bundle / "manifest.yaml").unlink()
    (bundle / "kstat-p~2.txt").unlink()
    (bundle / "kstat-p.txt").write_text(text)
    scan = kstat_wanted.scan_output(type("Out", (), {"path": bundle / "kstat-p.txt"})())  # type: ignore[arg-type]
    assert scan.rounds == 2 and len(scan.samples) == 2
    assert _numbers(facts_of(bundle).rates) == _numbers(facts_of(SAMPLED).rates)


def test_a_pasted_session_of_two_kstat_runs_is_read_the_same_way(tmp_path: Path) -> None:
    first, second = (SAMPLED / "kstat-p.txt").read_text(), (SAMPLED / "kstat-p~2.txt").read_text()
    uname = (SAMPLED / "uname-a.txt").read_text()
    session = tmp_path / "ticket-4711.txt"
    session.write_text(f"root@t5-primary:~# uname -a\n{uname}root@t5-primary:~# kstat -p\n{first}"
                       f"root@t5-primary:~# sleep 30\nroot@t5-primary:~# kstat -p\n{second}root@t5-primary:~# exit\n")
    facts = facts_of(session)
    assert _numbers(facts.rates) == _numbers(facts_of(SAMPLED).rates)


def test_one_sample_gives_no_rates() -> None:
    assert facts_of(CAPTURES / "t5-primary-untuned").rates is None


def test_the_man_pages_interval_examples_are_split_into_their_samples() -> None:
    """kstat(1M) Example 4 (`1 3`: three samples, a blank line between) and 5 (`-T d 5 2`)."""
    ex4 = kstat.parse(_body(REAL / "illumos-kstat-man-ex4-interval-count.txt").split("\n", 1)[1])
    assert ex4.rounds == 3 and [len(s) for s in ex4.samples] == [3, 3]
    ex5 = kstat.parse(_body(REAL / "illumos-kstat-man-ex5-timestamp-date.txt").split("\n", 1)[1])
    assert ex5.rounds == 2 and ex5.samples[1][kstat.KstatKey("unix", 0, "system_misc", "avenrun_15min")].value == "12"


def _advanced(text: str, seconds: float, grow: dict[str, int]) -> str:
    """A real sample read again `seconds` later: its snaptime and the named counters moved."""
    out = []
    for line in text.splitlines():
        key, _sep, value = line.partition(" ")
        stat = key.rsplit(":", 1)[-1]
        value = value.strip()
        if stat == "snaptime":
            value = f"{float(value) + seconds:.7f}"
        elif stat in grow:
            value = str((int(value) + grow[stat]) % (1 << (32 if not stat.endswith("64") else 64)))
        out.append(f"{key}\t{value}")
    return "\n".join(out) + "\n"


def test_rates_from_the_real_link_layout_of_a_zone() -> None:
    """dd-agent's `kstat -p link:0:` (Perl kstat's 7-decimal times, spaces for the tab) read twice."""
    first = _body(REAL / "dd-agent-smartos-link-net0-net1.txt")
    grow = {"rbytes64": 375_000_000, "obytes64": 12_500_000, "ipackets64": 250_000, "opackets64": 20_000,
            "norcvbuf": 30, "ierrors": 6}
    scan = kstat.parse(first + _advanced(first, 10.0, grow), kstat_wanted.wanted)
    rates = kstat_rates.build(scan)
    assert rates is not None
    net0 = _by_name(rates.links)["net0"]
    assert net0.interval_s == pytest.approx(10.0) and net0.in_bps == pytest.approx(300e6)
    assert net0.in_line_share == pytest.approx(0.03) and net0.out_bps == pytest.approx(10e6)
    assert net0.no_buffer_per_s == pytest.approx(3.0) and net0.drops_per_s == pytest.approx(0.6)


def test_cpu_busy_from_ticks_where_nanoseconds_are_absent() -> None:
    """OSHI's Solaris 11 `kstat -p cpu::sys:/^cpu_ticks_/` (no snaptime: selected away) read twice."""
    first = _body(REAL / "oshi-solaris11-cpu-sys-cpu-ticks.txt")
    timed = first + "cpu:0:sys:snaptime 100.5\n"
    second = _advanced(timed, 1.0, {"cpu_ticks_idle": 60, "cpu_ticks_kernel": 30, "cpu_ticks_user": 10})
    rates = kstat_rates.build(kstat.parse(timed + second, kstat_wanted.wanted))
    assert rates is not None and rates.cpus[0].busy == pytest.approx(0.4)
    untimed = kstat_rates.build(kstat.parse(first + _advanced(first, 1.0, {"cpu_ticks_idle": 5}), kstat_wanted.wanted))
    assert untimed is not None and untimed.cpus[0].busy is None
    assert untimed.cpus[0].reasons["busy"] == "no snaptime: the kstat selector left the times out"
    assert untimed.cpu_busy is None and untimed.reasons["interval_s"]


def test_the_same_snapshot_twice_has_no_interval() -> None:
    first = _body(REAL / "dd-agent-smartos-link-net0-net1.txt")
    rates = kstat_rates.build(kstat.parse(first + first, kstat_wanted.wanted))
    assert rates is not None and rates.links[0].in_bps is None
    assert "0 s apart" in rates.links[0].reasons["in_bps"]


def test_cpu_kstats_are_counted_apart_from_channels(tmp_path: Path) -> None:
    dump = tmp_path / "kstat-p.txt"
    dump.write_text("".join(f"cpu:{n}:sys:cpu_nsec_idle\t1\n" for n in range(5))
                    + "".join(f"vnet:0:vnetldc0x{n:x}:dring_mode\t4\n" for n in range(5)))
    args = (dump, kstat_wanted.wanted, kstat_wanted.MODULES, kstat_wanted.STATISTICS)
    assert len(kstat.scan_file(*args, limit=5)) == 10
    with pytest.raises(ParseError, match="more than 4 of the kstats advisor reads .cpu kstats"):
        kstat.scan_file(*args, limit=4)


_LINES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", "1795168841", "Thu Jul 22 19:39:50 1999", "link:0:net0:snaptime\t1.5",
                     "link:0:net0:crtime\t0.5", "link:0:net0:rbytes64\t18446744073709551615",
                     "link:0:net0:norcvbuf\t4294967295", "link:0:net0:ifspeed\t0", "cpu:0:sys:cpu_nsec_idle\t-1",
                     "cpu:0:sys:snaptime\tnan", "cpu:0:sys:snaptime\tinf", "tcp:0:tcp:outDataSegs\t1e9",
                     "vnet:0:vnetldc0x1:lso_opackets\t9", "vsw:1:vswldc0x2:opackets64  x"]))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(_LINES, max_size=30))
def test_the_two_sample_reader_never_crashes(lines: list[str]) -> None:
    """Any text: a ParseError naming a line, or samples that build rates (or none)."""
    try:
        scan = kstat.parse_stream(lines, kstat_wanted.wanted, kstat_wanted.MODULES)
    except ParseError:
        return
    rates = kstat_rates.build(scan)
    if rates is not None:
        json.dumps(rates.dump())


@pytest.mark.parametrize("text, seconds", [("30s", 30), ("30", 30), ("2m", 120), ("1.5min", 90), (" 10 s ", 10),
                                           ("10m", 600), ("1s", 1)])
def test_sample_durations(text: str, seconds: float) -> None:
    from advisor.collect.sampling import parse_duration

    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["0s", "0.5s", "11m", "601", "30h", "", "-5s", "1e3"])
def test_sample_durations_out_of_bounds_or_unreadable_are_refused(text: str) -> None:
    from advisor.collect.sampling import parse_duration
    from advisor.errors import InputError

    with pytest.raises(InputError, match=r"^--sample "):
        parse_duration(text)


def test_the_sample_option_names_the_counters_each_family_reads_again() -> None:
    """--sample's help lists what every family reads a second time, from the packs' declarations."""
    from advisor.cli import _sampled

    assert _sampled() == "lanadmin -g on hpux; cat /proc/net/dev, ethtool -S on linux; kstat -p on solaris"
