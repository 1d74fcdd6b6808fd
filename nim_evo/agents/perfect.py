"""Perfect play in every game: a winning move where there is one, from theory or the solved board.

On Nim the perfect player is the nim-sum agent (:class:`~nim_evo.agents.base.NimSumAgent`,
whose name ``nimsum`` the write-ups gave it); ``perfect`` names it on every board.
"""

from __future__ import annotations

import numpy as np

from nim_evo.agents.player import Player, check_space
from nim_evo.engine.boards import uniform_rows
from nim_evo.engine.oracle import Oracle
from nim_evo.engine.solver import solve
from nim_evo.games.base import Game

BLOCK_CELLS = 4_000_000  # child heap sizes judged at once (32 MB)


class PerfectAgent(Player):
    """Uniform over the winning moves (those that leave the opponent a lost position), over
    every legal move where none wins. Positions are judged by the family's theory where it has
    one for the board (Sprague-Grundy values on heaps of any size), else by the solved board
    (of multisets); a board with neither is refused when the agent is made."""

    name = "perfect"
    order_blind = True

    def __init__(self, rules: Game):
        super().__init__(rules)
        self._oracle = Oracle(rules)

    def move_probabilities(self, positions):
        positions = np.asarray(positions, dtype=np.int64)
        block = max(1, BLOCK_CELLS // max(1, self.rules.n_actions * self.rules.width))
        rows = [self._rows(positions[i:i + block]) for i in range(0, len(positions), block)]
        return np.concatenate(rows) if rows else np.zeros((0, self.rules.n_actions))

    def _rows(self, positions: np.ndarray) -> np.ndarray:
        children, legal = self.rules.successors(positions)
        winning = legal & ~self._opponent_wins(children.reshape(-1, self.rules.width)).reshape(legal.shape)
        return uniform_rows(np.where(winning.any(axis=1, keepdims=True), winning, legal))

    def winning_moves(self, piles) -> list:
        """The moves from ``piles`` that leave the opponent a lost position, in action order."""
        piles = self.rules.check_position(piles)
        children, legal = self.rules.successors(np.array([piles], dtype=np.int64))
        winning = legal[0] & ~self._opponent_wins(children[0])
        return [self.rules.move_of(int(a)) for a in np.flatnonzero(winning)]

    def _opponent_wins(self, children: np.ndarray) -> np.ndarray:
        """Whether the player to move wins at each of ``children (k, width)`` (illegal actions'
        children, never read, may hold negative heaps or lie beyond the board: read as empty)."""
        return self._oracle.wins(children, checked=False)

    def policy(self, space):
        check_space(self, space)
        winning = solve(space).winning
        return uniform_rows(np.where(winning.any(axis=1, keepdims=True), winning, space.legal) * space.multiplicity)
