"""Eventually periodic sequences of one-heap games, computed and their period certified.

A heap game in which a move takes one of the counts of a finite set ``S`` from one heap has,
for one heap of ``n``, a value (its Grundy value; in misère play, whether the player to move
wins) that depends only on the values of ``n - s`` for ``s`` in ``S``. Past the largest member
``s_max``, the value of ``n`` is therefore a function of the window of the ``s_max`` values
before it, and once a window comes back the sequence repeats from there on: the period is
**certified**, not guessed (the argument of Berlekamp, Conway and Guy's *Winning Ways*, ch. 4).

The window is read from ``n = s_max`` on, so a repeat found at ``n2`` of the window first seen
at ``n1`` proves period ``n2 - n1`` from ``n1`` on; the preperiod is then shortened while the
value before it equals the one a period later.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

MAX_STEPS = 1_000_000  # values computed before giving up on finding a period
MAX_WORK = 50_000_000  # ... and window bytes hashed (steps x window)


@dataclass(frozen=True, eq=False)
class Periodic:
    """A sequence given by its first ``preperiod + period`` values, periodic after the preperiod.

    Attributes:
        values: ``(preperiod + period,) int64`` (read-only).
        preperiod: the values before the periodic part.
        period: its length (at least 1).
    """

    values: np.ndarray
    preperiod: int
    period: int

    def __call__(self, n) -> np.ndarray:
        """The value at each ``n`` (any shape of whole numbers >= 0)."""
        n = np.asarray(n, dtype=np.int64)
        if n.size and int(n.max()) < len(self.values):  # within the values held: read them
            return self.values[n]
        beyond = n >= self.preperiod
        index = np.where(beyond, self.preperiod + (n - self.preperiod) % self.period, n)
        return self.values[index]

    def notation(self) -> str:
        """The values before the period, then the period's in parentheses: ``0 1 (2 3)``."""
        head = " ".join(map(str, self.values[:self.preperiod]))
        cycle = " ".join(map(str, self.values[self.preperiod:]))
        return f"{head + ' ' if head else ''}({cycle})"

    def __str__(self) -> str:
        head = " ".join(map(str, self.values[:self.preperiod]))
        cycle = " ".join(map(str, self.values[self.preperiod:]))
        return f"{head + ' ' if head else ''}({cycle}) repeated: preperiod {self.preperiod}, period {self.period}"


def grundy_values(subtraction: Sequence[int]) -> Periodic | None:
    """The Grundy sequence of one heap when a move takes a member of ``subtraction``
    (``g(n) = mex{g(n - s) : s in S, s <= n}``), certified periodic; ``None`` if no period
    shows within :data:`MAX_STEPS` values."""
    members = sorted(subtraction)

    def value(known: list[int], n: int) -> int:
        seen = {known[n - s] for s in members if s <= n}
        return next(v for v in range(len(seen) + 1) if v not in seen)

    return certified(value, members[-1])


def misere_wins(subtraction: Sequence[int]) -> Periodic | None:
    """Whether the player to move wins one heap in misère play (1 or 0) when a move takes a
    member of ``subtraction``: a heap with no move is won (the other made the last move);
    otherwise it is won when some move leaves a lost heap. Certified periodic, or ``None``."""
    members = sorted(subtraction)

    def value(known: list[int], n: int) -> int:
        children = [known[n - s] for s in members if s <= n]
        return int(not children or not all(children))

    return certified(value, members[-1])


def certified(value: Callable[[list[int], int], int], memory: int) -> Periodic | None:
    """The sequence ``a(n) = value(a[:n], n)`` in which, from ``n = memory`` on, ``a(n)`` reads
    only the ``memory`` values before it: computed until a window of ``memory`` values comes
    back (then certified periodic), or ``None`` past :data:`MAX_STEPS` values or
    :data:`MAX_WORK`."""
    known: list[int] = []
    first: dict[tuple[int, ...], int] = {}
    steps = min(MAX_STEPS, max(memory + 1, MAX_WORK // max(memory, 1)))
    for n in range(steps):
        if n >= memory:
            window = tuple(known[n - memory:n])
            seen = first.setdefault(window, n)
            if seen != n:
                return _shortened(known, seen, n - seen)
        known.append(value(known, n))
    return None


def _shortened(known: list[int], start: int, period: int) -> Periodic:
    while start > 0 and known[start - 1] == known[start - 1 + period]:
        start -= 1
    values = np.array(known[:start + period], dtype=np.int64)
    values.flags.writeable = False
    return Periodic(values, start, period)
