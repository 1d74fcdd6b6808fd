"""A sweep's plan and statistics: seeds, run ids, Wilson's interval, Koza's effort, bands."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nim_evo import Rules
from nim_evo.evolution import statistics
from nim_evo.evolution.sweepdir import Setting, parse_seeds, plan, summarize
from nim_evo.experiments import config_of
from nim_evo.validation import UserError


def test_seeds_are_ranges_and_lists_in_order_each_once():
    assert parse_seeds("0-3") == (0, 1, 2, 3)
    assert parse_seeds("5,0-2,1") == (5, 0, 1, 2)
    for bad in ("", "3-1", "a", "1-", "-1"):
        with pytest.raises(UserError):
            parse_seeds(bad)


def test_run_ids_name_the_setting_first_so_no_id_reads_like_another_seed():
    config = config_of("table", Rules((3, 4)))
    tasks = plan([Setting({"population": "20"}, config), Setting({"population": "40"}, config)], (0, 3))
    assert [t.run_id for t in tasks] == ["s0-population20-seed0", "s0-population20-seed3",
                                         "s1-population40-seed0", "s1-population40-seed3"]
    assert [t.config.seed for t in tasks] == [0, 3, 0, 3]


def test_wilson_interval_known_values():
    low, high = statistics.wilson(6, 6)
    assert low == pytest.approx(0.6097, abs=1e-4) and high == 1.0
    low, high = statistics.wilson(5, 10)
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert all(math.isnan(v) for v in statistics.wilson(0, 0))


def test_koza_effort_known_values():
    """Koza's table: runs succeeding at generations 2, 3, 3 and never, out of 4; a run of i
    generations costs 10 (i + 1) evaluations. P(3) = 3/4 -> R = ceil(ln 0.01 / ln 0.25) = 4,
    I(3) = 40 * 4 = 160; P(2) = 1/4 -> R = 17, I(2) = 30 * 17 = 510: E = 160 at generation 3."""
    evaluations = [10 * (i + 1) for i in range(6)]
    assert statistics.effort([2, 3, 3, None], evaluations) == (160.0, 3)
    assert statistics.effort([1, 1], evaluations) == (20.0, 1)  # every run by generation 1: R = 1
    assert statistics.effort([None, None], evaluations) == (math.inf, None)


def test_bands_carry_a_stopped_run_at_its_last_value():
    median, q1, q3 = statistics.bands([np.array([0.0, 1.0]), np.array([0.0, 0.5, 0.6, 0.7])], 4)
    assert median.tolist() == [0.0, 0.75, 0.8, 0.85] and q1[-1] == pytest.approx(0.775) and q3[-1] == 0.925


def test_a_setting_summary():
    results = [{"row": {"success": s, "generation": g, "seconds": t}, "curve": [{"evaluations": 10 * (i + 1)}
                                                                               for i in range(g + 1)]}
               for s, g, t in ((1, 2, 1.0), (1, 3, 2.0), (1, 3, 3.0), (0, 5, 9.0))]
    row = summarize({"population": "20"}, results, 4)
    assert row["runs"] == 4 and row["successes"] == 3 and row["success_rate"] == 0.75
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(statistics.wilson(3, 4), abs=1e-6)
    assert (row["generation_median"], row["generation_q1"], row["generation_q3"]) == (3, 2.5, 3)
    assert row["seconds_median"] == 2.0 and row["effort"] == 160 and row["effort_generation"] == 3
