"""Octal games by their code: Kayles (``.77``), Dawson's Kayles (``.07``) and any other.

An octal code ``.d1 d2 d3 ...`` says, for each ``j``, whether a move may remove ``j`` objects
from a heap and leave no heap (``dj`` has bit 1), one heap (bit 2) or two heaps (bit 4). Kayles
is ``.77``: knock down one pin or two side by side from a row. Dawson's Kayles is ``.07``:
knock down two side by side. Names: ``8-kayles``, ``12-dawson``, ``10-octal.137``, each with
``-misere``; a code of Kayles or Dawson's Kayles is named so (``8-octal.77`` reads as ``8-kayles``).

Theory, normal play: each heap's Grundy value, its sequence certified periodic by the Guy-Smith
test (:func:`~nim_evo.games.splitting.grundy_values`): Kayles' has period 12 from heap 71 on,
Dawson's Kayles' period 34 from 53 (Berlekamp, Conway and Guy, *Winning Ways*, ch. 4).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nim_evo.games.base import HEAPS, heaps_of
from nim_evo.games.splitting import MAX_COMPUTED, HeapValues, SplitGame, grundy_values
from nim_evo.validation import UserError, shown

MAX_DIGITS = 8  # digits of a code after the point: removals of 1 to 8 objects

NAMED = {".77": "kayles", ".07": "dawson"}
_CODE = {name: code for code, name in NAMED.items()}
_NAME = re.compile(HEAPS + r"-(?:(?P<named>kayles|dawson)|octal(?P<code>\.\d+))(?P<misere>-misere)?")


@dataclass(frozen=True)
class Octal(SplitGame):
    """An octal game on ``heaps``: ``code`` is ``.`` and its digits, 0 to 7 each."""

    code: str = ".77"

    family = "octal"
    grammar = "HEAPS-kayles, HEAPS-dawson or HEAPS-octal.CODE (CODE the digits 0-7 after the point), then optionally -misere"
    example = "8-kayles"

    def __post_init__(self):
        super().__post_init__()
        code = self.code
        if not isinstance(code, str) or not re.fullmatch(r"\.[0-7]+", code):
            raise UserError(f"an octal code is '.' and digits 0 to 7 (.77 is Kayles), got {shown(code)}")
        code = code.rstrip("0")
        if code == ".":
            raise UserError(f"the octal code {self.code} allows no move")
        if len(code) - 1 > MAX_DIGITS:
            raise UserError(f"an octal code has at most {MAX_DIGITS} digits after the point, got {self.code}")
        object.__setattr__(self, "code", code)
        self.check_board()

    @classmethod
    def from_name(cls, name: str) -> Octal | None:
        """The board a name of this game's form stands for (``10-kayles``, ``8-dawson``,
        ``7-octal.137``), or ``None`` for a name of another form."""
        match = _NAME.fullmatch(name)
        if match is None:
            return None
        code = _CODE[match["named"]] if match["named"] else match["code"]
        return cls(heaps_of(match["heaps"]), match["misere"] is not None, code)

    @property
    def keyword(self) -> str:  # type: ignore[override]
        return NAMED.get(self.code) or f"octal{self.code}"

    @property
    def title(self) -> str:  # type: ignore[override]
        return {"kayles": "Kayles", "dawson": "Dawson's Kayles"}.get(self.keyword, f"The octal game {self.code}")

    @property
    def move_words(self) -> str:  # type: ignore[override]
        if self.code == ".77":
            return "a move knocks down one pin or two side by side from a row"
        if self.code == ".07":
            return "a move knocks down two pins side by side from a row"
        return f"a move removes objects from one heap as the code {self.code} allows"

    @property
    def digits(self) -> tuple[int, ...]:
        """The code's digits after the point, one for each take (1, 2, ...)."""
        return tuple(int(d) for d in self.code[1:])

    @property
    def splits(self) -> bool:
        """Whether some take may split a heap in two."""
        return any(d & 4 for d in self.digits)

    def allows(self, n, take, part):
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        digits = np.array((0, *self.digits), dtype=np.int64)
        take = np.asarray(take, dtype=np.int64)
        rest = np.asarray(n, dtype=np.int64) - take - part
        parts = np.where(np.asarray(part) > 0, 2, np.where(rest > 0, 1, 0))
        return (digits[np.clip(take, 0, len(digits) - 1)] >> parts & 1).astype(bool) & (take >= 1)

    def candidate_pairs(self, largest: int) -> list[tuple[int, int]]:
        pairs = []
        for take, digit in enumerate(self.digits, 1):
            if digit & 3:
                pairs.append((take, 0))
            if digit & 4:
                pairs += [(take, part) for part in range(1, (largest - take) // 2 + 1)]
        return pairs

    def most_heaps(self) -> int:
        """Each split removes an object and adds a heap, and a heap holds one object at least:
        with ``m`` heaps of ``s`` objects at the start, at most ``(m + s) // 2`` heaps."""
        if not self.splits:
            return len(self.heaps)
        return (sum(1 for n in self.heaps if n) + sum(self.heaps)) // 2

    def heap_values(self, count: int) -> HeapValues:
        """Computed until the Guy-Smith test certifies a period, or for heaps up to 4,096 at least."""
        return grundy_values(self, min(MAX_COMPUTED, max(4096, count)), period_after=len(self.digits))
