"""A cache of built spaces and their solutions bounded by what they hold, not only by count.

``functools.lru_cache(maxsize=4)`` kept the four spaces asked last, whatever their size: a run
of four families asks eight each generation (its four boards and their held-out boards), and
built them all again every time (12% of such a run), while four big spaces could hold
gigabytes. :func:`bounded` keeps the ones asked last up to a count and a total of
position-move pairs (the one asked last always).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from typing import Callable

SPACES, CELLS = 16, 60_000_000  # spaces kept at most, and their position-move pairs in all (the run's panel bound)


def cells(space) -> int:
    """A space's position-move pairs (what its arrays hold, per array)."""
    return int(space.n_positions) * int(space.n_moves)


def bounded(weight: Callable[[object], int], items: int = SPACES, total: int = CELLS):
    """An lru cache of a function of hashable arguments holding at most ``items`` results and,
    beyond the result asked last, at most ``total`` of their ``weight`` in all (thread-safe;
    ``cache_clear()`` empties it)."""
    def decorate(function):
        kept: OrderedDict = OrderedDict()
        lock = threading.Lock()

        @functools.wraps(function)
        def cached(*arguments):
            with lock:
                if arguments in kept:
                    kept.move_to_end(arguments)
                    return kept[arguments]
            value = function(*arguments)
            with lock:
                kept[arguments] = value
                kept.move_to_end(arguments)
                held = sum(weight(v) for v in kept.values())
                while len(kept) > 1 and (len(kept) > items or held > total):
                    held -= weight(kept.popitem(last=False)[1])
            return value

        cached.cache_clear = kept.clear  # type: ignore[attr-defined]
        return cached
    return decorate
