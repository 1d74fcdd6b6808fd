"""A program's heap part: the value it gives one heap, a small table and a periodic part beyond it.

In a heap game every heap is a game of its own, and by the Sprague-Grundy theorem a position
is lost exactly when the exclusive or of its heaps' Grundy values is 0. The program genome
plays such a game by folding its step over a value per heap; :class:`HeapPart` is where that
value comes from, evolved from play alone. It holds a table of values for the heaps
``0 .. L - 1`` (``L = len(values)``) and, beyond it, repeats the table's last ``period``
values, each time adding ``saltus``::

    u(n) = values[n]                      for n < L
    u(n) = u(n - period) + saltus         for n >= L

which is the shape the Guy-Smith theorem gives every finite octal game (eventually periodic,
saltus 0) and arithmetic periodicity gives Lasker's Nim (period 4, saltus 4). Nim's own value,
the heap itself, is ``(0) +1``. Written as in *Winning Ways*: the values before the period,
then the period's values in parentheses, then the saltus if any: ``0 (1 2 4 3) +4``.
Nothing here knows a game: the contents are the search's (:func:`mutate`, :func:`crossover`),
read back from files by :func:`parse` (never evaluated as code). The value of an empty heap is
always 0 (a padded column is no heap).

Variation draws a new value from ``0`` to one more than the part's largest (a heap's Grundy
value is the least value none of its options has, so it is at most one more than theirs: a
range, not a rule, and never the value).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from nim_evo.engine import draws
from nim_evo.validation import UserError

MAX_VALUES = 4096  # the table's length in a file, at most
MAX_VALUE = 1 << 20  # a value or a saltus in a file, at most
INITIAL_LENGTH = 16  # a new part's table is 1 to this long
IDENTITY = "(0) +1"  # Nim's heap value: the heap itself
EXTENDED = 1 << 21  # heaps below this are read from the part's values extended that far (16 MB at most)
_EXTENDED: dict = {}  # those values, for the parts asked last
_SYNTAX = re.compile(r"\s*((?:\d+\s+)*)\(\s*((?:\d+\s+)*\d+)\s*\)\s*(?:\+\s*(\d+))?\s*")


@dataclass(frozen=True)
class HeapPart:
    """The value of one heap: ``values`` for heaps ``0 .. L - 1``, then the last ``period``
    repeated, ``saltus`` added each time (see the module docstring). Immutable: variation
    makes new ones.

    Attributes:
        values: the table, ``values[0] == 0``.
        period: how many of its last values repeat (1 to ``len(values)``).
        saltus: what each repetition adds (0: purely periodic).
    """

    values: tuple[int, ...]
    period: int
    saltus: int = 0

    def __call__(self, heaps) -> np.ndarray:
        """``u`` of every heap size in ``heaps`` (an int64 array of any shape, sizes >= 0)."""
        heaps = np.asarray(heaps, dtype=np.int64)
        largest = int(heaps.max()) if heaps.size else 0
        if largest < EXTENDED:  # one gather from the values of every heap up to the largest
            return self.upto(largest + 1)[heaps]
        return self._computed(heaps)

    def _computed(self, heaps: np.ndarray) -> np.ndarray:
        """The values of ``heaps`` by arithmetic: the table, then the periodic part."""
        table = np.asarray(self.values, dtype=np.int64)
        length = len(table)
        turns, offset = np.divmod(np.maximum(heaps - length, 0), self.period)
        periodic = table[length - self.period + offset] + self.saltus * (turns + 1)
        return np.where(heaps < length, table[np.minimum(heaps, length - 1)], periodic)

    def upto(self, count: int) -> np.ndarray:
        """``(count,)`` the values of heaps ``0 .. count - 1`` (read-only; the part's table
        extended by its periodic part, kept for the largest asked)."""
        known = _EXTENDED.get(self)
        if known is None or len(known) < count:
            size = max(count, len(self.values), 2 * len(known) if known is not None else 0)
            known = self._computed(np.arange(size, dtype=np.int64))
            known.flags.writeable = False
            if len(_EXTENDED) >= 64:
                _EXTENDED.pop(next(iter(_EXTENDED)))
            _EXTENDED[self] = known
        return known[:count]

    def __str__(self) -> str:
        head = " ".join(map(str, self.values[:len(self.values) - self.period]))
        cycle = " ".join(map(str, self.values[len(self.values) - self.period:]))
        return f"{head + ' ' if head else ''}({cycle})" + (f" +{self.saltus}" if self.saltus else "")

    @property
    def preperiod(self) -> int:
        """The heaps before the periodic part (its values do not repeat)."""
        return len(self.values) - self.period

    def simplest(self) -> HeapPart:
        """The same values in the shortest table: the period cut to the least that repeats
        (its saltus in proportion), then the table cut while its last value is what the
        periodic part gives there."""
        values, period, saltus = list(self.values), self.period, self.saltus
        cycle = values[len(values) - period:]
        for shorter in range(1, period):
            if period % shorter == 0 and (saltus * shorter) % period == 0:
                step = saltus * shorter // period
                if all(cycle[i + shorter] == cycle[i] + step for i in range(period - shorter)):
                    period, saltus = shorter, step
                    break
        while len(values) > period and values[-1] == values[-1 - period] + saltus:
            values.pop()
        return HeapPart(tuple(values), period, saltus)

    def size(self) -> int:
        """How big it is (what parsimony minimises): the table's length, and one for a saltus."""
        return len(self.values) + (self.saltus != 0)


def parse(text, where: str) -> HeapPart:
    """The part ``text`` writes (``0 (1 2 4 3) +4``), checked; a one-line :class:`UserError`
    naming ``where`` otherwise."""
    if not isinstance(text, str) or len(text) > 12 * MAX_VALUES:
        raise UserError(f"{where} must be a heap part such as '0 (1 2 4 3) +4', of at most {MAX_VALUES} values")
    match = _SYNTAX.fullmatch(text)
    if match is None:
        raise UserError(f"{where}: {text[:60]!r} is no heap part: values, the period's in parentheses, then "
                        "optionally +saltus (e.g. '0 (1 2 4 3) +4')")
    head, cycle = match.group(1).split(), match.group(2).split()
    numbers = [*head, *cycle, match.group(3) or "0"]
    if len(head) + len(cycle) > MAX_VALUES or any(len(n) > 7 or int(n) > MAX_VALUE for n in numbers):
        raise UserError(f"{where}: at most {MAX_VALUES} values, each and the saltus at most {MAX_VALUE:,}")
    values = tuple(int(n) for n in (*head, *cycle))
    if values[0] != 0:
        raise UserError(f"{where}: the value of an empty heap (the first) must be 0, got {values[0]}")
    return HeapPart(values, len(cycle), int(numbers[-1]))


def create(rng: np.random.Generator) -> HeapPart:
    """A random part: a table of 1 to :data:`INITIAL_LENGTH` values from 0 to 3 (the first
    0), a random period, a saltus (0 half the time, else 1 to the period)."""
    length = int(rng.integers(1, INITIAL_LENGTH + 1))
    values = (0, *(int(v) for v in rng.integers(0, 4, size=length - 1)))
    period = int(rng.integers(1, length + 1))
    return HeapPart(values, period, _saltus(rng, period))


REACH = 8  # a value mutation reaches heaps up to twice the table's length, or this many past it
MUTATIONS = ("value", "grow", "shrink", "period", "saltus")
MUTATION_WEIGHTS = (0.55, 0.15, 0.1, 0.12, 0.08)
_MUTATION_CDF = draws.cumulative(MUTATION_WEIGHTS)


FOCUS = 0.5  # the share of value mutations at the heap where the parent's play first fails, when known
REUSE = 0.5  # the share of redrawn values that are one the table holds already


def mutate(part: HeapPart, rng: np.random.Generator, focus: int | None = None) -> HeapPart:
    """One change, by :data:`MUTATION_WEIGHTS`: a heap's value redrawn (``value``: a heap up
    to twice the table's length, or :data:`REACH` past it, the table first grown to it by what
    its periodic part gave there, so that one change reaches a heap the table does not hold;
    or, a :data:`FOCUS` share of the time, the heap ``focus``, where the parent's play first
    failed; the value, a :data:`REUSE` share of the time, one the table holds, else one from 0
    to one more than its largest); the table one longer, the new entry what the periodic part
    gave there, so the part plays alike until a value of it changes (``grow``), or one
    shorter (``shrink``); a new period (``period``: half the time with the saltus its last
    values keep, the last value less the one a period before it) or saltus (``saltus``)."""
    how = MUTATIONS[draws.weighted(rng, _MUTATION_CDF)]
    values, period, saltus = list(part.values), part.period, part.saltus
    if how == "value":  # (a heap past the table: the table grown to it first, by what the periodic part gave)
        heap = int(rng.integers(1, min(MAX_VALUES, max(2 * len(values), len(values) + REACH))))
        if focus is not None and 0 < focus < MAX_VALUES and rng.random() < FOCUS:
            heap = focus
        values = _grown(part, heap + 1)
        values[heap] = draw_value(values, rng)
    elif how == "grow" and len(values) < MAX_VALUES:
        values.append(int(part(np.int64(len(values)))))
    elif how == "shrink" and len(values) > 1:
        values.pop()
        period = min(period, len(values))
    elif how == "period":
        period = int(rng.integers(1, len(values) + 1))
        if period < len(values) and rng.random() < 0.5:  # (the saltus the table's last values keep, if any)
            saltus = _kept_saltus(values, period)
    elif how == "saltus":
        saltus = _saltus(rng, period)
    return HeapPart(tuple(values), period, saltus)


def with_value(part: HeapPart, heap: int, value: int, alone: bool = False) -> HeapPart:
    """``part`` with the value of ``heap`` set, the table grown to it first by what its
    periodic part gave there, as a value mutation grows it (a value of the period then stands
    for every heap of its residue past the table); ``alone``: grown a period past it, so that
    the value is this heap's alone."""
    values = _grown(part, heap + 1 + (part.period if alone else 0))
    values[heap] = value
    return HeapPart(tuple(values), part.period, part.saltus)


def _grown(part: HeapPart, end: int) -> list[int]:
    """The part's table grown to ``end`` values (at least its own) by what its periodic part gives there."""
    return [*part.values, *(int(v) for v in part(np.arange(len(part.values), end)))]


def swapped(part: HeapPart, heap: int, other: int, alone: bool = False) -> HeapPart:
    """``part`` with the values of ``heap`` and ``other`` exchanged, the table grown to both
    first, as :func:`with_value` grows it (``alone``: a period past them). Where a part gives
    two heaps each other's values (Lasker's Nim's are Nim's with each pair 4k + 3, 4k + 4
    exchanged), setting one value at a time makes two heaps alike, a worse player on the way."""
    values = _grown(part, max(heap, other) + 1 + (part.period if alone else 0))
    values[heap], values[other] = values[other], values[heap]
    return HeapPart(tuple(values), part.period, part.saltus)


def exchanged(part: HeapPart, heap: int, other: int, period: int) -> HeapPart | None:
    """``part`` with the values of ``heap`` and ``other`` exchanged, and every pair of heaps a
    multiple of ``period`` before or after them (heap 0 kept) put in the same order, read with
    that period and the saltus its last values keep (the table grown to end in the pair's
    residue, past a whole period, so that the order repeats past it); ``None`` where the pair
    is a period or more apart, or the table would grow past :data:`MAX_VALUES`. Lasker's Nim's
    values are Nim's with each pair 4k + 3, 4k + 4 exchanged: from Nim's ``(0) +1``, one such
    step with period 4 (the decisions pay for them only all together, not pair by pair)."""
    low, high = sorted((heap, other))
    gap = high - low
    if not 0 < gap < period:
        return None
    end = max(len(part.values), high + 1)
    end += (high - (end - 1)) % period  # (the table's last value is in the pair's residue)
    while end - 1 - period < 1:  # (and the one a period before it too, not heap 0: the saltus reads both)
        end += period
    if end > MAX_VALUES:
        return None
    values = _grown(part, end)
    descending = values[high] > values[low]  # (the order the exchange makes)
    for first in range(low % period, end - gap, period):
        if first > 0 and (values[first] > values[first + gap]) != descending:
            values[first], values[first + gap] = values[first + gap], values[first]
    return HeapPart(tuple(values), period, _kept_saltus(values, period))


CANDIDATES = 16  # values a local search tries at a heap, at most
PERIODS = 12  # the longest period a local search reads a table with


def candidates(part: HeapPart, heap: int, rng: np.random.Generator) -> list[int]:
    """The values a local search tries at ``heap``: every value the part gives a heap up to
    it (the table's, and with a saltus the bigger ones its periodic part gives) and one more
    than the largest (the range a value mutation draws from), but the one it has; where they
    are more than :data:`CANDIDATES` (Lasker's Nim's values grow with the heap), as many drawn."""
    held = sorted(set(part.values) | {int(v) for v in part.upto(heap + 1)})
    values = [v for v in [*held, held[-1] + 1] if v != int(part(np.int64(heap)))]
    if len(values) > CANDIDATES:
        values = sorted(int(v) for v in rng.choice(values, CANDIDATES, replace=False))
    return values


def periods(part: HeapPart) -> list[HeapPart]:
    """The part's table read with each other period up to :data:`PERIODS`, purely periodic and
    with the saltus its last values keep (the last value less the one a period before it), as
    a ``period`` mutation reads it: where a table grown value by value holds a period and a
    saltus, one of these plays every heap past it as the table's start does."""
    values = part.values
    read: dict[HeapPart, None] = {}
    for period in range(1, min(len(values), PERIODS + 1)):
        for saltus in {0, _kept_saltus(values, period)}:
            read[HeapPart(values, period, saltus)] = None
    read.pop(part, None)
    return list(read)


SWEPT_VALUES = 64  # values a sweep tries at a heap, at most


def values_at(part: HeapPart, heap: int, through: int) -> list[HeapPart]:
    """``part`` with the value of ``heap`` set to each value from 0 to two more than twice
    the largest of the heaps below it (every value two of theirs xor to, and one bit more: a
    range, not a rule), at most :data:`SWEPT_VALUES` of them, its own among them; the table
    first grown through ``through`` by what its periodic part gives there, so that the value
    is this heap's alone. ``[]`` for a part with a saltus, whose values grow with the heap
    (:func:`exchanged` searches those)."""
    if part.saltus or not 0 < heap < MAX_VALUES:
        return []
    values = _grown(part, min(MAX_VALUES, max(through, heap) + 1))
    top = min(2 * max(values[:heap]) + 2, SWEPT_VALUES - 1)
    return [HeapPart((*values[:heap], value, *values[heap + 1:]), part.period) for value in range(top + 1)]


def repeating(part: HeapPart) -> HeapPart:
    """``part`` read with the period its table's values repeat with over the longest stretch
    at its end, a whole period at least (each value of the stretch the one a period before
    it), the shorter period where two stretches are alike, then :meth:`HeapPart.simplest`; the
    part itself where none repeats so, or it has a saltus. (A table set heap by heap to where
    its decisions end holds the period there, but is read with the one it had.)"""
    values = part.values
    best, longest = part.period, 0
    for period in range(1, len(values) // 2 + 1):
        stretch = 0
        while stretch < len(values) - period and values[-1 - stretch] == values[-1 - stretch - period]:
            stretch += 1
        if stretch >= period and stretch > longest:
            best, longest = period, stretch
    if part.saltus or not longest:
        return part
    return HeapPart(values, best).simplest()


def cut(part: HeapPart, end: int, period: int, through: int) -> tuple[HeapPart, int]:
    """``part``'s values of heaps ``0 .. end - 1``, the last ``period`` of them then repeated
    (no saltus): what its table predicts past ``end`` if that is its period; and the first
    heap up to ``through`` whose value that changes (``through + 1``: none)."""
    made = HeapPart(tuple(int(v) for v in part.upto(end)), period)
    changed = np.flatnonzero(made.upto(through + 1) != part.upto(through + 1))
    return made, int(changed[0]) if len(changed) else through + 1


def draw_value(values: list[int], rng: np.random.Generator) -> int:
    """A value for a heap: a :data:`REUSE` share of the time one of ``values`` (drawn from the
    table, so the most common most often), else one from 0 to one more than their largest."""
    return int(rng.choice(values) if rng.random() < REUSE else rng.integers(0, max(values) + 2))


def crossover(a: HeapPart, b: HeapPart, rng: np.random.Generator) -> tuple[HeapPart, HeapPart]:
    """One-point crossover of the two tables (past the first value, within the shorter),
    each child keeping its own length's periodic part (the period cut to fit)."""
    shorter = min(len(a.values), len(b.values))
    if shorter < 2:
        return a, b
    cut = int(rng.integers(1, shorter))
    first = (*a.values[:cut], *b.values[cut:])
    second = (*b.values[:cut], *a.values[cut:])
    return (HeapPart(first, min(b.period, len(first)), b.saltus),
            HeapPart(second, min(a.period, len(second)), a.saltus))


def _kept_saltus(values, period: int) -> int:
    """The saltus the table's last values keep with ``period``: the last value less the one a
    period before it (0 where it falls; ``period`` below the table's length)."""
    return max(0, values[-1] - values[-1 - period])


def _saltus(rng: np.random.Generator, period: int) -> int:
    return 0 if rng.random() < 0.5 else int(rng.integers(1, period + 1))
