"""The batched path for any game: the positions reachable from the start, found by search.

Nim's boards are boxes, enumerated by counting (:mod:`nim_evo.engine.space`,
:mod:`nim_evo.engine.multiset`); any other game's positions are found here, level by level
from the start, by its one rule (:meth:`~nim_evo.games.base.Game.successors`)::

    frontier = {start}
    while frontier:
        children = the legal successors of every frontier position (as arrays, in blocks)
        frontier = the children not seen before; add them to the space

With ``multiset`` (for a game whose heaps are interchangeable) every position is kept in its
canonical form (:meth:`~nim_evo.games.base.Game.canonical`), one per multiset of heaps, and
the actions of a position that lead to the same multiset merge into the first of them:
``multiplicity`` counts the actions a column stands for, ``columns`` maps each legal action of
the representative to its column, and ``weights`` counts the positions of the ordered board a
multiset stands for, so that averages over it are those of the ordered board.

Positions are sorted by the game's retrograde order (every move lowers it), then by their
heap sizes, so a position's successors all have lower indices; a position with no legal
action is terminal wherever it lies.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from nim_evo.engine.enumeration import EnumeratedSpace
from nim_evo.engine.limits import DEFAULT_MAX_POSITIONS, MAX_CELLS
from nim_evo.engine.multiset import _arrangements
from nim_evo.engine.reach import blocks, reachable, row_keys
from nim_evo.games.base import Game, Position
from nim_evo.games.takeaway import TakeAway, move_array
from nim_evo.validation import UserError

class SearchedSpace(EnumeratedSpace):
    """The positions of a game reachable from its start (of their multisets, with ``multiset``).

    Attributes (read-only numpy arrays; ``n`` positions, ``m`` actions of the game's alphabet):
        positions: ``(n, width) int64``, the heap sizes of each index (a multiset's representative).
        totals: ``(n,) int64``, objects left; ``order``: ``(n,) int64``, the retrograde order.
        legal: ``(n, m) bool``; next: ``(n, m) int32``, the index reached, -1 where illegal.
        terminal: ``(n,) bool``, positions without a legal action.
        multiplicity, columns, weights: as :class:`~nim_evo.engine.multiset.MultisetSpace`'s.
    """

    def __init__(self, game: Game, max_positions: int = DEFAULT_MAX_POSITIONS, multiset: bool = False):
        if multiset and not game.interchangeable:
            raise UserError(f"the heaps of {game.name} are not interchangeable: it has no space of multisets")
        self.rules = game
        self.multiset = multiset
        self.n_moves = game.n_actions
        rows = reachable(game, multiset, max_positions)
        order = game.order(rows)
        rows = rows[np.lexsort((*rows.T[::-1], order))]
        self.positions = rows
        self.n_positions = len(rows)
        self.order = game.order(rows)
        self.totals = rows.sum(axis=1)
        self._keys = row_keys(rows)
        self._sorted = np.argsort(self._keys)
        self._sorted_keys = self._keys[self._sorted]
        self.moves = _moves(game)
        self.legal = np.zeros((self.n_positions, self.n_moves), dtype=bool)
        self.next = np.full((self.n_positions, self.n_moves), -1, dtype=np.int32)
        self.multiplicity = np.zeros((self.n_positions, self.n_moves), dtype=np.int16)
        self.columns = np.full((self.n_positions, self.n_moves), -1, dtype=np.int32)
        for block in blocks(game, self.n_positions):
            children, legal = game.successors(rows[block])
            child = np.full(legal.shape, -1, dtype=np.int64)
            child[legal] = self.indices(children[legal])
            self._columns(block, child)
        self._finish(self.positions, self.order, self.totals, self.legal, self.next, self.multiplicity, self.columns)
        self._start = self.index(game.start)

    def _columns(self, block: slice, child: np.ndarray) -> None:
        """Fill the block's columns: every legal action its own column on an ordered space;
        on a space of multisets, the actions of a row reaching one multiset merged into the first."""
        legal = child >= 0
        actions = np.broadcast_to(np.arange(self.n_moves), child.shape)
        if not self.multiset:
            self.legal[block], self.next[block] = legal, child
            self.multiplicity[block] = legal
            self.columns[block] = np.where(legal, actions, -1)
            return
        by_child = np.argsort(np.where(legal, child, np.iinfo(np.int64).max), axis=1, kind="stable")
        sorted_child = np.take_along_axis(child, by_child, axis=1)
        starts = np.ones(child.shape, dtype=bool)       # the sorted slots where a run of one child begins
        starts[:, 1:] = sorted_child[:, 1:] != sorted_child[:, :-1]
        group = np.cumsum(starts, axis=1) - 1
        first_slot = _group_starts(starts)              # the stable sort puts a run's lowest action first
        head = np.empty(child.shape, dtype=np.int64)
        np.put_along_axis(head, by_child, np.take_along_axis(by_child, first_slot, axis=1), axis=1)
        sizes = np.empty(child.shape, dtype=np.int64)
        np.put_along_axis(sizes, by_child, np.take_along_axis(_group_sizes(starts), group, axis=1), axis=1)
        canonical = legal & (head == actions)
        self.legal[block] = canonical
        self.next[block] = np.where(canonical, child, -1)
        self.multiplicity[block] = np.where(canonical, sizes, 0)
        self.columns[block] = np.where(legal, head, -1)

    # -- positions by index --------------------------------------------------------------

    def _lookup(self, rows: np.ndarray) -> np.ndarray:
        """Indices of rows already in canonical form; -1 for rows not in the space."""
        wanted = row_keys(np.asarray(rows, dtype=np.int64))
        found = np.searchsorted(self._sorted_keys, wanted).clip(0, max(self.n_positions - 1, 0))
        hit = self._sorted_keys[found] == wanted
        return np.where(hit, self._sorted[found], -1)

    def indices(self, positions: np.ndarray) -> np.ndarray:
        """Indices of many positions ``(k, width)`` (any arrangement on a space of multisets);
        -1 for a position not in the space (not validated otherwise)."""
        positions = np.asarray(positions, dtype=np.int64)
        return self._lookup(self.game.canonical(positions) if self.multiset else positions)

    def index(self, position: Position) -> int:
        """Index of a position; a one-line :class:`UserError` if it is not reachable from the start."""
        position = self.game.check_position(position)
        index = int(self.indices(np.array([position], dtype=np.int64))[0])
        if index < 0:
            raise UserError(f"position {position} is not reachable from the start {self.game.start} of {self.game.name}")
        return index

    @property
    def start(self) -> int:
        """Index of the starting position (found once: learners ask it every game)."""
        return self._start

    @property
    def concrete_legal(self) -> np.ndarray:
        """Each position's legal moves over the game's own actions (those its columns reach)."""
        return self.columns >= 0

    @cached_property
    def weights(self) -> np.ndarray:
        """``(n,) float64``: positions of the ordered board each position stands for (1 on an
        ordered space, and where the game's heaps keep no place; on a space of multisets,
        counted over the ordered board's search)."""
        if not self.multiset or not self.game.heaps_in_place:
            return _read_only(np.ones(self.n_positions))
        if self.game.box:  # every arrangement under the start is a position: counted, not searched
            ordered = np.sort(self.positions.astype(np.int64), axis=1)
            return _read_only(_arrangements(ordered, np.sort(np.array(self.game.start, dtype=np.int64))))
        ordered = reachable(self.game, False, MAX_CELLS)
        return _read_only(np.bincount(self.indices(ordered), minlength=self.n_positions).astype(float))

    # -- policies over columns -----------------------------------------------------------

    def merge(self, table: np.ndarray) -> np.ndarray:
        """A policy over the representatives' actions (``(n, m)`` or a stack ``(k, n, m)``) as
        a policy over this space's columns: the actions reaching one multiset added up."""
        table = np.asarray(table, dtype=float)
        if table.ndim == 3:
            return np.stack([self.merge(t) for t in table])
        if not self.multiset:
            return table
        playable = self.columns >= 0
        flat = (np.arange(self.n_positions)[:, None] * self.n_moves + self.columns)[playable]
        merged = np.bincount(flat, weights=table[playable], minlength=self.n_positions * self.n_moves)
        return merged.reshape(self.n_positions, self.n_moves)

    def fold(self, moves: np.ndarray) -> np.ndarray:
        """Move arrays over the representatives' actions as move arrays over this space's columns."""
        moves = np.asarray(moves)
        if not self.multiset:
            return moves
        merged = self.columns[np.arange(self.n_positions), moves]
        return np.where(merged >= 0, merged, moves)

    def unfold(self, positions: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Rows over this space's columns, one for each of ``positions (k, width)`` (any
        arrangement of the position the row is for), as rows over the actions of those very
        positions: each column's probability on the first action there that reaches its
        multiset (:meth:`merge` of the result at a representative gives the rows back)."""
        rows = np.asarray(rows, dtype=float)
        if not self.multiset:
            return rows
        positions = np.asarray(positions, dtype=np.int64)
        result = np.zeros((len(positions), self.n_moves))
        for block in blocks(self.game, len(positions)):
            reached = self._reached(positions[block])                       # (b, m): child index per action
            index = self.indices(positions[block])
            row, column = np.nonzero(rows[block])
            target = self.next[index[row], column]
            first = (reached[row] == target[:, None]).argmax(axis=1)
            np.add.at(result[block], (row, first), rows[block][row, column])
        return result

    def _reached(self, positions: np.ndarray) -> np.ndarray:
        """``(k, m)``: the index each action of ``positions`` leads to, -1 where illegal."""
        children, legal = self.game.successors(positions)
        reached = np.full(legal.shape, -1, dtype=np.int64)
        reached[legal] = self.indices(children[legal])
        return reached

    def move_index_at(self, position: Position, move) -> int:
        """The column of ``position``'s index that a legal move of ``position`` (any
        arrangement, the game's words) stands for."""
        position = self.game.check_position(position)
        if not self.game.is_legal(position, move):
            raise UserError(f"illegal move {move} in position {position} of {self.game.name}")
        action = self.game.action_of(move)
        if not self.multiset:
            return action
        target = self._reached(np.array([position], dtype=np.int64))[0, action]
        index = self.index(position)
        return int(np.flatnonzero(self.legal[index] & (self.next[index] == target))[0])

    def concrete_actions(self, position: Position, column: int) -> list[int]:
        """Every action of ``position`` (any arrangement) that a column of its index stands for,
        ascending (empty if the column is illegal there)."""
        position = self.game.check_position(position)
        index = self.index(position)
        if not self.legal[index, column]:
            return []
        reached = self._reached(np.array([position], dtype=np.int64))[0]
        return [int(a) for a in np.flatnonzero(reached == self.next[index, column])]

    def concrete_moves(self, position: Position, move_index: int) -> list:
        """:meth:`concrete_actions` in the game's own words (:meth:`~nim_evo.games.base.Game.move_of`)."""
        return [self.game.move_of(a) for a in self.concrete_actions(position, move_index)]


def searched_space(game: Game, max_positions: int = DEFAULT_MAX_POSITIONS, multiset: bool = False) -> SearchedSpace:
    """A :class:`SearchedSpace` (see the module); multisets only for interchangeable heaps."""
    return SearchedSpace(game, max_positions, multiset and game.interchangeable)


def _group_starts(starts: np.ndarray) -> np.ndarray:
    """For each sorted slot, the slot where its group (a run of equal children) starts."""
    slots = np.where(starts, np.arange(starts.shape[1]), 0)
    return np.maximum.accumulate(slots, axis=1)


def _group_sizes(starts: np.ndarray) -> np.ndarray:
    """``(b, m)``: the size of group ``g`` at column ``g`` (zero past the last group)."""
    group = np.cumsum(starts, axis=1) - 1
    sizes = np.zeros(starts.shape, dtype=np.int64)
    np.add.at(sizes, (np.arange(len(starts))[:, None].repeat(starts.shape[1], axis=1), group), 1)
    return sizes


def _moves(game: Game):
    return move_array(game).astype(np.int32) if isinstance(game, TakeAway) else None


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array
