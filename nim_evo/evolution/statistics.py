"""The statistics evolutionary computation reports over runs: success rates with Wilson's
interval, medians and interquartile ranges, and Koza's computational effort.

**Computational effort** (Koza, *Genetic Programming*, 1992, chapter 8): with ``P(i)`` the
share of runs that succeeded by generation ``i``, a run of ``i`` generations has to be
repeated ``R(z, i) = ceil(ln(1 - z) / ln(1 - P(i)))`` times to succeed at least once with
probability ``z``; the effort is the least, over generations, of the evaluations those runs
cost, ``E = min_i evaluations(i) * R(z, i)`` (Koza's ``M (i + 1) R`` for a generational GA,
here the cumulative evaluations a run has made by generation ``i``, which counts a
(mu + lambda) loop's and a restart's evaluations as they were).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import binomtest

Z = 0.99  # the probability of at least one success that the effort is reckoned for


def wilson(successes: int, runs: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson's score interval of a success rate (NaN, NaN for no runs)."""
    if runs == 0:
        return math.nan, math.nan
    interval = binomtest(successes, runs).proportion_ci(confidence, method="wilson")
    return float(interval.low), float(interval.high)


def quartiles(values) -> tuple[float, float, float]:
    """The median and the first and third quartiles of ``values`` (NaN where there are none)."""
    values = np.asarray([v for v in values if v is not None and not math.isnan(v)], dtype=float)
    if not len(values):
        return math.nan, math.nan, math.nan
    q1, median, q3 = np.percentile(values, [25, 50, 75])
    return float(median), float(q1), float(q3)


def effort(success_generations, evaluations, z: float = Z) -> tuple[float, int | None]:
    """Koza's computational effort ``E`` (see the module) and the generation ``i`` it is taken
    at; ``(inf, None)`` where no run succeeded.

    Args:
        success_generations: for each run, the generation it succeeded at, ``None`` if never.
        evaluations: ``evaluations[i]``, the cumulative evaluations of a run by generation ``i``.
    """
    runs = len(success_generations)
    found = sorted(g for g in success_generations if g is not None)
    if not runs or not found:
        return math.inf, None
    best, at = math.inf, None
    for i in range(found[0], min(len(evaluations), found[-1] + 1)):
        share = sum(g <= i for g in found) / runs
        repeats = 1 if share >= 1 else math.ceil(math.log(1 - z) / math.log(1 - share))
        cost = evaluations[i] * repeats
        if cost < best:
            best, at = cost, i
    return float(best), at


def cumulative_success(success_generations, generations: int) -> np.ndarray:
    """``(generations + 1,)``: the share of runs that succeeded by each generation."""
    runs = max(1, len(success_generations))
    counts = np.zeros(generations + 1)
    for g in success_generations:
        if g is not None and g <= generations:
            counts[g] += 1
    return np.cumsum(counts) / runs


def bands(curves: list[np.ndarray], length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The median and interquartile band, generation by generation, of curves that may end
    early (a run that stopped at its target): each is carried on at its last value."""
    if not curves:
        empty = np.full(length, np.nan)
        return empty, empty, empty
    stacked = np.stack([np.concatenate([c, np.full(length - len(c), c[-1])]) if len(c) < length else c[:length]
                        for c in curves])
    q1, median, q3 = np.nanpercentile(stacked, [25, 50, 75], axis=0)
    return median, q1, q3
