"""Tests of nim_evo.agents.minimax: depth-limited and full-depth alpha-beta search."""

import numpy as np
import pytest

from nim_evo import Rules, make_agent, solve
from nim_evo.agents.minimax import WIN, MinimaxAgent, _one_ply_back
from nim_evo.engine.space import space_for


def test_full_depth_minimax_hurries_to_win_and_delays_losing(rules):
    """Full-depth minimax wins by the shortest route and loses by the longest."""
    solution = solve(rules)
    space = solution.space
    agent = make_agent("minimax", rules)
    for index in range(1, space.n_positions):
        piles = space.position(index)
        children = {m: space.index(rules.apply(piles, m)) for m in rules.legal_moves(piles)}
        rem = {m: solution.remoteness[c] for m, c in children.items()}
        if solution.win[index]:
            good = [m for m, c in children.items() if not solution.win[c]]
            best = min(rem[m] for m in good)
            expected = {m for m in good if rem[m] == best}
        else:
            best = max(rem.values())
            expected = {m for m in rem if rem[m] == best}
        assert {m for m, _ in agent.distribution(piles)} == expected, piles


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("heuristic", ["neutral", "nimsum"])
def test_depth_limited_search_matches_its_table(depth, heuristic):
    """Alpha-beta with a transposition table chooses what the sweep of plain minimax values does."""
    for rules in [Rules((2, 3, 4)), Rules((2, 3, 4), 2, True), Rules((1, 2, 3, 4), misere=True)]:
        search = MinimaxAgent(rules, depth=depth, heuristic=heuristic)
        space = space_for(rules)
        table = MinimaxAgent(rules, depth=depth, heuristic=heuristic).policy(space)
        for index in range(1, space.n_positions):
            chosen = {space.move_index(m) for m, _ in search.distribution(space.position(index))}
            assert chosen == set(np.flatnonzero(table[index] > 0)), (rules, space.position(index))


def test_depth_limited_minimax_is_weaker_than_full_depth():
    """A 1-ply neutral minimax misses wins it cannot see: it is not perfect on 1-3-5-7-9."""
    rules = Rules((1, 3, 5, 7, 9))
    solution = solve(rules)
    table = make_agent("minimax", rules, depth=1).policy(solution.space)
    assert solution.accuracy(table.argmax(axis=1)) < 0.5
    # but it never misses a win in one move: taking the last object
    last = [i for i in range(1, solution.space.n_positions) if np.count_nonzero(solution.space.positions[i]) == 1]
    assert all(table[i].max() == 1.0 for i in last)


def test_minimax_options_are_checked():
    rules = Rules((3, 4))
    with pytest.raises(ValueError, match="depth"):
        make_agent("minimax", rules, depth=0)
    with pytest.raises(ValueError, match="heuristic"):
        make_agent("minimax", rules, heuristic="clever")


# -- the search's contracts ----------------------------------------------------------------

BOUND_BOARDS = [Rules((2, 3, 4)), Rules((1, 2, 3, 4), misere=True), Rules((3, 4, 5), 2)]
# window ends: heuristic-sized values and mate scores a few plies either side of the horizon
WINDOW_ENDS = [-1.0, -0.5, 0.0, 0.5, 1.0] + [s * (WIN - k) for s in (1, -1) for k in range(0, 12)]


def _random_window(rng, v):
    """A random window; half of them hug the exact value ``v`` (ends a ply or two from it)."""
    ends = WINDOW_ENDS if rng.random() < 0.5 else [v + d for d in (-2, -1, -0.5, 0, 0.5, 1, 2)]
    alpha, beta = sorted(rng.choice(ends, size=2, replace=False))
    return float(alpha), float(beta)


def _check_fail_soft(r, v, alpha, beta, context):
    """Fail-soft alpha-beta: a fail low bounds the true value from above, a fail high from
    below, and a result inside the window is the true value."""
    if r <= alpha:
        assert v <= r, ("fail low is not an upper bound", context, r, v)
    elif r >= beta:
        assert v >= r, ("fail high is not a lower bound", context, r, v)
    else:
        assert r == v, ("value inside the window is not exact", context, r, v)


@pytest.mark.parametrize("heuristic", ["neutral", "nimsum"])
@pytest.mark.parametrize("rules", BOUND_BOARDS, ids=[r.name for r in BOUND_BOARDS])
def test_alpha_beta_keeps_the_fail_soft_contract(rules, heuristic):
    """_negamax with any window returns a fail-soft bound of the exact value: with a fresh agent
    per call, and with one agent whose transposition table is shared by many calls in random
    order (so stored bounds, not only exact values, are read back under other windows)."""
    rng = np.random.default_rng([BOUND_BOARDS.index(rules), heuristic == "nimsum"])
    space = space_for(rules)
    for limit in (4, None):  # depth-limited (searches of depth 1-4), and full depth
        depths = [1, 2, 3, 4] if limit else [None]
        exact, calls = {}, []
        for depth in depths:
            values = MinimaxAgent(rules, depth=limit, heuristic=heuristic).space_values(
                space, None if depth is None else depth)
            for index in rng.choice(np.arange(1, space.n_positions), size=30, replace=False):
                piles = space.position(int(index))
                plies = sum(piles) + 1 if depth is None else depth
                v = MinimaxAgent(rules, depth=limit, heuristic=heuristic)._negamax(piles, plies, -WIN - 1, WIN + 1)
                assert v == values[index], (piles, depth, v, values[index])  # the full window is exact
                exact[piles, plies] = v
                calls += [(piles, plies, _random_window(rng, v)) for _ in range(8)]
        for piles, plies, (alpha, beta) in calls:
            r = MinimaxAgent(rules, depth=limit, heuristic=heuristic)._negamax(piles, plies, alpha, beta)
            _check_fail_soft(r, exact[piles, plies], alpha, beta, ("fresh", piles, plies, alpha, beta))
        shared = MinimaxAgent(rules, depth=limit, heuristic=heuristic)
        for k in rng.permutation(len(calls)):
            piles, plies, (alpha, beta) = calls[k]
            r = shared._negamax(piles, plies, alpha, beta)
            _check_fail_soft(r, exact[piles, plies], alpha, beta, ("shared", piles, plies, alpha, beta))


def _lopsided(rules, positions):
    """A custom heuristic that reads pile order: first pile minus last pile."""
    return (positions[..., 0] - positions[..., -1]) / 10


@pytest.mark.parametrize("depth", [2, 3])
def test_order_dependent_custom_heuristic_values_are_the_sweeps(depth):
    """With a heuristic that tells (1, 0, 3, 5) from (0, 1, 3, 5), each move's searched value is
    one_ply_back(-V[child]) of the vectorised sweep, in every position (values, not only choices),
    and one agent's transposition table never mixes positions that are permutations."""
    rules = Rules((1, 3, 5, 7))
    space = space_for(rules)
    agent = MinimaxAgent(rules, depth=depth, heuristic=_lopsided)
    sweep = agent.space_values(space, depth - 1)
    table = MinimaxAgent(rules, depth=depth, heuristic=_lopsided).policy(space)
    for index in range(1, space.n_positions):
        piles = space.position(index)
        values = agent.values(piles)
        assert set(values) == set(rules.legal_moves(piles)), piles
        for move, value in values.items():
            child = space.next[index, space.move_index(move)]
            assert value == pytest.approx(_one_ply_back(-sweep[child]), abs=1e-12), (piles, move)
        chosen = {space.move_index(m) for m, _ in agent.distribution(piles)}
        assert chosen == set(np.flatnonzero(table[index] > 0)), piles


@pytest.mark.parametrize("depth", [True, False, 2.0, "3", -1])
def test_minimax_depth_must_be_a_whole_number(depth):
    """depth=True is not depth 1 (bool is refused like any non-int)."""
    with pytest.raises(ValueError, match="depth"):
        make_agent("minimax", Rules((3, 4)), depth=depth)


def test_full_minimax_on_a_board_too_big_to_enumerate_is_refused_at_once():
    """Beyond the solvable board (4.6 million multisets), full minimax is one line at once."""
    from nim_evo import make_agent
    from nim_evo.validation import UserError

    big = Rules((100, 100, 100, 100))
    with pytest.raises(UserError, match=r"^minimax to the end of the game on 100-100-100-100 needs its "
                                        r"4,598,126 multisets of piles solved"):
        make_agent("minimax", big)
    assert make_agent("minimax", big, depth=2).move((100, 100, 100, 100), np.random.default_rng(0))


def test_a_depth_limited_search_beyond_its_budget_is_refused_at_once():
    from nim_evo import make_agent
    from nim_evo.validation import UserError

    with pytest.raises(UserError, match=r"minimax\(depth=1\) on 1000000000-3 may search 1,000,000,003\^1 positions"):
        make_agent("minimax", Rules((10**9, 3)), depth=1)
    with pytest.raises(UserError, match=r"depth=4"):
        make_agent("minimax", Rules((100, 100, 100, 100)), depth=4)  # 400 ** 4 = 2.56e10


@pytest.mark.parametrize("rules", [Rules((2, 3, 4)), Rules((1, 2, 3, 4), misere=True), Rules((3, 4, 5), 2),
                                   Rules((2, 2, 5), 3, True)], ids=lambda r: r.name)
def test_full_depth_values_read_from_the_solver_are_the_searchs(rules):
    """Every move's value at full depth, read from the solved multiset space, is the one the
    alpha-beta search to the end of the game finds, in every position (mate scores included)."""
    agent = MinimaxAgent(rules)
    space = space_for(rules)
    for index in range(space.n_positions):
        piles = space.position(index)
        searched = {move: _one_ply_back(-MinimaxAgent(rules)._negamax(rules.apply(piles, move), sum(piles), -WIN - 1,
                                                                      WIN + 1))
                    for move in rules.legal_moves(piles)}
        assert agent.values(piles) == searched, piles


@pytest.mark.parametrize("name", ["2-3-4-misere", "3-5-7-sub1.2.4-misere", "11-grundy", "8-kayles", "5-6-wythoff"])
def test_full_depth_moves_of_many_positions_at_once_are_each_position_s(name):
    """``move_probabilities`` of a batch (every child at once, the solved board read once) is
    the uniform choice among each position's best moves by :meth:`values`, in every position;
    a position the start does not reach is refused, not read from another's value."""
    from nim_evo import game
    from nim_evo.validation import UserError

    board = game(name)
    agent = MinimaxAgent(board)
    space = space_for(board)
    table = agent.move_probabilities(space.positions)
    for piles, row in zip(map(tuple, space.positions.tolist()), table):
        values = agent.values(piles)
        best = [board.action_of(m) for m, v in values.items() if v == max(values.values())]
        want = np.zeros(board.n_actions)
        want[best] = 1 / len(best) if best else 0
        assert np.array_equal(row, want), piles
    beyond = (board.start[0] + 2, *board.start[1:])  # its first heap bigger than any heap of the board
    with pytest.raises(UserError, match="reach"):
        agent.move_probabilities(np.array([beyond]))
