"""Take-away families: every action takes some objects from one heap (Nim, subtraction games).

Such a family says which counts may be taken from a heap (:meth:`TakeAway.takes`); its action
alphabet is every ``(heap, count)`` the start allows, by heap, then count, and its moves, the
words its agents and people speak, are those pairs (heaps counted from 0 in code, from 1 on
screen). The rule, the move views and the labels are this module's, written once.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from nim_evo.games.base import Game, Position, is_whole, whole_tuple
from nim_evo.validation import UserError, shown

if TYPE_CHECKING:  # numpy loads on first use: every --help answers without it
    import numpy as np

Move = tuple[int, int]

MAX_LISTED_MOVES = 1_000_000  # a list of every legal move stays in the megabytes; bigger is refused


class TakeAway(Game):
    """A family whose every action takes ``count`` objects from heap ``pile``."""

    def takes(self, size: int) -> Sequence[int]:
        """The counts that may be taken from a heap of ``size``, ascending."""
        raise NotImplementedError

    def count_takes(self, size: int) -> int:
        """How many counts may be taken from a heap of ``size`` (counted, not listed)."""
        return len(self.takes(size))

    def takes_words(self) -> str:
        """What one move may take, in words: ``1, 3 or 4 objects``."""
        counts = sorted({c for n in self.start for c in self.takes(n)})
        listed = ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}" if len(counts) > 1 else str(counts[0])
        return f"{listed} object" + ("s" if counts != [1] else "")

    def describe(self) -> str:
        """One line on the game: its heaps, what a move takes, and who wins."""
        start, heap = self.start, self.heap_word
        if len(start) == 1:
            board, where = f"one heap of {start[0]}", ""
        else:
            board, where = f"{heap}s of {', '.join(map(str, start[:-1]))} and {start[-1]}", f" from one {heap}"
        ending = "loses" if self.misere else "wins"
        return f"{self.title} {self.name}: {board}; a move takes {self.takes_words()}{where}; whoever " \
               f"{self.last_move} {ending}."

    title = "The game"  # what :meth:`describe` calls the family, a heap, and the move that ends the game
    heap_word = "heap"
    last_move = "makes the last move"

    # -- the action alphabet and the rule ------------------------------------------------

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move of this board, in the engine's order: action ``k`` is ``moves[k]``."""
        return tuple(_listed(self, self.start))

    @property
    def n_moves(self) -> int:
        """How many moves the board has (counted, not listed)."""
        return sum(self.count_takes(n) for n in self.start)

    @property
    def n_actions(self) -> int:
        return self.n_moves

    def successors(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        moves = move_array(self)
        children = np.repeat(positions[:, None, :], len(moves), axis=1)
        children[:, np.arange(len(moves)), moves[:, 0]] -= moves[:, 1]
        return children, positions[:, moves[:, 0]] >= moves[:, 1]

    def legal_mask(self, positions: np.ndarray) -> np.ndarray:
        """The rule's mask without its children: a move is legal where its heap holds its count."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        moves = move_array(self)
        return np.asarray(positions)[:, moves[:, 0]] >= moves[:, 1]

    def step(self, positions: np.ndarray, actions) -> tuple[np.ndarray, np.ndarray]:
        """The rule at one action per position without the others: the action's count off its heap."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        moves = move_array(self)
        inside = (actions >= 0) & (actions < len(moves))
        pile, count = moves[np.where(inside, actions, 0)].T
        rows = np.arange(len(positions))
        legal = inside & (positions[rows, pile] >= count)
        children = positions.copy()
        children[rows, pile] -= np.where(legal, count, 0)
        return children, legal

    def action_label(self, action: int) -> str:
        pile, count = self.moves[action]
        return f"{pile + 1} {count}"

    # -- the moves of arrays of positions --------------------------------------------------

    def action_indices(self, pile, count):
        """The action of ``(pile, count)`` pairs (arrays of equal shape, or numbers); each must
        be a move of the board."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        moves = move_array(self)
        top = int(moves[:, 1].max(initial=0)) + 1
        keys = moves[:, 0] * top + moves[:, 1]  # ascending: moves go by heap, then count
        return np.searchsorted(keys, np.asarray(pile, dtype=np.int64) * top + count)

    def count_takes_of(self, sizes: np.ndarray) -> np.ndarray:
        """:meth:`count_takes` of every heap of ``sizes`` (any shape)."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return np.vectorize(self.count_takes, otypes=[np.int64])(sizes)

    def take_at(self, sizes: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """The ``rank``-th count (from 0) that may be taken from heaps of ``sizes``."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return np.vectorize(lambda n, r: self.takes(n)[r], otypes=[np.int64])(sizes, rank)

    def random_actions(self, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action for each position with a move, in O(heaps) each:
        a draw among the position's moves counted heap by heap (:meth:`random_move`'s, in arrays)."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        counts = self.count_takes_of(positions)
        ends = counts.cumsum(axis=1)
        draw = (rng.random(len(positions)) * ends[:, -1]).astype(np.int64)
        pile = np.minimum((ends <= draw[:, None]).sum(axis=1), positions.shape[1] - 1)
        rows = np.arange(len(positions))
        rank = draw - (ends[rows, pile] - counts[rows, pile])
        return self.action_indices(pile, self.take_at(positions[rows, pile], rank))

    # -- moves: the family's own words ---------------------------------------------------

    def move_of(self, action: int) -> Move:
        """The ``(pile, count)`` of an action."""
        moves = move_array(self)
        if not is_whole(action) or not 0 <= action < len(moves):
            raise UserError(f"{action!r} is not an action of {self.name} (0..{len(moves) - 1})")
        return int(moves[action, 0]), int(moves[action, 1])

    def moves_of(self, actions) -> list[Move]:
        """:meth:`move_of` of each of ``actions`` at once, from the move array (a distribution
        over a big board's moves lists millions: a call each would take seconds)."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        moves = move_array(self)
        indices = np.asarray(actions, dtype=np.int64).reshape(-1)
        if indices.size and not (0 <= int(indices.min()) and int(indices.max()) < len(moves)):
            bad = indices[(indices < 0) | (indices >= len(moves))][0]
            raise UserError(f"{int(bad)} is not an action of {self.name} (0..{len(moves) - 1})")
        chosen = moves[indices]
        return list(zip(chosen[:, 0].tolist(), chosen[:, 1].tolist()))

    def read_move(self, move) -> Move:
        """A ``(heap, count)`` pair of whole numbers (numpy's too), its legality not judged."""
        numbers = whole_tuple(move, 2)
        if numbers is None:
            raise UserError(f"a move is ({self.heap_word}, count), two whole numbers")
        return numbers[0], numbers[1]

    def action_of(self, move) -> int:
        """The action of a ``(heap, count)`` move of the board (counted, not looked up in a list
        of every move); a one-line :class:`UserError` if it is none."""
        try:
            heap, take = self.read_move(move)
        except UserError as problem:
            raise UserError(f"{shown(move)} is not a move: {problem}") from None
        if not (0 <= heap < len(self.start) and take in self.takes(self.start[heap])):
            raise UserError(f"{(heap, take)} is not a move of {self.name}")
        return int(self.action_indices(heap, take))

    def is_legal(self, position: Position, move: Move) -> bool:
        """Is ``move`` a ``(pile, count)`` pair of whole numbers that may be played in ``position``?"""
        try:
            pile, count = move
        except (TypeError, ValueError):
            return False
        return (is_whole(pile) and is_whole(count) and 0 <= pile < len(position)
                and 1 <= count <= position[pile] and count in self.takes(position[pile]))

    def apply(self, position: Position, move: Move) -> Position:
        """The position after ``move``; a one-line :class:`UserError` for an illegal move."""
        if not self.is_legal(position, move):
            raise UserError(f"illegal move {move} in position {tuple(position)} of {self.name}")
        pile, count = int(move[0]), int(move[1])
        return (*position[:pile], position[pile] - count, *position[pile + 1:])

    def legal_moves(self, position: Position) -> list[Move]:
        """Legal ``(pile, count)`` moves, in the engine's order (a :class:`UserError` beyond
        :data:`MAX_LISTED_MOVES`: see :meth:`count_moves` and :meth:`random_move`)."""
        return _listed(self, position)

    def count_moves(self, position: Position) -> int:
        """How many legal moves ``position`` has (counted, not listed)."""
        return sum(self.count_takes(n) for n in position)

    def random_move(self, position: Position, rng: np.random.Generator) -> Move:
        """A uniformly random legal move, drawn with one ``rng.integers`` without listing the
        moves: the same move as ``legal_moves(position)[rng.integers(count)]``."""
        ends = list(itertools.accumulate(self.count_takes(n) for n in position))
        if not ends or not ends[-1]:
            raise UserError(f"no legal move in {tuple(position)}: the game is over")
        draw = int(rng.integers(ends[-1]))
        pile = bisect.bisect_right(ends, draw)
        return pile, self.takes(position[pile])[draw - (ends[pile - 1] if pile else 0)]


@lru_cache(maxsize=64)
def move_array(game: TakeAway) -> np.ndarray:
    """``(n_moves, 2) int64``: the ``(pile, count)`` of each action (read-only)."""
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    array = np.array(game.moves, dtype=np.int64).reshape(-1, 2)
    array.flags.writeable = False
    return array


def _listed(game: TakeAway, position: Position) -> list[Move]:
    count = sum(game.count_takes(n) for n in position)
    if count > MAX_LISTED_MOVES:
        raise UserError(f"{'-'.join(map(str, position))} has {count:,} legal moves, too many to list "
                        f"(at most {MAX_LISTED_MOVES:,})")
    return [(i, c) for i, n in enumerate(position) for c in game.takes(n)]
