"""What every enumerated space shares: levels by objects left, and positions and moves by index.

:class:`nim_evo.engine.space.Space` (every position) and :class:`nim_evo.engine.multiset.MultisetSpace`
(every multiset of pile sizes) derive from :class:`EnumeratedSpace`; a subclass builds
``positions``, ``totals``, ``moves``, ``legal`` and ``next`` and calls :meth:`_finish`.
"""

from __future__ import annotations

import numpy as np

from nim_evo.engine.rules import Move, Position, Rules
from nim_evo.validation import UserError


class EnumeratedSpace:
    """Positions ``0 .. n_positions - 1`` (the empty board first, the start last) and moves
    ``0 .. n_moves - 1`` (the board's ``(pile, count)`` moves in the engine's order)."""

    rules: Rules
    n_positions: int
    n_moves: int
    positions: np.ndarray
    totals: np.ndarray
    moves: np.ndarray

    def _finish(self, *arrays: np.ndarray) -> None:
        """Group the positions by objects left and make ``arrays`` read-only."""
        total = sum(self.rules.piles)
        order = np.argsort(self.totals, kind="stable")
        bounds = np.searchsorted(self.totals[order], np.arange(total + 2))
        self._levels = [order[bounds[t]:bounds[t + 1]] for t in range(total + 1)]
        self._move_index: dict[tuple[int, ...], int] = {(int(p), int(c)): k for k, (p, c) in enumerate(self.moves)}
        for array in arrays:
            array.flags.writeable = False

    @property
    def start(self) -> int:
        """Index of the starting position (all piles full)."""
        return self.n_positions - 1

    @property
    def max_total(self) -> int:
        return len(self._levels) - 1

    def level(self, total: int) -> np.ndarray:
        """Indices of the positions with exactly ``total`` objects left, ascending."""
        return self._levels[total]

    def position(self, index: int) -> Position:
        """The pile sizes of a position index (on a multiset space, its representative)."""
        if not 0 <= index < self.n_positions:
            raise UserError(f"position index {index} is outside 0..{self.n_positions - 1}")
        return tuple(int(p) for p in self.positions[index])

    def move_index(self, move: Move) -> int:
        """The index of a ``(pile, count)`` move of the board."""
        try:
            return self._move_index[tuple(int(v) for v in move)]
        except (KeyError, TypeError, ValueError):
            raise UserError(f"{move} is not a move of {self.rules.name}") from None

    def move(self, move_index: int) -> Move:
        """The ``(pile, count)`` of a move index."""
        if not 0 <= move_index < self.n_moves:
            raise UserError(f"move index {move_index} is outside 0..{self.n_moves - 1}")
        pile, count = self.moves[move_index]
        return int(pile), int(count)

    def concrete_moves(self, position: Position, move_index: int) -> list[Move]:
        raise NotImplementedError

    def concrete_move(self, position: Position, move_index: int) -> Move:
        """The move of ``position`` that ``move_index`` stands for (on a multiset space, on
        the first pile of the size it takes from); ``ValueError`` if it is illegal there."""
        moves = self.concrete_moves(position, move_index)
        if not moves:
            raise UserError(f"move index {move_index} is not a legal move in {tuple(position)}")
        return moves[0]
