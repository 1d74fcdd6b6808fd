"""Course-style players are agents: a ``choose_action`` object and a function of a state with
``rows`` and ``k`` play wherever a person's agent does (tests/data/course_players.py)."""

from __future__ import annotations

import random
from copy import deepcopy
from pathlib import Path

import numpy as np
import pytest

from nim_evo import Rules, as_player, play_game, tournament
from nim_evo.agents.adapted import RandomMoves
from nim_evo.agents.course import ChooseActionAgent, CourseState, StateFunctionAgent
from nim_evo.agents.imported import import_agent
from nim_evo.agents.protocol import is_agent
from nim_evo.validation import AgentError, IllegalMove, UserError

PLAYERS = Path(__file__).parents[1] / "data" / "course_players.py"
CS50 = Rules((1, 3, 5, 7), misere=True)
LAB = Rules((1, 3, 5, 7, 9))


def test_both_shapes_are_recognised_and_named(course):
    ai = course.NimAI()
    assert is_agent(ai) and is_agent(course.expert)
    assert not is_agent(course.trained_ai)  # a factory of no arguments makes one
    assert isinstance(as_player(ai, CS50), ChooseActionAgent)
    player = as_player(course.expert, LAB)
    assert isinstance(player, StateFunctionAgent) and player.name == "expert"
    assert not player.order_blind  # both read the piles in order: judged on the ordered board


def test_a_lab_strategy_is_asked_with_a_state_it_can_copy_and_play_on(course):
    player = as_player(course.expert, LAB)
    # the expert finds the nim-sum move by deepcopy + nimming_remove on copies
    assert player.move((1, 3, 5, 7, 9), np.random.default_rng(0)) == (4, 9)  # 1^3^5^7^9 = 9: empty the pile of 9
    state = CourseState((1, 2), k=2)
    copy = deepcopy(state)
    copy.nimming((1, 2))
    assert state.rows == (1, 2) and copy.rows == (1, 0) and bool(copy) and str(copy) == "<1 0>"
    with pytest.raises(ValueError, match="illegal move"):
        copy.nimming_remove(0, 2)
    capped = as_player(course.gabriele, Rules((5, 5), 2))  # the cap reaches the strategy as state.k
    assert capped.move((5, 5), np.random.default_rng(0)) == (0, 2)


def test_every_spec_shape_imports_a_course_player():
    ai = import_agent(f"{PLAYERS}:trained_ai", CS50)  # a factory of no arguments
    assert isinstance(ai, ChooseActionAgent) and ai.name == "NimAI"
    assert isinstance(import_agent(f"{PLAYERS}:NimAI", CS50), ChooseActionAgent)  # a class
    assert isinstance(import_agent(f"{PLAYERS}:untrained_ai", CS50), ChooseActionAgent)  # an object
    lab = import_agent(f"{PLAYERS}:gabriele", LAB)  # a function of a state, not called as a factory
    assert isinstance(lab, StateFunctionAgent) and lab.name == "gabriele"


def test_a_class_is_refused_and_an_answer_that_is_no_move_is_an_error(course):
    with pytest.raises(UserError, match=r"^NimAI is a class: give one of its objects, NimAI\(\.\.\.\)$"):
        as_player(course.NimAI, CS50)

    class Sloppy:
        def choose_action(self, piles, epsilon=True):
            return 0, 1.7

    with pytest.raises(AgentError, match=r"Sloppy answered \(0, 1\.7\) at \(1, 3\); a move is \(pile, count\), two "
                                         r"whole numbers"):
        as_player(Sloppy(), Rules((1, 3))).move((1, 3), np.random.default_rng(0))

    class Nothing:
        def choose_action(self, piles, epsilon=True):
            return None

    with pytest.raises(AgentError, match=r"Nothing answered None at \(1, 3\); it should answer \(i, j\)"):
        as_player(Nothing(), Rules((1, 3))).move((1, 3), np.random.default_rng(0))


def test_the_greedy_move_is_asked_with_epsilon_false(course):
    class Greedy:
        def __init__(self):
            self.asked = []

        def choose_action(self, piles, epsilon=True):
            self.asked.append((list(piles), epsilon))
            return 0, 1

    greedy = Greedy()
    as_player(greedy, Rules((2, 2))).distribution((2, 2))
    assert greedy.asked and all(epsilon is False and piles == [2, 2] for piles, epsilon in greedy.asked)


def test_a_player_that_breaks_ties_at_random_plays_games_but_has_no_table(course):
    """Its randomness is Python's random module, seeded from the game's generator for each
    move and put back afterwards: the same seed plays the same game, and a person's own
    random state is left as it was."""
    player = as_player(course.untrained_ai, CS50)
    with pytest.raises(RandomMoves, match="its moves are random"):
        player.distribution((1, 3, 5, 7))
    random.seed(123)
    np.random.seed(123)
    before = random.random(), np.random.random()
    random.seed(123)
    np.random.seed(123)
    games = [play_game(CS50, [player, player], np.random.default_rng(seed)).moves for seed in (5, 5, 6)]
    assert (random.random(), np.random.random()) == before
    assert games[0] == games[1] and games[0] != games[2]


def test_an_illegal_move_and_an_exception_name_the_player_and_the_position(course):
    rules = Rules((3, 4))
    with pytest.raises(IllegalMove, match=r"cheater played the illegal move \(0, 4\) in position \(3, 4\)"):
        as_player(course.cheater, rules).move((3, 4), np.random.default_rng(0))
    with pytest.raises(AgentError, match=r"broken raised KeyError at \(1, 1\): 'no entry"):
        as_player(course.broken, rules).move((1, 1), np.random.default_rng(0))
    with pytest.raises(UserError, match="Nimply needs 2 arguments"):
        import_agent(f"{PLAYERS}:Nimply", rules)


def test_course_players_play_in_tournaments_exactly(course):
    """The lab's expert (nim-sum by brute force) is compiled to a table and evaluated exactly:
    from the winning start it wins for sure, as nim_evo's nimsum does, and the greedy one-move
    strategy, which never looks for the nim-sum, does not."""
    ours = tournament(LAB, "nimsum", ["random"], exact=True)[0]
    expert = tournament(LAB, course.expert, ["random"], exact=True)[0]
    greedy = tournament(LAB, course.gabriele, ["nimsum"], exact=True)[0]
    assert expert.exact and expert.first_rate == pytest.approx(1.0, abs=1e-12) == ours.first_rate
    assert 0.99 < expert.second_rate < 1
    assert greedy.first_rate == 0 and greedy.second_rate == 0
