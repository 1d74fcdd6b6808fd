"""Batched games, the exact evaluator and tournaments."""

import numpy as np
import pytest

from nim_evo import Rules, make_agent, play_games, play_matches, solve, tournament, win_probabilities
from nim_evo.engine.policy import one_hot
from nim_evo.engine.space import space_for


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


def _random_moves(space, rng):
    """A random legal move index for every position (0 on the empty board)."""
    scores = np.where(space.legal, rng.random(space.legal.shape), -1.0)
    return scores.argmax(axis=1)


# -- seeds and bit generators ------------------------------------------------------------------


def test_tournament_seed_sequence_is_copied_not_consumed():
    """The same SeedSequence object twice gives the same result (spawning works on a copy), the
    same as its int; the caller's sequence is left as it was."""
    rules = Rules((3, 4))
    player = make_agent("random", rules)
    seq = np.random.SeedSequence(5)
    first = tournament(rules, player, ["random", "dumb"], games=3000, seed=seq)
    second = tournament(rules, player, ["random", "dumb"], games=3000, seed=seq)
    assert first == second
    assert seq.n_children_spawned == 0
    assert tournament(rules, player, ["random", "dumb"], games=3000, seed=5) == first
    assert tournament(rules, player, ["random", "dumb"], games=3000, seed=np.random.SeedSequence(6)) != first


def test_tournament_accepts_a_generator_seed():
    """A Generator seeds a tournament: equal generators give equal results, and the generator
    advances (a second tournament from it differs)."""
    rules = Rules((3, 4))
    player = make_agent("random", rules)
    a, b = np.random.default_rng(11), np.random.default_rng(11)
    first = tournament(rules, player, ["random"], games=3000, seed=a)
    assert tournament(rules, player, ["random"], games=3000, seed=b) == first
    assert tournament(rules, player, ["random"], games=3000, seed=a) != first
    assert 0.0 < first[0].win_rate < 1.0


@pytest.mark.parametrize("seed", [-1, 1.5, "seven", [1, -2], object()])
def test_tournament_refuses_bad_seeds(seed):
    rules = Rules((3, 4))
    with pytest.raises(ValueError, match="seed"):
        tournament(rules, make_agent("random", rules), ["random"], games=10, seed=seed)


@pytest.mark.parametrize("bit_generator", [np.random.MT19937, np.random.PCG64, np.random.PCG64DXSM,
                                           np.random.Philox, np.random.SFC64])
def test_play_games_with_any_bit_generator(bit_generator):
    """Random against random on 1-3-5-7 driven by each bit generator (MT19937's raw output is
    32-bit): the first player's sampled win rate is within 4.5 sigma of the exact 0.577."""
    rules = Rules((1, 3, 5, 7))
    space = space_for(rules)
    table = make_agent("random", rules).policy(space)
    exact = win_probabilities(space, table, table)[space.start, 0]
    games = 40_000
    rng = np.random.Generator(bit_generator(2024))
    won = play_games(space, table, table, np.full(games, space.start), rng)
    sigma = np.sqrt(games * exact * (1 - exact))
    assert abs(np.count_nonzero(won == 0) - games * exact) <= 4.5 * sigma, (np.mean(won == 0), exact)


@pytest.mark.parametrize("starts", ["start", "all"])
def test_a_tournament_over_multisets_is_the_ordered_one(starts):
    """Exact: the same rates to the last digits; sampled from every position: each multiset
    plays as many games as the positions it stands for, so the rates agree within sampling."""
    rules = Rules((3, 2, 3), misere=True)
    player = make_agent("fixed-rules", rules)
    for exact, games in ((True, 1), (False, 20)):
        ordered = tournament(rules, player, ["random", "nimsum"], games=games, exact=exact, starts=starts, seed=3)
        folded = tournament(rules, player, ["random", "nimsum"], games=games, exact=exact, starts=starts, seed=3,
                            multiset=True)
        for a, b in zip(ordered, folded, strict=True):
            assert a.games == b.games
            tolerance = 1e-12 if exact else 4.5 * np.sqrt(0.25 / a.games) * 2
            assert abs(a.first_rate - b.first_rate) <= tolerance and abs(a.second_rate - b.second_rate) <= tolerance


@pytest.mark.parametrize("rules", [Rules((7, 5, 3)), Rules((2, 3, 4, 5), misere=True), Rules((9,), max_take=3),
                                   Rules((1, 2, 3), max_take=2, misere=True)], ids=lambda r: r.name)
@pytest.mark.parametrize("multiset", [False, True])
def test_best_response_bounds_every_policy_and_meets_perfect_play(rules, multiset):
    """Against a perfect player the best reply wins exactly the solver's winning positions;
    against any opponent no policy (perfect, random, a random table) does better than it,
    and the best reply's own moves reach it."""
    from nim_evo.evaluation.exact import best_response

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
