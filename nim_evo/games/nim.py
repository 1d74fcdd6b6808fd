"""Nim, the first family: any number of piles, an optional cap on one move, normal or misère play.

:class:`Rules` is Nim's board (the name nim_evo has always given it; ``Nim`` is the same class).
A position is a tuple of pile sizes; a move is ``(pile_index, count)`` with a 0-based pile
index, and its action is its index in the board's move list: by pile, then by count, the
order every file nim_evo has written keeps. Its fast paths (the move list counted, a random
move drawn without listing them on piles of 10^15) override :class:`~nim_evo.games.takeaway.TakeAway`'s
views, which :func:`~nim_evo.engine.conformance.check_game` holds them to.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from numbers import Integral
from typing import TYPE_CHECKING

from nim_evo.games.base import FILE_NAME_LENGTH, MAX_HEAP, POSITION, PileSizes, Position, is_whole  # noqa: F401
from nim_evo.games.takeaway import MAX_LISTED_MOVES, Move, TakeAway
from nim_evo.validation import InstanceOf, Interval, UserError, check, shown

if TYPE_CHECKING:  # numpy loads on first use: every --help answers without it
    import numpy as np

MAX_PILE = MAX_HEAP  # pile sizes stay exact in int64 (and float64) arithmetic

# piles on a board: far more than any game played (the held-out boards have 16), and few enough
# that every count of positions stays a number a person reads (at most some 1,500 digits)
MAX_PILES = 100


@dataclass(frozen=True)
class Rules(TakeAway):
    """Nim: an immutable, hashable board (a :class:`~nim_evo.games.base.Game`).

    Args:
        piles: starting pile sizes, any number of piles (at least one object in all).
        max_take: the most objects one move may take from its pile; ``None`` for no cap.
        misere: ``False`` for normal play (whoever takes the last object wins),
            ``True`` for misère play (whoever takes the last object loses).

    Raises:
        ValueError: naming the offending value.
    """

    piles: tuple[int, ...]
    max_take: int | None = None
    misere: bool = False

    def __post_init__(self):
        try:
            piles = tuple(self.piles)
        except TypeError:
            raise UserError(f"piles must be a sequence of pile sizes, got {self.piles!r}") from None
        if not piles:
            raise UserError("piles must hold at least one pile, got none")
        if len(piles) > MAX_PILES:
            raise UserError(f"piles must hold at most {MAX_PILES} piles, got {len(piles):,}")
        for size in piles:
            if not is_whole(size):
                raise UserError(f"pile sizes must be whole numbers, got {size!r} in piles")
            if size < 0:
                raise UserError(f"pile sizes must be >= 0, got {size} in piles")
            if size > MAX_PILE:
                raise UserError(f"pile sizes must be at most {MAX_PILE:,}, got {shown(size)} in piles")
        if sum(piles) == 0:
            raise UserError("piles must hold at least one object, got all empty piles")
        if self.max_take is not None:
            if not is_whole(self.max_take):
                raise UserError(f"max_take must be a whole number or None, got {self.max_take!r}")
            if self.max_take < 1:
                raise UserError(f"max_take must be >= 1, got {self.max_take}")
            if self.max_take > MAX_PILE:  # a cap above every pile caps nothing, and must still print
                raise UserError(f"max_take must be at most {MAX_PILE:,}, got {shown(self.max_take)}")
            object.__setattr__(self, "max_take", int(self.max_take))
        if not isinstance(self.misere, bool):
            raise UserError(f"misere must be True or False, got {self.misere!r}")
        object.__setattr__(self, "piles", tuple(int(p) for p in piles))

    # -- names ---------------------------------------------------------------------------

    def board(self, heaps) -> Rules:
        return Rules(tuple(heaps), self.max_take, self.misere)

    @property
    def name(self) -> str:
        """Canonical short name, e.g. ``1-3-5-7-9`` or ``17-cap3-misere``; see :meth:`parse`."""
        name = "-".join(map(str, self.piles))
        if self.max_take is not None:
            name += f"-cap{self.max_take}"
        return name + ("-misere" if self.misere else "")

    @classmethod
    def parse(cls, name: str) -> Rules:
        """Rules from a short name: piles joined by ``-``, then optional ``-capK`` and ``-misere``."""
        check("name", name, [InstanceOf(str, what="a board's name (such as 7-5-3)")])
        match = _NAME.fullmatch(name.strip().lower())
        if match is None:
            raise UserError(
                f"cannot read game {name!r}: expected pile sizes joined by '-', "
                "then optionally -capK and -misere (e.g. 7-5-3, 17-cap3-misere)"
            )
        numbers = [*match["piles"].split("-"), *([match["cap"]] if match["cap"] is not None else [])]
        if any(len(number) > len(str(MAX_PILE)) + 1 for number in numbers):  # int() of 5,000 digits is a ValueError
            raise UserError(f"cannot read game {name[:30]!r}...: pile sizes and caps are at most {MAX_PILE:,}")
        piles = tuple(int(p) for p in match["piles"].split("-"))
        cap = int(match["cap"]) if match["cap"] is not None else None
        return cls(piles, cap, match["misere"] is not None)

    family = "nim"
    grammar = "PILES (sizes joined by '-'), then optionally -capK and -misere"
    example = "7-5-3"

    @classmethod
    def from_name(cls, name: str) -> Rules | None:
        """The board a name of Nim's grammar says; ``None`` for a name of another grammar."""
        check("name", name, [InstanceOf(str, what="a board's name (such as 7-5-3)")])
        return cls.parse(name) if _NAME.fullmatch(name.strip().lower()) else None

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a preset game (one of the source write-ups') by its short name (see :data:`PRESETS`)."""
        check("name", name, [InstanceOf(str, what="a preset game's name")])
        if name not in PRESETS:
            raise UserError(f"unknown game {name!r}; known games: {', '.join(PRESETS)}")
        return cls.parse(name)

    # -- the scalar path -----------------------------------------------------------------

    @property
    def start(self) -> Position:
        return self.piles

    def takes(self, size: int) -> range:
        """The counts that may be taken from a pile of ``size``: 1 to the pile, or to the cap."""
        return range(1, min(size, self.max_take or size) + 1)

    def count_takes(self, size: int) -> int:
        return min(size, self.max_take or size)

    def count_takes_of(self, sizes: np.ndarray) -> np.ndarray:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        sizes = np.asarray(sizes, dtype=np.int64)
        return sizes if self.max_take is None else np.minimum(sizes, self.max_take)

    def take_at(self, sizes: np.ndarray, rank: np.ndarray) -> np.ndarray:
        return rank + 1

    def action_indices(self, pile, count):
        """Nim's moves in closed form: the moves of the heaps before, then ``count - 1``."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        widths = np.array([self.count_takes(n) for n in self.piles], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(widths)[:-1]])
        return offsets[pile] + count - 1

    @property
    def box(self) -> bool:
        """Taking one object is always legal: every position at most the start is reachable."""
        return True

    def theory_wins(self, positions: np.ndarray) -> np.ndarray:
        """Nim's closed forms, which hold on every board (see :mod:`nim_evo.games.nimtheory`):
        normal play, the nim-sum of the Grundy values (``n``, or ``n mod (k + 1)`` under a cap)
        is not 0; misère, Bouton's rule on them: where every one is 0 or 1, their number of
        ones is even, and elsewhere the nim-sum is not 0."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        residues = np.asarray(positions, dtype=np.int64)
        if self.max_take is not None:
            residues = residues % (self.max_take + 1)
        total = np.bitwise_xor.reduce(residues, axis=-1)
        if not self.misere:
            return total != 0
        return np.where((residues <= 1).all(axis=-1), total == 0, total != 0)

    def takes_words(self) -> str:
        cap = self.max_take
        return "any number of objects" if cap is None else "exactly 1 object" if cap == 1 else f"1 to {cap} objects"

    title, heap_word, last_move = "Nim", "pile", "takes the last object"  # how describe says it

    def to_json(self) -> dict:
        """The board as a JSON object: its name under ``"game"``, and Nim's three fields
        (what every file nim_evo wrote before games were values records, and reads)."""
        return {"game": self.name, **rules_to_json(self)}

    def check_position(self, position: Iterable[int]) -> Position:
        """Return ``position`` as a tuple of ints, or raise ``ValueError`` naming the problem."""
        position = tuple(position)
        if len(position) != len(self.piles):
            raise UserError(
                f"position {shown(position)} has {len(position)} piles; this game has {len(self.piles)}"
            )
        for size in position:
            if not is_whole(size) or not 0 <= size <= MAX_PILE:
                raise UserError(f"position {shown(position)} holds {shown(size)}; pile sizes are whole numbers from "
                                f"0 to {MAX_PILE:,}")
        return tuple(int(s) for s in position)

    @staticmethod
    def is_terminal(position: Position) -> bool:
        """Whether ``position`` is the empty board (Nim's only position without a move)."""
        return not any(position)

    # Nim's scalar fast paths (a game at a time: the loop of play_game, the seeds' learners,
    # minimax's search), each the same answer as TakeAway's view (check_game holds them to it)

    def is_over(self, position: Position) -> bool:
        """Only the empty board has no move."""
        return not any(position)

    def over_mask(self, positions: np.ndarray) -> np.ndarray:
        """Only the empty board has no move."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return np.asarray(~np.asarray(positions).any(axis=1))

    def is_legal(self, position: Position, move: Move) -> bool:
        try:
            pile, count = move
        except (TypeError, ValueError):
            return False
        return (is_whole(pile) and is_whole(count) and 0 <= pile < len(position) and 1 <= count <= position[pile]
                and (self.max_take is None or count <= self.max_take))

    def random_move(self, position: Position, rng: np.random.Generator) -> Move:
        ends = list(itertools.accumulate(min(n, self.max_take or n) for n in position))
        if not ends or not ends[-1]:
            raise UserError(f"no legal move in {tuple(position)}: the game is over")
        draw = int(rng.integers(ends[-1]))
        pile = bisect.bisect_right(ends, draw)
        return pile, draw - (ends[pile - 1] if pile else 0) + 1


PRESETS: dict[str, str] = {
    "1-3-5-7-9": "piles 1-3-5-7-9, normal play (from Nagappan's CI report, Lab 3's Nim(5)); the default",
    "15-cap3-misere": "one heap of 15, take 1-3, last take loses (from Moore's NIM Rules)",
    "16-cap3-misere": "one heap of 16, take 1-3, last take loses (from Moore's NIM Rules)",
    "17-cap3-misere": "one heap of 17, take 1-3, last take loses (from Moore's NIM Rules)",
    "20-cap4-misere": "one heap of 20, take 1-4, last take loses (from Moore's NIM Rules)",
    "21-cap3": "one heap of 21, take 1-3, last take wins (from the Simple Nim AI post)",
    "2-3-4-5-misere": "piles 2-3-4-5, last take loses (from Kintner-Meyer's Q-learning report)",
    "7-5-3": "piles 7-5-3, last take wins (from the Math 495R Nim lab)",
}
DEFAULT_GAME = "1-3-5-7-9"


RULES = InstanceOf(Rules, what="a nim_evo.Rules")

# A family: the rules without their board, (max_take, misere), named normal, misere, capK or capK-misere.
Family = tuple  # (int | None, bool)
_FAMILY = re.compile(r"normal|misere|cap(?P<cap>[1-9]\d{0,6})(?P<misere>-misere)?")


def family_of(rules: Rules) -> Family:
    """The variant of Nim ``rules`` plays: its cap on a take and whether it is misère."""
    return rules.max_take, rules.misere


def family_name(family: Family) -> str:
    """``normal``, ``misere``, ``cap3`` or ``cap3-misere``."""
    cap, misere = family
    if cap is None:
        return "misere" if misere else "normal"
    return f"cap{cap}{'-misere' if misere else ''}"


def parse_family(name) -> Family:
    """``(max_take, misere)`` of a family's name (see :func:`family_name`); a one-line
    :class:`UserError` otherwise."""
    match = _FAMILY.fullmatch(name.strip().lower()) if isinstance(name, str) else None
    if match is None:
        raise UserError(f"unknown family {shown(name)}: families are normal, misere, capK and capK-misere "
                        "(K from 1 to 9,999,999)")
    if match["cap"] is None:
        return None, name.strip().lower() == "misere"
    return int(match["cap"]), match["misere"] is not None


def legal_moves(piles: Position, max_take: int | None = None) -> list[Move]:
    """Legal (pile, count) moves, in the engine's fixed order; a :class:`UserError` if there
    are more than ``MAX_LISTED_MOVES``."""
    check("piles", piles, [POSITION])
    check("max_take", max_take, [None, Interval(Integral, 1, None)])
    return _legal_moves(piles, max_take)


def _legal_moves(piles: Position, max_take: int | None) -> list[Move]:
    count = sum(min(n, max_take or n) for n in piles)
    if count > MAX_LISTED_MOVES:
        raise UserError(f"{'-'.join(map(str, piles))} has {count:,} legal moves, too many to list "
                        f"(at most {MAX_LISTED_MOVES:,}); smaller piles or a cap")
    return [(i, c) for i, n in enumerate(piles) for c in range(1, min(n, max_take or n) + 1)]


def nim_board(game) -> Rules:
    """``game`` as a Nim board, for what plays Nim alone; a one-line :class:`UserError` for
    a board of another family."""
    if not isinstance(game, Rules):
        raise UserError(f"{getattr(game, 'name', game)} is not a Nim board (a {getattr(game, 'family', '?')} game): "
                        "this plays Nim only")
    return game


Nim = Rules  # the family's own name; Rules stays nim_evo's name for Nim's boards


_NAME = re.compile(r"(?P<piles>\d+(?:-\d+)*)(?:-cap(?P<cap>\d+))?(?P<misere>-misere)?")


def rules_to_json(rules: Rules) -> dict:
    """The rules as a JSON object (what every file nim_evo writes records)."""
    return {"piles": list(rules.piles), "max_take": rules.max_take, "misere": rules.misere}


def rules_from_json(data, source="file") -> Rules:
    """The rules a JSON object records; a one-line ``ValueError`` naming ``source`` if none."""
    if not isinstance(data, dict):  # (a checkpoint's config may hold arrays: indexing one fails otherwise)
        raise UserError(f"{source} does not record valid rules")
    try:
        return Rules(tuple(data["piles"]), data.get("max_take"), data.get("misere", False))
    except (KeyError, TypeError, AttributeError):
        raise UserError(f"{source} does not record valid rules") from None
