"""The batched path: every position reachable from the start, enumerated once.

A position's index is its mixed-radix number, first pile most significant (seed 003 wrote
7-5-3 as the number 753): ``index = sum(p[i] * stride[i])`` with ``stride[i] =
prod(start[j] + 1 for j > i)``. Every position with ``p[i] <= start[i]`` is reachable (one
object a move always is legal), so the space is the full box and needs no search. The empty
board is index 0, the start is the last index, and every move lowers the index, so
increasing index order (or the number of objects left) is a retrograde order.

Moves get a stable index in the engine's order (by pile, then count), and ``next[position,
move]`` is the position a move leads to, -1 where the move is illegal.
"""

from __future__ import annotations

from functools import lru_cache
from math import prod

import numpy as np

from nim_evo.rules import Move, Position, Rules

DEFAULT_MAX_POSITIONS = 2_000_000
MAX_CELLS = 100_000_000  # positions x moves: the transition table and each policy table


class SpaceTooLarge(ValueError):
    """The enumerated space of a board would exceed the configured limit."""


def space_size(rules: Rules) -> int:
    """Number of positions in the space of ``rules``, computed without building it."""
    return prod(p + 1 for p in rules.piles)


def check_space_size(rules: Rules, max_positions: int = DEFAULT_MAX_POSITIONS) -> int:
    """Return the space size, or raise :class:`SpaceTooLarge` if it has more than
    ``max_positions`` positions, or more than :data:`MAX_CELLS` position-move pairs (each
    table over the space has that many entries)."""
    size = space_size(rules)
    cells = size * rules.n_moves
    if size > max_positions or cells > MAX_CELLS:
        limit = (f"the limit of {max_positions:,} positions" if size > max_positions
                 else f"the limit of {MAX_CELLS:,} position-move pairs ({cells:,} here)")
        raise SpaceTooLarge(f"the board {rules.name} has {size:,} positions, above {limit}; "
                            f"enumerating it would need about {_bytes(rules, size)}")
    return size


def enumerable(rules: Rules, max_positions: int = DEFAULT_MAX_POSITIONS) -> bool:
    """Can the space of ``rules`` be built within the limits?"""
    return space_size(rules) <= max_positions and space_size(rules) * rules.n_moves <= MAX_CELLS


class Space:
    """The enumerated positions of one game, its move index and transition table.

    Attributes (all read-only numpy arrays):
        positions: ``(n_positions, n_piles) int32``, the pile sizes of each index.
        totals: ``(n_positions,) int32``, objects left in each position.
        moves: ``(n_moves, 2) int32``, the ``(pile, count)`` of each move index.
        legal: ``(n_positions, n_moves) bool``.
        next: ``(n_positions, n_moves) int32``, the index reached, -1 where illegal.
    """

    def __init__(self, rules: Rules, max_positions: int = DEFAULT_MAX_POSITIONS):
        self.rules = rules
        self.n_positions = check_space_size(rules, max_positions)
        radices = np.array(rules.piles, dtype=np.int64) + 1
        self.strides = np.concatenate([np.cumprod(radices[:0:-1])[::-1], [1]]).astype(np.int64)
        index = np.arange(self.n_positions, dtype=np.int64)
        self.positions = ((index[:, None] // self.strides) % radices).astype(np.int32)
        self.totals = self.positions.sum(axis=1, dtype=np.int32)

        cap = rules.max_take
        self.moves = np.array(rules.moves, dtype=np.int32).reshape(-1, 2)
        self.n_moves = len(rules.moves)
        self._move_index = {m: k for k, m in enumerate(rules.moves)}
        self.legal = np.empty((self.n_positions, self.n_moves), dtype=bool)
        self.next = np.empty((self.n_positions, self.n_moves), dtype=np.int32)
        index32 = index.astype(np.int32)
        column = 0
        for pile, size in enumerate(rules.piles):  # one block of columns per pile
            counts = np.arange(1, min(size, cap or size) + 1, dtype=np.int32)
            block = slice(column, column + len(counts))
            np.greater_equal(self.positions[:, pile, None], counts, out=self.legal[:, block])
            np.subtract(index32[:, None], counts * np.int32(self.strides[pile]), out=self.next[:, block])
            column += len(counts)
        np.copyto(self.next, -1, where=~self.legal)

        order = np.argsort(self.totals, kind="stable")
        bounds = np.searchsorted(self.totals[order], np.arange(sum(rules.piles) + 2))
        self._levels = [order[bounds[t]:bounds[t + 1]] for t in range(sum(rules.piles) + 1)]
        for array in (self.strides, self.positions, self.totals, self.moves, self.legal, self.next):
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

    def index(self, position: Position) -> int:
        """Index of a position; raises ``ValueError`` if it is not on this board."""
        position = self.rules.check_position(position)
        for size, start in zip(position, self.rules.piles):
            if size > start:
                raise ValueError(f"position {position} is not reachable from the start {self.rules.piles}")
        return int(np.dot(position, self.strides))

    def indices(self, positions: np.ndarray) -> np.ndarray:
        """Indices of many positions, ``(k, n_piles)`` in, ``(k,) int64`` out (not validated)."""
        return np.asarray(positions, dtype=np.int64) @ self.strides

    def position(self, index: int) -> Position:
        if not 0 <= index < self.n_positions:
            raise ValueError(f"position index {index} is outside 0..{self.n_positions - 1}")
        return tuple(int(p) for p in self.positions[index])

    def move_index(self, move: Move) -> int:
        try:
            return self._move_index[tuple(move)]
        except KeyError:
            raise ValueError(f"{move} is not a move of {self.rules.name}") from None

    def move(self, move_index: int) -> Move:
        if not 0 <= move_index < self.n_moves:
            raise ValueError(f"move index {move_index} is outside 0..{self.n_moves - 1}")
        pile, count = self.moves[move_index]
        return int(pile), int(count)


@lru_cache(maxsize=4)
def space_for(rules: Rules, max_positions: int = DEFAULT_MAX_POSITIONS) -> Space:
    """A shared, cached :class:`Space` for ``rules`` (spaces are read-only)."""
    return Space(rules, max_positions)


def _bytes(rules: Rules, size: int) -> str:
    moves = rules.n_moves
    gib = size * (moves * 5 + len(rules.piles) * 4) / 2**30
    return f"{gib:,.1f} GiB" if gib >= 1 else f"{gib * 1024:,.0f} MiB"
