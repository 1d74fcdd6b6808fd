"""A program's folds: a tree folded over the heaps of many positions at once.

The step ``f(a, p, k)`` is folded over each row's heaps from ``a = 0``
(:mod:`nim_evo.genomes.scoring` says what a program's score is made of). Where what it reads is
small and the values its fold reaches from 0 are few, the step is run once on each
(value so far, heap read) pair (:func:`step_table`) and the fold is a gather per column.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from nim_evo.genomes import heaps
from nim_evo.genomes.expressions import run


def fold(tree: tuple, name: str, read: np.ndarray, present: np.ndarray | None, k: np.int64) -> np.ndarray:
    """``tree(name, p, k)`` folded over ``read``'s columns from 0 (a column skipped in a row
    where ``present`` is false). Where what it reads is small (heap values, or a small
    board's heaps) and the values the fold reaches from 0 are few, the tree is run once on
    each (value so far, heap read) pair (:func:`step_table`) and the fold is a gather per
    column; else it is run on every column."""
    size = len(read)
    low, high = (int(read.min()), int(read.max())) if read.size else (-1, -1)
    table = step_table(tree, name, max(high, TABLE_LEAST), int(k)) if 0 <= low and high < TABLE_READ else None
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
    table = step_table(tree, "a", max(high, TABLE_LEAST), int(k)) if 0 <= low and high < TABLE_READ else None
    if table is None or values is None:
        return fold(tree, "a", heap(positions), positions > 0, k)
    reached, steps = table
    column_of = values.astype(np.intp)
    column_of[0] = steps.shape[1] - 1  # (no heap: the value kept)
    return gathered(reached, steps, column_of[positions.T])  # (positions column by column: fastest in Fortran order)


TABLE_READ = 1 << 12  # a step is tabulated where what it reads is below this
TABLE_LEAST = 15  # and over every heap up to this at least: one table serves every small board (Nim's training boards)
TABLE_REACHED = 1 << 10  # and the values its fold reaches from 0 are at most this many
TABLE_ROUNDS = 8  # found within this many heaps
TABLE_CELLS = 1 << 18  # and the table of (value so far, heap read) pairs holds at most this many (1 MB)


@lru_cache(maxsize=256)  # (a stage holds its step: every program of it folds with one table; 256 MB at most)
def step_table(tree: tuple, name: str, high: int, k: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(reached, steps)``: the values the fold of ``tree`` over heaps read ``0 .. high``
    reaches from 0 (sorted), and ``steps[i, p]``, where ``tree(reached[i], p, k)`` is in
    ``reached`` times ``high + 2`` (the start of its row in ``steps`` flattened; a last
    column, ``p = high + 1``, keeps the value: no heap); ``None`` where it reaches more than
    :data:`TABLE_REACHED` values or :data:`TABLE_CELLS` pairs, or has not reached them all
    after :data:`TABLE_ROUNDS` heaps (a growing fold).
    (Read-only arrays: they are kept for the next call.)"""
    heaps = np.arange(high + 1, dtype=np.int64)
    seen = {0}
    frontier = np.zeros(1, dtype=np.int64)
    with np.errstate(over="ignore"):
        # the step at every value below the first power of two past every heap, at once (a
        # step of xor's kind stays there: the rounds read it, the tree is run once)
        domain = 1 << high.bit_length()
        grid = (pairs(tree, name, np.arange(domain), heaps, k).reshape(domain, len(heaps))
                if domain * len(heaps) <= GRID_CELLS else None)
        for _ in range(TABLE_ROUNDS):  # every value the fold reaches: from those found last, one more heap
            after = pairs(tree, name, frontier, heaps, k, grid)
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
        after = pairs(tree, name, reached, heaps, k, grid)
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
    if grid is not None and len(values) and values.min() >= 0 and values.max() < len(grid):
        return grid[values].ravel()
    return as_ints(run(tree, {name: np.repeat(values, len(heaps)), "p": np.tile(heaps, len(values)),
                               "k": np.int64(k)}), len(values) * len(heaps))


def as_ints(value, size: int) -> np.ndarray:
    """A tree's value as an int64 array (a tree may be a constant)."""
    if isinstance(value, np.ndarray) and value.dtype == np.int64 and value.shape == (size,):
        return value
    return np.broadcast_to(np.asarray(value, dtype=np.int64), (size,))

