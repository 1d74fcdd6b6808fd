"""Heap games whose move takes from one heap and may leave what remains as two heaps.

Octal games (Kayles, Dawson's Kayles), Lasker's Nim and Grundy's game share one rule: a move
picks a heap of ``n``, takes ``take`` objects from it (0 for a pure split) and leaves the rest
as no heap, one heap, or two heaps ``part`` and ``n - take - part`` (``part`` the smaller, or 0
when one heap or none is left). A family says which ``(n, take, part)`` it allows
(:meth:`SplitGame.allows`). Think of a row of pins: ``take`` pins knocked down side by side,
``part`` pins standing on the shorter side.

Positions are rows as wide as the most heaps a board can hold (:meth:`SplitGame.most_heaps`),
zero-padded: the heap a move splits keeps the smaller part, the first empty slot takes the
other. The action alphabet is every slot with every ``(take, part)`` a heap of the board's
largest size allows, by slot, then take, then part. Every move lowers the sum of the heaps'
squares (a split of ``a + b`` into ``a`` and ``b`` lowers it by ``2ab``), the retrograde order.

Theory, in normal play, is Sprague-Grundy's: a heap of ``n`` has Grundy value
``g(n) = mex{g(part) ^ g(n - take - part)}`` over its moves, a position is lost when the xor
of its heaps' values is 0. :func:`grundy_values` computes the sequence and, for octal games,
certifies its period by the Guy-Smith test (then it holds for heaps of any size); beyond what
is computed and certified, theory is silent and the solved board is the truth.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache, cached_property
from typing import TYPE_CHECKING, ClassVar

from nim_evo.games.base import MAX_HEAP, Game, Position, board_heaps, first_values, is_whole, whole_tuple
from nim_evo.validation import UserError, shown

if TYPE_CHECKING:  # numpy loads on first use: every --help answers without it
    import numpy as np

    from nim_evo.games.periodic import Periodic

MAX_HEAPS = 100  # heaps on a board's start
MAX_ROW = 1_000  # a position's row: the most heaps a board may come to hold
MAX_ALPHABET = 1_000_000  # actions of a board's alphabet (slots x (take, part) pairs)
MAX_CHILD_CELLS = 4_000_000  # heap sizes of one position's children under every action (32 MB)
MAX_COMPUTED = 1 << 15  # heap sizes whose Grundy values are computed (mex over O(n) options each)

Split = tuple[int, int, int]  # (heap, take, part): a move in the family's words, the heap from 0
_UNBOUNDED: ContextVar[bool] = ContextVar("unbounded", default=False)


@contextmanager
def unbounded() -> Iterator[None]:
    """Within it, a splitting game is built past the engine's limits on its rows and alphabet,
    for a caller that never makes them (:mod:`nim_evo.games.bigheaps`: heaps however big, their
    moves one heap at a time)."""
    token = _UNBOUNDED.set(True)
    try:
        yield
    finally:
        _UNBOUNDED.reset(token)


@dataclass(frozen=True)
class SplitGame(Game):
    """A heap game whose move takes from one heap and leaves at most two (a family subclasses
    it, with ``heaps`` and ``misere`` first among its fields, and says :meth:`allows`)."""

    heaps: tuple[int, ...]
    misere: bool = False

    heaps_in_place: ClassVar[bool] = False  # a position is its multiset of heaps
    typing: ClassVar[str] = ("the heap, how many to take from it and how many to leave on one side of the gap "
                             "(2 1 3: take 1 from heap 2, leaving 3 on one side and the rest on the other)")
    keyword: ClassVar[str] = ""  # the family's word in a board's name (8-kayles)
    title: ClassVar[str] = "The game"

    def __post_init__(self):
        object.__setattr__(self, "heaps", board_heaps(self.heaps, self.misere, MAX_HEAPS))

    def check_board(self) -> None:
        """Refuse, in one line, a board whose rows or alphabet are too big (after the family's own
        fields; not within :func:`unbounded`)."""
        if _UNBOUNDED.get():
            return
        if self.width > MAX_ROW:
            raise UserError(f"{self.name} may come to hold {self.width:,} heaps; a board here holds at most {MAX_ROW:,}")
        candidates = self.width * len(self.candidate_pairs(max(self.heaps)))
        if candidates > MAX_ALPHABET or candidates * self.width > MAX_CHILD_CELLS:
            raise UserError(f"{self.name} has some {candidates:,} actions in rows of {self.width:,} heaps; a board here "
                            f"has at most {MAX_ALPHABET:,} actions and {MAX_CHILD_CELLS:,} heap sizes among one "
                            "position's children (smaller heaps)")
        if not self.pairs:
            raise UserError(f"no move from the start {'-'.join(map(str, self.heaps))} of {self.name}")

    # -- what a family says ----------------------------------------------------------------

    def allows(self, n: np.ndarray | np.integer, take: np.ndarray | np.integer,
               part: np.ndarray | np.integer) -> np.ndarray:
        """Whether a heap of ``n`` may lose ``take`` objects and be left as ``part`` and
        ``n - take - part`` (arrays that broadcast; where ``n - take - part < part`` the answer
        is not read)."""
        raise NotImplementedError

    def candidate_pairs(self, largest: int) -> list[tuple[int, int]]:
        """Every ``(take, part)`` some heap of at most ``largest`` may allow (a superset is fine:
        pairs no heap allows are dropped)."""
        raise NotImplementedError

    def heap_values(self, count: int) -> HeapValues:
        """The family's Grundy values of heaps ``0 .. count - 1`` (a family with a closed form or
        a certified period says more)."""
        return grundy_values(self, count)

    def most_heaps(self) -> int:
        """The most heaps a position of the board can hold."""
        raise NotImplementedError

    # -- the board -------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return "-".join(map(str, self.heaps)) + f"-{self.keyword}" + ("-misere" if self.misere else "")

    @property
    def start(self) -> Position:
        return self.heaps + (0,) * (self.width - len(self.heaps))

    @cached_property  # (a frozen dataclass's instance dict: read often, by every move read)
    def width(self) -> int:
        return max(len(self.heaps), self.most_heaps())

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The ``(take, part)`` pairs of each slot's actions, by take, then part."""
        return _pairs(self)

    @property
    def n_actions(self) -> int:
        return self.width * len(self.pairs)

    def move_of(self, action: int) -> Split:
        """The ``(heap, take, part)`` of an action."""
        if not is_whole(action) or not 0 <= action < self.n_actions:
            raise UserError(f"{shown(action)} is not an action of {self.name} (0..{self.n_actions - 1})")
        slot, k = divmod(int(action), len(self.pairs))
        return (slot, *self.pairs[k])

    def read_move(self, move) -> Split:
        numbers = whole_tuple(move, 3)
        if numbers is None:
            raise UserError("a move is (heap, take, part), three whole numbers")
        return numbers[0], numbers[1], numbers[2]

    def action_of(self, move) -> int:
        try:
            heap, take, part = self.read_move(move)
        except UserError as problem:
            raise UserError(f"{shown(move)} is not a move: {problem}") from None
        index = _pair_index(self).get((take, part))
        if index is None or not 0 <= heap < self.width:
            raise UserError(f"{(heap, take, part)} is not a move of {self.name}")
        return heap * len(self.pairs) + index

    def action_label(self, action: int) -> str:
        """``heap take part`` (the heap from 1): ``2 1 3`` takes 1 from heap 2 and leaves 3 on one side."""
        heap, take, part = self.move_of(action)
        return f"{heap + 1} {take} {part}"

    def successors(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rule's children; rows narrower than the board's (a few heaps, however big,
        and an empty slot for a split) give the actions of their own slots, ``width x pairs``."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        k, width = positions.shape
        pairs = np.array(self.pairs, dtype=np.int64).reshape(-1, 2)
        take, part = pairs[:, 0], pairs[:, 1]
        free = (positions == 0).argmax(axis=1)  # the first empty slot takes a split's larger part
        has_free = (positions == 0).any(axis=1)
        actions = width * len(pairs)  # (the board's n_actions on its own rows)
        children = np.repeat(positions[:, None, :], actions, axis=1)
        legal = np.zeros((k, actions), dtype=bool)
        allowed = self.allows(positions[:, :, None], take, part)   # (k, width, pairs)
        rows = np.arange(k)
        for slot in np.flatnonzero(positions.any(axis=0)):  # an empty heap has no move: its columns stay copies
            n = positions[:, slot, None]                          # (k, 1)
            rest = n - take - part                                # the larger part (or the one heap left)
            ok = (rest >= part) & allowed[:, slot, :]
            ok &= (part == 0) | (has_free[:, None] & (free[:, None] != slot))
            columns = slice(slot * len(pairs), (slot + 1) * len(pairs))
            legal[:, columns] = ok
            block = children[:, columns]                          # a view: (k, pairs, width)
            block[:, :, slot] = np.where(part > 0, part, rest)
            two = np.flatnonzero(part > 0)
            block[rows[:, None], two[None, :], free[:, None]] = rest[:, two]
        return children, legal

    def step(self, positions: np.ndarray, actions) -> tuple[np.ndarray, np.ndarray]:
        """The rule at one action per position without the others (a fast path check_game holds
        to the rule): the heap's slot keeps the smaller part (or the one heap left), the first
        empty slot takes the larger."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        actions = np.asarray(actions, dtype=np.int64)
        pairs = np.array(self.pairs, dtype=np.int64).reshape(-1, 2)
        inside = (actions >= 0) & (actions < self.n_actions)
        slot, pair = np.divmod(np.where(inside, actions, 0), len(pairs))
        take, part = pairs[pair, 0], pairs[pair, 1]
        rows = np.arange(len(positions))
        n = positions[rows, slot]
        rest = n - take - part
        empty = positions == 0
        free, has_free = empty.argmax(axis=1), empty.any(axis=1)
        legal = inside & (n > 0) & (rest >= part) & self.allows(n, take, part)
        legal &= (part == 0) | (has_free & (free != slot))
        children = positions.copy()
        children[rows, slot] = np.where(legal, np.where(part > 0, part, rest), n)
        two = np.flatnonzero(legal & (part > 0))
        children[two, free[two]] = rest[two]
        return children, legal

    def legal_mask(self, positions: np.ndarray) -> np.ndarray:
        """The rule's mask without its children (a fast path check_game holds to the rule)."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        pairs = np.array(self.pairs, dtype=np.int64).reshape(-1, 2)
        take, part = pairs[:, 0], pairs[:, 1]
        n = positions[:, :, None]
        empty = positions == 0
        free_elsewhere = (empty.sum(axis=1, keepdims=True) - empty > 0)[:, :, None]   # another slot is empty
        ok = (n - take - part >= part) & self.allows(n, take, part) & ((part == 0) | free_elsewhere)
        return ok.reshape(len(positions), self.n_actions)  # (none too: a batch may be empty)

    def is_legal(self, position: Position, move) -> bool:
        """Is ``move`` a ``(heap, take, part)`` of the board that may be played in ``position``?"""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        try:
            heap, take, part = self.read_move(move)
        except UserError:
            return False
        try:
            position = self.check_position(position)
        except UserError:
            return False
        if (take, part) not in _pair_index(self) or not 0 <= heap < len(position):
            return False
        n = position[heap]
        if n - take - part < part or (part > 0 and not any(v == 0 for i, v in enumerate(position) if i != heap)):
            return False
        return bool(self.allows(np.int64(n), np.int64(take), np.int64(part)))

    def order(self, positions: np.ndarray) -> np.ndarray:
        """The sum of the heaps' squares: every take and every split lowers it."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        positions = np.asarray(positions, dtype=np.int64)
        return (positions * positions).sum(axis=-1)

    def check_position(self, position) -> Position:
        """A position, its heaps zero-padded to the board's row where fewer are given."""
        try:
            position = tuple(position)
        except TypeError:
            raise UserError(f"a position is a sequence of heap sizes, got {shown(position)}") from None
        if len(position) < self.width and all(is_whole(v) for v in position):
            position = position + (0,) * (self.width - len(position))
        return super().check_position(position)

    def heap_moves(self, n: int, largest: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """What each move from one heap of ``n`` leaves, however big: ``(smaller, larger)``,
        two int64 arrays, ``0`` for no heap (no board is built: the family's candidates are
        made once for heaps up to ``largest``, default ``n``, and kept for the next heap)."""
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        take, part, by_size, smallest = _candidates(self, max(n, largest or n))
        fitting = np.sort(by_size[:np.searchsorted(smallest, n, side="right")])  # (in the candidates' order)
        take, part = take[fitting], part[fitting]
        ok = self.allows(np.int64(n), take, part)
        return part[ok], (n - take - part)[ok]

    # -- theory ----------------------------------------------------------------------------

    def grundy(self) -> HeapValues:
        """The Grundy values of one heap, for heaps up to this board's largest at least (cached
        per family, rule and size)."""
        return self.values_for(max(self.heaps))

    def values_for(self, largest: int) -> HeapValues:
        """The family's Grundy values of one heap for heaps up to ``largest`` where it can
        (computed to at most :data:`MAX_COMPUTED`; for any heap where a period is certified or
        a closed form proved: see :attr:`HeapValues.known`), with no board built."""
        fields = tuple((f, getattr(self, f)) for f in self.__dataclass_fields__ if f not in ("heaps", "misere"))
        key = (type(self), fields, _computed(largest))
        if key not in _GRUNDY:
            if len(_GRUNDY) >= 32:
                _GRUNDY.clear()
            _GRUNDY[key] = self.heap_values(key[-1])
        return _GRUNDY[key]

    def grundy_words(self) -> str | None:
        values = self.grundy()
        return first_values(values.values) if values.periodic is None else values.periodic.notation()

    def theory_scope(self) -> str:
        values = self.grundy()
        if values.known >= MAX_HEAP:
            return "Grundy values hold for heaps of any size, in normal play"
        return f"Grundy values are computed for heaps up to {values.known:,}, in normal play"

    def theory_wins(self, positions: np.ndarray) -> np.ndarray | None:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        if self.misere:
            return None
        positions = np.asarray(positions, dtype=np.int64)
        values = self.grundy()
        if positions.size and int(positions.max()) > values.known:
            return None
        return np.bitwise_xor.reduce(values(positions), axis=-1) != 0

    def describe(self) -> str:
        ending = "loses" if self.misere else "wins"
        heaps = self.heaps
        board = f"one heap of {heaps[0]}" if len(heaps) == 1 else f"heaps of {', '.join(map(str, heaps[:-1]))} and {heaps[-1]}"
        return f"{self.title} {self.name}: {board}; {self.move_words}; whoever makes the last move {ending}."

    move_words: ClassVar[str] = ""


@dataclass(frozen=True, eq=False)
class HeapValues:
    """One heap's Grundy values: computed for heaps up to ``len(values) - 1``, and for every
    heap size where a period is certified (``periodic``) or a closed form proved (``formula``).

    Attributes:
        values: ``(m,) int64``, the values of heaps ``0 .. m - 1`` (read-only).
        periodic: the certified eventually periodic sequence, or ``None``.
        formula: the closed form, a function of an array of heap sizes, or ``None``.
    """

    values: np.ndarray
    periodic: Periodic | None = None
    formula: Callable[[np.ndarray], np.ndarray] | None = None

    @property
    def known(self) -> int:
        """The largest heap whose value is known (any, where a period or a formula holds)."""
        return MAX_HEAP if self.periodic is not None or self.formula is not None else len(self.values) - 1

    def __call__(self, n) -> np.ndarray:
        import numpy as np  # (import time: nim-evo --help loads no numpy)

        n = np.asarray(n, dtype=np.int64)
        if n.size and int(n.max()) < len(self.values):  # every heap computed: read, no arithmetic
            return self.values[n]
        if self.formula is not None:
            return self.formula(n)
        if self.periodic is not None:
            return self.periodic(n)
        return self.values[n]


def grundy_values(game: SplitGame, count: int, period_after: int | None = None) -> HeapValues:
    """The Grundy values of heaps ``0 .. count - 1`` of ``game``'s family by the mex rule; with
    ``period_after`` (an octal game's longest take, ``t``), also the period certified by the
    Guy-Smith test: if ``g(n + p) == g(n)`` for every ``i <= n < 2i + p + t``, the sequence has
    period ``p`` from ``i`` on. The values are computed in doubling steps until a period is
    certified or ``count`` are known."""
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    from nim_evo.games.periodic import Periodic  # (import time: periodic imports numpy)

    pairs = np.array(sorted(game.candidate_pairs(count - 1), key=lambda p: p[0] + 2 * p[1]), dtype=np.int64)
    take, part = pairs.reshape(-1, 2).T
    need = take + 2 * part                  # the least heap a pair may apply to
    values = np.zeros(count, dtype=np.int64)
    done = 1
    step = 64
    while True:
        end = min(count, max(done + 1, step))
        for n in range(done, end):
            m = int(np.searchsorted(need, n, side="right"))
            t, p = take[:m], part[:m]
            ok = game.allows(np.int64(n), t, p)
            options = values[p[ok]] ^ values[n - t[ok] - p[ok]]
            seen = np.zeros(len(options) + 1, dtype=bool)
            seen[options[options <= len(options)]] = True
            values[n] = int(np.argmin(seen))  # the mex: the first value not seen
        done = end
        if period_after is not None:
            found = _certify(values[:done], period_after)
            if found is not None:
                start, period = found
                kept = values[:start + period].copy()
                kept.flags.writeable = False
                return HeapValues(kept, Periodic(kept, start, period))
        if done >= count:
            values.flags.writeable = False
            return HeapValues(values, None)
        step *= 2


def _certify(values: np.ndarray, longest_take: int) -> tuple[int, int] | None:
    """The least period ``p`` (then preperiod ``i``) that the Guy-Smith test certifies from
    ``values``, or ``None``."""
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    known = len(values)
    for period in range(1, known // 2):
        differ = np.flatnonzero(values[:known - period] != values[period:])
        start = int(differ[-1]) + 1 if len(differ) else 0
        if 2 * start + 2 * period + longest_take <= known:
            return start, period
    return None


_GRUNDY: dict[tuple, HeapValues] = {}  # one heap's values by family, rule and size (a cache)


def _computed(largest: int) -> int:
    """The heap size values are computed to for a board of ``largest`` (a power of two, at
    least 64, at most :data:`MAX_COMPUTED`): boards of similar sizes share one table."""
    return min(MAX_COMPUTED, max(64, 1 << max(0, largest).bit_length()))


@lru_cache(maxsize=64)
def _pairs(game: SplitGame) -> tuple[tuple[int, int], ...]:
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    largest = max(game.heaps)
    pairs = np.array(game.candidate_pairs(largest), dtype=np.int64).reshape(-1, 2)
    take, part = pairs[:, 0], pairs[:, 1]
    # a family's rule reads a heap's size only through its parts (empty, equal, unequal): the
    # least heap a pair applies to and the one after it show every case
    sizes = take + 2 * part + np.arange(2)[:, None]                         # (2, pairs)
    fits = (sizes <= largest) & game.allows(sizes, take, part)
    return tuple(sorted((int(t), int(p)) for t, p in pairs[fits.any(axis=0)]))


def _candidates(game: SplitGame, largest: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(take, part, by_size, smallest)`` of every candidate pair for heaps up to ``largest``,
    read-only (the family's and rule's last, kept while no bigger heap is asked): ``by_size``
    the pairs' order by the smallest heap each fits (``take + 2 part``: the larger part at
    least the smaller), ``smallest`` those sizes in that order, so that a small heap reads
    only its own pairs of a big heap's many."""
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    fields = tuple((f, getattr(game, f)) for f in game.__dataclass_fields__ if f not in ("heaps", "misere"))
    key = (type(game), fields)
    known = _CANDIDATES.get(key)
    if known is None or known[0] < largest:
        pairs = np.array(game.candidate_pairs(largest), dtype=np.int64).reshape(-1, 2)
        by_size = np.argsort(pairs[:, 0] + 2 * pairs[:, 1], kind="stable")
        smallest = (pairs[:, 0] + 2 * pairs[:, 1])[by_size]
        for array in (pairs, by_size, smallest):
            array.flags.writeable = False
        if len(_CANDIDATES) >= 8:
            _CANDIDATES.clear()
        known = _CANDIDATES[key] = (largest, pairs[:, 0], pairs[:, 1], by_size, smallest)
    return known[1:]


_CANDIDATES: dict[tuple, tuple] = {}


@lru_cache(maxsize=64)
def _pair_index(game: SplitGame) -> dict[tuple[int, int], int]:
    return {pair: k for k, pair in enumerate(game.pairs)}
