"""Subtraction games: take a member of a finite set ``S`` from one heap, on one heap or several.

Named as Nim's boards are, the heaps first, then the family, then the convention:
``20-sub1.3.4`` (one heap of 20, ``S = {1, 3, 4}``), ``3-5-7-sub1.2.4-misere``. Seeds 000 and 001
play ``S = {1, 2, 3}`` on one heap, which Nim writes as a cap (``21-cap3``): the two name the
same game, and the tests hold their solutions equal.

Theory: in normal play each heap's Grundy value comes from the set's Grundy sequence,
certified eventually periodic (:mod:`nim_evo.games.periodic`), and a position is lost when
their xor is 0 (Sprague-Grundy), on heaps of any size. Misère: on one heap the win/loss
sequence is certified periodic too; for ``S = {1, ..., k}`` (capped Nim) Bouton's misère rule
on the residues mod ``k + 1`` holds; on other boards the solved space is the truth.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from nim_evo.games.base import MAX_HEAP, Position, board_heaps, whole_numbers
from nim_evo.games.takeaway import TakeAway
from nim_evo.validation import UserError

if TYPE_CHECKING:  # numpy and the sequences load on first use: every --help answers without them
    import numpy as np

    from nim_evo.games.periodic import Periodic

MAX_HEAPS = 100  # heaps on a board, as Nim's piles

MAX_MEMBERS = 1_000  # members of a subtraction set
MAX_MEMBER = 10**6  # the largest member (its Grundy sequence is computed up to past it)

_NAME = re.compile(r"(?P<heaps>\d+(?:-\d+)*)-sub(?P<set>\d+(?:\.\d+)*)(?P<misere>-misere)?")
GRAMMAR = "HEAPS-subS (heaps joined by '-', S the members joined by '.'), then optionally -misere"


@dataclass(frozen=True)
class Subtraction(TakeAway):
    """A subtraction game: a move takes a member of ``subtraction`` from one heap.

    Args:
        heaps: the starting heap sizes (at least one object in all).
        subtraction: the set's members, positive whole numbers (kept sorted, once each).
        misere: whoever cannot move wins (the last mover loses).
    """

    heaps: tuple[int, ...]
    subtraction: tuple[int, ...]
    misere: bool = False

    family = "subtraction"
    title = "Subtraction game"
    grammar = GRAMMAR
    example = "20-sub1.3.4"

    def __post_init__(self):
        heaps = board_heaps(self.heaps, self.misere, MAX_HEAPS)
        members = whole_numbers("a subtraction set", self.subtraction, low=1, high=MAX_MEMBER, most=MAX_MEMBERS)
        object.__setattr__(self, "heaps", heaps)
        object.__setattr__(self, "subtraction", tuple(sorted(set(members))))
        if self.subtraction[0] > max(heaps):
            raise UserError(f"no move from the start {'-'.join(map(str, heaps))}: the subtraction set's least member, "
                            f"{self.subtraction[0]:,}, is above every heap")

    @classmethod
    def from_name(cls, name: str) -> Subtraction | None:
        """The game a name of this family's grammar says; ``None`` for a name of another grammar."""
        match = _NAME.fullmatch(name)
        if match is None:
            return None
        numbers = [*match["heaps"].split("-"), *match["set"].split(".")]
        if any(len(number) > len(str(MAX_HEAP)) + 1 for number in numbers):  # int() of 5,000 digits is a ValueError
            raise UserError(f"cannot read game {name[:30]!r}...: heap sizes are at most {MAX_HEAP:,}")
        return cls(tuple(map(int, match["heaps"].split("-"))), tuple(map(int, match["set"].split("."))),
                   match["misere"] is not None)

    @property
    def name(self) -> str:
        name = "-".join(map(str, self.heaps)) + "-sub" + ".".join(map(str, self.subtraction))
        return name + ("-misere" if self.misere else "")

    @property
    def start(self) -> Position:
        return self.heaps

    def takes(self, size: int) -> tuple[int, ...]:
        return self.subtraction[:self.count_takes(size)]

    def count_takes(self, size: int) -> int:
        return bisect.bisect_right(self.subtraction, size)

    def count_takes_of(self, sizes: np.ndarray) -> np.ndarray:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return np.searchsorted(np.array(self.subtraction, dtype=np.int64), sizes, side="right")

    def take_at(self, sizes: np.ndarray, rank: np.ndarray) -> np.ndarray:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return np.array(self.subtraction, dtype=np.int64)[np.asarray(rank, dtype=np.int64)]

    @property
    def box(self) -> bool:
        """With 1 in the set, every heap can reach every smaller size."""
        return self.subtraction[0] == 1

    @property
    def capped_nim(self) -> bool:
        """Whether the set is ``{1, ..., k}``: Nim with a cap of ``k``."""
        return self.subtraction == tuple(range(1, len(self.subtraction) + 1))

    def grundy_words(self) -> str | None:
        sequence = grundy_sequence(self.subtraction)
        return None if sequence is None else sequence.notation()

    def theory_wins(self, positions: np.ndarray) -> np.ndarray | None:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        if not self.misere:
            grundy = grundy_sequence(self.subtraction)
            return None if grundy is None else np.bitwise_xor.reduce(grundy(positions), axis=-1) != 0
        if self.capped_nim:  # Bouton's misère rule on the residues (as Nim's misère rule under a cap)
            residues = positions % (len(self.subtraction) + 1)
            total = np.bitwise_xor.reduce(residues, axis=-1)
            return np.where((residues <= 1).all(axis=-1), total == 0, total != 0)
        if self.width == 1:
            wins = misere_sequence(self.subtraction)
            return None if wins is None else wins(positions[..., 0]).astype(bool)
        return None


@lru_cache(maxsize=64)
def grundy_sequence(subtraction: tuple[int, ...]) -> Periodic | None:
    """The certified Grundy sequence of a subtraction set (cached: sets are small values)."""
    from nim_evo.games.periodic import grundy_values  # (import time: periodic imports numpy)

    return grundy_values(subtraction)


@lru_cache(maxsize=64)
def misere_sequence(subtraction: tuple[int, ...]) -> Periodic | None:
    """The certified misère win/loss sequence of one heap of a subtraction set."""
    from nim_evo.games.periodic import misere_wins  # (import time: periodic imports numpy)

    return misere_wins(subtraction)
