"""Vectorised board features on arrays of positions, for policies that play any board.

Positions come as ``(k, width)`` int arrays; moves are the game's action alphabet (a
take-away game's: by heap, then count), the columns of every space of the board, which depend
only on the start, never on enumerating the space.
"""

from __future__ import annotations

from typing import overload

import numpy as np

from nim_evo.games.base import Game
from nim_evo.games.takeaway import TakeAway, move_array


def move_list(rules: TakeAway) -> np.ndarray:
    """``(n_moves, 2) int64``: the heap and the count of each action of a take-away game."""
    return move_array(rules)


def legal_mask(rules: Game, positions: np.ndarray) -> np.ndarray:
    """``(k, n_moves) bool``: which moves are legal in each position (the game's rule)."""
    return rules.legal_mask(np.asarray(positions))


@overload
def move_indices(rules: TakeAway, heap: np.ndarray, take: np.ndarray) -> np.ndarray: ...
@overload
def move_indices(rules: TakeAway, heap: np.integer, take: np.integer) -> np.integer: ...
def move_indices(rules: TakeAway, heap: np.ndarray | np.integer, take: np.ndarray | np.integer) -> np.ndarray | np.integer:
    """The actions of a take-away game's moves, given as heaps and counts (arrays of equal
    shape); each must be a move of the board."""
    return rules.action_indices(heap, take)


def random_moves(rules: Game, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal move index for each position with a move: on a take-away
    game in O(piles) each (a draw among the position's moves counted pile by pile), on any
    other from its legal mask."""
    if isinstance(rules, TakeAway):
        return rules.random_actions(positions, rng)
    legal = rules.legal_mask(np.asarray(positions, dtype=np.int64))
    return np.where(legal, rng.random(legal.shape), -1.0).argmax(axis=1)


def shortest(positions: np.ndarray) -> np.ndarray:
    """Index of each position's shortest non-empty pile (the first on ties)."""
    positions = np.asarray(positions, dtype=np.int64)  # room for the sentinel
    return np.where(positions > 0, positions, np.iinfo(np.int64).max).argmin(axis=1)


def longest(positions: np.ndarray) -> np.ndarray:
    """Index of each position's longest pile (the first on ties)."""
    return np.asarray(positions).argmax(axis=1)


def uniform_rows(mask: np.ndarray) -> np.ndarray:
    """Uniform probabilities over the True entries of each row (zero rows stay zero); with
    counts instead of booleans, probabilities in proportion to them."""
    counts = mask.sum(axis=1, keepdims=True)
    return np.divide(mask, counts, out=np.zeros(mask.shape), where=counts > 0)
