"""The batched path over multisets: one entry per position up to the order of its piles.

In every game here the heaps are interchangeable: a position's value, its winning moves and
any sensible strategy depend only on the multiset of its heap sizes. A :class:`MultisetSpace`
keeps one position per multiset (1-3-5-7-9-11-13: 21,318 instead of 645,120) and answers the
same questions as the ordered :class:`nim_evo.engine.space.Space`, so the solver, the exact
evaluator, the batched games and the table genome run on it unchanged. It counts the multisets
of a take-away board that is a box (Nim's, a subtraction game's with 1 in its set); any other
board's are found by search (:mod:`nim_evo.engine.search`).

- **Positions.** A multiset is indexed by the lexicographic rank of its pile sizes sorted in
  ascending order, among every sorted tuple that is at most the sorted start pile by pile
  (exactly the multisets reachable from the start). The empty board is index 0, the start
  the last, and every move lowers the rank. Its row in ``positions`` is a *representative*,
  a real position of the board: the smallest size on the pile that started smallest, and so
  on (ties by pile index).
- **Moves** are the board's actions (a heap and a count) as columns, read on the
  representative. Where several heaps hold the same size, only the first of them is a legal column (the others
  lead to the same multiset); ``multiplicity[p, m]`` says how many concrete moves a column
  stands for, and ``columns[p, k]`` maps every concretely legal column ``k`` of the
  representative to the column it merges into.
- **Weights.** ``weights[p]`` is how many positions of the ordered board the multiset
  stands for (the arrangements of its sizes that fit the starting piles), so averages over
  the ordered space, accuracy above all, are weighted averages here.

A policy of the ordered board compiles to this space by what it does at the representative,
merged over equal piles (:meth:`MultisetSpace.merge`); for an order-blind player (one that
chooses by the multiset alone, as every built-in one does) that is exact: its games, win
probabilities and accuracy are those of the ordered board. A player that reads the pile
order is never judged here (:mod:`nim_evo.evaluation.judging`).
"""

from __future__ import annotations

import numpy as np

from nim_evo.engine.enumeration import EnumeratedSpace
from nim_evo.engine.kept import bounded, space_cells
from nim_evo.games.base import Position
from nim_evo.games.takeaway import Move, TakeAway, move_array
from nim_evo.engine.sizes import DEFAULT_MAX_POSITIONS, check_space_size, completions
from nim_evo.validation import UserError


class MultisetSpace(EnumeratedSpace):
    """The enumerated multisets of one game, with moves, transitions and maps to the board.

    Attributes (read-only numpy arrays; ``n`` multisets, ``m`` moves of the board):
        positions: ``(n, n_piles) int32``, the representative of each multiset.
        totals: ``(n,) int32``, objects left.
        moves: ``(m, 2) int32``, the heap and the count of each column (the board's moves).
        legal: ``(n, m) bool``, one legal column per distinct move of the multiset.
        next: ``(n, m) int32``, the multiset reached, -1 where illegal.
        multiplicity: ``(n, m) int16``, concrete moves each legal column stands for.
        columns: ``(n, m) int32``, the legal column each concretely legal column of the
            representative merges into (-1 where the representative cannot play it).
        weights: ``(n,) float64``, positions of the ordered board each multiset stands for.
    """

    rules: TakeAway  # a board that is a box: these spaces count its multisets
    moves: np.ndarray
    multiset = True

    def __init__(self, rules: TakeAway, max_positions: int = DEFAULT_MAX_POSITIONS):
        self.rules = rules
        self.n_positions = check_space_size(rules, max_positions, multiset=True)
        piles = np.array(rules.start, dtype=np.int64)
        n_piles = len(piles)
        self._start_sorted = np.sort(piles)
        self._pile_of_rank = np.argsort(piles, kind="stable")   # rank r's size lies on this pile
        self._rank_of_pile = np.argsort(self._pile_of_rank)
        self._completions = completions(list(self._start_sorted), dtype=np.int64)
        ordered = _enumerate(self._start_sorted)                # (n, n_piles), ascending rows
        self.positions = np.empty_like(ordered, dtype=np.int32)
        self.positions[:, self._pile_of_rank] = ordered
        self.totals = ordered.sum(axis=1).astype(np.int32)

        self.moves = move_array(rules).astype(np.int32)
        self.n_moves = len(self.moves)

        same = self.positions[:, :, None] == self.positions[:, None, :]   # (n, piles, piles)
        first_pile = same.argmax(axis=2)                                   # first pile of equal size
        group = same.sum(axis=2)
        self.legal = np.zeros((self.n_positions, self.n_moves), dtype=bool)
        self.next = np.full((self.n_positions, self.n_moves), -1, dtype=np.int32)
        self.multiplicity = np.zeros((self.n_positions, self.n_moves), dtype=np.int16)
        self.columns = np.full((self.n_positions, self.n_moves), -1, dtype=np.int32)
        for k, (heap, take) in enumerate(self.moves):
            size = ordered[:, self._rank_of_pile[heap]]
            playable = size >= take
            canonical = playable & (first_pile[:, heap] == heap)
            self.legal[:, k] = canonical
            self.multiplicity[:, k] = np.where(canonical, group[:, heap], 0)
            self.columns[:, k] = np.where(playable, self._action(first_pile[:, heap], take), -1)
            rows = np.flatnonzero(canonical)
            child = ordered[rows]
            child[:, self._rank_of_pile[heap]] -= take
            child.sort(axis=1)
            self.next[rows, k] = self._rank(np.asfortranarray(child))  # (read column by column)

        self._weights = _arrangements(ordered, self._start_sorted)
        self._finish(self.positions, self.totals, self.moves, self.legal, self.next, self.multiplicity,
                     self.columns, self._weights, self._completions)

    def __reduce__(self):
        return _rebuild, (self.rules, self.n_positions)

    @property
    def weights(self) -> np.ndarray:
        """``(n,) float64``: the positions of the ordered board each multiset stands for."""
        return self._weights

    @property
    def concrete_legal(self) -> np.ndarray:
        """``(n, m) bool``: the columns the representative can play, duplicates included."""
        return self.columns >= 0

    # -- concrete positions and moves ----------------------------------------------------

    def index(self, position: Position) -> int:
        """Index of the multiset of a position (its piles in any order); ``ValueError`` if
        it is not reachable from the start."""
        position = self.rules.check_position(position)
        ordered = np.sort(np.array(position, dtype=np.int64))
        if np.any(ordered > self._start_sorted):
            raise UserError(f"position {position} is not reachable from the start {self.rules.start}")
        return int(self._rank(ordered[None])[0])

    def indices(self, positions: np.ndarray) -> np.ndarray:
        """Multiset indices of many positions, ``(k, n_piles)`` in any pile order (not validated)."""
        return self._rank(np.sort(np.asarray(positions, dtype=np.int64), axis=1))

    def move_index_at(self, position: Position, move: Move) -> int:
        """The legal column of the multiset of ``position`` that a concrete move stands for."""
        position = tuple(position)
        if not self.rules.is_legal(position, move):
            raise UserError(f"illegal move {move} in position {position} of {self.rules.name}")
        heap, take = int(move[0]), int(move[1])
        representative = self.positions[self.index(position)]
        first = int(np.flatnonzero(representative == position[heap])[0])
        return int(self._action(np.int64(first), take))

    def concrete_moves(self, position: Position, move_index: int) -> list[Move]:
        """Every move of ``position`` (its piles in any order) that column ``move_index`` of
        its multiset stands for, in the engine's order (empty if the column is illegal)."""
        position = tuple(position)
        index = self.index(position)
        if not self.legal[index, move_index]:
            return []
        heap, take = self.move(move_index)
        size = int(self.positions[index, heap])
        return [(i, take) for i, n in enumerate(position) if n == size]

    def merge(self, table: np.ndarray) -> np.ndarray:
        """A policy over the representatives' concrete columns (``(n, m)`` or a stack
        ``(k, n, m)``) as a policy over this space: equal piles' probabilities added up."""
        table = np.asarray(table, dtype=float)
        if table.ndim == 3:
            return np.stack([self.merge(t) for t in table])
        playable = self.columns >= 0
        flat = (np.arange(self.n_positions)[:, None] * self.n_moves + self.columns)[playable]
        merged = np.bincount(flat, weights=table[playable], minlength=self.n_positions * self.n_moves)
        return merged.reshape(self.n_positions, self.n_moves)

    def unfold(self, positions: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Rows over this space's columns, one for each of ``positions (k, n_piles)`` (any
        arrangement of the multiset the row is for), as rows over the moves of those very
        positions ``(k, n_moves)``: each column's probability on the first pile of the size
        it takes from. (:meth:`merge` of the result at a representative gives the rows back.)"""
        positions = np.asarray(positions, dtype=np.int64)
        rows = np.asarray(rows, dtype=float)
        result = np.zeros((len(positions), self.n_moves))
        for start in range(0, len(positions), _BLOCK):
            part = positions[start:start + _BLOCK]
            representatives = self.positions[self.indices(part)]
            size = representatives[:, self.moves[:, 0]]                       # (k, m): the size each column takes from
            first = (part[:, None, :] == size[:, :, None]).argmax(axis=2)     # the first pile of that size, here
            target = self._action(first, self.moves[:, 1])
            mass = rows[start:start + _BLOCK]
            live = mass != 0
            block = np.zeros((len(part), self.n_moves))
            np.add.at(block, (np.nonzero(live)[0], target[live]), mass[live])
            result[start:start + _BLOCK] = block
        return result

    def fold(self, moves: np.ndarray) -> np.ndarray:
        """Move arrays over the representatives' concrete columns (``(n,)`` or ``(k, n)``) as
        move arrays over this space: each move replaced by the legal column it stands for
        (entries the representative cannot play, the empty board's, are kept)."""
        moves = np.asarray(moves)
        rows = np.arange(self.n_positions)
        merged = self.columns[rows, moves]
        return np.where(merged >= 0, merged, moves)

    def _action(self, heap: np.ndarray | np.integer, take) -> np.ndarray:
        """The action taking ``take`` from ``heap`` (broadcast; any value where it is no move)."""
        return np.minimum(self.rules.action_indices(heap, take), self.n_moves - 1)

    def _rank(self, ordered: np.ndarray) -> np.ndarray:
        """Lexicographic rank of ascending rows among the reachable multisets.

        With ``C[i, v]`` the number of reachable completions of ranks ``i..`` whose size at
        rank ``i`` is at least ``v``, the rows before ``p`` that first differ at rank ``i``
        number ``C[i, p[i-1]] - C[i, p[i]]`` (``p[-1] = 0``).
        """
        ordered = np.asarray(ordered, dtype=np.int64)
        rank = np.zeros(len(ordered), dtype=np.int64)
        before: np.ndarray | int = 0
        for i, row in enumerate(self._completions[:ordered.shape[1]]):  # (a column at a time: gathers from a row)
            column = ordered[:, i]
            rank += np.take(row, before)
            rank -= np.take(row, column)
            before = column
        return rank


_BLOCK = 4096  # positions at a time where a (k, n_moves, n_piles) array is built

@bounded(space_cells)
def multiset_space(rules: TakeAway, max_positions: int = DEFAULT_MAX_POSITIONS) -> MultisetSpace:
    """A shared, cached :class:`MultisetSpace` for ``rules`` (spaces are read-only)."""
    return MultisetSpace(rules, max_positions)


def _rebuild(rules: TakeAway, n_positions: int) -> MultisetSpace:
    return multiset_space(rules, max(n_positions, DEFAULT_MAX_POSITIONS))


def _enumerate(start_sorted: np.ndarray) -> np.ndarray:
    """Every ascending row at most ``start_sorted`` pile by pile, in lexicographic order."""
    rows = np.arange(start_sorted[0] + 1, dtype=np.int64)[:, None]
    for bound in start_sorted[1:]:
        last = rows[:, -1]
        width = bound - last + 1
        parent = np.repeat(np.arange(len(rows)), width)
        offset = np.arange(len(parent)) - np.repeat(np.cumsum(width) - width, width)
        rows = np.concatenate([rows[parent], (last[parent] + offset)[:, None]], axis=1)
    return rows


def _arrangements(ordered: np.ndarray, start_sorted: np.ndarray) -> np.ndarray:
    """How many positions of the ordered board hold each multiset: with the sizes taken
    largest first, the ``k``-th can go on any of the piles that start at least that large
    and are not yet used (those sets are nested), divided by the orders of equal sizes."""
    largest_first = ordered[:, ::-1]
    fits = len(start_sorted) - np.searchsorted(start_sorted, largest_first, side="left")
    slots = np.maximum(fits - np.arange(ordered.shape[1]), 0).astype(float)
    repeats = (np.arange(ordered.shape[1]) - (largest_first[:, None, :] > largest_first[:, :, None]).sum(axis=2)
               ) + 1  # 1, 2, ... along each run of equal sizes
    return np.prod(slots / repeats, axis=1)
