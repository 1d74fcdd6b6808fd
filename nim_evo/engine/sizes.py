"""How big a board's enumerated space is, and the limits the engine keeps to."""

from __future__ import annotations

from functools import lru_cache
from math import prod
from typing import TYPE_CHECKING

from nim_evo.engine.limits import DEFAULT_MAX_POSITIONS, MAX_CELLS, SPACE_LIMIT, SpaceTooLarge  # noqa: F401
from nim_evo.games.base import Game
from nim_evo.games.registry import GAME
from nim_evo.validation import BOOL, validate

if TYPE_CHECKING:
    import numpy

COUNTED = DEFAULT_MAX_POSITIONS  # positions a board that is not a box is searched up to, to count them (past
# it, SpaceTooLarge: no count costs more than the biggest space the engine builds)


def space_size(rules: Game, multiset: bool = False) -> int:
    """Number of positions in the space of a game (of multisets, with ``multiset``): on a
    board that is a box (Nim's, a subtraction game's with 1 in its set) counted without
    building it; on any other found by search (:class:`SpaceTooLarge` beyond
    :data:`COUNTED`)."""
    validate({"rules": [GAME], "multiset": [BOOL]}, {"rules": rules, "multiset": multiset})
    if rules.box:
        if multiset and rules.interchangeable:
            return multiset_count(rules.start)
        return prod(p + 1 for p in rules.start)
    from nim_evo.engine.reach import reachable_count  # (import time: reach loads numpy; --help needs none)

    return reachable_count(rules, multiset and rules.interchangeable, COUNTED)


def check_space_size(rules: Game, max_positions: int = DEFAULT_MAX_POSITIONS, multiset: bool = False) -> int:
    """Return the space size, or raise :class:`SpaceTooLarge` if it has more than
    ``max_positions`` positions, or more than :data:`MAX_CELLS` position-move pairs (each
    table over the space has that many entries)."""
    validate({"rules": [GAME], "max_positions": [SPACE_LIMIT]}, {"rules": rules, "max_positions": max_positions})
    size = _size_within(rules, multiset, max_positions)
    cells = size * rules.n_actions
    what = "multisets of piles" if multiset else "positions"
    if size > max_positions or cells > MAX_CELLS:
        limit = (f"the limit of {max_positions:,} {what}" if size > max_positions
                 else f"the limit of {MAX_CELLS:,} position-move pairs ({cells:,} here)")
        raise SpaceTooLarge(f"the board {rules.name} has {size:,} {what}, above {limit}; "
                            f"enumerating it would need about {_bytes(rules, size)}")
    return size


def enumerable(rules: Game, max_positions: int = DEFAULT_MAX_POSITIONS, multiset: bool = False) -> bool:
    """Can the space of ``rules`` (of its multisets, with ``multiset``) be built within the limits?"""
    size = _size_within(rules, multiset, max_positions)
    return size <= max_positions and size * rules.n_actions <= MAX_CELLS


def within(rules: Game, positions: int, cells: int) -> bool:
    """Whether the space of ``rules``' multisets holds at most ``positions`` positions and
    ``cells`` position-action pairs (counted once, searched no further than ``positions``)."""
    size = _size_within(rules, True, positions)
    return size <= positions and size * rules.n_actions <= cells


def _size_within(rules: Game, multiset: bool, max_positions: int) -> int:
    """:func:`space_size`, or one more than ``max_positions`` for a searched board beyond it
    (found without searching further)."""
    if rules.box:
        return space_size(rules, multiset)
    from nim_evo.engine.reach import reachable_count  # (import time: reach loads numpy; --help needs none)

    try:
        return reachable_count(rules, multiset and rules.interchangeable, max_positions)
    except SpaceTooLarge:
        return max_positions + 1


# What is built on a space to play on it (a policy table per agent, transitions for exact
# tournaments, alias tables for sampled games): about 150 bytes and a microsecond
# per position-move pair on our 2-core machine (a table run on one pile of 6,000, 36 million
# pairs: 31 s and 5.5 GB for one generation; an arena of three agents: 63 s and 10.6 GB).
# Twenty million keeps that within seconds and a few GB, and holds 8 heaps (2-4-6-8-10-12-
# 14-16 as multisets: 17.8 million); a run on a bigger board plays named movers, sampled,
# as on a board too big to enumerate.
MAX_TABLE_CELLS = 20_000_000
# A run's panel keeps its tables sparse (engine.policy.kept) and makes one dense at a time: nine
# heaps (690,690 multisets, 81 moves: 56 million pairs) evolve a table genome within 3.8 GB.
MAX_PANEL_CELLS = 60_000_000


def tabulable(rules: Game, multiset: bool = False, cells: int = MAX_TABLE_CELLS) -> bool:
    """Whether agents on ``rules`` are compiled to tables over its space (the arena; a run's
    panel, with ``cells`` :data:`MAX_PANEL_CELLS`): enumerable, and at most ``cells``
    position-move pairs."""
    return enumerable(rules, multiset=multiset) and space_size(rules, multiset) * rules.n_actions <= cells


def panel_tabulable(rules: Game, multiset: bool = False) -> bool:
    """:func:`tabulable` for a run's panel (:data:`MAX_PANEL_CELLS`)."""
    return tabulable(rules, multiset, MAX_PANEL_CELLS)


_DP_CELLS = 50_000_000  # work bound of the exact multiset count (piles x largest pile)
_EXACT_CELLS = 2_000_000  # ... and of the count in Python integers, where it passes 2^53


def multiset_count(piles) -> int:
    """How many multisets are reachable from ``piles`` (sorted tuples at most the sorted
    start pile by pile), counted without enumerating them. A board whose largest pile is
    too big to count this way gets a lower bound that is already far above any space limit.
    (Cached: a table genome asks it of its board at every policy and mutation.)"""
    return _multiset_count(tuple(sorted(int(p) for p in piles)))


@lru_cache(maxsize=64)
def _multiset_count(start: tuple[int, ...]) -> int:
    cells = len(start) * (start[-1] + 2)
    if cells > _DP_CELLS:
        return max(start[-1] + 1, _DP_CELLS)
    import numpy as np  # (import time: nim-evo --help loads no numpy)

    with np.errstate(over="ignore"):
        total = float(completions(start, dtype=float)[0, 0])
    if total < 2.0**53:  # every count in the table is at most the total: exact in floats
        return int(total)
    if cells <= _EXACT_CELLS:  # in integers of any size (a hundred piles of a thousand: 10^140 and more)
        return int(completions(start, dtype=object)[0, 0])
    if total < float("inf"):  # the float count: within rounding, far above any space limit
        return int(total)
    return 2**1024  # past any float: a lower bound, far above any space limit


def completions(start_sorted, dtype) -> numpy.ndarray:
    """``C[i, v]``: ascending completions of ranks ``i..`` (each size at most the sorted
    start's at its rank) whose size at rank ``i`` is at least ``v`` (``C[n, v] = 1``), for
    ``v`` in ``0 .. max + 1``."""
    import numpy as np  # here: the limits above are read by every command's --help, which needs no numpy

    n, top = len(start_sorted), int(start_sorted[-1]) + 2
    table = np.zeros((n + 1, top), dtype=dtype)
    table[n] = 1
    for i in range(n - 1, -1, -1):
        reach = int(start_sorted[i]) + 1
        table[i, :reach] = np.cumsum(table[i + 1, :reach][::-1])[::-1]
    return table


def _bytes(rules: Game, size: int) -> str:
    moves = rules.n_actions
    needed = size * (moves * 5 + rules.width * 4)  # in integers: a board of 100 piles overflows a float
    if needed >= 2**70:
        return "more memory than any machine has"
    gib = needed / 2**30
    return f"{gib:,.1f} GiB" if gib >= 1 else f"{gib * 1024:,.0f} MiB"
