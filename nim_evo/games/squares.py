"""Subtract-a-Square: take a positive square number of objects (1, 4, 9, ...) from one heap.

Names: ``13-squares``, ``13-squares-misere``. Theory, normal play: each heap's Grundy value by
the mex rule (the sequence has no known period), computed for heaps up to
:data:`MAX_COMPUTED` and refused beyond; the xor over heaps judges the board.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from nim_evo.games.base import Position, first_values, is_whole
from nim_evo.games.base import board_heaps, heaps_of, name_pattern
from nim_evo.games.takeaway import TakeAway

if TYPE_CHECKING:
    import numpy as np

MAX_HEAPS = 100
MAX_COMPUTED = 1 << 17  # heaps whose Grundy values are computed (each a mex over its square takes)

_NAME = name_pattern("squares")


@dataclass(frozen=True)
class Squares(TakeAway):
    """Subtract-a-Square on ``heaps``."""

    heaps: tuple[int, ...]
    misere: bool = False

    family = "squares"
    grammar = "HEAPS-squares (heaps joined by '-'), then optionally -misere"
    example = "13-squares"
    title = "Subtract-a-Square"

    def __post_init__(self):
        heaps = board_heaps(self.heaps, self.misere, MAX_HEAPS)
        object.__setattr__(self, "heaps", heaps)

    @classmethod
    def from_name(cls, name: str) -> Squares | None:
        """The board a name of this game's form stands for (``20-squares``, ``20-squares-misere``),
        or ``None`` for a name of another form."""
        match = _NAME.fullmatch(name)
        return None if match is None else cls(heaps_of(match["heaps"]), match["misere"] is not None)

    @property
    def name(self) -> str:
        return "-".join(map(str, self.heaps)) + "-squares" + ("-misere" if self.misere else "")

    @property
    def start(self) -> Position:
        return self.heaps

    def takes(self, size: int) -> SquaresUpTo:
        return SquaresUpTo(size)

    def takes_words(self) -> str:
        return "a positive square number of objects (1, 4, 9, ...)"

    def count_takes(self, size: int) -> int:
        return math.isqrt(size)

    def count_takes_of(self, sizes: np.ndarray) -> np.ndarray:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        sizes = np.asarray(sizes, dtype=np.int64)
        root = np.floor(np.sqrt(sizes.astype(float))).astype(np.int64)
        return root - (root * root > sizes) + ((root + 1) * (root + 1) <= sizes)

    def take_at(self, sizes: np.ndarray, rank: np.ndarray) -> np.ndarray:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return (np.asarray(rank, dtype=np.int64) + 1) ** 2

    @property
    def box(self) -> bool:
        return True

    def grundy_words(self) -> str:
        return first_values(square_grundy(64))

    def theory_scope(self) -> str:
        return f"Grundy values are computed for heaps up to {MAX_COMPUTED - 1:,}, in normal play"

    def theory_wins(self, positions: np.ndarray) -> np.ndarray | None:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.maximum(np.asarray(positions, dtype=np.int64), 0)
        if self.misere or (positions.size and int(positions.max()) >= MAX_COMPUTED):
            return None
        values = square_grundy(_computed(int(positions.max(initial=0))))
        return np.bitwise_xor.reduce(values[positions], axis=-1) != 0


class SquaresUpTo(Sequence):
    """The positive squares up to ``size``, ascending (counted, not listed: a heap of 10^15 has
    some 31 million)."""

    def __init__(self, size: int):
        self.size = size
        self.root = math.isqrt(size)

    def __len__(self) -> int:
        return self.root

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [(i + 1) ** 2 for i in range(*index.indices(self.root))]
        if index < 0:
            index += self.root
        if not 0 <= index < self.root:
            raise IndexError(index)
        return (index + 1) ** 2

    def __contains__(self, value) -> bool:
        return is_whole(value) and 1 <= value <= self.size and math.isqrt(value) ** 2 == value


def _computed(largest: int) -> int:
    return min(MAX_COMPUTED, max(1024, 1 << largest.bit_length()))


@lru_cache(maxsize=8)
def square_grundy(count: int) -> np.ndarray:
    """The Grundy values of heaps ``0 .. count - 1`` of Subtract-a-Square (read-only)."""
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    values = np.zeros(count, dtype=np.int64)
    squares = np.arange(1, math.isqrt(count) + 1, dtype=np.int64) ** 2
    for n in range(1, count):
        options = values[n - squares[:math.isqrt(n)]]
        seen = np.zeros(len(options) + 1, dtype=bool)
        seen[options[options <= len(options)]] = True
        values[n] = int(np.argmin(seen))
    values.flags.writeable = False
    return values
