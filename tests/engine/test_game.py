"""Tests of nim_evo.engine.game: one game at a time on the scalar path (play_game, GameRecord)."""

from __future__ import annotations

import numpy as np
import pytest

from nim_evo.validation import AgentError

from nim_evo.engine.game import GameRecord, play_game
from nim_evo.engine.rules import PRESETS, Rules


class _UniformAgent:
    """A test-local agent: uniform over the rules' legal moves."""

    def __init__(self, rules):
        self.rules = rules

    def move(self, piles, rng):
        moves = self.rules.legal_moves(piles)
        return moves[rng.integers(len(moves))]


class _GreedyAgent:
    """A test-local agent: take as much as allowed from the first non-empty pile."""

    def __init__(self, rules):
        self.rules = rules

    def move(self, piles, rng):
        pile = next(i for i, n in enumerate(piles) if n)
        return max((m for m in self.rules.legal_moves(piles) if m[0] == pile), key=lambda m: m[1])


def _check_record(rules, record, start=None):
    start = rules.start if start is None else tuple(start)
    assert isinstance(record, GameRecord)
    assert record.start == start
    assert len(record.moves) >= 1
    position = start
    for move in record.moves:
        assert rules.is_legal(position, move), (position, move)
        position = rules.apply(position, move)
    assert not any(position)
    assert record.positions(rules)[0] == start
    assert record.positions(rules)[-1] == (0,) * len(start)
    assert len(record.positions(rules)) == len(record.moves) + 1
    last_mover = (len(record.moves) - 1) % 2
    expected = last_mover if not rules.misere else 1 - last_mover
    assert record.winner == expected
    assert record.winner in (0, 1)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_play_game_records_replay_and_winner_follows_ending(name):
    """Random games on every preset replay legally to the empty board; the winner follows the ending."""
    rules = Rules.preset(name)
    rng = np.random.default_rng(1234)
    players = (_UniformAgent(rules), _UniformAgent(rules))
    winners = set()
    for _ in range(40):
        record = play_game(rules, players, rng)
        _check_record(rules, record)
        winners.add(record.winner)
    assert winners == {0, 1}


def test_play_game_with_library_random_agent_and_custom_start():
    """play_game works with the library's RandomAgent and from a custom start, on capped boards."""
    from nim_evo.agents.base import RandomAgent

    rng = np.random.default_rng(77)
    for rules in (Rules((5, 4), 2, True), Rules((5, 4), 2, False), Rules((6,), 3, True)):
        players = (RandomAgent(rules), RandomAgent(rules))
        for _ in range(20):
            _check_record(rules, play_game(rules, players, rng))
        start = tuple(max(0, p - 1) for p in rules.piles)
        _check_record(rules, play_game(rules, players, rng, start=start), start)


def test_play_game_deterministic_winner():
    """A single heap of 1 ends after one move: the mover wins in normal play, loses in misère."""
    rng = np.random.default_rng(0)
    for misere, winner in ((False, 0), (True, 1)):
        rules = Rules((1,), misere=misere)
        record = play_game(rules, (_UniformAgent(rules), _UniformAgent(rules)), rng)
        assert record.moves == ((0, 1),)
        assert record.winner == winner
    for misere, winner in ((False, 1), (True, 0)):
        rules = Rules((1, 1), misere=misere)
        record = play_game(rules, (_GreedyAgent(rules), _GreedyAgent(rules)), rng)
        assert record.moves == ((0, 1), (1, 1))
        assert record.winner == winner


def test_play_game_same_seed_same_game():
    """The same seed gives the same game."""
    rules = Rules.preset("1-3-5-7-9")
    players = (_UniformAgent(rules), _UniformAgent(rules))
    a = play_game(rules, players, np.random.default_rng(99))
    b = play_game(rules, players, np.random.default_rng(99))
    assert a == b


def test_play_game_rejects_finished_start_and_illegal_agent_moves():
    """An empty start is the caller's mistake (a UserError); an agent's illegal move is the
    agent's (an AgentError naming it, the move and the position)."""
    rules = Rules((3, 2))
    players = (_UniformAgent(rules), _UniformAgent(rules))
    with pytest.raises(ValueError, match="already over"):
        play_game(rules, players, np.random.default_rng(0), start=(0, 0))
    with pytest.raises(ValueError):
        play_game(rules, players, np.random.default_rng(0), start=(1, 2, 3))

    class Cheater:
        def move(self, piles, rng):
            return (0, 99)

    with pytest.raises(AgentError, match=r"^Cheater played the illegal move \(0, 99\) in position \(3, 2\) of 3-2$"):
        play_game(rules, (Cheater(), Cheater()), np.random.default_rng(0))


def test_a_game_that_outlasts_the_move_limit_stops_with_one_error():
    """Two players taking one object at a time from a pile of 50 need 50 moves: with a limit
    of 10 the game stops with the one user-error type, saying how many objects are left."""
    from nim_evo import make_agent
    from nim_evo.validation import UserError

    rules = Rules((50,))
    dumb = make_agent("dumb", rules)
    with pytest.raises(UserError, match=r"not over after 10 moves \(40 objects left\)"):
        play_game(rules, [dumb, dumb], np.random.default_rng(0), max_moves=10)
    assert len(play_game(rules, [dumb, dumb], np.random.default_rng(0), max_moves=50).moves) == 50
