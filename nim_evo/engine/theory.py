"""Closed forms of Nim theory, where they exist.

- Normal play: a position is lost for the player to move iff the nim-sum of its piles'
  Grundy values is 0 (Sprague-Grundy); a pile of ``n`` has Grundy value ``n`` without a cap
  and ``n mod (k + 1)`` with a cap of ``k``. One capped heap: take ``N mod (k + 1)``.
- Misère play without a cap (Bouton): if every pile has at most one object, the player to
  move wins iff the number of one-object piles is even; otherwise iff the nim-sum is not 0.
- Misère play with one non-empty heap and a cap of ``k``: lost iff ``(N - 1) mod (k + 1) == 0``
  (seed 000's rule: take ``(N - 1) mod (k + 1)``).
- Misère play with a cap and several non-empty piles has no closed form: ``None``.

The vectorised functions take positions as an array whose last axis is the piles.
"""

from __future__ import annotations

import numpy as np

from nim_evo.engine.rules import Move, Position, Rules


def grundy(piles: np.ndarray, max_take: int | None = None) -> np.ndarray:
    """Grundy values of piles (any shape) in normal play."""
    piles = np.asarray(piles)
    return piles if max_take is None else piles % (max_take + 1)


def grundy_sum(positions: np.ndarray, max_take: int | None = None) -> np.ndarray:
    """Nim-sum (XOR) of the Grundy values of each position's piles."""
    return np.bitwise_xor.reduce(grundy(positions, max_take), axis=-1)


def wins(rules: Rules, positions: np.ndarray) -> np.ndarray | None:
    """Closed-form win/loss for the player to move of each position, or ``None`` if any lacks one.

    Args:
        positions: ``(..., n_piles)`` int array.
    Returns:
        ``(...)`` bool array, or ``None`` if some position is under misère play with a cap
        and has more than one non-empty pile (see :func:`known_wins` for a partial answer).
    """
    verdict, known = known_wins(rules, positions)
    return verdict if known.all() else None


def known_wins(rules: Rules, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form verdicts ``(...)`` bool, and where a closed form applies ``(...)`` bool.

    Where none applies (misère with a cap, several non-empty piles) the verdict holds the
    normal-play nim-sum guess.
    """
    positions = np.asarray(positions, dtype=np.int64)
    normal = grundy_sum(positions, rules.max_take) != 0
    known = np.ones(normal.shape, dtype=bool)
    if not rules.misere:
        return normal, known
    if rules.max_take is None:
        small = (positions <= 1).all(axis=-1)
        ones_even = (positions == 1).sum(axis=-1) % 2 == 0
        return np.where(small, ones_even, normal), known
    single = (positions > 0).sum(axis=-1) <= 1
    heap = positions.sum(axis=-1) % (rules.max_take + 1) != 1
    return np.where(single, heap, normal), single


def is_win(rules: Rules, piles: Position) -> bool | None:
    """Closed-form verdict for one position (``None`` where no closed form applies)."""
    verdict = wins(rules, np.array([piles]))
    return None if verdict is None else bool(verdict[0])


def winning_moves(rules: Rules, piles: Position) -> list[Move] | None:
    """Moves that leave the opponent a lost position, by the closed forms (``None`` if none apply)."""
    moves = rules.legal_moves(piles)
    if not moves or is_win(rules, piles) is None:
        return None if moves else []
    after = np.array([rules.apply(piles, m) for m in moves])
    verdict = wins(rules, after)
    if verdict is None:
        return None
    return [m for m, opponent_wins in zip(moves, verdict) if not opponent_wins]
