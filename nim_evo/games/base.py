"""The game as a value: what every family implements, and the views derived from its one rule.

A :class:`Game` is one board of one family (Nim on 7-5-3, the subtraction game {1, 3, 4} on a
heap of 20): frozen and hashable, with a name that parses back (:mod:`nim_evo.games.registry`)
and a JSON form with a ``"game"`` key. Positions are rows of whole numbers (heap sizes,
zero-padded where a move may add heaps), ``width`` of them. Actions are the indices
``0 .. n_actions - 1`` of the board's fixed **action alphabet** (OpenSpiel's distinct actions):
a policy table's columns, an environment's ``Discrete`` space, a file's move index. Only the
game decodes an action; everyone else holds indices and asks the game for a label.

A family defines one primary rule, vectorised as pgx's ``step`` is::

    children, legal = game.successors(positions)   # (k, n_actions, width) int64, (k, n_actions) bool

and every scalar view below derives from it: the legal actions of a position, the position
an action leads to, whether the game is over (no legal action: not only the empty board), a
random action, an action's label, a typed move read back. A family may override a view for
speed; :func:`nim_evo.engine.conformance.check_game` holds every override to the rule at every
position of small boards, as :func:`~nim_evo.agents.conformance.check_player` holds a player's
faces to its one answer.

Optional, per family: a **retrograde order** (:meth:`Game.order`, objects left by default)
that every move lowers, so that positions can be solved level by level; whether the heaps are
**interchangeable** (a position's value depends on the multiset of its heaps only, so the
engine may keep one sorted position per multiset); whether every position at most the start
heap by heap is reachable (a **box**, enumerated without search); and **theory**
(:meth:`Game.theory_wins`), the verdict of a closed form or of Sprague-Grundy values where the
family has one, which the solver's verdict is checked against.
"""

from __future__ import annotations

import dataclasses
import hashlib
import operator
import re
from collections.abc import Iterable
from numbers import Integral
from typing import TYPE_CHECKING, ClassVar

from nim_evo.validation import Constraint, UserError, shown

if TYPE_CHECKING:  # numpy loads on first use: every --help answers without it
    import numpy as np

Position = tuple[int, ...]

MAX_HEAP = 10**15  # heap sizes stay exact in int64 (and float64) arithmetic

FILE_NAME_LENGTH = 64  # a board's name in a file name (a run id, a learner's file), at most


class Game:
    """One board of one family: the primary rule, and the views derived from it.

    A family subclasses it as a frozen dataclass whose fields say the board (so equality,
    hashing and pickling come with it) and defines :attr:`name`, :attr:`start`,
    :attr:`n_actions`, :meth:`successors`, :meth:`action_label` and :meth:`to_json`;
    ``misere`` is a field of every family.

    Attributes:
        family: the family's registered name (``nim``, ``subtraction``).
        interchangeable: whether a position's value and moves depend only on the multiset
            of its heaps (every family here; a family that reads heap order says False).
        heaps_in_place: whether a heap keeps its place in the row (Nim's piles, Wythoff's two
            heaps), so that a multiset stands for each arrangement of it on the board and
            averages over positions count each arrangement; False where the row's order is
            only how a position is stored (a split's part goes to the first empty slot): a
            position is then its multiset, counted once.
        misere: False for normal play (whoever cannot move loses), True for misère play
            (whoever cannot move wins: whoever made the last move lost).
    """

    family: ClassVar[str] = ""
    title: ClassVar[str] = "The game"  # what people call the family: Nim, Kayles, Wythoff's game
    typing: ClassVar[str] = "a move's label"  # how a person types a move, said in help
    interchangeable: ClassVar[bool] = True
    heaps_in_place: ClassVar[bool] = True
    misere: bool

    # -- what a family defines ---------------------------------------------------------

    @property
    def name(self) -> str:
        """The board's canonical name; the registry parses it back to an equal game."""
        raise NotImplementedError

    @property
    def start(self) -> Position:
        """The starting position."""
        raise NotImplementedError

    @property
    def n_actions(self) -> int:
        """How many actions the board's alphabet holds."""
        raise NotImplementedError

    def board(self, heaps: Iterable[int]) -> Game:
        """The same family, rule and convention on other starting heaps (a family whose
        start is not its ``heaps`` field says how)."""
        return dataclasses.replace(self, heaps=tuple(heaps))  # type: ignore[type-var]

    def takes_heaps(self, count: int) -> bool:
        """Whether the family's rule is played on ``count`` heaps (a board of that many may
        still be refused for its size, or for having no move)."""
        return count >= 1

    def successors(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The primary rule: the child of each of ``positions (k, width)`` under every action,
        ``(k, n_actions, width) int64``, and which actions are legal there, ``(k, n_actions)
        bool``. Children of illegal actions are any row (callers read the mask)."""
        raise NotImplementedError

    def action_label(self, action: int) -> str:
        """What people read and type for ``action``: distinct for distinct actions."""
        raise NotImplementedError

    def to_json(self) -> dict:
        """The game as a JSON object with a ``"game"`` key holding :attr:`name`."""
        return {"game": self.name}

    def describe(self) -> str:
        """One line on the game for people: its board, what a move does, and who wins."""
        ending = "loses" if self.misere else "wins"
        return f"{self.name}: whoever makes the last move {ending}."

    @property
    def moves(self) -> tuple:
        """Every move of the board in the family's words, in action order: action ``k`` is ``moves[k]``."""
        return tuple(self.move_of(action) for action in range(self.n_actions))

    @property
    def n_moves(self) -> int:
        """:attr:`n_actions`, by the name players, genomes and spaces have long read it."""
        return self.n_actions

    # -- what a family may refine ------------------------------------------------------

    @property
    def width(self) -> int:
        """Integers in a position's row (the heaps a position may hold)."""
        return len(self.start)

    def order(self, positions: np.ndarray) -> np.ndarray:
        """``(k,) int64``: a retrograde order that every legal move lowers (objects left, by
        default: every move of a take-away game removes at least one)."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return np.asarray(positions, dtype=np.int64).sum(axis=-1)

    @property
    def box(self) -> bool:
        """Whether every position at most the start heap by heap is reachable from it (and no
        other): the space is then enumerated without search."""
        return False

    def theory_wins(self, positions: np.ndarray) -> np.ndarray | None:
        """``(k,) bool``: whether the player to move wins at each of ``positions``, by the
        family's theory; ``None`` where the family has none for this board."""
        return None

    def grundy_words(self) -> str | None:
        """One heap's Grundy values in normal play, as a person reads them (``None``: the
        family has no value per heap): its period where one is known, in *Winning Ways*'
        notation, ``0 (1 2 4 3) +4``, else its first values."""
        return None

    def theory_scope(self) -> str:
        """Where the family's theory holds, for a message that says why it is silent (empty
        when it holds on every board of the family, or the family has none)."""
        return ""

    def canonical(self, positions: np.ndarray) -> np.ndarray:
        """One row per multiset of heaps (interchangeable families): the heap sizes sorted,
        the smallest on the heap that started smallest, and so on (ties by heap index), so
        that the representative of a reachable position is a position of the board."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        result = np.empty_like(positions)
        result[..., _slots(self.start)] = np.sort(positions, axis=-1)
        return result

    # -- the scalar views, derived from the rule ---------------------------------------

    def check_position(self, position: Iterable[int]) -> Position:
        """``position`` as a tuple of ints, or a one-line :class:`UserError` naming the problem."""
        try:
            position = tuple(position)
        except TypeError:
            raise UserError(f"a position is a sequence of heap sizes, got {shown(position)}") from None
        if len(position) != self.width:
            raise UserError(f"position {shown(position)} has {len(position)} heaps; {self.name} has {self.width}")
        for size in position:
            if not is_whole(size) or not 0 <= size <= MAX_HEAP:
                raise UserError(f"position {shown(position)} holds {shown(size)}; heap sizes are whole numbers from "
                                f"0 to {MAX_HEAP:,}")
        return tuple(int(s) for s in position)

    def legal_mask(self, positions: np.ndarray) -> np.ndarray:
        """``(k, n_actions) bool``: the legal actions of each position (the rule's mask)."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return self.successors(np.asarray(positions, dtype=np.int64))[1]

    def step(self, positions: np.ndarray, actions) -> tuple[np.ndarray, np.ndarray]:
        """Each of ``positions (k, width)`` under its own action of ``actions (k,)``: the children,
        ``(k, width) int64`` (a position itself where its action is illegal), and which actions are
        legal there, ``(k,) bool`` (an action outside the alphabet is illegal). The rule's answer
        read at one action per position; a family may compute it without the other actions."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        inside = (actions >= 0) & (actions < self.n_actions)
        children, legal = self.successors(positions)
        rows, chosen = np.arange(len(positions)), np.where(inside, actions, 0)
        legal = inside & legal[rows, chosen]
        return np.where(legal[:, None], children[rows, chosen], positions), legal

    def over_mask(self, positions: np.ndarray) -> np.ndarray:
        """``(k,) bool``: which of ``positions`` have no legal action (the games that are over)."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return np.asarray(~self.legal_mask(positions).any(axis=1))

    def legal_actions(self, position: Position) -> list[int]:
        """The legal actions of ``position``, ascending."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        mask = self.legal_mask(np.array([self.check_position(position)], dtype=np.int64))[0]
        return [int(a) for a in np.flatnonzero(mask)]

    def is_legal_action(self, position: Position, action) -> bool:
        """Is ``action`` a whole number naming a legal action of ``position``?"""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        if not is_whole(action) or not 0 <= action < self.n_actions:
            return False
        return bool(self.legal_mask(np.array([self.check_position(position)], dtype=np.int64))[0, int(action)])

    def apply_action(self, position: Position, action: int) -> Position:
        """The position ``action`` leads to; a one-line :class:`UserError` if it is illegal."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        position = self.check_position(position)
        if not is_whole(action) or not 0 <= action < self.n_actions:
            raise UserError(f"{shown(action)} is not an action of {self.name} (0..{self.n_actions - 1})")
        children, legal = self.successors(np.array([position], dtype=np.int64))
        if not legal[0, int(action)]:
            raise UserError(f"illegal move {self.action_label(int(action))!r} in position {position} of {self.name}")
        return tuple(int(v) for v in children[0, int(action)])

    def is_over(self, position: Position) -> bool:
        """Whether ``position`` has no legal action (the player to move cannot move)."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        return not self.legal_mask(np.array([self.check_position(position)], dtype=np.int64))[0].any()

    def random_action(self, position: Position, rng: np.random.Generator) -> int:
        """A uniformly random legal action, drawn with one ``rng.integers``:
        ``legal_actions(position)[rng.integers(count)]``."""
        legal = self.legal_actions(position)
        if not legal:
            raise UserError(f"no legal move in {tuple(position)}: the game is over")
        return legal[int(rng.integers(len(legal)))]

    def parse_action(self, text: str) -> int:
        """The action whose label is ``text`` (spaces and case aside); a one-line
        :class:`UserError` otherwise."""
        wanted = " ".join(str(text).split()).lower()
        for action in range(self.n_actions):
            if " ".join(self.action_label(action).split()).lower() == wanted:
                return action
        raise UserError(f"{shown(text)} is no move of {self.name}")

    def move_of(self, action: int):
        """The move an action is in the family's own words (what its agents answer and its files
        hold): by default the action itself; a take-away family's ``(pile, count)``."""
        if not is_whole(action) or not 0 <= action < self.n_actions:
            raise UserError(f"{shown(action)} is not an action of {self.name} (0..{self.n_actions - 1})")
        return int(action)

    def moves_of(self, actions) -> list:
        """:meth:`move_of` of each of ``actions`` (whole numbers, a space's columns say)."""
        return [self.move_of(int(action)) for action in actions]

    def read_move(self, move):
        """A move someone answered, read as the family's words (whole numbers through
        ``operator.index``: numpy's too, never 1.7 read as 1), its legality not judged; a
        one-line :class:`UserError` saying what a move is if it is not one. By default an action."""
        try:
            return operator.index(move)
        except TypeError:
            raise UserError(f"a move of {self.name} is an action, a whole number") from None

    def action_of(self, move) -> int:
        """The action of a move in the family's own words (:meth:`move_of`'s inverse); a
        one-line :class:`UserError` if it is none."""
        if not is_whole(move) or not 0 <= move < self.n_actions:
            raise UserError(f"{shown(move)} is not a move of {self.name} (actions 0..{self.n_actions - 1})")
        return int(move)

    # -- moves: the views in the family's own words -------------------------------------

    def legal_moves(self, position: Position) -> list:
        """The legal moves of ``position`` in the family's words, in action order."""
        return [self.move_of(action) for action in self.legal_actions(position)]

    def count_moves(self, position: Position) -> int:
        """How many legal moves ``position`` has."""
        return len(self.legal_actions(position))

    def is_legal(self, position: Position, move) -> bool:
        """Is ``move`` a move of the board that may be played in ``position``?"""
        try:
            action = self.action_of(move)
        except UserError:
            return False
        return self.is_legal_action(position, action)

    def apply(self, position: Position, move) -> Position:
        """The position after ``move``; a one-line :class:`UserError` for an illegal move."""
        if not self.is_legal(position, move):
            raise UserError(f"illegal move {shown(move)} in position {tuple(position)} of {self.name}")
        return self.apply_action(position, self.action_of(move))

    def random_move(self, position: Position, rng: np.random.Generator):
        """:meth:`random_action` in the family's words."""
        return self.move_of(self.random_action(position, rng))

    def winner(self, last_mover: int) -> int:
        """The seat (0 or 1) that wins when seat ``last_mover`` made the last move."""
        return last_mover if self.last_mover_wins else 1 - last_mover

    @property
    def last_mover_wins(self) -> bool:
        """True in normal play, False in misère play."""
        return not self.misere

    @property
    def to_move_wins_at_end(self) -> bool:
        """Has the player to move at a position with no legal move won? (Only in misère.)"""
        return bool(self.misere)

    # -- names -------------------------------------------------------------------------

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


def first_values(values, shown: int = 24) -> str:
    """The first ``shown`` of ``values``, then an ellipsis: a sequence with no known period."""
    return " ".join(str(int(v)) for v in values[:shown]) + " ..."


def whole_tuple(value, length: int) -> tuple[int, ...] | None:
    """``value`` as ``length`` whole numbers (numpy's too, never 1.7 read as 1), or ``None`` if it
    is no sequence of exactly that many."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or not hasattr(value, "__getitem__"):
        return None
    try:
        if len(value) != length:
            return None
        return tuple(operator.index(value[i]) for i in range(length))
    except (TypeError, IndexError, KeyError):
        return None


def is_whole(value) -> bool:
    """A whole number (numpy's too), never a bool."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def _slots(start: Position) -> np.ndarray:
    """The heap that holds the ``r``-th smallest size of a canonical row: the heaps ordered
    by their starting size, ties by index."""
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    return np.argsort(np.asarray(start, dtype=np.int64), kind="stable")


class PileSizes(Constraint):
    """A position: a sequence of whole numbers >= 0 (a board's heaps, any of them empty)."""

    def __call__(self, value) -> bool:
        if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
            return False
        return all(is_whole(size) and size >= 0 for size in value)

    def __str__(self) -> str:
        return "a tuple of pile sizes (whole numbers >= 0)"


POSITION = PileSizes()

def board_heaps(heaps, misere, most: int = 100) -> tuple[int, ...]:
    """A board's starting heaps checked (whole numbers from 0 to :data:`MAX_HEAP`, at most ``most``
    of them, at least one object in all) with its ``misere`` flag: the heaps as a tuple, or a
    one-line :class:`UserError`."""
    heaps = whole_numbers("heaps", heaps, low=0, high=MAX_HEAP, most=most)
    if not sum(heaps):
        raise UserError("heaps must hold at least one object, got all empty heaps")
    if not isinstance(misere, bool):
        raise UserError(f"misere must be True or False, got {misere!r}")
    return heaps


def whole_numbers(what: str, values, low: int, high: int, most: int) -> tuple[int, ...]:
    """``values`` as a tuple of whole numbers from ``low`` to ``high``, at most ``most`` of them,
    or a one-line :class:`UserError`."""
    try:
        values = tuple(values)
    except TypeError:
        raise UserError(f"{what} must be a sequence of whole numbers, got {shown(values)}") from None
    if not values:
        raise UserError(f"{what} must hold at least one number, got none")
    if len(values) > most:
        raise UserError(f"{what} must hold at most {most:,} numbers, got {len(values):,}")
    for value in values:
        if not is_whole(value) or not low <= value <= high:
            raise UserError(f"{what} must hold whole numbers from {low} to {high:,}, got {shown(value)}")
    return tuple(int(v) for v in values)


def heaps_of(text: str) -> tuple[int, ...]:
    """The heaps of a board's name (``3-5-7``), or a one-line :class:`UserError` for a number
    too long to read."""
    numbers = text.split("-")
    if any(len(number) > len(str(MAX_HEAP)) + 1 for number in numbers):
        raise UserError(f"heap sizes are at most {MAX_HEAP:,}")
    return tuple(map(int, numbers))


HEAPS = r"(?P<heaps>\d+(?:-\d+)*)"


def name_pattern(family: str) -> re.Pattern:
    """A board's name: the heaps, then ``family`` (its own regular expression), then ``-misere``."""
    return re.compile(HEAPS + "-" + family + r"(?P<misere>-misere)?")
