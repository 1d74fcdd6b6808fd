"""nim_evo players as pyspiel bots in OpenSpiel's nim, and pyspiel bots as nim_evo agents."""

import re
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
from open_spiel.python.bots.uniform_random import UniformRandomBot

from nim_evo import Rules, as_player, make_agent, solve, tournament
from nim_evo.interop.extras import MissingExtra
from nim_evo.interop.openspiel import agent, bot, game_of, rules_of
from nim_evo.validation import UserError

GENOME = Path(__file__).resolve().parents[2] / "genomes" / "7-5-3-seed1-rules.json"
GAMES = 200
BOARDS = [("1;3;5;7", True), ("1;3;5;7", False), ("3;4;5", False), ("3;4;5", True)]


def load(pile_sizes, misere):
    return pyspiel.load_game("nim", {"pile_sizes": pile_sizes, "is_misere": misere})


def winning_seat(game) -> int:
    """The seat Nim theory says wins ``game`` from its start."""
    rules = rules_of(game)
    return 0 if solve(rules).is_win(rules.piles) else 1


def play(game, bots, games=GAMES):
    """The returns of ``games`` games between ``bots`` (kept across games: their generators go on)."""
    rng = np.random.default_rng(0)
    return [evaluate_bots(game.new_initial_state(), bots, rng) for _ in range(games)]


def told(state, action):
    """``(pile, take)`` of an action, as OpenSpiel spells it (``pile:P, take:T;``, piles from 1)."""
    pile, take = re.fullmatch(r"pile:(\d+), take:(\d+);", state.action_to_string(action)).groups()
    return int(pile) - 1, int(take)


class Plays(pyspiel.Bot):
    """A pyspiel bot that plays one given action, for whoever is to move."""

    def __init__(self, action):
        pyspiel.Bot.__init__(self)
        self.action = action

    def step(self, state):
        return self.action

    def restart_at(self, state):
        pass


class FirstLegal(pyspiel.Bot):
    """A pyspiel bot without a policy: the smallest legal action (one object from the first
    pile that has one)."""

    def __init__(self):
        pyspiel.Bot.__init__(self)

    def step(self, state):
        return state.legal_actions()[0]

    def restart_at(self, state):
        pass


class FirstMove:
    """nim_evo's twin of :class:`FirstLegal`."""

    def __init__(self, rules):
        self.rules = rules

    def move(self, piles, rng):
        return self.rules.legal_moves(piles)[0]


class Fixed:
    """A nim_evo agent that plays one given move."""

    def __init__(self, move):
        self.chosen = move

    def move(self, piles, rng):
        return self.chosen


def test_rules_and_game_translate_both_ways():
    default = pyspiel.load_game("nim")
    assert rules_of(default) == Rules((1, 3, 5, 7), misere=True)
    for rules in (Rules((7, 5, 3)), Rules((3, 0, 5), misere=True), Rules((21,))):
        assert rules_of(game_of(rules)) == rules
    assert game_of(Rules((3, 4, 5))).get_parameters() == {"pile_sizes": "3;4;5", "is_misere": False}


@pytest.mark.parametrize("pile_sizes, misere", BOARDS)
def test_nimsum_wins_every_game_from_its_winning_seat(pile_sizes, misere):
    game = load(pile_sizes, misere)
    seat = winning_seat(game)
    assert (pile_sizes, misere, seat) in {("1;3;5;7", True, 1), ("1;3;5;7", False, 1),
                                          ("3;4;5", False, 0), ("3;4;5", True, 0)}
    bots = [pyspiel.make_uniform_random_bot(1 - seat, 7)] * 2
    bots[seat] = bot("nimsum", game, seed=1)
    results = play(game, bots)
    assert all(returns[seat] == 1.0 and returns[1 - seat] == -1.0 for returns in results)


@pytest.mark.parametrize("pile_sizes, misere", [("1;3;5;7", True), ("3;4;5", False)])
def test_two_nim_evo_bots_in_both_seats(pile_sizes, misere):
    game = load(pile_sizes, misere)
    seat = winning_seat(game)
    bots = [bot("random", game, seed=3)] * 2
    bots[seat] = bot("nimsum", game, seed=4)
    histories = set()
    rng = np.random.default_rng(0)
    for _ in range(100):
        state = game.new_initial_state()
        assert evaluate_bots(state, bots, rng)[seat] == 1.0
        histories.add(tuple(state.history()))
    assert len(histories) > 10  # the random bot's generator goes on from game to game


def test_same_seed_same_games():
    game = load("3;4;5", False)
    first, second = (play(game, [bot("random", game, seed=9), bot("random", game, seed=10)], 20) for _ in range(2))
    assert first == second


def test_random_bot_policy_is_uniform_over_legal_actions():
    game = pyspiel.load_game("nim")
    player, state = bot("random", game, seed=2), game.new_initial_state()
    assert player.provides_policy()
    while not state.is_terminal():
        policy, action = player.step_with_policy(state)
        legal = state.legal_actions()
        assert [a for a, _ in policy] == legal
        assert all(p == pytest.approx(1 / len(legal)) for _, p in policy)
        assert action in legal
        state.apply_action(action)
    assert player.step_with_policy(state) == ([], pyspiel.INVALID_ACTION)


def test_nimsum_policy_is_on_winning_moves():
    game = load("3;4;5", False)
    state = game.new_initial_state()
    policy, action = bot("nimsum", game).step_with_policy(state)
    winning = {a for a, p in policy if p > 0}
    assert action in winning and sum(p for _, p in policy) == pytest.approx(1)
    for a in winning:  # each leaves a lost position: nim-sum 0
        child = state.child(a)
        assert solve(rules_of(game)).is_win(tuple(bot("nimsum", game).piles(child))) is False


@pytest.mark.parametrize("rules", [Rules((1, 3, 5, 7), misere=True), Rules((3, 0, 5)), Rules((6, 2))])
def test_action_ids_round_trip(rules):
    game, rng = game_of(rules), np.random.default_rng(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        piles = bot("random", game).piles(state)
        for action in state.legal_actions():
            move = told(state, action)
            assert agent(Plays(action), rules, seat="any").move(piles, rng) == move
            assert bot(Fixed(move), game).step(state) == action
        assert sorted(state.legal_actions()) == sorted(bot(Fixed(m), game).step(state)
                                                       for m in rules.legal_moves(piles))
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_uniform_random_bots_are_evaluated_exactly_as_nim_evo_random():
    rules = rules_of(pyspiel.load_game("nim"))
    bots = agent((pyspiel.make_uniform_random_bot(0, 7), pyspiel.make_uniform_random_bot(1, 8)), rules)
    player = as_player(bots, rules)
    assert hasattr(player, "distribution")
    ours, = tournament(rules, make_agent("nimsum", rules), [player], exact=True)
    theirs, = tournament(rules, make_agent("nimsum", rules), [make_agent("random", rules)], exact=True)
    assert ours.exact and ours.win_rate == pytest.approx(theirs.win_rate, abs=1e-12)
    assert (ours.first_rate, ours.second_rate) == pytest.approx((theirs.first_rate, theirs.second_rate), abs=1e-12)
    sampled, = tournament(rules, "nimsum", [bots], games=100, seed=1)
    assert sampled.second_rate == 1.0  # 1;3;5;7 misere is lost for the first player


def test_a_bot_made_for_one_player_is_asked_only_where_that_player_moves():
    rules, rng = Rules((1, 3, 5, 7), misere=True), np.random.default_rng(0)
    first = agent(pyspiel.make_uniform_random_bot(0, 7), rules)  # OpenSpiel's C++ bot would crash elsewhere
    assert rules.is_legal((1, 3, 5, 7), first.move((1, 3, 5, 7), rng))
    assert rules.is_legal((1, 1, 5, 7), first.move((1, 1, 5, 7), rng))  # 2 taken from one pile: in two moves
    with pytest.raises(UserError, match="player 0") as error:
        first.move((0, 3, 5, 7), rng)
    assert "\n" not in str(error.value)
    second = agent(UniformRandomBot(1, np.random.RandomState(0)), rules)  # its player_id() is 1
    assert rules.is_legal((0, 3, 5, 7), second.move((0, 3, 5, 7), rng))
    with pytest.raises(UserError, match="player 1"):
        second.distribution((1, 3, 5, 7))


def test_a_bot_without_a_policy_plays_the_scalar_path():
    rules = Rules((3, 4, 5))
    first_legal = agent(FirstLegal(), rules, seat="any")
    assert not hasattr(first_legal, "distribution")
    assert as_player(first_legal, rules).distribution((3, 4, 5)) == [((0, 1), 1.0)]
    ours, = tournament(rules, "nimsum", [first_legal], exact=True)
    theirs, = tournament(rules, "nimsum", [FirstMove(rules)], exact=True)
    assert ours.win_rate == theirs.win_rate and ours.first_rate == 1.0


def test_a_strategy_file_plays_openspiel_nim():
    game = load("7;5;3", False)
    evolved = bot(str(GENOME), game, seed=0)
    results = play(game, [evolved, pyspiel.make_uniform_random_bot(1, 3)], 50)
    assert all(sorted(returns) == [-1.0, 1.0] for returns in results)
    assert sum(returns[0] == 1.0 for returns in results) > 25


def test_refusals_are_one_line():
    capped = Rules((7, 5, 3), max_take=3)
    for call in (lambda: game_of(capped), lambda: agent(Plays(0), capped, seat="any"),
                 lambda: rules_of(pyspiel.load_game("tic_tac_toe")),
                 lambda: bot("nimsum", pyspiel.load_game("tic_tac_toe")), lambda: rules_of("nim"),
                 lambda: agent("nimsum", Rules((3, 4))), lambda: bot("no-such-agent", load("3;4;5", False))):
        with pytest.raises(UserError) as error:
            call()
        assert "\n" not in str(error.value)
    with pytest.raises(UserError, match="no cap"):
        game_of(capped)


def test_pyspiel_is_optional(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(MissingExtra, match=r"nim-evo\[openspiel\]"):
        rules_of(object())
