"""A splitting game past every board: a position is its heaps, however big, and a move its ``(heap, take, part)``.

The engine's board of a splitting game holds a row as wide as the most heaps it may come to
hold and an action for every slot and every ``(take, part)`` pair: twelve rows of Kayles of
100,000 pins may come to hold 600,000 heaps, and such a board is refused. Nothing here makes
rows or actions. A position is a tuple of heap sizes in the places play left them, as on a
board: the heap a move splits keeps the smaller part, the first empty place (else a new one at
the end) takes the larger. The family's rule is read one heap at a time
(:meth:`SplitGame.heap_moves`), its theory by its certified values (:meth:`SplitGame.values_for`).
What ``play`` uses on a board too big for the engine (:mod:`nim_evo.console.bigplay`).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from nim_evo.games.registry import game
from nim_evo.games.splitting import Split, SplitGame, unbounded
from nim_evo.validation import UserError


MOST_OBJECTS = 10**6  # a heap here holds at most this many (each of its moves is listed when it moves)


def open_board(name: str) -> SplitGame | None:
    """The splitting game's board ``name`` names, built past the engine's limits (its rows and
    actions never made); ``None`` where ``name`` names another family's board. A name no
    family reads is the registry's one-line :class:`UserError`."""
    with unbounded():
        board = game(name)
    return board if isinstance(board, SplitGame) else None


def same_rule(game_: SplitGame, other: SplitGame) -> bool:
    """Whether ``other`` is a board of ``game_``'s family, rule and convention (whatever its heaps)."""
    fields = [f for f in game_.__dataclass_fields__ if f != "heaps"]
    return type(game_) is type(other) and all(getattr(game_, f) == getattr(other, f) for f in fields)


def moves_from(game_: SplitGame, n: int, largest: int | None = None) -> list[tuple[int, int]]:
    """Every ``(take, part)`` a heap of ``n`` allows, by take, then part."""
    small, large = game_.heap_moves(n, largest)
    return sorted(zip((n - small - large).tolist(), small.tolist()))


def has_move(game_: SplitGame, heaps: tuple[int, ...]) -> bool:
    """Whether any heap of ``heaps`` has a move."""
    return any(len(game_.heap_moves(n)[0]) for n in set(heaps) if n)


def is_legal(game_: SplitGame, heaps: tuple[int, ...], move: Split) -> bool:
    """Whether ``move`` (the heap from 0) may be played in ``heaps``."""
    heap, take, part = move
    if not 0 <= heap < len(heaps) or take < 0 or part < 0:
        return False
    n = heaps[heap]
    if n <= 0 or n - take - part < part:
        return False
    small, large = game_.heap_moves(n)  # (the family's candidates: allows is asked of those alone)
    return bool(np.any((small == part) & (large == n - take - part)))


def apply(heaps: tuple[int, ...], move: Split) -> tuple[int, ...]:
    """The heaps after the legal ``move``: the heap keeps the smaller part (or the one heap
    left, or nothing), the first empty place, else a new one, takes the larger."""
    heap, take, part = move
    after = list(heaps)
    rest = after[heap] - take - part
    after[heap] = part if part > 0 else rest
    if part > 0:
        free = next((i for i, n in enumerate(after) if n == 0), None)
        if free is None:
            after.append(rest)
        else:
            after[free] = rest
    return tuple(after)


def move_to(heaps: tuple[int, ...], child) -> Split:
    """The move from ``heaps`` that leaves the multiset ``child`` (heap sizes, zeros ignored)."""
    before, after = Counter(n for n in heaps if n), Counter(int(n) for n in child if n)
    gone, added = before - after, sorted((after - before).elements())
    if sum(gone.values()) != 1 or len(added) > 2:
        raise ValueError(f"no single move from {heaps} leaves {sorted(after.elements())}")
    n = next(iter(gone))
    return heaps.index(n), n - sum(added), added[0] if len(added) == 2 else 0


def winning_moves(game_: SplitGame, heaps: tuple[int, ...], most: int = 1) -> list[Split] | None:
    """Up to ``most`` moves into a position the family's theory calls lost (``[]``: every move
    loses against perfect play); ``None`` where its theory is silent (misère play, or a heap
    past its computed and certified values)."""
    largest = max(heaps)
    values = game_.values_for(largest)
    if game_.misere or largest > values.known:
        return None
    total = int(np.bitwise_xor.reduce(values(np.array(heaps, dtype=np.int64))))
    found: list[Split] = []
    for heap, n in enumerate(heaps):
        if n == 0 or len(found) >= most:
            continue
        small, large = game_.heap_moves(n, largest)
        ok = np.flatnonzero(values(small) ^ values(large) == total ^ int(values(np.int64(n))))
        found += [(heap, n - int(small[k]) - int(large[k]), int(small[k])) for k in ok[:most - len(found)]]
    return found


def random_move(game_: SplitGame, heaps: tuple[int, ...], rng: np.random.Generator) -> Split:
    """A move drawn uniformly among every legal move of ``heaps``."""
    largest = max(heaps)
    options = [(heap, game_.heap_moves(n, largest)) for heap, n in enumerate(heaps) if n]
    counts = np.array([len(small) for _, (small, _) in options])
    if not counts.sum():
        raise UserError("no move is left")
    k = int(rng.integers(counts.sum()))
    which = int(np.searchsorted(np.cumsum(counts), k, side="right"))
    heap, (small, large) = options[which]
    k -= int(counts[:which].sum())
    return heap, heaps[heap] - int(small[k]) - int(large[k]), int(small[k])
