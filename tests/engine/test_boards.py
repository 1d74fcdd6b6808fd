"""Board features on pile arrays: the move list, legality, winning moves, pile choice."""

import numpy as np
import pytest

from nim_evo import Rules, solve
from nim_evo.engine.boards import legal_mask, longest, move_indices, move_list, shortest
from nim_evo.games.nimtheory import winning_mask
from nim_evo.engine.space import space_for


def random_boards(seed, count, misere_caps=True):
    rng = np.random.default_rng(seed)
    while count:
        piles = tuple(int(x) for x in rng.integers(0, 7, rng.integers(1, 5)))
        cap = [None, 1, 2, 3, 4][rng.integers(5)]
        misere = bool(rng.integers(2))
        if sum(piles) and (misere_caps or not (misere and cap)):
            count -= 1
            yield Rules(piles, cap, misere)


@pytest.mark.parametrize("rules", list(random_boards(7, 60)), ids=lambda r: r.name)
def test_winning_mask_is_the_solvers(rules):
    """Winning moves from Nim theory (or the solver, for capped misère) equal the solver's, everywhere."""
    solution = solve(rules)
    np.testing.assert_array_equal(winning_mask(rules, solution.space.positions), solution.winning)


def test_move_list_and_legality_match_the_space():
    for rules in random_boards(3, 20):
        space = space_for(rules)
        np.testing.assert_array_equal(move_list(rules), space.moves)
        np.testing.assert_array_equal(legal_mask(rules, space.positions), space.legal)
        pile, count = move_list(rules).T
        np.testing.assert_array_equal(move_indices(rules, pile, count), np.arange(len(pile)))


def test_shortest_and_longest_piles():
    positions = np.array([[0, 3, 2, 2], [5, 0, 5, 1], [0, 0, 0, 4]], dtype=np.int32)
    assert shortest(positions).tolist() == [2, 3, 3]   # non-empty, first on ties
    assert longest(positions).tolist() == [1, 0, 3]


def test_winning_moves_on_a_board_too_big_to_enumerate():
    """On 10 piles up to 30 the nim-sum moves are found without enumerating anything."""
    rules = Rules(tuple(range(3, 33, 3)))
    positions = np.array([rules.piles, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]])
    mask = winning_mask(rules, positions)
    moves = move_list(rules)
    for row, mask_row in zip(positions, mask):
        for pile, count in moves[mask_row]:
            after = row.copy()
            after[pile] -= count
            assert np.bitwise_xor.reduce(after) == 0
    # nim-sums 21 and 1: the piles with that bit set (18, 21, 24, 27, 30; the odd ones) can be cut
    assert mask.sum(axis=1).tolist() == [5, 5]
