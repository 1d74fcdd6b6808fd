"""The batched path: every position reachable from the start, enumerated once.

On a take-away board that is a box (every position at most the start heap by heap is
reachable: Nim's, where one object is always a legal take, or a subtraction game's with 1 in
its set), the space is counted, not searched. A position's index is its mixed-radix number,
first heap most significant (the Math 495R Nim lab wrote 7-5-3 as the number 753): ``index =
sum(p[i] * stride[i])`` with ``stride[i] = prod(start[j] + 1 for j > i)``. The empty board is
index 0, the start is the last index, and every move lowers the index, so increasing index
order (or the number of objects left) is a retrograde order. Every other board's space is found
by search (:mod:`nim_evo.engine.search`).

Moves are the game's actions (a take-away game's by heap, then count), and ``next[position,
move]`` is the position a move leads to, -1 where the move is illegal.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from nim_evo.engine.enumeration import EnumeratedSpace
from nim_evo.engine.kept import bounded, space_cells
from nim_evo.engine.multiset import MultisetSpace, multiset_space
from nim_evo.engine.search import searched_space
from nim_evo.games.base import Game, Position
from nim_evo.games.registry import game
from nim_evo.games.takeaway import Move, TakeAway, move_array
from nim_evo.engine.sizes import (DEFAULT_MAX_POSITIONS, MAX_CELLS, MAX_TABLE_CELLS, SPACE_LIMIT,  # noqa: F401
                                  SpaceTooLarge, check_space_size, enumerable, panel_tabulable, space_size,
                                  tabulable)
from nim_evo.validation import BOOL, InstanceOf, UserError, validate


class Space(EnumeratedSpace):
    """The enumerated positions of a take-away board that is a box, its moves and transition table.

    Attributes (all read-only numpy arrays):
        positions: ``(n_positions, n_heaps) int32``, the heap sizes of each index.
        totals: ``(n_positions,) int32``, objects left in each position.
        moves: ``(n_moves, 2) int32``, the heap and the count of each move index.
        legal: ``(n_positions, n_moves) bool``.
        next: ``(n_positions, n_moves) int32``, the index reached, -1 where illegal.

    It answers the questions of :class:`nim_evo.engine.multiset.MultisetSpace` too (``weights``,
    ``multiplicity``, ``columns``, ``merge``, ``move_index_at``, ``concrete_moves``), where
    every position stands for itself.
    """

    rules: TakeAway  # a board that is a box: these spaces count it
    moves: np.ndarray
    multiset = False

    def __init__(self, rules: TakeAway, max_positions: int = DEFAULT_MAX_POSITIONS):
        self.rules = rules
        self.n_positions = check_space_size(rules, max_positions)
        radices = np.array(rules.start, dtype=np.int64) + 1
        self.strides = np.concatenate([np.cumprod(radices[:0:-1])[::-1], [1]]).astype(np.int64)
        index = np.arange(self.n_positions, dtype=np.int64)
        self.positions = ((index[:, None] // self.strides) % radices).astype(np.int32)
        self.totals = self.positions.sum(axis=1, dtype=np.int32)

        self.moves = move_array(rules).astype(np.int32)
        self.n_moves = len(self.moves)
        self.legal = np.empty((self.n_positions, self.n_moves), dtype=bool)
        self.next = np.empty((self.n_positions, self.n_moves), dtype=np.int32)
        index32 = index.astype(np.int32)
        ends = np.searchsorted(self.moves[:, 0], np.arange(len(rules.start) + 1))
        for heap in range(len(rules.start)):  # one block of columns per heap: a move is legal where the heap holds its take
            block = slice(ends[heap], ends[heap + 1])
            takes = self.moves[block, 1]
            np.greater_equal(self.positions[:, heap, None], takes, out=self.legal[:, block])
            np.subtract(index32[:, None], takes * np.int32(self.strides[heap]), out=self.next[:, block])
        np.copyto(self.next, -1, where=~self.legal)

        self._finish(self.strides, self.positions, self.totals, self.moves, self.legal, self.next)

    def index(self, position: Position) -> int:
        """Index of a position; raises ``ValueError`` if it is not on this board."""
        position = self.rules.check_position(position)
        for size, start in zip(position, self.rules.start):
            if size > start:
                raise UserError(f"position {position} is not reachable from the start {self.rules.start}")
        return int(np.dot(position, self.strides))

    def indices(self, positions: np.ndarray) -> np.ndarray:
        """Indices of many positions, ``(k, n_piles)`` in, ``(k,) int64`` out (not validated)."""
        return np.asarray(positions, dtype=np.int64) @ self.strides

    # -- what a multiset space adds, trivially here -------------------------------------

    @cached_property
    def weights(self) -> np.ndarray:
        """``(n_positions,) float64``: each position stands for one position."""
        return _read_only(np.ones(self.n_positions))

    @cached_property
    def multiplicity(self) -> np.ndarray:
        """``(n_positions, n_moves) int16``: each legal move stands for one move."""
        return _read_only(self.legal.astype(np.int16))

    @cached_property
    def columns(self) -> np.ndarray:
        """``(n_positions, n_moves) int32``: each legal move is its own column (-1 where illegal)."""
        return _read_only(np.where(self.legal, np.arange(self.n_moves, dtype=np.int32), np.int32(-1)))

    @property
    def concrete_legal(self) -> np.ndarray:
        """Each position's legal moves over the rules' own moves (the ordered board's: its ``legal``
        mask)."""
        return self.legal

    def merge(self, table: np.ndarray) -> np.ndarray:
        """A policy over positions' moves is already one over this space."""
        return np.asarray(table, dtype=float)

    def unfold(self, positions: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Rows over this space's moves are already over the moves of the positions."""
        return np.asarray(rows, dtype=float)

    def fold(self, moves: np.ndarray) -> np.ndarray:
        """Move arrays over positions' moves are already over this space."""
        return np.asarray(moves)

    def move_index_at(self, position: Position, move: Move) -> int:
        """The move index of a legal move in ``position``."""
        if not self.rules.is_legal(tuple(position), move):
            raise UserError(f"illegal move {move} in position {tuple(position)} of {self.rules.name}")
        return self.move_index(move)

    def concrete_moves(self, position: Position, move_index: int) -> list[Move]:
        """The move a move index stands for in ``position`` (empty if illegal there)."""
        return [self.move(move_index)] if self.legal[self.index(position), move_index] else []


SPACE = InstanceOf(EnumeratedSpace, what="a Space (nim_evo.space_for(rules))")
GAME_OR_NAME = InstanceOf(Game, str, what="a game or its name (7-5-3, 20-sub1.3.4)")


def space_for(rules: Game | str, max_positions: int = DEFAULT_MAX_POSITIONS, multiset: bool = False):
    """A shared, cached enumerated space of a game (spaces are read-only), or with
    ``multiset`` of its multisets of heaps: on a take-away board that is a box (Nim's) a
    :class:`Space` or :class:`~nim_evo.engine.multiset.MultisetSpace` by counting; on any other board a
    :class:`~nim_evo.engine.search.SearchedSpace` found by search from the start.
    ``rules`` is a game or its name.

    (No return annotation: the package's ``Space`` annotations stand for either kind, which a
    multiset space is in all but its class; the honest common type is a typing pass of its own.)"""
    validate({"rules": [GAME_OR_NAME], "max_positions": [SPACE_LIMIT], "multiset": [BOOL]},
             {"rules": rules, "max_positions": max_positions, "multiset": multiset})
    return _space_for(game(rules), max_positions, multiset)


@bounded(space_cells)
def _space_for(board: Game, max_positions: int, multiset: bool):
    if not (isinstance(board, TakeAway) and board.box):
        return searched_space(board, max_positions, multiset)
    if multiset:
        return multiset_space(board, max_positions)
    return Space(board, max_positions)


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array
