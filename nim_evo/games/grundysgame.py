"""Grundy's game: split a heap into two non-empty heaps of different sizes.

Names: ``11-grundy``, ``11-grundy-misere``. A heap of 1 or 2 cannot be split, so the game ends
on a board of such heaps. Theory, normal play: each heap's Grundy value by the mex rule,
computed (no period is known: the sequence has been computed to 2^35 without one) for heaps up
to :data:`~nim_evo.games.splitting.MAX_COMPUTED`; beyond, theory is silent and the solved board
is the truth.
"""

from __future__ import annotations

from dataclasses import dataclass

from nim_evo.games.base import heaps_of, name_pattern
from nim_evo.games.splitting import SplitGame

_NAME = name_pattern("grundy")


@dataclass(frozen=True)
class GrundysGame(SplitGame):
    """Grundy's game on ``heaps``."""

    family = "grundy"
    keyword = "grundy"
    grammar = "HEAPS-grundy (heaps joined by '-'), then optionally -misere"
    example = "11-grundy"
    title = "Grundy's game"
    move_words = "a move splits one heap into two heaps of different sizes"

    def __post_init__(self):
        super().__post_init__()
        self.check_board()

    @classmethod
    def from_name(cls, name: str) -> GrundysGame | None:
        """The board a name of this game's form stands for (``7-grundy``, ``7-5-grundy-misere``), or
        ``None`` for a name of another form."""
        match = _NAME.fullmatch(name)
        return None if match is None else cls(heaps_of(match["heaps"]), match["misere"] is not None)

    def allows(self, n, take, part):
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        take, part = np.asarray(take), np.asarray(part)
        return (take == 0) & (part >= 1) & (np.asarray(n) - take - part > part)

    def candidate_pairs(self, largest: int) -> list[tuple[int, int]]:
        return [(0, part) for part in range(1, (largest - 1) // 2 + 1)]

    def most_heaps(self) -> int:
        return sum(self.heaps)
