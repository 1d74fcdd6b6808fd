"""Wythoff's game: two heaps; take any number from one, or the same number from both.

Names: ``5-6-wythoff``, ``5-6-wythoff-misere``. Theory (Wythoff, 1907): the positions lost for
the player to move, normal play, are the pairs ``(floor(k phi), floor(k phi^2))`` in either
order, ``phi`` the golden ratio, ``k = 0, 1, ...``; in misère play the same but that ``(0, 1)``
and ``(2, 2)`` replace ``(0, 0)`` and ``(1, 2)`` (checked against the solver in the tests). The
pairs are found in whole-number arithmetic (``floor(k phi) = (k + isqrt(5 k^2)) // 2``), exact
on heaps of any size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nim_evo.games.base import Position
from nim_evo.games.multitake import MultiTake, Takes, heaps_word
from nim_evo.games.base import board_heaps, heaps_of, name_pattern
from nim_evo.validation import UserError

if TYPE_CHECKING:
    import numpy as np

_NAME = name_pattern("wythoff")


@dataclass(frozen=True)
class Wythoff(MultiTake):
    """Wythoff's game on two heaps."""

    heaps: tuple[int, ...]
    misere: bool = False

    family = "wythoff"
    grammar = "A-B-wythoff (two heaps), then optionally -misere"
    example = "5-6-wythoff"
    title = "Wythoff's game"

    def __post_init__(self):
        heaps = board_heaps(self.heaps, self.misere)
        if len(heaps) != 2:
            raise UserError(f"Wythoff's game is played on two heaps, got {len(heaps)}")
        object.__setattr__(self, "heaps", heaps)
        self.check_alphabet_size(sum(heaps) + min(heaps))

    @classmethod
    def from_name(cls, name: str) -> Wythoff | None:
        """The board a name of this game's form stands for (``3-5-wythoff``,
        ``3-5-wythoff-misere``), or ``None`` for a name of another form."""
        match = _NAME.fullmatch(name)
        return None if match is None else cls(heaps_of(match["heaps"]), match["misere"] is not None)

    @property
    def name(self) -> str:
        return "-".join(map(str, self.heaps)) + "-wythoff" + ("-misere" if self.misere else "")

    @property
    def start(self) -> Position:
        return self.heaps

    def takes_heaps(self, count: int) -> bool:
        return count == 2

    def vectors(self) -> list[Takes]:
        """From the first heap, from the second, then from both: by count each."""
        a, b = self.heaps
        moves: list[Takes] = [(c, 0) for c in range(1, a + 1)]
        return moves + [(0, c) for c in range(1, b + 1)] + [(c, c) for c in range(1, min(a, b) + 1)]

    @property
    def box(self) -> bool:
        return True

    def theory_wins(self, positions: np.ndarray) -> np.ndarray:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        low, high = positions.min(axis=-1), positions.max(axis=-1)
        cold = cold_pairs(low, high)
        if self.misere:
            small = high <= 2
            cold = np.where(small, ((low == 0) & (high == 1)) | ((low == 2) & (high == 2)), cold)
        return ~cold

    def describe(self) -> str:
        ending = "loses" if self.misere else "wins"
        return (f"Wythoff's game {self.name}: {heaps_word(self.heaps)}; a move takes any number from one heap, "
                f"or the same number from both; whoever makes the last move {ending}.")


def cold_pairs(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Whether each ``(low, high)`` (``low <= high``) is a cold pair ``(floor(k phi), floor(k phi^2))``:
    with ``k = high - low``, whether ``low == floor(k phi) = (k + isqrt(5 k^2)) // 2``."""
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    k = np.asarray(high, dtype=np.int64) - low
    small = k < 1 << 30  # 5 k^2 stays within int64: an integer square root from the float one
    ks = np.where(small, k, 0)
    root = np.floor(np.sqrt(5.0 * ks * ks)).astype(np.int64)
    root -= root * root > 5 * ks * ks
    root += (root + 1) * (root + 1) <= 5 * ks * ks
    floor_phi = (ks + root) // 2
    if not small.all():  # heaps past a billion apart: Python's whole numbers
        big = np.flatnonzero(~small)
        floor_phi[big] = [(int(v) + math.isqrt(5 * int(v) ** 2)) // 2 for v in k[big]]
    return np.asarray(low) == floor_phi
