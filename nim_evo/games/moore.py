"""Moore's Nim_k: any number of heaps; a move takes from at least one and at most ``k`` heaps.

Names: ``1-3-5-7-9-moore2``, ``1-3-5-7-9-moore2-misere``; ``k = 1`` is Nim. Theory (Moore,
1910): write the heaps in binary; a position is lost for the player to move, normal play, when
in every binary column the number of ones is a multiple of ``k + 1``. Misère: the same, but on a
board of heaps of at most one object, lost when their number is ``1 mod (k + 1)`` (checked
against the solver in the tests).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from nim_evo.games.base import Position
from nim_evo.games.multitake import MultiTake, Takes, heaps_word
from nim_evo.games.base import HEAPS, board_heaps, heaps_of
from nim_evo.validation import UserError, shown

if TYPE_CHECKING:
    import numpy as np

MAX_HEAPS = 100

_NAME = re.compile(HEAPS + r"-moore(?P<k>\d{1,3})(?P<misere>-misere)?")


@dataclass(frozen=True)
class Moore(MultiTake):
    """Moore's Nim_k on ``heaps``: a move takes from 1 to ``k`` heaps."""

    heaps: tuple[int, ...]
    k: int = 2
    misere: bool = False

    family = "moore"
    grammar = "HEAPS-mooreK (take from up to K heaps at once, 1 <= K <= the heaps), then optionally -misere"
    example = "1-3-5-7-9-moore2"

    def __post_init__(self):
        heaps = board_heaps(self.heaps, self.misere, MAX_HEAPS)
        if not (isinstance(self.k, int) and not isinstance(self.k, bool)) or not 1 <= self.k <= len(heaps):
            raise UserError(f"Moore's k is how many heaps one move may take from: 1 to the {len(heaps)} heaps, "
                            f"got {shown(self.k)}")
        object.__setattr__(self, "heaps", heaps)
        self.check_alphabet_size(self._count())

    @classmethod
    def from_name(cls, name: str) -> Moore | None:
        """The board a name of this game's form stands for (``1-3-5-moore2``: Moore's Nim_2 on heaps
        1, 3, 5), or ``None`` for a name of another form."""
        match = _NAME.fullmatch(name)
        return None if match is None else cls(heaps_of(match["heaps"]), int(match["k"]), match["misere"] is not None)

    @property
    def title(self) -> str:  # type: ignore[override]
        return f"Moore's Nim_{self.k}"

    @property
    def name(self) -> str:
        return "-".join(map(str, self.heaps)) + f"-moore{self.k}" + ("-misere" if self.misere else "")

    @property
    def start(self) -> Position:
        return self.heaps

    def takes_heaps(self, count: int) -> bool:
        return self.k <= count <= MAX_HEAPS

    def _count(self) -> int:
        """How many moves the start has: for each set of 1 to k heaps, the product of their sizes."""
        # e_j (elementary symmetric sums of the sizes) by the recurrence, without listing sets
        sums = [1] + [0] * self.k
        for n in self.heaps:
            for j in range(self.k, 0, -1):
                sums[j] += sums[j - 1] * n
        return sum(sums[1:])

    def vectors(self) -> list[Takes]:
        """By the heaps taken from (fewest first, then in order), then by the counts."""
        width = len(self.heaps)
        moves = []
        for r in range(1, self.k + 1):
            for chosen in itertools.combinations(range(width), r):
                for counts in itertools.product(*(range(1, self.heaps[i] + 1) for i in chosen)):
                    takes = [0] * width
                    for i, c in zip(chosen, counts):
                        takes[i] = c
                    moves.append(tuple(takes))
        return moves

    @property
    def box(self) -> bool:
        return True

    def theory_wins(self, positions: np.ndarray) -> np.ndarray:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        bits = (positions[..., None] >> np.arange(50)) & 1           # (..., heaps, bits)
        lost = (bits.sum(axis=-2) % (self.k + 1) == 0).all(axis=-1)
        if self.misere:
            small = (positions <= 1).all(axis=-1)
            lost = np.where(small, positions.sum(axis=-1) % (self.k + 1) == 1, lost)
        return ~lost

    def describe(self) -> str:
        ending = "loses" if self.misere else "wins"
        return (f"Moore's Nim_{self.k} {self.name}: {heaps_word(self.heaps)}; a move takes objects from at least one "
                f"and at most {self.k} heaps; whoever makes the last move {ending}.")
