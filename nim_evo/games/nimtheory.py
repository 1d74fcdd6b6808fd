"""Closed forms of Nim theory, where they exist.

- Normal play: a position is lost for the player to move iff the nim-sum of its piles'
  Grundy values is 0 (Sprague-Grundy); a pile of ``n`` has Grundy value ``n`` without a cap
  and ``n mod (k + 1)`` with a cap of ``k``. One capped heap: take ``N mod (k + 1)``.
- Misère play without a cap (Bouton): if every pile has at most one object, the player to
  move wins iff the number of one-object piles is even; otherwise iff the nim-sum is not 0.
- Misère play with a cap of ``k``: on the residues ``r_i = n_i mod (k + 1)``, a position is
  lost for the player to move iff, when some ``r_i > 1``, the nim-sum of the residues is 0,
  and otherwise (every residue 0 or 1) it is 1: Bouton's misère rule on the residues (checked
  against the solver for caps 1, 2, 3 and 5 on every position of boards up to 11-11-8-6). One
  heap: lost iff ``(N - 1) mod (k + 1) == 0`` (Moore's NIM Rules: take ``(N - 1) mod (k + 1)``).

The vectorised functions take positions as an array whose last axis is the piles.
:func:`winning_mask` and :func:`winning_takes` give the winning moves of arrays of positions
straight from these forms (the nim-sum agent's answer, and the programs' held-out judge).
"""

from __future__ import annotations

import numpy as np

from nim_evo.games.nim import Move, Position, Rules
from nim_evo.games.takeaway import move_array

CHILD_CELLS = 4_000_000  # pile sizes of child positions judged at once (32 MB): a block of positions holds
# at most this many (k, n_moves, n_piles)


def grundy(piles: np.ndarray, max_take: int | None = None) -> np.ndarray:
    """Grundy values of piles (any shape) in normal play."""
    piles = np.asarray(piles)
    return piles if max_take is None else piles % (max_take + 1)


def grundy_sum(positions: np.ndarray, max_take: int | None = None) -> np.ndarray:
    """Nim-sum (XOR) of the Grundy values of each position's piles."""
    return np.bitwise_xor.reduce(grundy(positions, max_take), axis=-1)


def wins(rules: Rules, positions: np.ndarray) -> np.ndarray | None:
    """Closed-form win/loss for the player to move of each position (every family has one).

    Args:
        positions: ``(..., n_piles)`` int array.
    Returns:
        ``(...)`` bool array.
    """
    verdict, known = known_wins(rules, positions)
    return verdict if known.all() else None


def known_wins(rules: Rules, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form verdicts ``(...)`` bool, and where a closed form applies ``(...)`` bool
    (everywhere: the second array is kept for callers that ask)."""
    verdict = rules.theory_wins(positions)
    return verdict, np.ones(verdict.shape, dtype=bool)


def is_win(rules: Rules, piles: Position) -> bool | None:
    """Closed-form verdict for one position (every family has one: ``None`` never comes)."""
    verdict = wins(rules, np.array([piles]))
    return None if verdict is None else bool(verdict[0])


def winning_moves(rules: Rules, piles: Position) -> list[Move] | None:
    """Moves that leave the opponent a lost position, by the closed forms (every family has
    one: ``None`` never comes), in the engine's order. No move list is made: each pile has a few candidate takes
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
    """Takes from a pile of ``n`` that include every winning one, in every family: to the
    pile's nim-sum target ``n ^ s``, or to 0 or 1 (Bouton's misère endings), and under a cap
    of ``k`` to the residue that is the Grundy target, or to a residue of 0 or 1."""
    s = int(np.bitwise_xor.reduce(np.array(piles, dtype=np.int64)))
    takes = {n - (n ^ s), n, n - 1}
    if rules.max_take is not None:
        k1 = rules.max_take + 1
        grundy = n % k1
        target = grundy ^ int(grundy_sum(np.array(piles, dtype=np.int64), rules.max_take))
        takes |= {(grundy - target) % k1, grundy, (grundy - 1) % k1}
    return takes


def winning_mask(rules: Rules, positions: np.ndarray) -> np.ndarray:
    """``(k, n_moves) bool``: the moves that leave the opponent a lost position.

    Nim theory: straight from the piles, or under misère play with a cap by judging every
    child position (Bouton's rule on the residues).
    """
    positions = np.asarray(positions, dtype=np.int64)
    if not (rules.misere and rules.max_take is not None):
        return _direct_winning_mask(rules, positions)
    moves = move_array(rules)
    block = max(1, CHILD_CELLS // max(1, len(moves) * len(rules.piles)))
    if len(positions) > block:
        return np.concatenate([winning_mask(rules, positions[i:i + block])
                               for i in range(0, len(positions), block)])
    legal = rules.legal_mask(positions)
    children = np.repeat(positions[:, None, :], len(moves), axis=1)
    children[:, np.arange(len(moves)), moves[:, 0]] -= moves[:, 1]
    children = np.maximum(children, 0)
    verdict, _ = known_wins(rules, children)
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
    mask = np.zeros((len(positions), rules.n_moves), dtype=bool)
    rows, piles = np.nonzero(ok)
    mask[rows, rules.action_indices(piles, take[rows, piles])] = True
    return mask
