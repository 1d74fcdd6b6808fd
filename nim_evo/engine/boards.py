"""Vectorised board features on arrays of positions, for policies that play any board.

Positions come as ``(k, n_piles)`` int arrays; moves are the rules' fixed move list (by
pile, then count), the same order as :class:`nim_evo.engine.space.Space` uses, which depends only
on the starting piles, never on enumerating the space.
"""

from __future__ import annotations

from typing import overload

import numpy as np

from nim_evo.engine import theory
from nim_evo.engine.rules import Rules
from nim_evo.games.base import Game
from nim_evo.games.takeaway import TakeAway, move_array

CHILD_CELLS = 4_000_000  # pile sizes of child positions judged at once (32 MB): a block of positions holds
# at most this many (k, n_moves, n_piles)


def move_list(rules: TakeAway) -> np.ndarray:
    """``(n_moves, 2) int64``: the ``(pile, count)`` of each move index (a take-away game's)."""
    return move_array(rules)


def legal_mask(rules: Game, positions: np.ndarray) -> np.ndarray:
    """``(k, n_moves) bool``: which moves are legal in each position (the game's rule)."""
    return rules.legal_mask(np.asarray(positions))


@overload
def move_indices(rules: TakeAway, pile: np.ndarray, count: np.ndarray) -> np.ndarray: ...
@overload
def move_indices(rules: TakeAway, pile: np.integer, count: np.integer) -> np.integer: ...
def move_indices(rules: TakeAway, pile: np.ndarray | np.integer, count: np.ndarray | np.integer) -> np.ndarray | np.integer:
    """Move index of ``(pile, count)`` pairs (arrays of equal shape); the move must exist."""
    return rules.action_indices(pile, count)


def winning_mask(rules: Rules, positions: np.ndarray) -> np.ndarray:
    """``(k, n_moves) bool``: the moves that leave the opponent a lost position.

    Nim theory: straight from the piles, or under misère play with a cap by judging every
    child position (Bouton's rule on the residues).
    """
    positions = np.asarray(positions, dtype=np.int64)
    if not (rules.misere and rules.max_take is not None):
        return _direct_winning_mask(rules, positions)
    moves = move_list(rules)
    block = max(1, CHILD_CELLS // max(1, len(moves) * len(rules.piles)))
    if len(positions) > block:
        return np.concatenate([winning_mask(rules, positions[i:i + block])
                               for i in range(0, len(positions), block)])
    legal = legal_mask(rules, positions)
    children = np.repeat(positions[:, None, :], len(moves), axis=1)
    children[:, np.arange(len(moves)), moves[:, 0]] -= moves[:, 1]
    children = np.maximum(children, 0)
    verdict, _ = theory.known_wins(rules, children)
    return legal & ~verdict


def winning_takes(rules: Rules, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Winning moves straight from Nim theory, at most one per pile, without child positions:
    ``(wins, take)``, both ``(k, n_piles)``: taking ``take[r, i]`` from pile ``i`` wins where
    ``wins[r, i]``. Not for misère play with a cap (:func:`winning_mask` judges its children).

    Normal play: with Grundy values ``g`` (``n``, or ``n mod (k + 1)`` under a cap) and their
    nim-sum ``s``, pile ``i`` wins by moving to Grundy value ``g[i] ^ s``: taking
    ``(g[i] - (g[i] ^ s)) mod (k + 1)`` (``n - (n ^ s)`` uncapped) when that is a legal take.
    Misère without a cap (Bouton): the same while two piles or more hold more than one object;
    with one such pile, empty it or leave one so that an odd number of single piles remains;
    with none, any single wins when their number is even.
    """
    cap = rules.max_take
    grundy = positions if cap is None else positions % (cap + 1)
    s = np.bitwise_xor.reduce(grundy, axis=1)
    target = grundy ^ s[:, None]
    take = positions - target if cap is None else np.mod(grundy - target, cap + 1)
    ok = (s[:, None] != 0) & (take >= 1) & (take <= positions)
    if cap is not None:
        ok &= (take <= cap) & (target <= cap)  # a pile's Grundy value never exceeds the cap
    if rules.misere:  # no cap here
        big = (positions > 1).sum(axis=1)
        ones = (positions == 1).sum(axis=1)
        one_big = big == 1
        # one pile above one: leave 0 or 1 in it so that the single piles number is odd
        leave = np.where(ones % 2 == 1, 0, 1)
        take = np.where(one_big[:, None], positions - leave[:, None], take)
        ok = np.where(one_big[:, None], positions > 1, ok)
        none_big = big == 0
        ok = np.where(none_big[:, None], (positions == 1) & (ones[:, None] % 2 == 0), ok)
        take = np.where(none_big[:, None], 1, take)
    return ok, take


def _direct_winning_mask(rules: Rules, positions: np.ndarray) -> np.ndarray:
    ok, take = winning_takes(rules, positions)
    mask = np.zeros((len(positions), len(move_list(rules))), dtype=bool)
    rows, piles = np.nonzero(ok)
    mask[rows, move_indices(rules, piles, take[rows, piles])] = True
    return mask


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
