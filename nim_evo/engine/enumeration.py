"""What every enumerated space shares: levels in retrograde order, terminal positions, and
positions and moves by index.

:class:`nim_evo.engine.space.Space` (every position of a Nim board),
:class:`nim_evo.engine.multiset.MultisetSpace` (every multiset of its pile sizes) and
:class:`nim_evo.engine.search.SearchedSpace` (any game's, found by search) derive from
:class:`EnumeratedSpace`; a subclass builds ``positions``, ``totals``, ``legal`` and ``next``
(and ``order``, the game's retrograde order, where it is not the objects left), and calls
:meth:`_finish`.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from nim_evo.games.base import Game, Position
from nim_evo.games.takeaway import Move
from nim_evo.validation import UserError


class EnumeratedSpace:
    """Positions ``0 .. n_positions - 1``, every move lowering the index (on a Nim board the
    empty board first, the start last), and moves ``0 .. n_moves - 1``: the game's actions.

    Attributes:
        terminal: ``(n_positions,) bool``, the positions without a legal move (read-only).
        levels: the position indices of each value of the retrograde order, ascending: every
            move leads to an earlier level (on Nim's boards, by objects left).
    """

    rules: Game
    n_positions: int
    n_moves: int
    positions: np.ndarray
    totals: np.ndarray
    moves: np.ndarray | None
    legal: np.ndarray
    next: np.ndarray
    terminal: np.ndarray
    levels: list[np.ndarray]
    multiset: bool

    @property
    def weights(self) -> np.ndarray:
        """``(n_positions,) float64``: the positions of the ordered board each index stands for."""
        raise NotImplementedError

    def index(self, position: Position) -> int:
        """Index of a position; a one-line :class:`UserError` if it is not on the board."""
        raise NotImplementedError

    def indices(self, positions: np.ndarray) -> np.ndarray:
        """Indices of many positions ``(k, width)``."""
        raise NotImplementedError

    def _finish(self, *arrays: np.ndarray) -> None:
        """Group the positions by objects left and by retrograde order, mark the terminal
        positions, and make ``arrays`` read-only."""
        order = getattr(self, "order", None)
        self._levels: list[np.ndarray] | None = None
        if order is None:  # a Nim board: the order is the objects left, every count from 0 to the start's
            by_total = np.argsort(self.totals, kind="stable")
            bounds = np.searchsorted(self.totals[by_total], np.arange(int(self.totals.max(initial=0)) + 2))
            self._levels = [by_total[bounds[t]:bounds[t + 1]] for t in range(len(bounds) - 1)]
            self.levels = self._levels
        else:
            values = np.unique(order)
            by_order = np.argsort(order, kind="stable")
            self.levels = np.split(by_order, np.searchsorted(order[by_order], values)[1:])
        self.terminal = np.asarray(~self.legal.any(axis=1))
        for array in (*arrays, self.terminal):
            array.flags.writeable = False

    @cached_property
    def successors(self) -> np.ndarray:
        """``(n_positions, n_moves)``: ``next`` with every illegal move at ``n_positions``, one
        past the last position, so that an array of values with one more slot (the value of
        an illegal move) is read at every move with one gather."""
        successors = np.where(self.legal, self.next, self.n_positions).astype(np.int32)
        successors.flags.writeable = False
        return successors

    @property
    def start(self) -> int:
        """Index of the starting position (all piles full)."""
        return self.n_positions - 1

    @property
    def max_total(self) -> int:
        """The most objects any position holds."""
        return int(self.totals.max(initial=0))

    def level(self, total: int) -> np.ndarray:
        """Indices of the positions with exactly ``total`` objects left, ascending."""
        if self._levels is None:
            return np.flatnonzero(self.totals == total)
        return self._levels[total]

    def position(self, index: int) -> Position:
        """The pile sizes of a position index (on a multiset space, its representative)."""
        if not 0 <= index < self.n_positions:
            raise UserError(f"position index {index} is outside 0..{self.n_positions - 1}")
        return tuple(int(p) for p in self.positions[index])

    @property
    def game(self) -> Game:
        """The game this space enumerates (``rules`` is its older name)."""
        return self.rules

    def move_index(self, move) -> int:
        """The index of a move of the board, in the game's words (its action)."""
        return self.game.action_of(move)

    def move(self, move_index: int):
        """The move of an index, in the game's words."""
        if not 0 <= move_index < self.n_moves:
            raise UserError(f"move index {move_index} is outside 0..{self.n_moves - 1}")
        return self.game.move_of(int(move_index))

    def concrete_moves(self, position: Position, move_index: int) -> list[Move]:
        """The moves of ``position`` that the space's move ``move_index`` stands for (several where
        the space folds moves together)."""
        raise NotImplementedError

    def concrete_move(self, position: Position, move_index: int) -> Move:
        """The move of ``position`` that ``move_index`` stands for (on a multiset space, on
        the first pile of the size it takes from); ``ValueError`` if it is illegal there."""
        moves = self.concrete_moves(position, move_index)
        if not moves:
            raise UserError(f"move index {move_index} is not a legal move in {tuple(position)}")
        return moves[0]
