"""Closed forms of Nim theory, where they exist.

- Normal play: a position is lost for the player to move iff the nim-sum of its piles'
  Grundy values is 0 (Sprague-Grundy); a pile of ``n`` has Grundy value ``n`` without a cap
  and ``n mod (k + 1)`` with a cap of ``k``. One capped heap: take ``N mod (k + 1)``.
- Misère play without a cap (Bouton): if every pile has at most one object, the player to
  move wins iff the number of one-object piles is even; otherwise iff the nim-sum is not 0.
- Misère play with one non-empty heap and a cap of ``k``: lost iff ``(N - 1) mod (k + 1) == 0``
  (the rule of Moore's NIM Rules: take ``(N - 1) mod (k + 1)``).
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
    """Moves that leave the opponent a lost position, by the closed forms (``None`` if none
    apply), in the engine's order. No move list is made: each pile has a few candidate takes
    (:func:`_candidate_takes`), each judged by the closed form, so piles of any size are cheap."""
    piles = tuple(piles)
    verdict = is_win(rules, piles)
    if verdict is None or not verdict:
        return None if verdict is None else []
    candidates = sorted({(i, c) for i, n in enumerate(piles) for c in _candidate_takes(rules, piles, n)
                         if 1 <= c <= min(n, rules.max_take or n)})
    after = np.array([rules.apply(piles, m) for m in candidates], dtype=np.int64).reshape(-1, len(piles))
    lost, known = known_wins(rules, after)
    if not known.all():
        return None
    return [m for m, opponent_wins in zip(candidates, lost) if not opponent_wins]


def _candidate_takes(rules: Rules, piles: Position, n: int) -> set[int]:
    """Takes from a pile of ``n`` that include every winning one, in every family with a closed
    form: to the pile's nim-sum target ``n ^ s``, or to 0 or 1 (Bouton's misère endings), and
    under a cap of ``k`` to the Grundy target, or leaving ``(N - 1) mod (k + 1)`` of one heap."""
    s = int(np.bitwise_xor.reduce(np.array(piles, dtype=np.int64)))
    takes = {n - (n ^ s), n, n - 1}
    if rules.max_take is not None:
        k1 = rules.max_take + 1
        grundy = n % k1
        target = grundy ^ int(grundy_sum(np.array(piles, dtype=np.int64), rules.max_take))
        takes |= {(grundy - target) % k1, (n - 1) % k1}
    return takes
