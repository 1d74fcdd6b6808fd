"""The agent protocol: anything with ``move(piles, rng)`` plays in tournaments and exact
evaluation (compiled when it is deterministic or gives a distribution), and anything else
is told in one line what an agent needs."""

import numpy as np
import pytest

import nim_evo
from nim_evo import Rules, make_agent, tournament
from nim_evo.agents import Agent
from nim_evo.validation import AgentError, UserError

BOARD = Rules((2, 3, 4))


class Greedy:
    """Take everything from the longest pile (the first of the longest): move only."""

    name = "greedy"

    def move(self, piles, rng):
        pile = max(range(len(piles)), key=lambda i: (piles[i], -i))
        return pile, piles[pile]


class GreedyDistribution(Greedy):
    def distribution(self, piles):
        return [(self.move(piles, None), 1.0)]


class Uniform:
    """Every legal move equally likely, as a distribution (no base class)."""

    def __init__(self, rules):
        self.rules = rules

    def move(self, piles, rng):
        moves = self.rules.legal_moves(piles)
        return moves[rng.integers(len(moves))]

    def distribution(self, piles):
        moves = self.rules.legal_moves(piles)
        return [(m, 1 / len(moves)) for m in moves]


class UniformMoveOnly(Uniform):
    distribution = None

    def __getattribute__(self, name):
        if name == "distribution":
            raise AttributeError(name)
        return super().__getattribute__(name)


class Cheat(Greedy):
    def move(self, piles, rng):
        return 0, 99


def rates(player, opponents=("random", "nimsum"), **options):
    return [(r.opponent, r.first_rate, r.second_rate) for r in tournament(BOARD, player, list(opponents), exact=True,
                                                                          **options)]


def test_a_move_only_agent_is_evaluated_like_its_distribution():
    assert rates(Greedy()) == rates(GreedyDistribution())
    assert rates(Greedy())[0][0] == "random"


def test_a_move_only_agent_plays_sampled_tournaments_and_as_an_opponent():
    sampled = tournament(BOARD, Greedy(), ["random"], games=400, seed=1)[0]
    exact = tournament(BOARD, Greedy(), ["random"], exact=True)[0]
    assert abs(sampled.win_rate - exact.win_rate) < 0.08
    against = tournament(BOARD, make_agent("nimsum", BOARD), [Greedy()], exact=True)[0]
    assert against.opponent == "greedy" and against.first_rate == 1.0  # 2-3-4 is a first-player win


def test_a_random_distribution_agent_is_exactly_the_random_agent():
    assert rates(Uniform(BOARD)) == rates(make_agent("random", BOARD))


def test_a_random_agent_without_a_distribution_is_refused_in_one_line():
    with pytest.raises(UserError, match=r"plays .* and then .* from \(.*\): an agent whose moves are random needs "
                                        r"distribution\(piles\)"):
        tournament(BOARD, UniformMoveOnly(BOARD), ["random"], exact=True)


def test_something_that_is_no_agent_is_told_what_an_agent_needs():
    nothing = type("Nothing", (), {})()
    for call in (lambda: tournament(BOARD, nothing, ["random"], exact=True),
                 lambda: tournament(BOARD, make_agent("random", BOARD), [nothing], games=10, seed=0)):
        with pytest.raises(UserError, match=r"^(player|opponents\[0\]) must be an agent \(with move\(piles, rng\)"):
            call()


def test_an_illegal_move_is_the_agents_fault_named_with_its_position():
    """An agent's illegal move is its bug, not the person's input: an AgentError (a
    RuntimeError, its traceback kept) naming the agent, the position and the move."""
    for call in (lambda: tournament(BOARD, Cheat(), ["random"], exact=True),
                 lambda: nim_evo.play_game(BOARD, (Cheat(), Uniform(BOARD)), np.random.default_rng(0))):
        with pytest.raises(AgentError, match=r"^greedy played the illegal move \(0, 99\) in position \(\d, \d, \d\)"):
            call()


def test_duck_agents_play_the_same_over_multisets():
    for agent in (Greedy(), Uniform(BOARD)):
        ordered, multisets = rates(agent), rates(agent, multiset=True)
        assert [r[0] for r in multisets] == [r[0] for r in ordered]
        assert np.allclose([r[1:] for r in multisets], [r[1:] for r in ordered], atol=1e-12)


def test_the_built_in_agents_meet_the_protocol():
    assert isinstance(make_agent("nimsum", BOARD), Agent) and isinstance(Greedy(), Agent)
    assert not isinstance(object(), Agent)
    assert nim_evo.play_game(BOARD, (Greedy(), Uniform(BOARD)), np.random.default_rng(0)).moves
