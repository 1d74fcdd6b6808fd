"""Batched games, the exact evaluator and tournaments."""

import numpy as np
import pytest
from scipy.stats import chisquare

from nim_evo import Rules, make_agent, play_games, play_matches, solve, tournament, win_probabilities
from nim_evo.policy import AliasSampler, alias_tables, as_table, check_table, one_hot
from nim_evo.space import space_for


def test_one_heap_of_one():
    """Normal play: whoever moves first takes the last object and wins; misère: loses."""
    for misere, winner in [(False, 0), (True, 1)]:
        rules = Rules((1,), misere=misere)
        space = space_for(rules)
        table = make_agent("random", rules).policy(space)
        won = play_games(space, table, table, np.full(100, space.start), np.random.default_rng(0))
        assert np.all(won == winner)
        assert win_probabilities(space, table, table)[space.start, 0] == (1.0 if winner == 0 else 0.0)


@pytest.mark.parametrize("player, opponent", [
    ("random", "random"), ("fixed-rules", "aggressive"), ("nimsum", "random"), ("random", "minimax"),
])
def test_exact_evaluator_agrees_with_sampled_games(rules, player, opponent, rng):
    """Sampled win counts per start and seat lie within 4.5 sigma of the exact probabilities."""
    space = space_for(rules)
    a, b = make_agent(player, rules), make_agent(opponent, rules)
    exact = win_probabilities(space, a, b)
    starts = np.unique(np.concatenate([[space.start], rng.integers(1, space.n_positions, 5)]))
    games = 3000
    wins = play_matches(space, a, b, starts, games, rng)
    for seat in (0, 1):
        p = exact[starts, seat]
        sigma = np.sqrt(games * p * (1 - p))
        assert np.all(np.abs(wins[seat] - games * p) <= 4.5 * sigma + 1e-9), (seat, wins[seat], games * p)


@pytest.mark.parametrize("opponent", ["random", "fixed-rules", "dumb", "aggressive", "nimsum"])
def test_perfect_play_wins_every_winning_position(rules, opponent):
    """Full-depth minimax wins with probability 1 from every winning position, either seat."""
    solution = solve(rules)
    space = solution.space
    p = win_probabilities(space, make_agent("minimax", rules), make_agent(opponent, rules))
    win = solution.win
    np.testing.assert_allclose(p[win, 0], 1.0)         # to move in a won position
    np.testing.assert_allclose(p[~win, 1], 1.0)        # opponent to move in a lost one
    assert np.all(p[:, 0] >= solution.win - 1e-12)


def test_perfect_against_perfect_is_the_solution(rules):
    """Two perfect players: the player to move wins exactly in the solver's winning positions."""
    solution = solve(rules)
    perfect = make_agent("nimsum", rules)
    p = win_probabilities(solution.space, perfect, perfect)
    np.testing.assert_allclose(p[:, 0], solution.win.astype(float), atol=1e-12)
    np.testing.assert_allclose(p[:, 1], 1.0 - solution.win, atol=1e-12)


def test_stack_of_move_arrays_equals_one_at_a_time(rules, rng):
    """Evaluating k deterministic policies at once gives each one's own exact values."""
    space = space_for(rules)
    moves = np.stack([_random_moves(space, rng) for _ in range(4)])
    nimsum = make_agent("nimsum", rules)
    stacked = win_probabilities(space, moves, nimsum)
    tables = np.stack([one_hot(m, space) for m in moves])
    np.testing.assert_allclose(win_probabilities(space, tables, nimsum), stacked, atol=1e-12)
    for k in range(4):
        np.testing.assert_allclose(win_probabilities(space, moves[k], nimsum), stacked[k], atol=1e-12)


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


def test_tournament_same_seed_same_result_any_jobs():
    """A seed fixes the outcome; the number of workers does not change it."""
    rules = Rules((1, 3, 5, 7, 9))
    player = make_agent("fixed-rules", rules)
    runs = [tournament(rules, player, ["random", "aggressive"], games=120_000, seed=7, jobs=jobs)
            for jobs in (1, 2, 1)]
    assert runs[0] == runs[1] == runs[2]
    other = tournament(rules, player, ["random", "aggressive"], games=120_000, seed=8)
    assert other != runs[0]


def test_tournament_reports_rates_and_intervals():
    """nimsum beats random from the winning start; CIs bracket the sampled and the exact rate."""
    rules = Rules((1, 3, 5, 7, 9))
    nimsum = make_agent("nimsum", rules)
    sampled = tournament(rules, nimsum, ["random", "nimsum"], games=2000, seed=1)
    exact = tournament(rules, nimsum, ["random", "nimsum"], exact=True)
    assert [r.opponent for r in sampled] == ["random", "nimsum"]
    vs_random, vs_self = sampled
    assert vs_random.first_rate == 1.0 and vs_random.games == 4000
    assert vs_random.ci_low <= vs_random.win_rate <= vs_random.ci_high
    assert vs_self.first_rate == 1.0 and vs_self.second_rate == 0.0 and vs_self.win_rate == 0.5
    for s, e in zip(sampled, exact):
        assert e.exact and e.ci_low == e.win_rate == e.ci_high
        assert s.ci_low <= e.win_rate <= s.ci_high


def test_tournament_from_every_position():
    """starts='all' plays seed 000's sub-games: exact rate is the mean over non-empty positions."""
    rules = Rules((3, 4), 2)
    space = space_for(rules)
    player = make_agent("random", rules)
    exact = tournament(rules, player, ["nimsum"], exact=True, starts="all")[0]
    p = win_probabilities(space, player, make_agent("nimsum", rules))[1:]
    assert exact.first_rate == pytest.approx(p[:, 0].mean())
    assert exact.second_rate == pytest.approx(p[:, 1].mean())
    sampled = tournament(rules, player, ["nimsum"], games=20_000, seed=3, starts="all")[0]
    assert sampled.ci_low <= exact.win_rate <= sampled.ci_high
    with pytest.raises(ValueError, match="starts"):
        tournament(rules, player, ["nimsum"], starts="some")


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
