"""The rules of a Nim-family game, and the scalar path: one position, one move at a time.

A position is a tuple of pile sizes; a move is ``(pile_index, count)`` with a 0-based pile
index. Moves are always listed in the engine's fixed order: by pile, then by count. The
batched path (:mod:`nim_evo.engine.space`) enumerates the same moves in the same order.
"""

from __future__ import annotations

import bisect
import hashlib
import itertools
import re
from dataclasses import dataclass
from collections.abc import Iterable
from numbers import Integral
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

from nim_evo.validation import Constraint, InstanceOf, Interval, UserError, check, shown

Position = tuple[int, ...]
Move = tuple[int, int]

MAX_PILE = 10**15  # pile sizes stay exact in int64 (and float64) arithmetic
# piles on a board: far more than any game played (the held-out boards have 16), and few enough
# that every count of positions stays a number a person reads (at most some 1,500 digits)
MAX_PILES = 100
FILE_NAME_LENGTH = 64  # a board's name in a file name (a run id, a learner's file), at most
MAX_LISTED_MOVES = 1_000_000  # a list of every legal move stays in the megabytes; bigger is refused


@dataclass(frozen=True)
class Rules:
    """An immutable, hashable game description.

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
            if not _is_int(size):
                raise UserError(f"pile sizes must be whole numbers, got {size!r} in piles")
            if size < 0:
                raise UserError(f"pile sizes must be >= 0, got {size} in piles")
            if size > MAX_PILE:
                raise UserError(f"pile sizes must be at most {MAX_PILE:,}, got {size:,} in piles")
        if sum(piles) == 0:
            raise UserError("piles must hold at least one object, got all empty piles")
        if self.max_take is not None:
            if not _is_int(self.max_take):
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

    @property
    def name(self) -> str:
        """Canonical short name, e.g. ``1-3-5-7-9`` or ``17-cap3-misere``; see :meth:`parse`."""
        name = "-".join(map(str, self.piles))
        if self.max_take is not None:
            name += f"-cap{self.max_take}"
        return name + ("-misere" if self.misere else "")

    def __str__(self) -> str:
        return self.name

    @property
    def file_stem(self) -> str:
        """The name as part of a file name: :attr:`name`, or for a board whose name is longer
        than :data:`FILE_NAME_LENGTH`, its head and tail around a digest of the whole
        (``1000-1000-1000~3f9a2c1b~1000-cap3-misere``): file names stay within the file
        system's limit, and two boards never share one."""
        name = self.name
        if len(name) <= FILE_NAME_LENGTH:
            return name
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        head, tail = name[:24], name[-(FILE_NAME_LENGTH - 34):]
        return f"{head.rsplit('-', 1)[0]}~{digest}~{tail.split('-', 1)[-1]}"  # whole numbers at both ends

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

    @property
    def last_mover_wins(self) -> bool:
        """True in normal play, False in misère play."""
        return not self.misere

    def winner(self, last_mover: int) -> int:
        """The seat (0 or 1) that wins when seat ``last_mover`` took the last object."""
        return last_mover if self.last_mover_wins else 1 - last_mover

    @property
    def to_move_wins_at_end(self) -> bool:
        """Has the player to move on the empty board won? (Only in misère: the other took the last.)"""
        return not self.last_mover_wins

    @property
    def n_moves(self) -> int:
        """How many moves the board has (counted, not listed)."""
        return sum(min(n, self.max_take or n) for n in self.piles)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move of this board, in the engine's order (the batched path's move index)."""
        return tuple(_legal_moves(self.piles, self.max_take))

    def check_position(self, position: Iterable[int]) -> Position:
        """Return ``position`` as a tuple of ints, or raise ``ValueError`` naming the problem."""
        position = tuple(position)
        if len(position) != len(self.piles):
            raise UserError(
                f"position {shown(position)} has {len(position)} piles; this game has {len(self.piles)}"
            )
        for size in position:
            if not _is_int(size) or not 0 <= size <= MAX_PILE:
                raise UserError(f"position {shown(position)} holds {shown(size)}; pile sizes are whole numbers from "
                                f"0 to {MAX_PILE:,}")
        return tuple(int(s) for s in position)

    def legal_moves(self, position: Position) -> list[Move]:
        """Legal ``(pile, count)`` moves, in the engine's fixed order (a :class:`UserError`
        beyond ``MAX_LISTED_MOVES``: see :meth:`count_moves` and :meth:`random_move`)."""
        return _legal_moves(position, self.max_take)

    def count_moves(self, position: Position) -> int:
        """How many legal moves ``position`` has (counted, not listed)."""
        return sum(self._takes(position))

    def random_move(self, position: Position, rng: np.random.Generator) -> Move:
        """A uniformly random legal move, drawn with one ``rng.integers`` without listing the
        moves: the same move as ``legal_moves(position)[rng.integers(count)]``."""
        ends = list(itertools.accumulate(self._takes(position)))
        if not ends[-1]:
            raise UserError(f"no legal move in {tuple(position)}: the game is over")
        draw = int(rng.integers(ends[-1]))
        pile = bisect.bisect_right(ends, draw)
        return pile, draw - (ends[pile - 1] if pile else 0) + 1

    def _takes(self, position: Position):
        return (min(n, self.max_take or n) for n in position)

    def is_legal(self, position: Position, move: Move) -> bool:
        """Is ``move`` a ``(pile, count)`` pair of whole numbers that may be played in ``position``?"""
        try:
            pile, count = move
        except (TypeError, ValueError):
            return False
        return (
            _is_int(pile) and _is_int(count)
            and 0 <= pile < len(position)
            and 1 <= count <= position[pile]
            and (self.max_take is None or count <= self.max_take)
        )

    def apply(self, position: Position, move: Move) -> Position:
        """The position after ``move``; raises ``ValueError`` for an illegal move."""
        if not self.is_legal(position, move):
            raise UserError(f"illegal move {move} in position {tuple(position)} of {self.name}")
        pile, count = int(move[0]), int(move[1])
        return (*position[:pile], position[pile] - count, *position[pile + 1:])

    @staticmethod
    def is_terminal(position: Position) -> bool:
        return not any(position)


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


class PileSizes(Constraint):
    """A position: a sequence of whole numbers >= 0 (a board's piles, any of them empty)."""

    def __call__(self, value) -> bool:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
            return False
        return all(_is_int(size) and size >= 0 for size in value)

    def __str__(self) -> str:
        return "a tuple of pile sizes (whole numbers >= 0)"


RULES = InstanceOf(Rules, what="a nim_evo.Rules")
POSITION = PileSizes()

# A family: the rules without their board, (max_take, misere), named normal, misere, capK or capK-misere.
Family = tuple  # (int | None, bool)
_FAMILY = re.compile(r"normal|misere|cap(?P<cap>[1-9]\d{0,6})(?P<misere>-misere)?")


def family_of(rules: Rules) -> Family:
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


_NAME = re.compile(r"(?P<piles>\d+(?:-\d+)*)(?:-cap(?P<cap>\d+))?(?P<misere>-misere)?")


def _is_int(value) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


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
