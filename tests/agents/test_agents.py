"""Agents: one conformance run for all, then each agent's own rules."""

import itertools
import pickle

import numpy as np
import pytest

from nim_evo import Rules, make_agent, solve
from nim_evo.agents.base import FixedRulesAgent
from nim_evo.engine.policy import check_table
from nim_evo.engine.space import space_for

AGENTS = [
    ("random", {}),
    ("nimsum", {}),
    ("minimax", {}),
    ("minimax", {"depth": 1}),
    ("minimax", {"depth": 2, "heuristic": "nimsum"}),
    ("minimax", {"depth": 3}),
    ("take-3", {}),
    ("dumb", {}),
    ("aggressive", {}),
    ("fixed-rules", {}),
]
IDS = [name + "".join(f"-{k}={v}" for k, v in options.items()) for name, options in AGENTS]


@pytest.fixture(params=AGENTS, ids=IDS)
def agent(request, rules):
    name, options = request.param
    return make_agent(name, rules, **options)


def test_policy_table_is_the_scalar_distribution(agent, rules):
    """Every position's table row is exactly the agent's scalar distribution, legal moves only."""
    space = space_for(rules)
    table = agent.policy(space)
    check_table(table, space)
    for index in range(1, space.n_positions):
        row = np.zeros(space.n_moves)
        for move, p in agent.distribution(space.position(index)):
            assert rules.is_legal(space.position(index), move)
            row[space.move_index(move)] += p
        np.testing.assert_allclose(table[index], row, atol=1e-12, err_msg=str(space.position(index)))


def test_moves_are_legal_and_follow_the_distribution(agent, rules, rng):
    """move() draws legal moves with the frequencies its distribution states (5 sigma)."""
    space = space_for(rules)
    for index in rng.choice(np.arange(1, space.n_positions), size=8, replace=False):
        piles = space.position(index)
        options = dict(agent.distribution(piles))
        draws = 600
        counts = {}
        for _ in range(draws):
            move = agent.move(piles, rng)
            assert move in options, (piles, move)
            counts[move] = counts.get(move, 0) + 1
        for move, p in options.items():
            sigma = np.sqrt(draws * p * (1 - p)) + 1e-9
            assert abs(counts.get(move, 0) - draws * p) <= 5 * sigma + 1, (piles, move)


def test_agents_pickle(agent, rules):
    """A pickled agent comes back with the same choices (joblib workers receive agents)."""
    clone = pickle.loads(pickle.dumps(agent))
    assert clone.name == agent.name
    for piles in [rules.start, tuple(max(p - 1, 0) for p in rules.start)]:
        if any(piles):
            assert clone.distribution(piles) == agent.distribution(piles)


def test_no_move_on_the_empty_board(agent, rules, rng):
    """Asking for a move when the game is over is an error, not a made-up move."""
    with pytest.raises(ValueError, match="game is over"):
        agent.move((0,) * len(rules.piles), rng)


@pytest.mark.parametrize("name", ["nimsum", "minimax"])
def test_perfect_agents_always_play_a_winning_move(name, rules):
    """nimsum and full-depth minimax play only winning moves wherever one exists."""
    solution = solve(rules)
    table = make_agent(name, rules).policy(solution.space)
    winners = np.flatnonzero(solution.win & (solution.space.totals > 0))
    chosen = table[winners] > 0
    assert not np.any(chosen & ~solution.winning[winners])
    if name == "nimsum":  # uniform among the winning moves; in a lost position, among all
        np.testing.assert_array_equal(chosen, solution.winning[winners])
        losers = np.flatnonzero(~solution.win & (solution.space.totals > 0))
        np.testing.assert_array_equal(table[losers] > 0, solution.space.legal[losers])


def test_make_agent_names():
    """Agents come by name; take-N parses N; unknown names and options are clear errors."""
    rules = Rules((21,), 3)
    assert make_agent("take-2", rules).distribution((21,)) == [((0, 2), 1.0)]
    with pytest.raises(ValueError, match="unknown agent 'genius'"):
        make_agent("genius", rules)
    with pytest.raises(ValueError, match="bad options"):
        make_agent("random", rules, depth=3)
    with pytest.raises(ValueError, match="n >= 1"):
        make_agent("take-n", rules, n=0)


def test_take_n_by_name_takes_no_options():
    """take-3 names its n; giving n as well is an error, not a silent choice of one of them."""
    rules = Rules((21,), 3)
    with pytest.raises(ValueError, match="take-3 takes no options"):
        make_agent("take-3", rules, n=4)
    assert make_agent("take-n", rules, n=2).distribution((21,)) == [((0, 2), 1.0)]


@pytest.mark.parametrize("n", [True, 2.0, "3"])
def test_take_n_refuses_n_that_is_not_a_whole_number(n):
    """n=True is not n=1 (as minimax's depth=True is not depth 1, and Rules refuses bool sizes)."""
    with pytest.raises(ValueError, match="n >= 1"):
        make_agent("take-n", Rules((21,), 3), n=n)


def test_take_n_takes_n_or_what_is_left():
    """Seed 001's take-3: three objects, or all that is left; from the longest pile on many piles."""
    agent = make_agent("take-3", Rules((21,), 3))
    assert agent.distribution((21,)) == [((0, 3), 1.0)]
    assert agent.distribution((2,)) == [((0, 2), 1.0)]
    agent = make_agent("take-5", Rules((4, 9, 9), 4))
    assert agent.distribution((4, 9, 9)) == [((1, 4), 1.0)]  # capped at 4, first longest pile


def test_dumb_takes_one_from_the_longest():
    agent = make_agent("dumb", Rules((1, 3, 5, 7, 9)))
    assert agent.distribution((1, 3, 5, 7, 2)) == [((3, 1), 1.0)]


def test_aggressive():
    """Odd number of non-empty piles: empty the longest; even: uniform over legal moves."""
    rules = Rules((1, 3, 5, 7, 9))
    agent = make_agent("aggressive", rules)
    assert agent.distribution((1, 3, 5, 0, 0)) == [((2, 5), 1.0)]
    moves = [m for m, _ in agent.distribution((1, 3, 0, 0, 0))]
    assert moves == rules.legal_moves((1, 3, 0, 0, 0))


@pytest.mark.parametrize("piles, expected", [
    ((0, 0, 0, 0, 6), [(4, 6)]),                     # rule 1: take the last pile
    ((0, 1, 0, 1, 0), [(1, 1)]),                     # rule 2: all ones, take one from the longest
    ((0, 3, 1, 0, 0), [(1, 2)]),                     # rule 2: leave one in a pile of more
    ((0, 3, 3, 5, 0), [(3, 5)]),                     # rule 3: empty the odd pile of three
    ((0, 2, 5, 5, 0), [(1, 2)]),
    ((2, 2, 2, 2, 7), [(4, 5)]),                     # rule 4: cut the odd pile down to the others
    ((2, 2, 2, 7, 0), [(0, 1), (1, 1), (2, 1), (3, 6)]),  # even count: rule 2 comes first
])
def test_fixed_rules(piles, expected):
    """Seed 004's fixed rules, one position each."""
    agent = FixedRulesAgent(Rules((2, 3, 5, 7, 9)))
    assert [m for m, _ in agent.distribution(piles)] == expected


def test_fixed_rules_misere_and_cap():
    """Rule 1 leaves one object in misère play; every take respects the cap."""
    assert FixedRulesAgent(Rules((9,), misere=True)).distribution((6,)) == [((0, 5), 1.0)]
    assert FixedRulesAgent(Rules((9,), 3)).distribution((6,)) == [((0, 3), 1.0)]
    both = [m for m, _ in FixedRulesAgent(Rules((3, 3, 9), 2)).distribution((0, 3, 3))]
    assert both == [(1, 2), (2, 2)]


@pytest.mark.parametrize("name", ["random", "nimsum", "take-3", "dumb", "aggressive", "fixed-rules"])
@pytest.mark.parametrize("rules", [Rules((10**15, 3, 10**9)), Rules((10**12, 10**12, 1), misere=True),
                                   Rules((10**12, 7), 10**11)], ids=lambda r: r.name[:12])  # (a cap of 10^7: 10^5 plies a game)
def test_agents_play_whole_games_on_piles_too_big_to_list_their_moves(name, rules):
    """Where an agent would pick any legal move, a position of billions of moves is drawn from
    without listing them: whole games against random end, every move legal."""
    rng = np.random.default_rng(1)
    players = make_agent(name, rules), make_agent("random", rules)
    for first in (0, 1):
        position, seat = rules.start, first
        while any(position):
            move = players[seat].move(position, rng)
            assert rules.is_legal(position, move)
            position, seat = rules.apply(position, move), 1 - seat


def test_nimsum_wins_from_a_winning_start_of_huge_piles():
    rules = Rules((10**15, 3, 10**9))
    rng = np.random.default_rng(2)
    nimsum, random = make_agent("nimsum", rules), make_agent("random", rules)
    position, players = rules.start, (nimsum, random)
    for ply in itertools.count():
        position = rules.apply(position, players[ply % 2].move(position, rng))
        if not any(position):
            break
    assert ply % 2 == 0  # nim-sum took the last object
