"""Lasker's Nim: take any number of objects from one heap, or split a heap into two non-empty heaps.

Names: ``3-5-7-lasker``, ``3-5-7-lasker-misere``. Theory, normal play: a heap of ``n`` has
Grundy value ``n`` for ``n = 4k + 1`` and ``4k + 2``, ``4k + 4`` for ``n = 4k + 3`` and ``4k + 3``
for ``n = 4k + 4`` (Berlekamp, Conway and Guy, *Winning Ways*, ch. 4), checked against the mex
rule in the tests; the xor over heaps judges boards of any size.
"""

from __future__ import annotations

from dataclasses import dataclass

from nim_evo.games.base import heaps_of, name_pattern
from nim_evo.games.splitting import HeapValues, SplitGame, grundy_values

_NAME = name_pattern("lasker")
COMPUTED = 1024  # heaps whose values the mex rule computes (the closed form reads the rest)


@dataclass(frozen=True)
class Lasker(SplitGame):
    """Lasker's Nim on ``heaps``."""

    family = "lasker"
    keyword = "lasker"
    grammar = "HEAPS-lasker (heaps joined by '-'), then optionally -misere"
    example = "3-5-7-lasker"
    title = "Lasker's Nim"
    move_words = "a move takes any number of objects from one heap, or splits a heap into two"

    def __post_init__(self):
        super().__post_init__()
        self.check_board()

    @classmethod
    def from_name(cls, name: str) -> Lasker | None:
        """The board a name of this game's form stands for (``3-5-lasker``, ``3-5-lasker-misere``),
        or ``None`` for a name of another form."""
        match = _NAME.fullmatch(name)
        return None if match is None else cls(heaps_of(match["heaps"]), match["misere"] is not None)

    def allows(self, n, take, part):
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        take, part = np.asarray(take), np.asarray(part)
        return np.broadcast_to(((take >= 1) & (part == 0)) | ((take == 0) & (part >= 1)), np.broadcast_shapes(
            np.shape(n), take.shape, part.shape))

    def candidate_pairs(self, largest: int) -> list[tuple[int, int]]:
        return [(0, part) for part in range(1, largest // 2 + 1)] + [(take, 0) for take in range(1, largest + 1)]

    def most_heaps(self) -> int:
        return sum(self.heaps)  # a split keeps the objects; a heap holds one at least

    def grundy_words(self) -> str:
        return "0 (1 2 4 3) +4"  # (lasker_grundy: each period of 4 adds 4)

    def heap_values(self, count: int) -> HeapValues:
        """The closed form for any heap, read from values computed by the mex rule for small
        heaps (the first :data:`COMPUTED`: the closed form holds beyond, and the mex over a
        heap's O(n) options would take half a minute for heaps up to 32,768)."""
        return HeapValues(grundy_values(self, min(count, COMPUTED)).values, formula=lasker_grundy)


def lasker_grundy(n):
    """Lasker's Nim's Grundy values of heaps ``n`` (any shape): ``n`` but for ``n mod 4`` of 3
    (``n + 1``) and 0 (``n - 1``, heap 0 aside)."""
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    n = np.asarray(n, dtype=np.int64)
    residue = n % 4
    return np.where(n == 0, 0, np.where(residue == 3, n + 1, np.where(residue == 0, n - 1, n)))
