"""Families whose move may take from several heaps at once: its action is a vector of counts.

Wythoff's game (take from one heap, or the same number from both) and Moore's Nim_k (take from
up to ``k`` heaps) subtract one vector of counts from the position: the board's action alphabet
is its list of vectors, a move in the family's words is the vector itself (``(3, 3)``: three
from each heap), and its label lists the heaps it takes from and how many, the heaps from 1
(``1 3 2 3``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from nim_evo.games.base import Game, Position, is_whole, whole_tuple
from nim_evo.validation import UserError, shown

if TYPE_CHECKING:  # numpy loads on first use: every --help answers without it
    import numpy as np

MAX_ALPHABET = 1_000_000  # actions of a board (count vectors)
MAX_CHILD_CELLS = 4_000_000  # heap sizes of one position's children under every action (32 MB)

Takes = tuple[int, ...]  # a move: how many to take from each heap


class MultiTake(Game):
    """A family whose every move subtracts a vector of counts (a subclass lists them)."""

    typing = "each heap you take from and how many (1 2 2 2: two from heap 1 and two from heap 2)"

    def vectors(self) -> list[Takes]:
        """Every move of the board from its start, in the alphabet's order."""
        raise NotImplementedError

    @property
    def n_actions(self) -> int:
        return len(_vectors(self))

    def successors(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        children = positions[:, None, :] - _vectors(self)[None, :, :]
        return children, (children >= 0).all(axis=-1)

    def step(self, positions: np.ndarray, actions) -> tuple[np.ndarray, np.ndarray]:
        """The rule at one action per position without the others: its vector off the heaps."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        inside = (actions >= 0) & (actions < self.n_actions)
        children = positions - _vectors(self)[np.where(inside, actions, 0)]
        legal = inside & (children >= 0).all(axis=-1)
        return np.where(legal[:, None], children, positions), legal

    def move_of(self, action: int) -> Takes:
        if not is_whole(action) or not 0 <= action < self.n_actions:
            raise UserError(f"{shown(action)} is not an action of {self.name} (0..{self.n_actions - 1})")
        return tuple(int(v) for v in _vectors(self)[int(action)])

    def read_move(self, move) -> Takes:
        takes = whole_tuple(move, self.width)
        if takes is None:
            raise UserError(f"a move is how many to take from each heap, {self.width} whole numbers")
        return takes

    def action_of(self, move) -> int:
        try:
            takes = self.read_move(move)
        except UserError as problem:
            raise UserError(f"{shown(move)} is not a move: {problem}") from None
        index = _index(self).get(takes)
        if index is None:
            raise UserError(f"{takes} is not a move of {self.name}")
        return index

    def legal_mask(self, positions: np.ndarray) -> np.ndarray:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return np.asarray((np.asarray(positions, dtype=np.int64)[:, None, :] >= _vectors(self)[None, :, :]).all(axis=-1))

    def is_legal(self, position: Position, move) -> bool:
        """Is ``move`` a vector of counts of the board that ``position`` holds?"""
        try:
            takes = self.read_move(move)
        except UserError:
            return False
        return takes in _index(self) and len(position) == len(takes) and all(n >= t for n, t in zip(position, takes))

    def action_label(self, action: int) -> str:
        """The heaps taken from (from 1) and how many from each: ``1 3 2 3``."""
        return " ".join(f"{heap + 1} {count}" for heap, count in enumerate(self.move_of(action)) if count)

    def check_alphabet_size(self, count: int) -> None:
        """A one-line ``UserError`` for a board of ``count`` moves beyond what a board here holds."""
        if count > MAX_ALPHABET or count * self.width > MAX_CHILD_CELLS:
            raise UserError(f"{self.name} has {count:,} moves; a board here has at most {MAX_ALPHABET:,} moves and "
                            f"{MAX_CHILD_CELLS:,} heap sizes among one position's children (smaller heaps)")


@lru_cache(maxsize=64)
def _vectors(game: MultiTake) -> np.ndarray:
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    array = np.array(game.vectors(), dtype=np.int64).reshape(-1, game.width)
    array.flags.writeable = False
    return array


@lru_cache(maxsize=64)
def _index(game: MultiTake) -> dict[Takes, int]:
    return {tuple(int(v) for v in row): k for k, row in enumerate(_vectors(game))}


def heaps_word(start: Position) -> str:
    """``heaps of 1, 3 and 5``."""
    return f"heaps of {', '.join(map(str, start[:-1]))} and {start[-1]}" if len(start) > 1 else f"one heap of {start[0]}"
