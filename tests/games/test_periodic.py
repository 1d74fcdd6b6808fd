"""Tests of nim_evo.games.periodic: Grundy sequences of subtraction sets, certified, against values
computed here and published ones."""

import numpy as np
import pytest

from nim_evo.games.periodic import certified, grundy_values, misere_wins


def grundy_by_hand(members, n):
    values = []
    for m in range(n):
        seen = {values[m - s] for s in members if s <= m}
        values.append(min(set(range(len(seen) + 1)) - seen))
    return values


@pytest.mark.parametrize("members, preperiod, period", [
    ((1, 3, 4), 0, 7),           # Winning Ways: 0 1 0 1 2 3 2 repeated
    ((1, 2, 3), 0, 4),           # Nim with a cap of 3: n mod 4
    ((2, 5, 7), 0, 22),          # a period longer than the set's largest member
    ((1,), 0, 2),
    ((3, 5), 0, 8),
])
def test_known_periods(members, preperiod, period):
    sequence = grundy_values(members)
    assert (sequence.preperiod, sequence.period) == (preperiod, period)


def test_the_sequence_matches_values_computed_here_far_past_its_period():
    rng = np.random.default_rng(0)
    for _ in range(25):
        members = tuple(sorted(set(rng.integers(1, 12, size=rng.integers(1, 5)).tolist())))
        sequence = grundy_values(members)
        assert sequence is not None
        n = 3 * (sequence.preperiod + sequence.period) + 50
        assert sequence(np.arange(n)).tolist() == grundy_by_hand(members, n), members


def test_a_preperiod_is_found_and_shortened():
    """S = {2, 4, 7}: a sequence that settles only after some values (computed here)."""
    for members in [(2, 4, 7), (1, 4, 6), (3, 4, 8)]:
        sequence = grundy_values(members)
        values = grundy_by_hand(members, 400)
        pre, period = sequence.preperiod, sequence.period
        assert all(values[n] == values[n + period] for n in range(pre, 400 - period))
        assert pre == 0 or values[pre - 1] != values[pre - 1 + period]  # no shorter preperiod


def test_misere_one_heap_wins():
    """Take 1-3 from one heap, misère: lost exactly when (n - 1) mod 4 == 0 (Moore's NIM Rules)."""
    wins = misere_wins((1, 2, 3))
    n = np.arange(200)
    assert wins(n).astype(bool).tolist() == ((n - 1) % 4 != 0).tolist()


def test_no_period_within_the_limit_is_none():
    counter = certified(lambda known, n: n, memory=3)  # 0, 1, 2, ...: no window comes back
    assert counter is None
