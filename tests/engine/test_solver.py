"""Tests of nim_evo.engine.solver against closed forms, brute force, nim_evo.games.nimtheory and known values."""

from __future__ import annotations

import itertools
from functools import lru_cache, reduce
from operator import xor

import numpy as np
import pytest

from nim_evo import solve
from nim_evo.games import nimtheory as theory
from nim_evo.engine.rules import Rules
from nim_evo.engine.space import SpaceTooLarge, space_for

# -- helpers written here, independent of the library ----------------------------------------


def nim_sum(values) -> int:
    return reduce(xor, values, 0)


def all_positions(piles):
    """Every position with p[i] <= piles[i]."""
    return itertools.product(*(range(p + 1) for p in piles))


def own_moves(position, cap):
    """Independent move generation, in by-pile-then-count order."""
    moves = []
    for pile, size in enumerate(position):
        top = size if cap is None else min(size, cap)
        for count in range(1, top + 1):
            moves.append((pile, count))
    return moves


def brute_force(cap, misere):
    """A memoised recursive solver: position -> (win, remoteness, winning moves)."""

    @lru_cache(maxsize=None)
    def search(position):
        if sum(position) == 0:
            # The previous player took the last object: in misère they lost, so we win.
            return misere, 0, ()
        results = []
        for pile, count in own_moves(position, cap):
            child = list(position)
            child[pile] -= count
            child_win, child_rem, _ = search(tuple(child))
            results.append(((pile, count), child_win, child_rem))
        good = [(m, r) for m, w, r in results if not w]
        if good:
            return True, 1 + min(r for _, r in good), tuple(m for m, _ in good)
        return False, 1 + max(r for _, w, r in results), ()

    return search


def random_boards(seed, count, max_piles=4, max_size=5):
    rng = np.random.default_rng(seed)
    boards = []
    while len(boards) < count:
        n = int(rng.integers(2, max_piles + 1))
        piles = tuple(int(p) for p in rng.integers(0, max_size + 1, size=n))
        if sum(piles) > 0 and piles not in boards:
            boards.append(piles)
    return boards


BRUTE_BOARDS = random_boards(seed=20240607, count=32)

# -- (a) closed forms ---------------------------------------------------------------------------

NORMAL_BOARDS = [
    (1, 3, 5, 7, 9),
    (7, 5, 3),
    (4, 4, 4, 4),
    (6, 6, 6),
    (1, 2, 3),
    (15, 9),
    (0, 8, 5),
    (12,),
    (2, 3, 4, 5),
    (3, 3, 3, 3, 3, 3),
] + random_boards(seed=7, count=12, max_piles=5, max_size=9)


@pytest.mark.parametrize("piles", NORMAL_BOARDS, ids=lambda p: "-".join(map(str, p)))
def test_normal_play_uncapped_is_win_iff_nim_sum_nonzero(piles):
    """Normal play without a cap: every position is won iff the XOR of its piles is not 0."""
    solution = solve(Rules(piles))
    space = solution.space
    for i in range(space.n_positions):
        position = space.position(i)
        assert bool(solution.win[i]) == (nim_sum(position) != 0), position
        moves = solution.winning_moves(position)
        expected = [(p, c) for p, c in own_moves(position, None)
                    if nim_sum(position[:p] + (position[p] - c,) + position[p + 1:]) == 0]
        assert moves == expected, position


@pytest.mark.parametrize("cap", range(1, 9))
def test_one_heap_capped_normal(cap):
    """One heap, cap k, normal play: lost iff N % (k+1) == 0; otherwise take N % (k+1), the only winner."""
    solution = solve(Rules((41,), max_take=cap))
    for n in range(42):
        lost = n % (cap + 1) == 0
        assert solution.is_win((n,)) == (not lost), n
        assert solution.winning_moves((n,)) == ([] if lost else [(0, n % (cap + 1))]), n


@pytest.mark.parametrize("cap", range(1, 9))
def test_one_heap_capped_misere(cap):
    """One heap, cap k, misère: lost iff (N-1) % (k+1) == 0; otherwise take (N-1) % (k+1), the only winner."""
    solution = solve(Rules((41,), max_take=cap, misere=True))
    for n in range(1, 42):
        lost = (n - 1) % (cap + 1) == 0
        assert solution.is_win((n,)) == (not lost), n
        assert solution.winning_moves((n,)) == ([] if lost else [(0, (n - 1) % (cap + 1))]), n
    assert solution.is_win((0,)) is True  # the opponent took the last object and lost


def misere_nim_wins(position) -> bool:
    """Bouton's misère rule, written here."""
    if all(p <= 1 for p in position):
        return sum(position) % 2 == 0
    return nim_sum(position) != 0


@pytest.mark.parametrize("piles", NORMAL_BOARDS + [(1, 1, 1, 1), (1, 1, 1, 2), (2, 2)],
                         ids=lambda p: "-".join(map(str, p)))
def test_misere_uncapped_follows_boutons_rule(piles):
    """Misère play without a cap: small piles win iff an even number of 1s, else iff XOR != 0."""
    solution = solve(Rules(piles, misere=True))
    space = solution.space
    for i in range(space.n_positions):
        position = space.position(i)
        assert bool(solution.win[i]) == misere_nim_wins(position), position
        expected = [(p, c) for p, c in own_moves(position, None)
                    if not misere_nim_wins(position[:p] + (position[p] - c,) + position[p + 1:])]
        assert solution.winning_moves(position) == expected, position


@pytest.mark.parametrize(
    ("piles", "cap"),
    [((1, 3, 5, 7, 9), 2), ((1, 3, 5, 7, 9), 3), ((7, 5, 3), 1), ((7, 5, 3), 4), ((9, 9), 2), ((6, 6, 6), 3),
     ((2, 3, 4, 5), 2), ((10, 0, 7), 5), ((4, 8, 12), 100)],
)
def test_multi_pile_capped_normal_play_follows_grundy(piles, cap):
    """Normal play with a cap k: won iff the XOR of n % (k+1) over piles is not 0."""
    solution = solve(Rules(piles, max_take=cap))
    space = solution.space

    def grundy_sum(position):
        return nim_sum(p % (cap + 1) for p in position)

    for i in range(space.n_positions):
        position = space.position(i)
        assert bool(solution.win[i]) == (grundy_sum(position) != 0), position
        expected = [(p, c) for p, c in own_moves(position, cap)
                    if grundy_sum(position[:p] + (position[p] - c,) + position[p + 1:]) == 0]
        assert solution.winning_moves(position) == expected, position


# -- (b) brute force --------------------------------------------------------------------------


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("cap", [None, 1, 2, 3], ids=lambda c: f"cap{c}")
def test_solver_matches_brute_force_on_random_boards(cap, misere):
    """On 32 random small boards: win/loss, the exact winning moves and remoteness of every position."""
    assert len(BRUTE_BOARDS) >= 30
    search = brute_force(cap, misere)
    checked = 0
    for piles in BRUTE_BOARDS:
        solution = solve(Rules(piles, max_take=cap, misere=misere))
        space = solution.space
        for i, position in enumerate(all_positions(piles)):
            assert space.index(position) == i
            win, remoteness, moves = search(position)
            assert bool(solution.win[i]) == win, (piles, position)
            assert solution.winning_moves(position) == list(moves), (piles, position)
            assert int(solution.remoteness[i]) == remoteness, (piles, position)
            winning_row = [space.move(k) for k in np.flatnonzero(solution.winning[i])]
            assert winning_row == list(moves), (piles, position)
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("misere", [False, True])
def test_remoteness_parity_matches_outcome(misere):
    """The winner makes the last move in normal play (odd remoteness) and not in misère (even)."""
    for piles in BRUTE_BOARDS[:10] + [(1, 3, 5, 7, 9)]:
        for cap in (None, 2):
            solution = solve(Rules(piles, max_take=cap, misere=misere))
            odd = solution.remoteness % 2 == 1
            nonterminal = solution.space.totals > 0
            expected = odd if not misere else ~odd
            np.testing.assert_array_equal(solution.win[nonterminal], expected[nonterminal])
            assert solution.remoteness[0] == 0
            assert np.all(solution.remoteness[nonterminal] >= 1)
            assert np.all(solution.remoteness <= solution.space.totals)


def test_winning_moves_lead_to_lost_positions():
    """winning[p, m] is exactly: m legal and next[p, m] lost for the opponent."""
    for rules in (Rules((1, 3, 5, 7, 9)), Rules((2, 3, 4, 5), misere=True), Rules((6, 5, 4), 2, True)):
        solution = solve(rules)
        space = solution.space
        nxt = np.where(space.legal, space.next, 0)
        expected = space.legal & ~solution.win[nxt]
        np.testing.assert_array_equal(solution.winning, expected)
        np.testing.assert_array_equal(solution.win[1:], solution.winning[1:].any(axis=1))
        assert solution.win[0] == rules.misere


# -- (c) theory agrees ---------------------------------------------------------------------------


THEORY_RULES = [
    Rules((1, 3, 5, 7, 9)),
    Rules((1, 3, 5, 7, 9), misere=True),
    Rules((1, 3, 5, 7, 9), max_take=3),
    Rules((2, 3, 4, 5), misere=True),
    Rules((1, 1, 1, 4), misere=True),
    Rules((7, 5, 3), max_take=2),
    Rules((21,), max_take=3),
    Rules((17,), max_take=3, misere=True),
    Rules((20,), max_take=4, misere=True),
    Rules((5, 4, 3), max_take=2, misere=True),
    Rules((0, 6, 0), max_take=2, misere=True),
    Rules((3, 3), max_take=1, misere=True),
]


@pytest.mark.parametrize("rules", THEORY_RULES, ids=[r.name for r in THEORY_RULES])
def test_theory_agrees_with_solver(rules):
    """theory.wins, is_win and winning_moves match the solver at every position, capped misère included."""
    solution = solve(rules)
    space = solution.space
    np.testing.assert_array_equal(theory.wins(rules, space.positions), solution.win)
    for i in range(space.n_positions):
        position = space.position(i)
        assert theory.is_win(rules, position) == bool(solution.win[i]), position
        assert theory.winning_moves(rules, position) == solution.winning_moves(position), position


@pytest.mark.parametrize("cap", [1, 2, 3, 5])
def test_capped_misere_closed_form_on_every_position_up_to_11_11_8_6(cap):
    """Bouton's misère rule on the residues mod k + 1 is the solver's verdict on every
    multiset of 11-11-8-6 under caps 1, 2, 3 and 5 (and so on every smaller board)."""
    space = space_for(Rules((11, 11, 8, 6), cap, True), multiset=True)
    np.testing.assert_array_equal(theory.wins(space.rules, space.positions), solve(space).win)


# -- (d) known values --------------------------------------------------------------------------


def test_known_value_1_3_5_7_9():
    """1-3-5-7-9: the start is a win with the single winning move (4, 9)."""
    solution = solve(Rules.preset("1-3-5-7-9"))
    assert solution.is_win((1, 3, 5, 7, 9))
    assert solution.winning_moves((1, 3, 5, 7, 9)) == [(4, 9)]


def test_known_value_2_3_4_5_misere():
    """2-3-4-5 misère: the start is lost (seed 002: the second player wins)."""
    solution = solve(Rules.preset("2-3-4-5-misere"))
    assert not solution.is_win((2, 3, 4, 5))
    assert solution.winning_moves((2, 3, 4, 5)) == []


@pytest.mark.parametrize(("name", "win", "moves"), [
    ("15-cap3-misere", True, [(0, 2)]),
    ("16-cap3-misere", True, [(0, 3)]),
    ("17-cap3-misere", False, []),
    ("20-cap4-misere", True, [(0, 4)]),
    ("21-cap3", True, [(0, 1)]),
])
def test_known_values_single_heaps(name, win, moves):
    """Single-heap seeds: 17-cap3-misere is lost; 21-cap3 is won by taking 1; the others follow the rule."""
    rules = Rules.preset(name)
    solution = solve(rules)
    assert solution.is_win(rules.start) is win
    assert solution.winning_moves(rules.start) == moves


def test_known_value_7_5_3():
    """7-5-3: the start is won, by taking one from any pile."""
    solution = solve(Rules.preset("7-5-3"))
    assert solution.is_win((7, 5, 3))
    assert solution.winning_moves((7, 5, 3)) == [(0, 1), (1, 1), (2, 1)]


# -- (e) accuracy --------------------------------------------------------------------------------


def test_accuracy_of_perfect_moves_is_one():
    """A move array of solver winning moves scores 1.0."""
    for name in ("1-3-5-7-9", "2-3-4-5-misere", "17-cap3-misere", "7-5-3"):
        solution = solve(Rules.preset(name))
        perfect = np.argmax(solution.winning, axis=1)
        assert solution.accuracy(perfect) == 1.0


def test_accuracy_of_first_legal_move_is_below_one():
    """Always playing the first legal move scores strictly below 1 on 1-3-5-7-9, matching a direct count."""
    solution = solve(Rules.preset("1-3-5-7-9"))
    space = solution.space
    first = np.argmax(space.legal, axis=1)
    score = solution.accuracy(first)
    assert 0.0 < score < 1.0
    hits = total = 0
    for i in range(1, space.n_positions):
        if solution.win[i]:
            total += 1
            hits += bool(solution.winning[i, first[i]])
    assert score == pytest.approx(hits / total)


def test_accuracy_ignores_lost_and_terminal_positions():
    """Values in lost or terminal rows do not change accuracy."""
    solution = solve(Rules((4, 3, 2)))
    perfect = np.argmax(solution.winning, axis=1)
    scrambled = perfect.copy()
    rng = np.random.default_rng(3)
    losers = ~solution.win | (solution.space.totals == 0)
    scrambled[losers] = rng.integers(0, solution.space.n_moves, size=int(losers.sum()))
    assert solution.accuracy(scrambled) == 1.0


# -- misc ------------------------------------------------------------------------------------------


def test_solution_arrays_are_read_only_and_cached():
    """Solutions are cached per rules and their arrays refuse writes."""
    rules = Rules((3, 4, 5), max_take=2)
    solution = solve(rules)
    assert solve(Rules((3, 4, 5), max_take=2)) is solution
    for array in (solution.win, solution.winning, solution.remoteness):
        with pytest.raises(ValueError):
            array[0] = 0
    assert solution.win.shape == (solution.space.n_positions,)
    assert solution.winning.shape == (solution.space.n_positions, solution.space.n_moves)


def test_solve_refuses_huge_boards():
    """solve raises SpaceTooLarge for 40 piles of 40 and for a board above a custom limit."""
    with pytest.raises(SpaceTooLarge):
        solve(Rules((40,) * 40))
    with pytest.raises(SpaceTooLarge):
        solve(Rules((9, 9)), max_positions=99)


@pytest.mark.parametrize("rules", THEORY_RULES, ids=[r.name for r in THEORY_RULES])
def test_theory_known_wins_agrees_with_solver(rules):
    """theory.known_wins marks every position, and its verdicts match the solver."""
    solution = solve(rules)
    verdict, known = theory.known_wins(rules, solution.space.positions)
    assert known.all()
    np.testing.assert_array_equal(verdict, solution.win)


def test_a_raised_position_limit_carries_through():
    """21 piles of one: 2,097,152 positions, above the default limit. A Space built with a
    raised limit is solved, and the nim-sum agent compiles its table on it, without either
    going back to the rules (and the default limit)."""
    from nim_evo import make_agent
    from nim_evo.engine.policy import check_table
    from nim_evo.engine.space import Space

    rules = Rules((1,) * 21)
    with pytest.raises(SpaceTooLarge):
        solve(rules)
    space = Space(rules, max_positions=3_000_000)
    assert space.n_positions == 2**21
    solution = solve(space)
    assert solution.space is space
    np.testing.assert_array_equal(solution.win, space.totals % 2 == 1)  # singles: odd count wins
    table = make_agent("nimsum", rules).policy(space)
    check_table(table, space)
    rows = np.random.default_rng(0).choice(np.arange(1, space.n_positions), 200, replace=False)
    # every move of a single wins or every move loses: the nim-sum agent is uniform over all
    np.testing.assert_allclose(table[rows], space.legal[rows] / space.legal[rows].sum(axis=1, keepdims=True))
