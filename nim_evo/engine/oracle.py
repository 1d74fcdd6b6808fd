"""Who wins, at any positions of a game: the family's theory where it has one for the board,
else the solved board (of multisets). Perfect play and the referee read it.
"""

from __future__ import annotations

import numpy as np

from nim_evo.engine.sizes import SpaceTooLarge
from nim_evo.engine.solver import solve
from nim_evo.engine.space import space_for
from nim_evo.games.base import Game
from nim_evo.validation import UserError


class Oracle:
    """Whether the player to move wins at positions of ``game`` with perfect play.

    Positions are judged by the family's theory where it has one for the board (Sprague-Grundy
    values on heaps of any size, a closed form), else by the solved board; a board with
    neither is refused when the oracle is made, in one line saying why (``what`` names who
    asked: ``perfect play``, ``the referee``).
    """

    def __init__(self, game: Game, what: str = "perfect play"):
        self.game = game
        self.solution = None
        if game.theory_wins(np.array([game.start], dtype=np.int64)) is None:
            try:
                self.solution = solve(space_for(game, multiset=game.interchangeable))
            except SpaceTooLarge as error:
                scope = f" ({game.theory_scope()})" if game.theory_scope() else ""
                raise UserError(f"{what} on {game.name} needs its theory or its solved board: it has no theory "
                                f"here{scope}, and {str(error)[0].lower()}{str(error)[1:]}") from None

    def knows(self, positions) -> np.ndarray:
        """``(k,) bool``: whether :meth:`wins` judges each of ``positions`` (every position by
        the theory; on the solved board, the positions its start reaches)."""
        positions = np.maximum(np.asarray(positions, dtype=np.int64), 0)
        if self.solution is None:
            return np.ones(len(positions), dtype=bool)
        return self.solution.space.indices(positions) >= 0

    def wins(self, positions, checked: bool = True) -> np.ndarray:
        """``(k,) bool`` for ``positions (k, width)``: whether the player to move wins there.

        With ``checked=False`` (the children of every action, legal or not, whose illegal ones
        are never read) a negative heap is read as empty and a position off the solved board
        gets any answer; with ``checked``, a position off the board is a one-line :class:`UserError`."""
        positions = np.maximum(np.asarray(positions, dtype=np.int64), 0)
        if self.solution is None:
            return np.asarray(self.game.theory_wins(positions), dtype=bool)
        index = self.solution.space.indices(positions)
        if checked and len(index) and index.min() < 0:
            raise UserError(f"a position of {self.game.name} is off its board (the start it was solved from)")
        return self.solution.win[np.maximum(index, 0)]
