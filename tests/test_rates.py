"""Rates from two samples of counters: wraps of 32-bit counters, resets, bad intervals (issue #29)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from advisor.facts.rates import Sample, Width, counter_delta, cpu_busy, rates, share_of
from advisor.platforms.solaris.kstat_rates import NSEC, TICKS

TWO32 = 1 << 32
TWO64 = 1 << 64


def test_a_link_counter_gives_bytes_per_second() -> None:
    # rbytes64 of net0 in a published `kstat -p link:0:` (DataDog/dd-agent checks.d/network.py), then 30 s later
    first = Sample(16834735.1607669, {"rbytes64": 113983614, "norcvbuf": 0}, created=16359935.2637943)
    second = Sample(16834765.1607669, {"rbytes64": 113983614 + 30_000_000, "norcvbuf": 3}, created=16359935.2637943)
    got = rates(first, second, widths={"norcvbuf": 32})
    assert got["rbytes64"].per_second == pytest.approx(1_000_000)
    assert got["norcvbuf"].per_second == pytest.approx(0.1)
    assert not got["rbytes64"].wrapped and got["rbytes64"].reason is None


def test_a_32_bit_counter_near_the_top_wraps_to_its_true_delta() -> None:
    # Inbound Octets of an HP-UX lan0 as lanadmin -g printed it (fusioninventory-agent resources/hpux/lanadmin/hpux1-0)
    step = counter_delta(3964472983, 50000, width=32)
    assert step.value == TWO32 - 3964472983 + 50000 and step.wrapped


def test_a_32_bit_counter_that_falls_far_was_reset() -> None:
    step = counter_delta(1000, 10, width=32)
    assert step.value is None and step.reason is not None and "reset" in step.reason


def test_a_64_bit_counter_never_wraps_so_going_down_is_a_reset() -> None:
    step = counter_delta(TWO64 - 10, 5, width=64)
    assert step.value is None and step.reason is not None and "reset" in step.reason


def test_a_changed_crtime_gives_no_rate_even_when_the_counters_grew() -> None:
    got = rates(Sample(100.0, {"obytes64": 10}, created=5.0), Sample(130.0, {"obytes64": 10**9}, created=120.0))
    assert got["obytes64"].per_second is None
    assert got["obytes64"].reason is not None and "re-created" in got["obytes64"].reason


@pytest.mark.parametrize("seconds", [0.0, -30.0, float("nan")])
def test_no_rate_without_a_positive_interval(seconds: float) -> None:
    got = rates(Sample(100.0, {"ipackets64": 1}), Sample(100.0 + seconds, {"ipackets64": 2}))
    assert got["ipackets64"].per_second is None and got["ipackets64"].reason is not None


def test_a_counter_missing_from_one_sample_has_no_rate() -> None:
    got = rates(Sample(0.0, {"rbytes64": 1}), Sample(30.0, {"rbytes64": 2, "obytes64": 5}))
    assert got["obytes64"].per_second is None
    assert got["obytes64"].reason == "obytes64 is missing from the first sample"


def test_a_32_bit_byte_counter_at_10_gbits_over_30_s_may_have_gone_round_several_times() -> None:
    # 1.25e9 bytes/s for 30 s is 3.75e10 bytes: the 32-bit rbytes can wrap 8 times, so no delta is trustworthy
    got = rates(Sample(0.0, {"rbytes": 5}), Sample(30.0, {"rbytes": 9}), widths={"rbytes": 32},
                ceilings={"rbytes": 1.25e9})
    assert got["rbytes"].per_second is None and got["rbytes"].reason is not None


def test_growth_beyond_the_ceiling_is_refused() -> None:
    got = rates(Sample(0.0, {"obytes64": 0}), Sample(10.0, {"obytes64": 10**12}), ceilings={"obytes64": 1.25e9})
    assert got["obytes64"].per_second is None


def test_the_lso_share_of_sends() -> None:
    got = rates(Sample(0.0, {"tcp_lso_times": 100, "outDataSegs": 1000}),
                Sample(30.0, {"tcp_lso_times": 400, "outDataSegs": 2200}))
    assert share_of(got["tcp_lso_times"], got["outDataSegs"]).value == pytest.approx(0.25)
    idle = rates(Sample(0.0, {"a": 1, "b": 7}), Sample(30.0, {"a": 1, "b": 7}))
    assert share_of(idle["a"], idle["b"]).value is None


def test_cpu_busy_from_nanosecond_counters() -> None:
    first = Sample(0.0, {"cpu_nsec_idle": 10**12, "cpu_nsec_kernel": 10**11, "cpu_nsec_user": 10**11})
    second = Sample(30.0, {"cpu_nsec_idle": 10**12 + 20 * 10**9, "cpu_nsec_kernel": 10**11 + 6 * 10**9,
                           "cpu_nsec_user": 10**11 + 4 * 10**9})
    assert cpu_busy(first, second, *NSEC).value == pytest.approx(1 / 3)


def test_cpu_busy_from_32_bit_cpu_stat_ticks_across_a_wrap() -> None:
    # cpu_stat idle is 32-bit: 2325343762 ticks is a real value (threez/ruby-vmstat spec); here it wraps
    first = Sample(0.0, {"idle": TWO32 - 1000, "kernel": 89137335, "user": 64919001})
    second = Sample(30.0, {"idle": 500, "kernel": 89137335 + 500, "user": 64919001 + 1000})
    assert cpu_busy(first, second, "idle", ("kernel", "user"), width=32).value == pytest.approx(0.5)


def test_cpu_busy_needs_time_to_pass_on_the_cpu() -> None:
    same = Sample(0.0, dict.fromkeys([TICKS[0], *TICKS[1]], 7))
    later = Sample(1.0, dict.fromkeys([TICKS[0], *TICKS[1]], 7))
    assert cpu_busy(same, later, TICKS[0], TICKS[1]).value is None


counter64 = st.integers(0, TWO64 - 1)
counter32 = st.integers(0, TWO32 - 1)
times = st.floats(-1e9, 1e9, allow_nan=False)


@given(counter64, counter64, st.sampled_from([32, 64]), times, times)
def test_a_rate_is_never_negative(before: int, after: int, width: int, t0: float, t1: float) -> None:
    name = "c"
    first, second = Sample(t0, {name: before % (1 << width)}), Sample(t1, {name: after % (1 << width)})
    w: Width = 32 if width == 32 else 64
    got = rates(first, second, widths={name: w})[name]
    assert got.per_second is None or got.per_second >= 0
    assert got.delta is None or got.delta >= 0


@given(counter32, st.integers(0, (1 << 31) - 1), st.floats(0.001, 1e6))
def test_a_wrap_of_a_32_bit_counter_gives_the_true_delta(before: int, grown: int, seconds: float) -> None:
    after = (before + grown) % TWO32
    got = rates(Sample(0.0, {"c": before}), Sample(seconds, {"c": after}), widths={"c": 32})["c"]
    assert got.delta == grown
    assert got.wrapped == (before + grown >= TWO32)
    assert got.per_second == pytest.approx(grown / seconds)


@given(counter64, counter64)
def test_a_64_bit_counter_going_down_gives_none(a: int, b: int) -> None:
    before, after = max(a, b), min(a, b)
    if before == after:
        return
    got = rates(Sample(0.0, {"c": before}), Sample(30.0, {"c": after}))["c"]
    assert got.per_second is None and got.reason is not None


@given(st.integers(1, (1 << 31) - 1), st.data())
def test_a_32_bit_counter_falling_from_the_lower_half_gives_none(before: int, data: st.DataObject) -> None:
    after = data.draw(st.integers(0, before - 1))
    got = rates(Sample(0.0, {"c": before}), Sample(30.0, {"c": after}), widths={"c": 32})["c"]
    assert got.per_second is None and got.reason is not None


@given(counter64, counter64, st.floats(0, 1e7), st.floats(0, 1e7))
def test_a_changed_crtime_gives_none(before: int, after: int, born: float, reborn: float) -> None:
    if born == reborn:
        return
    got = rates(Sample(0.0, {"c": before}, created=born), Sample(30.0, {"c": after}, created=reborn))["c"]
    assert got.per_second is None and got.reason is not None


@given(counter64, counter64, st.floats(0, 1e9), st.floats(0, 1e9))
def test_a_zero_or_negative_interval_gives_none(before: int, after: int, t0: float, back: float) -> None:
    got = rates(Sample(t0, {"c": before}), Sample(t0 - back, {"c": after}))["c"]
    assert got.per_second is None and got.reason is not None


@given(counter32, counter32, st.floats(0.001, 1e4), st.floats(1.0, 1e10))
def test_a_32_bit_counter_that_can_go_round_within_the_interval_gives_none(before: int, after: int, seconds: float,
                                                         ceiling: float) -> None:
    got = rates(Sample(0.0, {"c": before}), Sample(seconds, {"c": after}), widths={"c": 32},
                ceilings={"c": ceiling})["c"]
    if ceiling * seconds >= TWO32:
        assert got.per_second is None
    elif got.per_second is not None:
        assert got.per_second <= ceiling * (1 + 1e-9)
