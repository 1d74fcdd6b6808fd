"""Exact evaluation: winning probabilities from every position, by backward induction."""

import numpy as np
import pytest

from nim_evo import Rules, make_agent, solve, win_probabilities
from nim_evo.engine.policy import one_hot
from nim_evo.engine.space import space_for
from nim_evo.evaluation.exact import best_response, induced_each, win_probabilities_each


@pytest.mark.parametrize("opponent", ["random", "fixed-rules", "dumb", "aggressive", "nimsum"])
def test_perfect_play_wins_every_winning_position(rules, opponent):
    """Full-depth minimax wins with probability 1 from every winning position, either seat."""
    solution = solve(rules)
    space = solution.space
    p = win_probabilities(space, make_agent("minimax", rules), make_agent(opponent, rules))
    win = solution.win
    np.testing.assert_allclose(p[win, 0], 1.0)         # to move in a won position
    np.testing.assert_allclose(p[~win, 1], 1.0)        # opponent to move in a lost one
    lost = ~win & (space.totals > 0)                   # to move in a lost position
    assert np.all((p >= -1e-12) & (p <= 1 + 1e-12))
    if opponent == "nimsum":  # a perfect opponent converts every lost position, either seat
        np.testing.assert_allclose(p[lost, 0], 0.0, atol=1e-12)
        np.testing.assert_allclose(p[win & (space.totals > 0), 1], 0.0, atol=1e-12)
    if opponent == "random":  # random may err (a chance somewhere) and may always play perfectly
        assert np.all(p[lost, 0] < 1 - 1e-12) and np.any(p[lost, 0] > 1e-12)


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


@pytest.mark.parametrize("multiset", [False, True])
def test_the_induction_left_in_its_own_numbering_holds_the_same_values(multiset):
    """:func:`induced_each` yields, per opponent, the values :func:`win_probabilities_each`
    gives, to the bit, in the retrograde numbering: the space's position ``order[i]`` at row
    ``i``, a column per genome, the player to move then the opponent; a stochastic player too."""
    rules = Rules((2, 3, 4, 5), misere=True)
    space = space_for(rules, multiset=multiset)
    rng = np.random.default_rng(7)
    moves = np.stack([_random_moves(space, rng) for _ in range(3)])
    opponents = [make_agent("random", rules), make_agent("minimax", rules)]
    for player in (moves, make_agent("random", rules)):
        expected = list(win_probabilities_each(space, player, opponents))
        induced = list(induced_each(space, player, opponents))
        assert len(induced) == len(expected) == 2
        for (retro, mine, theirs), values in zip(induced, expected):
            values = values if values.ndim == 3 else values[None]
            assert mine.shape == theirs.shape == (space.n_positions, len(values))
            assert np.array_equal(mine[retro.rank].T, values[..., 0])
            assert np.array_equal(theirs[retro.rank].T, values[..., 1])
            assert np.array_equal(retro.rank[retro.order], np.arange(space.n_positions))


@pytest.mark.parametrize("rules", [Rules((7, 5, 3)), Rules((2, 3, 4, 5), misere=True), Rules((9,), max_take=3),
                                   Rules((1, 2, 3), max_take=2, misere=True)], ids=lambda r: r.name)
@pytest.mark.parametrize("multiset", [False, True])
def test_best_response_bounds_every_policy_and_meets_perfect_play(rules, multiset):
    """Against a perfect player the best reply wins exactly the solver's winning positions;
    against any opponent no policy (perfect, random, a random table) does better than it,
    and the best reply's own moves reach it."""
    space = space_for(rules, multiset=multiset)
    solution = solve(space)
    perfect = best_response(space, make_agent("nimsum" if rules.max_take is None and not rules.misere else
                                              "minimax", rules))
    assert np.allclose(perfect[:, 0], solution.win, atol=1e-9)
    rng = np.random.default_rng(4)
    random_table = rng.random((space.n_positions, space.n_moves)) * space.legal
    random_table[0, 0] = 1.0  # the empty position has no legal move; any row summing to 1 will do
    random_table /= random_table.sum(axis=1, keepdims=True)
    for opponent in (make_agent("random", rules), random_table):
        best = best_response(space, opponent)
        for player in (make_agent("nimsum", rules), make_agent("random", rules), make_agent("minimax", rules)):
            values = win_probabilities(space, player, opponent)
            assert (values <= best + 1e-9).all()
        reply = np.where(space.legal, best[np.maximum(space.next, 0), 1], -1).argmax(axis=1)
        assert np.allclose(win_probabilities(space, reply, opponent), best)


def _random_moves(space, rng):
    """A random legal move index for every position (0 on the empty board)."""
    scores = np.where(space.legal, rng.random(space.legal.shape), -1.0)
    return scores.argmax(axis=1)
