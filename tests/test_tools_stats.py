"""Statistics helpers and the paper tally, on known answers."""
from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang.tools import stats
from rulelang.tools.tally import tally_compact, tally_lines, tally_value


def test_wilson_known_values():
    lo, hi = stats.wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = stats.wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = stats.wilson_interval(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        stats.wilson_interval(11, 10)


def test_wilson_shrinks_with_n():
    widths = []
    for n in (10, 100, 1000, 10000):
        lo, hi = stats.wilson_interval(n * 3 // 10, n)
        assert lo <= 0.3 <= hi
        widths.append(hi - lo)
    assert widths == sorted(widths, reverse=True)
    assert widths[-1] < 0.02


@given(st.integers(1, 5000), st.data())
def test_wilson_contains_the_estimate(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = stats.wilson_interval(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


def test_wilson_coverage_is_about_95_percent():
    rng = random.Random(7)
    p, n, hits, trials = 0.3, 60, 0, 2000
    for _ in range(trials):
        k = sum(rng.random() < p for _ in range(n))
        lo, hi = stats.wilson_interval(k, n)
        hits += lo <= p <= hi
    assert 0.92 <= hits / trials <= 0.975  # Wilson's coverage oscillates around 95%


def test_two_proportion_z_known_value():
    # 45/100 vs 60/100: pooled p = .525, z = -2.1239, two-sided p = .0337
    res = stats.two_proportion_z(45, 100, 60, 100)
    assert res.statistic == pytest.approx(-2.1239, abs=1e-3)
    assert res.p_value == pytest.approx(0.0337, abs=1e-3)
    assert res.significant()
    same = stats.two_proportion_z(30, 100, 30, 100)
    assert same.statistic == 0 and same.p_value == pytest.approx(1.0)
    assert stats.two_proportion_z(0, 10, 0, 10).p_value == 1.0


def test_t_distribution_p_values():
    assert stats.t_two_sided_p(2.0, 10) == pytest.approx(0.07339, abs=1e-4)
    assert stats.t_two_sided_p(2.228, 10) == pytest.approx(0.05, abs=1e-3)
    assert stats.t_two_sided_p(1.959964, 1e7) == pytest.approx(0.05, abs=1e-4)
    assert stats.t_two_sided_p(0.0, 5) == pytest.approx(1.0)
    assert stats.t_two_sided_p(12.706, 1) == pytest.approx(0.05, abs=1e-3)


def test_welch_known_value():
    # hand-checked: means 3 and 6, variances 2.5 and 2.5, n 5 and 5 -> t = -3, df = 8, p = .01707
    res = stats.welch_t([1, 2, 3, 4, 5], [4, 5, 6, 7, 8])
    assert res.statistic == pytest.approx(-3.0)
    assert res.p_value == pytest.approx(0.01707, abs=1e-4)
    assert res.test == "welch"
    assert math.isnan(stats.welch_t([1], [2, 3]).p_value)
    assert stats.welch_t([2, 2, 2], [2, 2, 2]).p_value == 1.0
    assert stats.welch_t([1, 1, 1], [2, 2, 2]).p_value == 0.0


def test_summaries():
    s = stats.summarize([1, 2, 3, 4])
    assert (s.n, s.mean, s.minimum, s.maximum) == (4, 2.5, 1, 4)
    assert s.sd == pytest.approx(1.2910, abs=1e-4)
    assert s.fmt() == "2.50 ± 1.29"
    assert stats.summarize([]).fmt() == "-"


@pytest.mark.parametrize("shown", [0, 1, 4, 5, 9, 10, 11, 23, 61, 150, -3, -17])
def test_tally_reads_back(shown):
    lines = tally_lines(shown)
    assert len(lines) == 3
    assert tally_value(lines) == shown
    assert tally_compact(shown).count("X") == abs(shown) // 10


def test_tally_ten_is_a_big_x_with_four_small():
    lines = tally_lines(10)
    assert "".join(lines).count("X") == 1
    assert "".join(lines).count("x") == 4
    assert "|" not in "".join(lines)
    assert tally_compact(13) == "X(xxxx) |||"
