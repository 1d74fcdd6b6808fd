"""Exact solution of a game by retrograde analysis: the ground truth of nim_evo."""

from __future__ import annotations


import numpy as np

from nim_evo.engine.enumeration import EnumeratedSpace
from nim_evo.engine.kept import bounded, cells
from nim_evo.engine.space import DEFAULT_MAX_POSITIONS, GAME_OR_NAME, SPACE, SPACE_LIMIT, Space, space_for
from nim_evo.games.base import Game, Position
from nim_evo.games.takeaway import Move
from nim_evo.validation import validate


class Solution:
    """Win/loss and winning moves of every position of a space (ordered or of multisets).

    Attributes (read-only numpy arrays over the space's indices):
        win: ``(n_positions,) bool``, the player to move wins with perfect play.
        winning: ``(n_positions, n_moves) bool``, the moves that leave a lost position.
        remoteness: ``(n_positions,) int32``, plies to the end with perfect play when the
            winner hurries and the loser delays (0 on the empty board).
    """

    def __init__(self, space: EnumeratedSpace, win: np.ndarray, winning: np.ndarray, remoteness: np.ndarray):
        self.space = space
        self.rules = space.rules
        self.win, self.winning, self.remoteness = win, winning, remoteness
        for array in (win, winning, remoteness):
            array.flags.writeable = False

    def is_win(self, piles: Position) -> bool:
        """Does the player to move win from ``piles`` with perfect play?"""
        return bool(self.win[self.space.index(piles)])

    def winning_moves(self, piles: Position) -> list[Move]:
        """The moves from ``piles`` that win, in the engine's move order (empty if lost);
        on a multiset space, every concrete move of ``piles`` that a winning column stands for."""
        row = self.winning[self.space.index(piles)]
        return sorted(move for k in np.flatnonzero(row) for move in self.space.concrete_moves(piles, int(k)))

    def accuracy(self, policy: np.ndarray) -> float:
        """Share of the board's winning positions where ``policy`` plays a winning move.

        On a multiset space each multiset counts for the positions of the board it stands
        for (:attr:`~nim_evo.engine.multiset.MultisetSpace.weights`), so the share is the same as
        over the ordered space for a policy that treats equal piles alike.

        Args:
            policy: ``(n_positions,)`` move indices (any value where the position is lost or
                terminal), or a ``(n_positions, n_moves)`` probability table, for which the
                share is the mean probability of playing a winning move.
        """
        winners = np.flatnonzero(self.win & ~self.space.terminal)
        if not len(winners):
            return 1.0
        policy = np.asarray(policy)
        if policy.ndim == 2:
            right = (policy[winners] * self.winning[winners]).sum(axis=1)
        else:
            right = self.winning[winners, policy[winners]]
        return float(np.average(right, weights=self.space.weights[winners]))


def solve(rules: Game | str | EnumeratedSpace, max_positions: int = DEFAULT_MAX_POSITIONS) -> Solution:
    """Solve every position of a game by retrograde analysis.

    Algorithm (positions level by level in the game's retrograde order, objects left on a
    take-away game, so every successor is already known)::

        for each level, all its positions p at once (as arrays):
            if p has no legal move (terminal):
                win[p] = misere      # the opponent made the last move: in misère, it lost
                remoteness[p] = 0
            else:
                good[p, m] = m is legal and not win[next[p, m]]
                win[p] = any(good[p, :])
                remoteness[p] = 1 + (min(remoteness[next[p, m]] for good m) if win[p]
                                     else max(remoteness[next[p, m]] for legal m))

    Works for normal and misère play on any enumerable board of any family. ``rules`` is a
    game, its name (``20-sub1.3.4``), or a space already built (ordered, of multisets or
    searched, with its own limit). Results are cached (they are read-only).

    Raises:
        SpaceTooLarge: if the board has more than ``max_positions`` positions.
    """
    validate({"rules": [GAME_OR_NAME, SPACE], "max_positions": [SPACE_LIMIT]},
             {"rules": rules, "max_positions": max_positions})
    space = rules if isinstance(rules, EnumeratedSpace) else space_for(rules, max_positions)
    return _solve(space)


@bounded(lambda arguments, solution: cells(solution.space))
def _solve(space: EnumeratedSpace) -> Solution:
    at_end = space.rules.to_move_wins_at_end
    win = np.zeros(space.n_positions, dtype=bool)
    winning = np.zeros((space.n_positions, space.n_moves), dtype=bool)
    remoteness = np.zeros(space.n_positions, dtype=np.int32)
    for idx in space.levels:
        nxt = space.next[idx]
        legal = nxt >= 0
        nxt = np.where(legal, nxt, 0)
        good = legal & ~win[nxt]
        child_rem = remoteness[nxt]
        wins = good.any(axis=1)
        fastest = np.where(good, child_rem, np.iinfo(np.int32).max).min(axis=1)
        slowest = np.where(legal, child_rem, -1).max(axis=1)
        terminal = space.terminal[idx]
        win[idx] = np.where(terminal, at_end, wins)
        winning[idx] = good
        remoteness[idx] = np.where(terminal, 0, 1 + np.where(wins, fastest, slowest))
    return Solution(space, win, winning, remoteness)
