"""Tests of nim_evo.engine.policy: policy tables, their checks and the alias sampler."""

import numpy as np
import pytest
from scipy.stats import chisquare

from nim_evo import Rules, make_agent, win_probabilities
from nim_evo.engine.policy import AliasSampler, alias_tables, as_table, check_table, one_hot
from nim_evo.engine.space import space_for


def test_alias_sampler_draws_the_table(rng):
    """The alias sampler's moves follow a skewed table's probabilities (chi-square, p > 1e-4)."""
    rules = Rules((4, 3))
    space = space_for(rules)
    weights = np.where(space.legal, rng.random(space.legal.shape) ** 3, 0.0)
    weights[0] = 1.0  # the empty board's row is never used
    table = weights / weights.sum(axis=1, keepdims=True)
    keep, alias = alias_tables(table)
    implied = np.zeros_like(table)  # the distribution the alias tables encode, row by row
    for j in range(space.n_moves):
        implied[np.arange(space.n_positions), j] += keep[:, j]
        np.add.at(implied, (np.arange(space.n_positions), alias[:, j]), 1 - keep[:, j])
    np.testing.assert_allclose(implied / space.n_moves, table, atol=1e-12)
    sampler = AliasSampler(table, space)
    start = np.full(200_000, space.start, dtype=np.int32)
    after = sampler.step(start, rng)
    expected = table[space.start] * len(start)
    reached = space.next[space.start]
    observed = [np.count_nonzero(after == r) for r in reached[expected > 0]]
    assert chisquare(observed, expected[expected > 0]).pvalue > 1e-4


def test_check_table_refuses_bad_tables():
    space = space_for(Rules((2, 2)))
    good = make_agent("random", space.rules).policy(space)
    check_table(good, space)
    with pytest.raises(ValueError, match="shape"):
        check_table(good[:, :-1], space)
    bad = good.copy()
    bad[space.start] = 0
    bad[space.start, 0] = 1.0
    bad[space.index((0, 2)), 0] = 0.5  # pile 0 is empty there
    with pytest.raises(ValueError, match="illegal"):
        check_table(bad, space)
    bad = good * 0.9
    with pytest.raises(ValueError, match="sums to"):
        check_table(bad, space)
    with pytest.raises(ValueError, match=r"move index 3, not a legal move in position \(0, 1\)"):
        win_probabilities(space, np.zeros(space.n_positions, dtype=int) + 3, good)


def test_as_table_accepts_agents_tables_and_move_arrays(rng):
    space = space_for(Rules((2, 3)))
    moves = _random_moves(space, rng)
    np.testing.assert_array_equal(as_table(moves, space), one_hot(moves, space))
    agent = make_agent("dumb", space.rules)
    np.testing.assert_array_equal(as_table(agent, space), agent.policy(space))


def _random_moves(space, rng):
    """A random legal move index for every position (0 on the empty board)."""
    scores = np.where(space.legal, rng.random(space.legal.shape), -1.0)
    return scores.argmax(axis=1)


# -- exact zeros and the alias sampler on every row --------------------------------------------


def _skewed_table(space, rng, zeros=0.3):
    """A random table: cubed weights, some legal moves at exactly zero (never all of a row)."""
    weights = np.where(space.legal, rng.random(space.legal.shape) ** 3, 0.0)
    weights[space.legal & (rng.random(space.legal.shape) < zeros)] = 0.0
    empty = ~(weights > 0).any(axis=1)
    first_legal = space.legal.argmax(axis=1)
    weights[empty, first_legal[empty]] = 1.0
    weights[0] = 0.0
    weights[0, 0] = 1.0  # the empty board's row is never used
    return weights / weights.sum(axis=1, keepdims=True)


def test_check_table_demands_exact_zeros():
    """A tiny negative probability, or a tiny mass on an illegal move, is refused with the
    position named: no tolerance there (the sums may be off by rounding, the zeros may not)."""
    space = space_for(Rules((2, 2)))
    good = make_agent("random", space.rules).policy(space)
    index = space.index((1, 2))
    legal = np.flatnonzero(space.legal[index])
    bad = good.copy()
    bad[index, legal[1]] += bad[index, legal[0]] + 1e-12
    bad[index, legal[0]] = -1e-12
    with pytest.raises(ValueError, match=r"position \(1, 2\) holds a negative probability"):
        check_table(bad, space)
    bad = good.copy()
    illegal = np.flatnonzero(~space.legal[index])[0]
    bad[index, illegal] = 1e-12
    with pytest.raises(ValueError, match=r"position \(1, 2\) puts probability on an illegal move"):
        check_table(bad, space)
    bad[index, illegal] = -1e-12
    with pytest.raises(ValueError, match=r"position \(1, 2\)"):
        check_table(bad, space)
    with pytest.raises(ValueError, match=r"\(1, 2\)"):
        as_table(bad, space)


def _allowed_next(space, table):
    """Per row, the positions a correct sampler may reach: children of legal moves with p > 0
    (the sentinel ENDED, index n_positions, for a move that empties the board)."""
    allowed = []
    for index in range(space.n_positions):
        moves = np.flatnonzero(space.legal[index] & (table[index] > 0))
        allowed.append({int(space.next[index, m]) or space.n_positions for m in moves})
    return allowed


@pytest.mark.parametrize("rules", [Rules((3, 2)), Rules((4, 3, 2), 2, True)], ids=lambda r: r.name)
def test_alias_sampler_never_draws_an_illegal_or_impossible_move(rules, monkeypatch):
    """A table with -1e-10 / +1e-10 noise on illegal moves and on zero-probability legal moves
    (check_table would refuse it; the sampler is built directly) never reaches one of them:
    neither in many random draws from every row, nor for the extreme 32-bit words of each
    column (the ones that decide keep-or-alias at a threshold's very edge)."""
    import nim_evo.engine.policy as policy_module

    rng = np.random.default_rng(8)
    space = space_for(rules)
    clean = _skewed_table(space, rng)
    noise = rng.choice([-1e-10, 1e-10], size=clean.shape)
    noisy = np.where(clean > 0, clean, noise)          # every zero, legal or not, gets noise
    noisy[0] = clean[0]
    allowed = _allowed_next(space, clean)              # + noise on a legal zero may be drawn...
    allowed_noisy = _allowed_next(space, np.where(space.legal, noisy, 0.0))  # ...- noise may not
    sampler = AliasSampler(noisy, space)
    rows = np.repeat(np.arange(1, space.n_positions), 3000).astype(np.int32)
    after = sampler.step(rows, rng)
    for index in range(1, space.n_positions):
        reached = set(np.unique(after[rows == index]).tolist())
        assert reached <= allowed[index], (space.position(index), reached - allowed[index])
    # every column's first and last 32-bit words (low bits near 0 and near 2**32), and its middle
    m = space.n_moves
    words = []
    for j in range(m):
        low, high = -(-j * 2**32 // m), -(-(j + 1) * 2**32 // m) - 1
        words += [low, low + 1, (low + high) // 2, high - 1, high]
    words = np.array(words, dtype=np.uint32)
    monkeypatch.setattr(policy_module, "random_words", lambda rng, k: np.resize(words, k))
    for index in range(1, space.n_positions):
        after = sampler.step(np.full(len(words), index, dtype=np.int32), None)
        reached = set(after.tolist())
        assert reached <= allowed_noisy[index], (space.position(index), reached - allowed_noisy[index])


@pytest.mark.parametrize("rules", [Rules((3, 2)), Rules((3, 2, 2), 2, True)], ids=lambda r: r.name)
def test_alias_sampler_step_draws_every_row(rules):
    """From every non-empty position, 4000 steps follow that row of a skewed table
    (chi-square per row, p > 1e-6, small bins pooled); zero-probability moves are never drawn."""
    rng = np.random.default_rng(9)
    space = space_for(rules)
    table = _skewed_table(space, rng)
    sampler = AliasSampler(table, space)
    draws = 4000
    rows = np.repeat(np.arange(1, space.n_positions), draws).astype(np.int32)
    after = sampler.step(rows, rng).reshape(-1, draws)
    for index in range(1, space.n_positions):
        legal = np.flatnonzero(space.legal[index])
        children = np.where(space.next[index, legal] == 0, space.n_positions, space.next[index, legal])
        observed = np.array([np.count_nonzero(after[index - 1] == c) for c in children])
        assert observed.sum() == draws, space.position(index)  # only children of legal moves
        expected = table[index, legal] * draws
        assert np.all(observed[expected == 0] == 0), space.position(index)
        big, small = expected >= 5, (expected > 0) & (expected < 5)
        obs = list(observed[big]) + ([observed[small].sum()] if small.any() else [])
        exp = list(expected[big]) + ([expected[small].sum()] if small.any() else [])
        if len(obs) > 1:
            assert chisquare(obs, exp).pvalue > 1e-6, (space.position(index), obs, exp)


@pytest.mark.parametrize("bit_generator", [np.random.MT19937, np.random.PCG64, np.random.PCG64DXSM,
                                           np.random.Philox, np.random.SFC64])
def test_random_words_are_uniform_32_bit_words(bit_generator):
    """random_words gives uniform 32-bit words from any bit generator (32-bit MT19937 included):
    every bit is set half the time, and the top byte is uniform."""
    from nim_evo.engine.policy import random_words

    rng = np.random.Generator(bit_generator(12))
    words = random_words(rng, 200_001)
    assert words.dtype == np.uint32 and words.shape == (200_001,)
    bits = (words[:, None] >> np.arange(32, dtype=np.uint32)) & 1
    n = len(words)
    assert np.all(np.abs(bits.sum(axis=0) - n / 2) <= 5 * np.sqrt(n / 4)), bits.mean(axis=0)
    top = np.bincount(words >> 24, minlength=256)
    assert chisquare(top).pvalue > 1e-6
