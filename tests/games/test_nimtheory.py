"""Tests of nim_evo.games.nimtheory on its own: Grundy values, nim-sums and the closed forms, checked
against a mex computation and a brute-force search written here (the comparisons with the
solver live in test_solver.py)."""

from __future__ import annotations

from functools import lru_cache, reduce
from operator import xor

import numpy as np
import pytest

from nim_evo.games import nimtheory as theory
from nim_evo.engine.rules import Rules

# -- helpers written here, independent of the library ----------------------------------------


def mex(values) -> int:
    values = set(values)
    return next(g for g in range(len(values) + 1) if g not in values)


@lru_cache(maxsize=None)
def heap_grundy(n: int, cap: int | None) -> int:
    """Grundy value of one heap of ``n`` by the definition: mex of the children's values."""
    top = n if cap is None else min(n, cap)
    return mex(heap_grundy(n - take, cap) for take in range(1, top + 1))


@lru_cache(maxsize=None)
def brute_win(position: tuple, cap: int | None, misere: bool) -> bool:
    """Does the player to move win? (Empty board: the other player took the last object.)"""
    if not any(position):
        return misere
    for pile, size in enumerate(position):
        for take in range(1, (size if cap is None else min(size, cap)) + 1):
            child = position[:pile] + (size - take,) + position[pile + 1:]
            if not brute_win(child, cap, misere):
                return True
    return False


def random_positions(rng, count, n_piles, top=7, sparse=True):
    positions = rng.integers(0, top + 1, size=(count, n_piles))
    if sparse:  # plenty of positions with zero, one or two non-empty piles
        positions[rng.random(positions.shape) < 0.45] = 0
    return positions


VARIANTS = [(cap, misere) for cap in (None, 1, 2, 3, 5) for misere in (False, True)]

# -- Grundy values -----------------------------------------------------------------------------


@pytest.mark.parametrize("cap", [None, 1, 2, 3, 4, 7])
def test_grundy_of_a_heap_is_the_mex_definition(cap):
    """grundy(n) = n without a cap and n mod (k + 1) with one: exactly the mex recursion."""
    sizes = np.arange(0, 40)
    expected = [heap_grundy(int(n), cap) for n in sizes]
    np.testing.assert_array_equal(theory.grundy(sizes, cap), expected)


def test_grundy_keeps_any_shape():
    rng = np.random.default_rng(1)
    piles = rng.integers(0, 30, size=(4, 3, 5))
    np.testing.assert_array_equal(theory.grundy(piles), piles)
    np.testing.assert_array_equal(theory.grundy(piles, 3), piles % 4)
    assert theory.grundy(piles, 3).shape == piles.shape


@pytest.mark.parametrize("cap", [None, 1, 2, 3, 5])
def test_grundy_sum_is_the_xor_of_heap_values(cap):
    """grundy_sum XORs the mex Grundy values along the last axis, for any leading shape."""
    rng = np.random.default_rng(2)
    positions = rng.integers(0, 25, size=(6, 5, 4))
    expected = np.array([[reduce(xor, (heap_grundy(int(n), cap) for n in row), 0) for row in block]
                         for block in positions])
    result = theory.grundy_sum(positions, cap)
    assert result.shape == (6, 5)
    np.testing.assert_array_equal(result, expected)
    assert theory.grundy_sum(np.zeros((3, 4), dtype=int), cap).tolist() == [0, 0, 0]


@pytest.mark.parametrize("positions, value", [
    ([1, 3, 5, 7], 0), ([1, 3, 5, 7, 9], 9), ([7, 5, 3], 1), ([2, 3, 4, 5], 0), ([12], 12), ([6, 6], 0),
])
def test_grundy_sum_known_values(positions, value):
    assert int(theory.grundy_sum(np.array(positions))) == value


# -- closed forms ------------------------------------------------------------------------------


@pytest.mark.parametrize("cap, misere", VARIANTS, ids=[f"cap{c}-{'misere' if m else 'normal'}" for c, m in VARIANTS])
def test_known_wins_marks_exactly_the_closed_forms(cap, misere):
    """Every family has a closed form (capped misère: Bouton's rule on the residues mod
    k + 1): known_wins marks every position, and its verdict is the brute-force outcome."""
    rng = np.random.default_rng(3)
    for n_piles in (1, 2, 3, 4):
        rules = Rules((7,) * n_piles, cap, misere)
        positions = random_positions(rng, 150, n_piles)
        verdict, known = theory.known_wins(rules, positions)
        assert verdict.shape == known.shape == (len(positions),) and known.all()
        truth = np.array([brute_win(tuple(int(x) for x in p), cap, misere) for p in positions])
        np.testing.assert_array_equal(verdict, truth)
        np.testing.assert_array_equal(theory.wins(rules, positions), truth)


def test_known_wins_keeps_leading_axes():
    """A (a, b, n_piles) array gives (a, b) verdicts and marks, the same as row by row."""
    rules = Rules((6, 6, 6), 2, True)
    positions = random_positions(np.random.default_rng(4), 60, 3, top=6).reshape(5, 12, 3)
    verdict, known = theory.known_wins(rules, positions)
    assert verdict.shape == known.shape == (5, 12)
    flat_verdict, flat_known = theory.known_wins(rules, positions.reshape(-1, 3))
    np.testing.assert_array_equal(verdict.ravel(), flat_verdict)
    np.testing.assert_array_equal(known.ravel(), flat_known)


@pytest.mark.parametrize("position, cap, misere, win", [
    ((0, 0, 0), None, False, False),   # the empty board: the other player took the last object
    ((0, 0, 0), None, True, True),
    ((0, 0), 3, True, True),
    ((1, 1, 1), None, True, False),     # Bouton: all singles, odd count: lost in misère
    ((1, 1), None, True, True),
    ((1, 1, 1), None, False, True),
    ((1, 0, 3), None, True, True),      # one pile above one: win (leave an odd number of singles)
    ((2, 2), None, True, False),        # nim-sum 0 with a pile above one: lost
    ((17,), 3, True, False),            # (17 - 1) mod 4 == 0
    ((16,), 3, True, True),
    ((21,), 3, False, True),
    ((20,), 3, False, False),
    ((0, 6), 4, True, False),           # one non-empty heap under a cap: (6 - 1) mod 5 == 0
    ((0, 5), 4, True, True),
    ((4, 4), 3, False, False),          # Grundy 0 xor 0
])
def test_is_win_closed_forms(position, cap, misere, win):
    rules = Rules(tuple(max(p, 1) for p in position), cap, misere)
    assert theory.is_win(rules, position) is win
    assert brute_win(position, cap, misere) is win


@pytest.mark.parametrize("position, cap, win", [
    ((2, 3), 2, True),       # residues 2, 0: one above 1, nim-sum 2: won
    ((2, 2), 2, False),      # residues 2, 2: nim-sum 0 with a residue above 1: lost
    ((3, 3), 2, True),       # residues 0, 0, every residue at most 1, nim-sum 0: won (misère)
    ((1, 3), 2, False),      # residues 1, 0: an odd number of ones: lost
    ((4, 5, 6), 3, True),    # residues 0, 1, 2: a residue above 1, nim-sum 3: won
    ((5, 6, 7), 3, False),   # residues 1, 2, 3: nim-sum 0 with a residue above 1: lost
    ((9, 4), 3, False),      # residues 1, 0: one single: lost, though the nim-sum is 1
])
def test_capped_misere_is_bouton_on_the_residues(position, cap, win):
    """The closed form of misère play under a cap, against the brute force."""
    assert brute_win(position, cap, True) is win
    assert theory.is_win(Rules(tuple(max(p, 1) for p in position), cap, True), position) is win


@pytest.mark.parametrize("cap, misere", VARIANTS, ids=[f"cap{c}-{'misere' if m else 'normal'}" for c, m in VARIANTS])
def test_winning_moves_are_exactly_the_moves_to_lost_positions(cap, misere):
    """In every family, winning_moves lists, in the engine's order, exactly the moves
    whose child the brute force says is lost; empty for a lost position; [] on the empty board."""
    rng = np.random.default_rng(5)
    rules = Rules((6, 6, 6), cap, misere)
    for position in random_positions(rng, 80, 3, top=6):
        position = tuple(int(x) for x in position)
        moves = theory.winning_moves(rules, position)
        expected = [m for m in rules.legal_moves(position)
                    if not brute_win(rules.apply(position, m), cap, misere)]
        assert moves == expected, position
        if any(position):
            assert (len(moves) > 0) == brute_win(position, cap, misere), position
    assert theory.winning_moves(rules, (0, 0, 0)) == []


@pytest.mark.parametrize("rules, position, expected", [
    (Rules((10**12, 10**12 + 5)), (10**12, 10**12 + 5), [(1, 5)]),
    (Rules((10**15, 7, 2)), (10**15, 7, 2), [(0, 10**15 - 5)]),
    (Rules((10**12, 1), misere=True), (10**12, 1), [(0, 10**12)]),  # leave one single pile: odd
    (Rules((10**12, 3), 4), (10**12, 3), [(0, 2), (1, 3)]),  # Grundy values 0 and 3: make both 3, or both 0
    (Rules((10**12 + 2,), 3, True), (10**12 + 2,), [(0, 1)]),  # seed 000's rule: (N - 1) mod 4
])
def test_winning_moves_on_piles_too_big_to_list_their_moves(rules, position, expected):
    """No move list is made: huge piles give their winning moves at once, by the closed forms."""
    assert theory.winning_moves(rules, position) == expected


def test_the_engines_old_name_is_the_same_module():
    """Code written before games were values imports Nim's closed forms as nim_evo.engine.theory."""
    from nim_evo.engine import theory as old

    for name in ("grundy", "grundy_sum", "wins", "known_wins", "is_win", "winning_moves"):
        assert getattr(old, name) is getattr(theory, name)
