"""Learners: each seed's update rule on hand-made games (tables worked out by hand from the
seeds), reproducible training that beats random, seats against an opponent, policies, pickling."""

import pickle

import numpy as np
import pytest

from nim_evo import GameRecord, Rules, make_agent, solve, win_probabilities
from nim_evo.engine.policy import check_table
from nim_evo.engine.space import space_for
from nim_evo.learners import LEARNERS, QLearner, QualityLearner, make_learner

R23 = Rules((2, 3))  # moves: 0 (0,1), 1 (0,2), 2 (1,1), 3 (1,2), 4 (1,3)
R23_MISERE = Rules((2, 3), misere=True)
SHORT = {"qlearning": {"schedule": ((1500, 0.9), (1500, 0.3))}}  # the seed's 30,000 games are too many here


def expected_from(rules, fill, cells):
    """A (positions x moves) table: ``fill`` on legal moves, 0 elsewhere, then ``cells`` set."""
    space = space_for(rules)
    table = np.where(space.legal, fill, 0.0)
    for (position, move), value in cells.items():
        table[space.index(position), space.move_index(move)] = value
    return table


def state(learner):
    return {key: np.copy(getattr(learner, key)) for key in learner.state_names}


def assert_same_state(a, b):
    for key in a.state_names:
        np.testing.assert_array_equal(getattr(a, key), getattr(b, key), err_msg=key)


# -- seed 001: win counts -------------------------------------------------------------


def test_wincount_adds_one_to_the_winners_moves_and_to_the_losers_other_moves():
    learner = make_learner("wincount", R23)
    # seat 0 takes the 3, seat 1 takes 1 of 2, seat 0 takes the last: seat 0 wins
    learner.learn_record(GameRecord((2, 3), ((1, 3), (0, 1), (0, 1)), winner=0))
    expected = expected_from(R23, 1.0, {((2, 3), (1, 3)): 2, ((1, 0), (0, 1)): 2,  # the winner's moves
                                        ((2, 0), (0, 2)): 2})  # the loser played (0,1) at (2,0): the other +1
    np.testing.assert_array_equal(learner.counts, expected)
    assert learner.games_played == 1


def test_wincount_normalises_a_row_whose_sum_exceeds_the_cutoff():
    learner = make_learner("wincount", R23, cutoff=6)
    # seat 0 loses with (1,3) at the start: its four other moves +1 -> [2,2,2,2,1], sum 9 > 6 but min - 1 = 0
    learner.learn_record(GameRecord((2, 3), ((1, 3), (0, 2)), winner=1), seats=(0,))
    np.testing.assert_array_equal(learner.counts[learner.space.start], [2, 2, 2, 2, 1])
    # seat 0 loses with (0,1) at the start and (1,2) at (0,3): [2,3,3,3,2] sum 13 -> minus 1
    learner.learn_record(GameRecord((2, 3), ((0, 1), (0, 1), (1, 2), (1, 1)), winner=1), seats=(0,))
    expected = expected_from(R23, 1.0, {})
    expected[learner.space.start] = [1, 2, 2, 2, 1]
    expected[learner.space.index((0, 3))] = [0, 0, 2, 1, 2]  # sum 5 <= 6: left alone
    np.testing.assert_array_equal(learner.counts, expected)  # seat 1's moves were not learned
    learner = make_learner("wincount", R23, cutoff=5)
    learner.counts[learner.space.index((2, 0)), :2] = [2, 2]
    for row in ([2, 3], [1, 3]):  # a win with (0,2): sum 5 is not > 5; the next, sum 6, is
        learner.learn_record(GameRecord((2, 0), ((0, 2),), winner=0))
        np.testing.assert_array_equal(learner.counts[learner.space.index((2, 0)), :2], row)


# -- seed 000: sub-games --------------------------------------------------------------


def test_subgame_counts_every_move_of_the_record_as_a_win_or_a_loss_for_its_player():
    learner = make_learner("subgame", R23_MISERE, stochastic=True)
    record = GameRecord((2, 3), ((1, 3), (0, 1), (0, 1)), winner=1)  # seat 0 took the last: loses
    learner.learn_record(record, seats=(0,))  # the seed learns the whole record, whoever played
    learner.learn_record(record)
    wins = expected_from(R23_MISERE, 0.0, {((2, 0), (0, 1)): 2})
    losses = expected_from(R23_MISERE, 0.0, {((2, 3), (1, 3)): 2, ((1, 0), (0, 1)): 2})
    np.testing.assert_array_equal(learner.wins, wins)
    np.testing.assert_array_equal(learner.losses, losses)
    # winProb = max(w,1)/max(l,1): at the start 1/2 for (1,3), 1 for the others -> /4.5
    row = learner.distribution((2, 3))
    assert row == [((0, 1), 1 / 4.5), ((0, 2), 1 / 4.5), ((1, 1), 1 / 4.5), ((1, 2), 1 / 4.5), ((1, 3), 0.5 / 4.5)]


def test_subgame_report_on_five_balls_take_three_misere():
    """Seed 000's OK!/NO!/--- report; the records are sub-games starting below the full heap."""
    rules = Rules((5,), 3, True)
    learner = make_learner("subgame", rules, stochastic=True)
    g1 = GameRecord((5,), ((0, 1), (0, 3), (0, 1)), winner=1)  # 5 -> 4 -> 1 -> 0
    g2 = GameRecord((3,), ((0, 1), (0, 2)), winner=0)  # 3 -> 2 -> 0
    g3 = GameRecord((2,), ((0, 1), (0, 1)), winner=0)  # 2 -> 1 -> 0
    g6 = GameRecord((4,), ((0, 3), (0, 1)), winner=0)  # 4 -> 1 -> 0
    for record in (g1, g2, g3, g3, g2, g6, g1):
        learner.learn_record(record)
    assert learner.report(solve(rules)) == [
        "--- 1 balls, best 0 probs: 1 with p=1.000 (w=0,l=5)",
        "OK! 2 balls, best 1 probs: 1 with p=0.800 (w=2,l=0), 2 with p=0.200 (w=0,l=2)",
        "NO! 3 balls, best 2 probs: 1 with p=0.500 (w=2,l=0), 2 with p=0.250 (w=0,l=0), 3 with p=0.250 (w=0,l=0)",
        "OK! 4 balls, best 3 probs: 3 with p=0.600 (w=3,l=0), 1 with p=0.200 (w=0,l=0), 2 with p=0.200 (w=0,l=0)",
        "--- 5 balls, best 0 probs: 2 with p=0.400 (w=0,l=0), 3 with p=0.400 (w=0,l=0), 1 with p=0.200 (w=0,l=2)",
    ]


# -- seed 003: move qualities ---------------------------------------------------------

NORMAL_GAME = GameRecord((2, 3), ((1, 3), (0, 1), (0, 1)), winner=0)  # (2,3) (2,0) (1,0) -> seat 0 takes the last


def test_quality_normal_play_verdicts_and_caps():
    learner = make_learner("quality", R23)
    learner.learn_record(NORMAL_GAME)
    expected = expected_from(R23, 50.0, {((2, 3), (1, 3)): 79,  # winner +29
                                         ((1, 0), (0, 1)): 1000,  # the winner's last move
                                         ((2, 0), (0, 1)): -1000})  # the loser's last move (39 first)
    np.testing.assert_array_equal(learner.quality, expected)
    learner.learn_record(NORMAL_GAME)
    expected[learner.space.start, 4] = 100  # 79 + 29 capped at 100
    np.testing.assert_array_equal(learner.quality, expected)
    for _ in range(5):  # seat 0 loses with (0,1) at the start: 50 39 28 17 6 0 (floor)
        learner.learn_record(GameRecord((2, 3), ((0, 1), (0, 1), (1, 2), (1, 1)), winner=1), seats=(0,))
    assert learner.quality[learner.space.start, 0] == 0
    # (2,3)->(1,3) then (0,2) ends it: (1,3) is now the loser's last move, -1000 ...
    learner.learn_record(GameRecord((2, 3), ((1, 3), (0, 2)), winner=1))
    assert learner.quality[learner.space.start, 4] == -1000
    learner.learn_record(NORMAL_GAME)  # ... and a later win through it leaves the verdict alone
    assert learner.quality[learner.space.start, 4] == -1000
    learner.quality[learner.space.start, 1] = 1000  # a hand-set +1000 survives a loss through it
    learner.learn_record(GameRecord((2, 3), ((0, 2), (1, 1), (1, 1), (1, 1)), winner=1))
    assert learner.quality[learner.space.start, 1] == 1000
    assert learner.quality[learner.space.index((0, 2)), 2] == -1000  # that game's last move of the loser


def test_quality_one_move_game_and_a_single_seat():
    learner = make_learner("quality", R23)
    learner.learn_record(GameRecord((0, 3), ((1, 3),), winner=0))  # no move before the last
    np.testing.assert_array_equal(learner.quality, expected_from(R23, 50.0, {((0, 3), (1, 3)): 1000}))
    learner = make_learner("quality", R23)
    learner.learn_record(NORMAL_GAME, seats=(1,))  # the loser's seat only: its last move, no +1000
    np.testing.assert_array_equal(learner.quality, expected_from(R23, 50.0, {((2, 0), (0, 1)): -1000}))


def test_quality_misere_only_the_ending_move_is_certain():
    record = GameRecord((2, 3), ((1, 3), (0, 1), (0, 1)), winner=1)  # seat 0 took the last: loses
    learner = make_learner("quality", R23_MISERE)
    learner.learn_record(record)
    np.testing.assert_array_equal(learner.quality, expected_from(R23_MISERE, 50.0, {
        ((2, 3), (1, 3)): 39, ((1, 0), (0, 1)): -1000, ((2, 0), (0, 1)): 79}))  # the winner's last: +29 only
    learner = make_learner("quality", R23_MISERE)
    learner.learn_record(record, seats=(1,))
    np.testing.assert_array_equal(learner.quality, expected_from(R23_MISERE, 50.0, {((2, 0), (0, 1)): 79}))


def test_quality_trains_among_moves_strictly_within_the_window_of_the_best():
    learner = make_learner("quality", R23)
    recorder = Recorder(learner)
    rng = np.random.default_rng(12)
    for _ in range(150):  # the start row reset before each game: 100 - 90 = 10 is out, 11 is in
        learner.quality[learner.space.start] = [100, 10, 11, 50, 0]
        learner.train(1, rng, opponent="dumb", seat="first")
    first = [int(moves[0]) for _, moves, _, _ in recorder.games]
    assert set(first) == {0, 2, 3} and min(first.count(k) for k in (0, 2, 3)) > 30


def test_quality_window_zero_is_refused():
    """A window of 0 would leave no move to explore (qualities must *exceed* best - window)."""
    with pytest.raises(ValueError, match="window must be > 0"):
        QualityLearner(R23, window=0.0)


# -- seed 002: Q-table ----------------------------------------------------------------


def test_qlearning_plus_one_to_the_winner_minus_one_to_the_loser():
    learner = make_learner("qlearning", R23_MISERE, symmetry=False)
    record = GameRecord((2, 3), ((1, 3), (0, 1), (0, 1)), winner=1)
    learner.learn_record(record)
    learner.learn_record(record, seats=(0,))
    np.testing.assert_array_equal(learner.q, expected_from(R23_MISERE, 0.0, {
        ((2, 3), (1, 3)): -2, ((2, 0), (0, 1)): 1, ((1, 0), (0, 1)): -2}))


def test_qlearning_over_multisets_shares_scores_between_arrangements():
    """The seed sorted its rows: by default the table is over multisets, and arrangements of
    the same piles (and moves from equal piles) share one score."""
    rules = Rules((3, 2), 2, True)
    records = [GameRecord((2, 1), ((0, 1), (0, 1), (1, 1)), winner=1),  # (2,1) (1,1) (0,1): seat 0 took the last
               GameRecord((3, 0), ((0, 2), (0, 1)), winner=0)]  # (3,0) (1,0): seat 1 took the last
    plain, shared = make_learner("qlearning", rules, symmetry=False), make_learner("qlearning", rules)
    assert shared.symmetry and not plain.symmetry
    for record in records:
        plain.learn_record(record)
        shared.learn_record(record)
    np.testing.assert_array_equal(plain.q, expected_from(rules, 0.0, {
        ((2, 1), (0, 1)): -1, ((0, 1), (1, 1)): -1, ((1, 1), (0, 1)): 1, ((3, 0), (0, 2)): 1, ((1, 0), (0, 1)): -1}))
    assert shared.table.shape == (space_for(rules, multiset=True).n_positions, rules.n_moves) == (9, 4)

    def cell(learner, piles, move):
        return learner.q[learner.space.index(piles), learner.space.move_index_at(piles, move)]

    assert [cell(shared, (2, 1), (0, 1)), cell(shared, (1, 2), (1, 1)),  # take one from the 2
            cell(shared, (0, 1), (1, 1)), cell(shared, (1, 0), (0, 1)),  # one cell, both games
            cell(shared, (1, 1), (0, 1)), cell(shared, (1, 1), (1, 1)),  # equal piles: one move
            cell(shared, (3, 0), (0, 2)), cell(shared, (0, 3), (1, 2)), cell(shared, (2, 1), (1, 1))] \
        == [-1, -1, -2, -2, 1, 1, 1, 1, 0]
    three = make_learner("qlearning", Rules((3, 1, 2), misere=True))  # arrangements by a 3-cycle
    three.learn_record(GameRecord((2, 0, 1), ((0, 1), (0, 1), (2, 1)), winner=1))  # seat 0 takes 1 of the 2: -1
    assert [cell(three, (2, 0, 1), (0, 1)), cell(three, (2, 1, 0), (0, 1)), cell(three, (0, 1, 2), (2, 1)),
            cell(three, (1, 0, 2), (2, 1)), cell(three, (2, 0, 1), (2, 1)), cell(three, (0, 1, 2), (1, 1))] \
        == [-1, -1, -1, -1, 0, 0]


def test_qlearning_retry_draws_from_the_seeds_grid():
    """Seed 002's (row, value) grid: 4 x 5 = 20 pairs on 2-3-4-5, 14 of them moves of the board."""
    learner = make_learner("qlearning", Rules((2, 3, 4, 5), misere=True))
    assert len(learner._grid) == 20 and sorted(k for k in learner._grid if k >= 0) == list(range(14))


def test_qlearning_epsilon_schedule():
    learner = make_learner("qlearning", R23)  # the seed's 12,000 @ .99, 9,000 @ .7, 6,000 @ .5, 3,000 @ .3
    assert [learner.epsilon_at(g) for g in (0, 11_999, 12_000, 20_999, 21_000, 26_999, 27_000, 29_999, 10**6)] \
        == [0.99, 0.99, 0.7, 0.7, 0.5, 0.5, 0.3, 0.3, 0.3]
    assert learner.episodes == 30_000
    learner = make_learner("qlearning", R23, schedule=((2, 1.0), (0, 0.5), (3, 0.0)))
    learner.train(2, np.random.default_rng(0))
    assert learner.epsilon_now == 1.0
    learner.train(1, np.random.default_rng(0))
    assert learner.epsilon_now == 0.0  # a step of 0 games is skipped
    assert make_learner("qlearning", R23, schedule=()).epsilon_at(0) == 0.0


# -- seed 004: TD and Monte Carlo -------------------------------------------------------

LONG_GAME = GameRecord((2, 3), ((1, 1), (0, 1), (1, 1), (0, 1), (1, 1)), winner=0)  # (2,3) (2,2) (1,2) (1,1) (0,1)
Q0 = {((2, 3), (1, 1)): 0.2, ((2, 2), (0, 1)): 0.4, ((1, 2), (0, 1)): 0.2, ((1, 2), (1, 1)): 0.6,
      ((1, 2), (1, 2)): 0.4, ((1, 1), (0, 1)): 0.5, ((1, 1), (1, 1)): 0.1, ((0, 1), (1, 1)): 0.3}


@pytest.mark.parametrize("name, after", [
    ("td", {((2, 3), (1, 1)): 0.2 + 0.5 * (0.9 * 0.6 - 0.2),  # s' = (1,2), before its own update
            ((1, 2), (1, 1)): 0.6 + 0.5 * (0.9 * 0.3 - 0.6),
            ((0, 1), (1, 1)): 0.3 + 0.5 * (1 - 0.3),  # the winner's last move: r = +1
            ((2, 2), (0, 1)): 0.4 + 0.5 * (0.9 * 0.5 - 0.4),
            ((1, 1), (0, 1)): 0.5 + 0.5 * (-1 - 0.5)}),  # the loser's last move: r = -1
    ("montecarlo", {((2, 3), (1, 1)): 0.2 + 0.5 * (0.81 - 0.2), ((1, 2), (1, 1)): 0.6 + 0.5 * (0.9 - 0.6),
                    ((0, 1), (1, 1)): 0.3 + 0.5 * (1 - 0.3),
                    ((2, 2), (0, 1)): 0.4 + 0.5 * (-0.9 - 0.4), ((1, 1), (0, 1)): 0.5 + 0.5 * (-1 - 0.5)}),
])
def test_reinforcement_update_by_hand(name, after):
    learner = make_learner(name, R23, alpha=0.5, gamma=0.9)
    learner.q = expected_from(R23, 0.0, Q0)
    learner.learn_record(LONG_GAME)
    np.testing.assert_allclose(learner.q, expected_from(R23, 0.0, {**Q0, **after}), rtol=0, atol=1e-15)
    learner.q = expected_from(R23, 0.0, Q0)
    learner.learn_record(LONG_GAME, seats=(1,))
    seat1 = {k: v for k, v in after.items() if k[0] in ((2, 2), (1, 1))}
    np.testing.assert_allclose(learner.q, expected_from(R23, 0.0, {**Q0, **seat1}), rtol=0, atol=1e-15)


def test_reinforcement_rates_decay_per_game_and_initial_values_are_small():
    td, mc = make_learner("td", R23), make_learner("montecarlo", R23)
    td.train(10, np.random.default_rng(1))
    mc.train(10, np.random.default_rng(1))
    assert td.alpha_now == pytest.approx(0.3 * 0.9995 ** 10, rel=1e-12) and td.epsilon_now == 0.4
    assert mc.epsilon_now == pytest.approx(0.3 - 10 * 0.0001, rel=1e-12) and mc.alpha_now == 0.5
    fresh = make_learner("td", R23, alpha=0.2, alpha_decay=0.5, alpha_min=0.1, epsilon=0.3, epsilon_decay=0.25)
    fresh.train(3, np.random.default_rng(2))
    assert (fresh.alpha_now, fresh.epsilon_now) == (0.1, 0.1)  # floored at alpha_min and epsilon_min
    untouched = make_learner("td", R23)
    assert len(untouched.train(0, np.random.default_rng(3))) == 0 and not untouched.q.any()  # no game, no draw
    untouched.initialise(np.random.default_rng(3))  # random initial values on legal moves only, in [0, 0.01)
    legal = untouched.space.legal
    assert np.all(untouched.q[~legal] == 0) and np.all((untouched.q[legal] > 0) & (untouched.q[legal] < 0.01))


@pytest.mark.parametrize("name, params, word", [
    ("wincount", {"cutoff": 0}, "cutoff"), ("wincount", {"cutoff": 2.5}, "integer"),
    ("wincount", {"cutof": 5}, "no parameter"), ("quality", {"window": -1.0}, "window"),
    ("quality", {"initial": 200.0}, "bounds"), ("qlearning", {"schedule": ((10, 1.5),)}, "epsilon"),
    ("qlearning", {"symmetry": 1}, "true or false"), ("td", {"gamma": 1.5}, "gamma"),
    ("montecarlo", {"alpha_decay": 1.0}, "alpha_decay"), ("td", {"alpha": float("nan")}, "number"),
])
def test_bad_parameters_are_refused(name, params, word):
    with pytest.raises(ValueError, match=word):
        make_learner(name, R23, **params)
    with pytest.raises(ValueError, match="unknown learner"):
        make_learner("sarsa", R23)


# -- training -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", LEARNERS)
def test_training_is_reproducible_and_depends_on_the_seed(name):
    rules = Rules((2, 3, 4), misere=True)
    a, b, c = (make_learner(name, rules, **SHORT.get(name, {})) for _ in range(3))
    won_a, won_b = a.train(300, np.random.default_rng(5)), b.train(300, np.random.default_rng(5))
    c.train(300, np.random.default_rng(6))
    assert_same_state(a, b)
    np.testing.assert_array_equal(won_a, won_b)
    assert any(not np.array_equal(getattr(a, key), getattr(c, key)) for key in a.state_names)
    assert a.games_played == 300 and a.training == [{"episodes": 300, "opponent": None, "seat": "self-play"}]


@pytest.mark.parametrize("name", LEARNERS)
def test_short_training_beats_random(name):
    """Exact win probability from the start against random (mean of both seats); optimal play gets 0.989."""
    rules = Rules((2, 3, 4), misere=True)
    space, random = space_for(rules), make_agent("random", rules)
    learner = make_learner(name, rules, **SHORT.get(name, {}))
    untrained = win_probabilities(space, learner.policy(space), random)[space.start].mean()
    learner.train(3000, np.random.default_rng(7))
    table = learner.policy(space)
    check_table(table, space)
    trained = win_probabilities(space, table, random)[space.start]
    assert untrained == pytest.approx(0.5, abs=0.06)
    assert trained.mean() > 0.9 and trained.min() > 0.85, trained


class Recorder:
    """Wraps a learner's training move (explore) and update to see who played what."""

    def __init__(self, learner):
        self.games, self.chosen = [], []
        explore, update = learner.explore, learner.update
        learner.explore = lambda position, legal, rng: self.chosen.append(position) or explore(position, legal, rng)
        learner.update = lambda p, m, w, s: self.games.append((p.copy(), m.copy(), w, s)) or update(p, m, w, s)


@pytest.mark.parametrize("seat", ["first", "second", "alternate", "loser", None])
def test_training_seats_against_a_deterministic_opponent(seat):
    rules = Rules((2, 3, 4), misere=True)
    learner = make_learner("qlearning", rules, schedule=((40, 0.5),))
    recorder = Recorder(learner)
    space = learner.space
    if seat is None:
        won = learner.train(40, np.random.default_rng(8))
    else:
        won = learner.train(40, np.random.default_rng(8), opponent="dumb", seat=seat)
    learner_plies = []
    for i, (positions, moves, winner, seats) in enumerate(recorder.games):
        assert winner == 1 - (len(moves) - 1) % 2  # misere: whoever took the last lost
        assert won[i] == (winner == seats[0])
        expected = {"first": (0,), "second": (1,), "alternate": ((0,), (1,))[i % 2], None: (0, 1),
                    "loser": (0,) if i == 0 or not won[i - 1] else (1,)}[seat]
        assert seats == expected
        for ply, (position, move) in enumerate(zip(positions, moves)):
            piles = space.position(position)
            if ply % 2 in seats:
                learner_plies.append(position)
            else:  # dumb: one object from the longest pile (the first of the longest)
                assert space.move(move) == (piles.index(max(piles)), 1)
    assert recorder.chosen == learner_plies
    if seat == "loser":
        assert 0 < won.sum() < 40  # both seats were played
    assert learner.training[-1]["seat"] == (seat or "self-play")
    with pytest.raises(ValueError, match="seat"):
        learner.train(1, np.random.default_rng(0), opponent="random", seat="middle")


# -- policies -----------------------------------------------------------------------------

RETRY = .99 * 5 / 6 / (.99 * 5 / 6 + .01)
HAND = {  # name: (state settings at the start of 2-3, greedy row, stochastic row)
    "wincount": ({"counts": [1, 3, 2, 3, 1]}, [0, .5, 0, .5, 0], [.1, .3, .2, .3, .1]),
    "subgame": ({"wins": [0, 4, 2, 6, 1], "losses": [3, 2, 0, 3, 0]},  # ratios 1/3, 2, 2, 2, 1
                [0, 1 / 3, 1 / 3, 1 / 3, 0], [1 / 22, 6 / 22, 6 / 22, 6 / 22, 3 / 22]),
    "quality": ({"quality": [50, 100, 10, 60, 0]}, [0, 1, 0, 0, 0], [1 / 3, 1 / 3, 0, 1 / 3, 0]),  # > 100 - 90
    # epsilon 0.99 before any game; the retry draws from the seed's grid of 2 x 3 pairs, 5 of them legal
    # here, so the move is random with probability r = .99 * 5/6 / (.99 * 5/6 + .01)
    "qlearning": ({"table": [0, 2, -1, 2, 1]}, [0, .5, 0, .5, 0],
                  [RETRY / 5, RETRY / 5 + (1 - RETRY) / 2, RETRY / 5, RETRY / 5 + (1 - RETRY) / 2, RETRY / 5]),
    "td": ({"q": [.1, .5, .2, .3, .4]}, [0, 1, 0, 0, 0], [.08, .68, .08, .08, .08]),  # epsilon 0.4
    "montecarlo": ({"q": [.1, .5, .2, .3, .4], "epsilon_now": 0.2}, [0, 1, 0, 0, 0], [.04, .84, .04, .04, .04]),
}


@pytest.mark.parametrize("name", LEARNERS)
def test_greedy_and_stochastic_rows_on_a_hand_set_state(name):
    settings, greedy, stochastic = HAND[name]
    for mode, row in ((False, greedy), (True, stochastic)):
        learner = make_learner(name, R23, stochastic=mode)
        for key, value in settings.items():
            if np.ndim(getattr(learner, key)):
                getattr(learner, key)[learner.space.start] = value
            else:
                setattr(learner, key, value)
        table = learner.policy(learner.space)
        check_table(table, learner.space)
        np.testing.assert_allclose(table[learner.space.start], row, rtol=0, atol=1e-12)
        moves, probabilities = zip(*learner.distribution((2, 3)))
        assert moves == tuple(learner.space.move(k) for k, p in enumerate(row) if p > 0)
        assert probabilities == pytest.approx([p for p in row if p > 0], abs=1e-12)


def test_qlearning_stochastic_uses_the_schedules_epsilon_at_its_games_played():
    learner = make_learner("qlearning", R23, stochastic=True)
    learner.table[learner.space.start] = [0, 2, -1, 2, 1]
    learner.games_played = 30_000
    r = .3 * 5 / 6 / (.3 * 5 / 6 + .7)  # epsilon 0.3; a random pair of the grid's 6 is legal 5 times in 6
    np.testing.assert_allclose(learner.policy(learner.space)[learner.space.start],
                               [r / 5, r / 5 + (1 - r) / 2, r / 5, r / 5 + (1 - r) / 2, r / 5])


@pytest.mark.parametrize("name", LEARNERS)
def test_trained_policies_are_valid_and_distribution_matches(name):
    rules = Rules((9,), 3)
    for stochastic in (False, True):
        learner = make_learner(name, rules, stochastic=stochastic, **SHORT.get(name, {}))
        learner.train(200, np.random.default_rng(9))
        space = learner.space
        table = learner.policy(space)
        check_table(table, space)
        for index in range(1, space.n_positions):
            expected = [(space.move(k), table[index, k]) for k in np.flatnonzero(table[index])]
            assert learner.distribution(space.position(index)) == expected
        if not stochastic:
            assert set(np.unique(table[1:])) <= {0.0, 0.5, 1 / 3, 1.0}  # uniform among the best
    with pytest.raises(ValueError, match="trained for"):
        learner.policy(space_for(Rules((9,), 2)))


# -- pickling ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", LEARNERS)
def test_learners_pickle_and_keep_training_identically(name):
    rules = Rules((2, 3, 4), misere=True)
    learner = make_learner(name, rules, stochastic=True, **SHORT.get(name, {}))
    learner.train(100, np.random.default_rng(10))
    clone = pickle.loads(pickle.dumps(learner))
    assert_same_state(clone, learner)
    assert (clone.params, clone.games_played, clone.stochastic) == (learner.params, 100, True)
    np.testing.assert_array_equal(clone.policy(clone.space), learner.policy(learner.space))
    clone.train(100, np.random.default_rng(11))
    learner.train(100, np.random.default_rng(11))
    assert_same_state(clone, learner)


@pytest.mark.parametrize("exploration, expected", [("retry", 1 / 22), ("uniform", 0.25)])
def test_qlearning_exploration_retries_illegal_columns_as_the_seed_did(exploration, expected):
    """Seed 002 drew a (row, value) pair of its whole grid (4 x 5 = 20 on 2-3-4-5) and drew
    again while it was no legal move: at epsilon 0.5 with 2 legal moves a random move is
    played with chance (0.5 * 2/20) / (0.5 * 2/20 + 0.5) = 1/11, the non-greedy one 1/22 of
    the time."""
    from nim_evo.learners.base import Uniforms

    learner = QLearner(Rules((2, 3, 4, 5), misere=True), exploration=exploration)
    space = learner.space
    position = space.index((0, 0, 0, 2))
    legal = np.flatnonzero(space.legal[position])
    assert len(legal) == 2 and learner.table.shape[1] == 14
    learner.table[position, legal[0]] = 5.0  # the greedy move
    learner.epsilon_now = 0.5
    uniforms = Uniforms(np.random.default_rng(8))
    other = np.mean([learner.explore(position, legal, uniforms) == legal[1] for _ in range(40_000)])
    assert other == pytest.approx(expected, abs=0.006)
    learner.games_played = 12_000 + 9_000  # the schedule's epsilon 0.5
    learner.stochastic = True
    assert learner.policy(space)[position, legal[1]] == pytest.approx(expected)
