"""Rows told apart by their bytes: which of a stack of arrays are the same.

A generation holds many genomes that play alike (a program's bloat, a population converging);
exact fitness is a function of how a genome plays, so each behaviour is worked out once. A
row's bytes are its key (a hash a row): no sort of its values, which for thousands of cases
costs more than the hashing.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np


def distinct_rows(rows: Iterable[np.ndarray]) -> np.ndarray:
    """Each row's group, the groups numbered in the order their first rows come (rows of one
    dtype and shape: equal bytes, equal rows; for floats, ``-0.0`` apart from ``0.0``)."""
    return distinct_keys(row.tobytes() for row in rows)


def distinct_keys(keys: Iterable[bytes]) -> np.ndarray:
    """:func:`distinct_rows` of the rows' bytes, made already."""
    first: dict[bytes, int] = {}
    return np.array([first.setdefault(key, len(first)) for key in keys], dtype=np.intp)


def firsts(groups: np.ndarray) -> np.ndarray:
    """The index of each group's first row, in the groups' order (of :func:`distinct_rows`' groups)."""
    return np.unique(groups, return_index=True)[1]


def all_distinct(groups: np.ndarray) -> bool:
    """Whether every row of :func:`distinct_rows`' ``groups`` is its own (the groups number the
    rows in order, so the last row's is the count less one exactly then)."""
    return not len(groups) or int(groups[-1]) + 1 == len(groups)
