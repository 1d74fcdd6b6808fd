"""Learners: exact update rules on hand-made games, self-play, training that beats random."""

import pickle

import numpy as np
import pytest

from nim_evo import GameRecord, Rules, make_agent, play_game, win_probabilities
from nim_evo.learners import QLearner
from nim_evo.policy import check_table


def test_qlearning_update_on_a_hand_made_game():
    """Seed 002: every move of the winner gains 1, every move of the loser loses 1."""
    rules = Rules((2, 3), misere=True)
    learner = QLearner(rules)
    record = GameRecord((2, 3), ((1, 3), (0, 1), (0, 1)), winner=1)  # seat 0 took the last: loses
    learner.learn_record(record)
    space = learner.space
    expected = np.zeros_like(learner.q)
    for position, move, delta in [((2, 3), (1, 3), -1), ((2, 0), (0, 1), +1), ((1, 0), (0, 1), -1)]:
        expected[space.index(position), space.move_index(move)] = delta
    np.testing.assert_array_equal(learner.q, expected)
    learner.learn_record(record)
    np.testing.assert_array_equal(learner.q, 2 * expected)
    assert learner.games_played == 2


@pytest.mark.parametrize("misere", [False, True])
def test_self_play_games_are_legal_and_scored_by_the_rules(misere):
    rules = Rules((2, 3, 4), misere=misere)
    learner = QLearner(rules)
    rng = np.random.default_rng(4)
    for _ in range(50):
        positions, moves, winner = learner.self_play(rng, epsilon=1.0)
        space = learner.space
        assert positions[0] == space.start
        for position, move, following in zip(positions, moves, positions[1:] + [0]):
            assert space.legal[position, move] and space.next[position, move] == following
        last_mover = (len(moves) - 1) % 2
        assert winner == (last_mover if not misere else 1 - last_mover)


def test_training_is_reproducible_and_beats_random():
    """The same seed gives the same table; a short schedule plays far better than random."""
    rules = Rules((2, 3, 4), misere=True)
    schedule = ((3000, 0.9), (2000, 0.5))
    a, b = QLearner(rules, schedule), QLearner(rules, schedule)
    assert a.train(np.random.default_rng(11)) == 5000
    b.train(np.random.default_rng(11))
    np.testing.assert_array_equal(a.q, b.q)
    space = a.space
    table = a.policy(space)
    check_table(table, space)
    random = make_agent("random", rules)
    trained = win_probabilities(space, table, random)[space.start].mean()
    untrained = win_probabilities(space, QLearner(rules).policy(space), random)[space.start].mean()
    assert untrained == pytest.approx(0.5, abs=0.05) and trained > 0.85


def test_learner_is_an_agent_and_pickles():
    rules = Rules((2, 3))
    learner = QLearner(rules, ((500, 0.8),))
    learner.train(np.random.default_rng(0))
    clone = pickle.loads(pickle.dumps(learner))
    np.testing.assert_array_equal(clone.q, learner.q)
    rng = np.random.default_rng(1)
    record = play_game(rules, (clone, make_agent("random", rules)), rng)
    assert record.winner in (0, 1)
    with pytest.raises(ValueError, match="epsilon"):
        QLearner(rules, ((10, 1.5),))


def test_sorted_positions_share_scores_between_permutations():
    """Seed 002 sorted the piles: a game from (1, 2) teaches the mirrored position (2, 1) too."""
    rules = Rules((2, 2), misere=True)
    learner = QLearner(rules, sorted_positions=True)
    learner.learn_record(GameRecord((1, 2), ((1, 2), (0, 1)), winner=0))  # seat 1 took the last: loses
    space, q = learner.space, learner.q
    cell = lambda position, move: q[space.index(position), space.move_index(move)]
    assert cell((1, 2), (1, 2)) == cell((2, 1), (0, 2)) == 1.0      # empty the pile of two
    assert cell((1, 0), (0, 1)) == cell((0, 1), (1, 1)) == -1.0     # take the last single
    assert cell((1, 2), (0, 1)) == cell((2, 1), (1, 1)) == 0.0      # untouched
    plain = QLearner(rules)
    plain.learn_record(GameRecord((1, 2), ((1, 2), (0, 1)), winner=0))
    assert plain.q[space.index((2, 1)), space.move_index((0, 2))] == 0.0


def test_sorted_training_on_an_unsorted_start():
    """7-5-3 (seed 003's board, not sorted) trains with shared scores and keeps legal policies."""
    rules = Rules((7, 5, 3))
    learner = QLearner(rules, ((2000, 0.9),), sorted_positions=True)
    learner.train(np.random.default_rng(2))
    check_table(learner.policy(learner.space), learner.space)
