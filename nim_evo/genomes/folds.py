"""A program's folds: a tree folded over the heaps of many positions at once.

The step ``f(a, p, k)`` is folded over each row's heaps from ``a = 0``
(:mod:`nim_evo.genomes.scoring` says what a program's score is made of). Where what it reads is
small, the heaps read many and the values its fold reaches from 0 few, the step is run once on
each (value so far, heap read) pair (:func:`step_table`) and the fold is a gather per column.
A run's training boards are a few thousand positions: there the tree is run on every column,
which costs less than finding a table (and :mod:`~nim_evo.genomes.scoring` keeps each step's
fold of them); tables serve the big boards a champion is judged on, and a heap game's held step.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from nim_evo.genomes import heaps
from nim_evo.genomes.expressions import run


def fold(tree: tuple, name: str, read: np.ndarray, present: np.ndarray | None, k: np.int64) -> np.ndarray:
    """``tree(name, p, k)`` folded over ``read``'s columns from 0 (a column skipped in a row
    where ``present`` is false). Where what it reads is small (heap values, or a small
    board's heaps), the heaps read are many (:data:`TABLE_WORTH`) and the values the fold
    reaches from 0 are few, the tree is run once on each (value so far, heap read) pair
    (:func:`step_table`, within :func:`budget`) and the fold is a gather per column; else it
    is run on every column."""
    size = len(read)
    low, high = (int(read.min()), int(read.max())) if read.size else (-1, -1)
    table = (step_table(tree, name, max(high, TABLE_LEAST), int(k), budget(read.size))
             if 0 <= low and high < TABLE_READ and read.size >= TABLE_WORTH else None)
    if table is None:
        value = np.zeros(size, dtype=np.int64)
        for j, p in enumerate(read.T):
            folded = as_ints(run(tree, {name: value, "p": p, "k": k}), size)
            value = folded if present is None else np.where(present[:, j], folded, value)
        return value
    reached, steps = table  # (steps' last column: no heap, the value kept)
    wide = steps.shape[1]
    columns = np.ascontiguousarray((read if present is None else np.where(present, read, wide - 1)).T, dtype=np.intp)
    return gathered(reached, steps, columns)


def gathered(reached: np.ndarray, steps: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """The fold of ``columns (width, rows)`` read from its table (:func:`step_table`), a
    gather per column (each row's column of the table; index-sized, as numpy gathers by)."""
    wide = steps.shape[1]
    flat = steps.ravel().astype(np.intp)  # (steps hold each value's row start: its index times wide)
    at = np.full(columns.shape[1], int(np.searchsorted(reached, 0)) * wide, dtype=np.intp)
    for column in columns:
        at += column
        at = flat[at]
    return reached[at // wide]


def fold_heaps(tree: tuple, heap: heaps.HeapPart, positions: np.ndarray, k: np.int64) -> np.ndarray:
    """:func:`_fold` of the step over the heap part's values of ``positions`` (an empty heap
    no heap): where it is tabulated, each heap size's column in the table read in one gather
    (the part's values of sizes up to the largest, an empty heap's column the table's last)."""
    largest = int(positions.max()) if positions.size else 0
    values = heap.upto(largest + 1) if largest < heaps.EXTENDED else None
    low, high = (int(values.min()), int(values.max())) if values is not None else (-1, -1)
    # (no budget: a heap game's stage holds its step, and every program of it reads the one table)
    table = step_table(tree, "a", max(high, TABLE_LEAST), int(k)) if 0 <= low and high < TABLE_READ else None
    if table is None or values is None:
        return fold(tree, "a", heap(positions), positions > 0, k)
    reached, steps = table
    column_of = values.astype(np.intp)
    column_of[0] = steps.shape[1] - 1  # (no heap: the value kept)
    return gathered(reached, steps, column_of[positions.T])  # (positions column by column: fastest in Fortran order)


TABLE_READ = 1 << 12  # a step is tabulated where what it reads is below this
TABLE_WORTH = 1 << 14  # and it reads at least this many heaps (fewer are folded as fast by running the tree on each)
TABLE_LEAST = 15  # and over every heap up to this at least: one table serves every small board (Nim's training boards)
TABLE_REACHED = 1 << 10  # and the values its fold reaches from 0 are at most this many
TABLE_ROUNDS = 8  # found within this many heaps
TABLE_CELLS = 1 << 18  # and the table of (value so far, heap read) pairs holds at most this many (1 MB)


def budget(cells: int) -> int:
    """The pairs a step's table may run its tree on (:func:`step_table`) to fold ``cells``
    heaps read: as many as running it on each, to the power of two above (a few tables' keys)."""
    return 1 << max(cells - 1, 0).bit_length()


@lru_cache(maxsize=256)  # (a stage holds its step: every program of it folds with one table; 256 MB at most)
def step_table(tree: tuple, name: str, high: int, k: int, most: int | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """``(reached, steps)``: the values the fold of ``tree`` over heaps read ``0 .. high``
    reaches from 0 (sorted), and ``steps[i, p]``, where ``tree(reached[i], p, k)`` is in
    ``reached`` times ``high + 2`` (the start of its row in ``steps`` flattened; a last
    column, ``p = high + 1``, keeps the value: no heap); ``None`` where it reaches more than
    :data:`TABLE_REACHED` values or :data:`TABLE_CELLS` pairs, or has not reached them all
    after :data:`TABLE_ROUNDS` heaps (a growing fold), or where finding them would run the
    tree on more than ``most`` pairs (a fold that can be run on every column for less).
    (Read-only arrays: they are kept for the next call.)"""
    heaps = np.arange(high + 1, dtype=np.int64)
    seen = {0}
    frontier = np.zeros(1, dtype=np.int64)
    spent = 0  # pairs the tree was run on

    def stepped(values: np.ndarray, grid=None) -> np.ndarray | None:
        nonlocal spent
        if not _in_grid(values, grid):
            spent += len(values) * len(heaps)
            if most is not None and spent > most:
                return None
        return pairs(tree, name, values, heaps, k, grid)

    with np.errstate(over="ignore"):
        # the step at every value below a power of two past every heap, at once: the largest
        # of GRID_CELLS pairs (a step of xor's kind stays below the first past the heaps, and
        # one that grows, as add's, takes rounds there before it is found to grow; the rounds
        # read it, the tree is run once)
        domain = 1 << max(high.bit_length(), (GRID_CELLS // len(heaps)).bit_length() - 1)
        grid = stepped(np.arange(domain)) if domain * len(heaps) <= GRID_CELLS else None
        grid = None if grid is None else grid.reshape(domain, len(heaps))
        for _ in range(TABLE_ROUNDS):  # every value the fold reaches: from those found last, one more heap
            after = stepped(frontier, grid)
            if after is None:
                return None
            new = set((np.unique(after) if after.size > GRID_CELLS else after).tolist()) - seen
            seen |= new
            if len(seen) > TABLE_REACHED or len(seen) * (high + 2) > TABLE_CELLS:
                return None
            if not new:
                break
            frontier = np.array(sorted(new), dtype=np.int64)
        else:
            return None
        reached = np.array(sorted(seen), dtype=np.int64)
        after = stepped(reached, grid)
        if after is None:
            return None
    steps = np.empty((len(reached), len(heaps) + 1), dtype=np.int32)
    steps[:, :-1] = np.searchsorted(reached, after).reshape(len(reached), len(heaps))
    steps[:, -1] = np.arange(len(reached))  # (no heap: the value kept)
    steps *= steps.shape[1]  # each as its row's start in the flat table
    reached.flags.writeable = steps.flags.writeable = False
    return reached, steps


GRID_CELLS = 1 << 12  # a step's values at every (value, heap) pair below a power of two, found at once, up to this many


def pairs(tree: tuple, name: str, values: np.ndarray, heaps: np.ndarray, k: int, grid=None) -> np.ndarray:
    """``tree(value, heap, k)`` of every value and heap, value-major (read from ``grid``, the
    pairs of every value below its length, where the values are all there)."""
    if _in_grid(values, grid):
        return grid[values].ravel()
    return as_ints(run(tree, {name: np.repeat(values, len(heaps)), "p": np.tile(heaps, len(values)),
                               "k": np.int64(k)}), len(values) * len(heaps))


def _in_grid(values: np.ndarray, grid) -> bool:
    """Whether ``grid`` (or None) holds the step's pairs of every one of ``values`` (none: no)."""
    return grid is not None and len(values) > 0 and values.min() >= 0 and values.max() < len(grid)


def as_ints(value, size: int) -> np.ndarray:
    """A tree's value as an int64 array (a tree may be a constant)."""
    if isinstance(value, np.ndarray) and value.dtype == np.int64 and value.shape == (size,):
        return value
    return np.broadcast_to(np.asarray(value, dtype=np.int64), (size,))

