"""The positions a game's start reaches, found level by level by its one rule (the search
under every space that is not Nim's counted box), and how many there are."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from nim_evo.engine.limits import MAX_CELLS, SpaceTooLarge
from nim_evo.games.base import Game

CHILD_CELLS = 4_000_000  # child heap sizes built at once (32 MB): positions per block of the search


@lru_cache(maxsize=32)
def reachable_count(game: Game, canonical: bool, max_positions: int) -> int:
    """How many positions (multisets of heaps, with ``canonical``) the start reaches;
    :class:`SpaceTooLarge` beyond ``max_positions``."""
    return len(reachable(game, canonical, max_positions))


def reachable(game: Game, canonical: bool, max_positions: int) -> np.ndarray:
    """Every position reachable from the start (canonical forms, with ``canonical``),
    ``(n, width) int64`` in the order found; :class:`SpaceTooLarge` beyond ``max_positions``
    (or :data:`MAX_CELLS` position-action pairs), said as soon as a block of the search passes
    it, so a board far too big costs about what the limit allows."""
    start = np.array([game.start], dtype=np.int64)
    frontier = game.canonical(start) if canonical else start
    found, seen = [frontier], row_keys(frontier)
    count = 1
    while len(frontier):
        level_rows, level_keys = [], seen[:0]
        for block in blocks(game, len(frontier)):
            children, legal = game.successors(frontier[block])
            children = children[legal]
            if canonical:
                children = game.canonical(children)
            keys, first = np.unique(row_keys(children), return_index=True)
            fresh = ~among(keys, seen) & ~among(keys, level_keys)
            level_rows.append(children[first[fresh]])
            level_keys = merged(level_keys, keys[fresh])
            count += int(fresh.sum())
            if count > max_positions or count * game.n_actions > MAX_CELLS:
                what = "multisets of heaps" if canonical else "positions"
                limit = (f"the limit of {max_positions:,}" if count > max_positions
                         else f"the limit of {MAX_CELLS:,} position-action pairs")
                raise SpaceTooLarge(f"the board {game.name} has more than {count - int(fresh.sum()):,} {what} "
                                    f"reachable, above {limit}: too many to enumerate")
        frontier = np.concatenate(level_rows)
        found.append(frontier)
        seen = merged(seen, level_keys)
    return np.concatenate(found)


def among(keys: np.ndarray, ordered: np.ndarray) -> np.ndarray:
    """Whether each of ``keys`` is in ``ordered`` (sorted): a binary search each, where
    ``np.isin`` would sort both again (the search's set of positions seen grows each level)."""
    if not len(ordered):
        return np.zeros(len(keys), dtype=bool)
    at = np.minimum(np.searchsorted(ordered, keys), len(ordered) - 1)
    return ordered[at] == keys


def merged(ordered: np.ndarray, more: np.ndarray) -> np.ndarray:
    """Two sorted arrays as one (a stable sort finds the two runs and merges them)."""
    return np.sort(np.concatenate([ordered, more]), kind="stable")


def blocks(game: Game, n: int) -> list[slice]:
    """Slices of ``n`` positions, each small enough that its children (``game.n_actions`` per
    position, ``game.width`` heaps each) stay within :data:`CHILD_CELLS` cells."""
    size = max(1, CHILD_CELLS // max(1, game.n_actions * game.width))
    return [slice(i, min(i + size, n)) for i in range(0, n, size)]


def row_keys(rows: np.ndarray) -> np.ndarray:
    """One comparable value per row (its bytes), for sorting and look-up."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    return rows.view(np.dtype((np.void, 8 * rows.shape[1]))).ravel()
