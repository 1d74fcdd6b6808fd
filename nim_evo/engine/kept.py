"""Caches bounded by what they hold, not only by how many: of spaces, their solutions, and
what the program kind keeps of each board it scores.

:func:`bounded` keeps the results asked last up to a count and a total weight (the one asked
last always): a run of four families asks eight spaces each generation (its four boards and
their held-out boards), more than a cache of a few would keep, while a few big spaces can hold
gigabytes. (What a cache of four cost such a run: the manual's Benchmarks.)
:class:`Memo` is the same bound for results kept by a key made of arrays (a row's bytes).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from typing import Any, Callable

import numpy as np

SPACES, CELLS = 16, 60_000_000  # spaces kept at most, and their position-move pairs in all (the run's panel bound)


def cells(space) -> int:
    """A space's position-move pairs (what its arrays hold, per array)."""
    return int(space.n_positions) * int(space.n_moves)


def space_cells(arguments: tuple, value) -> int:
    """The weight of a cached space: its position-move pairs."""
    return cells(value)


def space_bytes(space) -> int:
    """The bytes of a space's arrays built so far."""
    return sum(value.nbytes for value in vars(space).values() if isinstance(value, np.ndarray))


def bounded(weight: Callable[[tuple, Any], int], items: int = SPACES, total: int = CELLS):
    """An lru cache of a function of hashable arguments holding at most ``items`` results and,
    beyond the result asked last, at most ``total`` of their ``weight(arguments, result)`` in
    all. Thread-safe: where two threads build one result at once, both get the first kept
    (``cache_clear()`` empties it)."""
    def decorate(function: Callable) -> Callable:
        kept: OrderedDict = OrderedDict()
        lock = threading.Lock()

        @functools.wraps(function)
        def cached(*arguments: Any) -> Any:
            with lock:
                if arguments in kept:
                    kept.move_to_end(arguments)
                    return kept[arguments]
            value = function(*arguments)
            with lock:
                value = kept.setdefault(arguments, value)
                kept.move_to_end(arguments)
                held = sum(weight(key, entry) for key, entry in kept.items())
                while len(kept) > 1 and (len(kept) > items or held > total):
                    held -= weight(*kept.popitem(last=False))
            return value

        def cache_clear() -> None:
            with lock:
                kept.clear()

        cached.cache_clear = cache_clear  # type: ignore[attr-defined]
        return cached
    return decorate


class Memo:
    """Results remembered by a key (a row's bytes), the ones given last up to a count and a
    total of bytes (the key's and the result's): a map :func:`bounded` would be for a function
    of arrays. Thread-safe. What it holds is read-only: a result is given back as it was put."""

    def __init__(self, items: int, total: int):
        self._kept: OrderedDict = OrderedDict()  # key: (result, its bytes and the key's)
        self._lock = threading.Lock()
        self.items, self.total, self.nbytes = items, total, 0

    def get(self, key) -> Any:
        """The result kept for ``key``, or None."""
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                return None
            self._kept.move_to_end(key)
            return found[0]

    def put(self, key, result, size: int) -> None:
        """Keep ``result`` (nothing changes it from here: its arrays read-only) for ``key``,
        counted as ``size`` bytes, the oldest dropped beyond the bounds."""
        for array in result if isinstance(result, tuple) else (result,):
            if isinstance(array, np.ndarray):
                array.flags.writeable = False
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = (result, size)
            self.nbytes += size
            while len(self._kept) > 1 and (len(self._kept) > self.items or self.nbytes > self.total):
                self.nbytes -= self._kept.popitem(last=False)[1][1]
