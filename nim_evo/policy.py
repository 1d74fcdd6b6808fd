"""Policy tables: the probability of each move in each position of a space.

A policy table is a ``(n_positions, n_moves) float64`` array whose rows sum to 1 over legal
moves (the empty board's row is ignored). A deterministic policy may also be given as a
``(n_positions,) int`` array of move indices. Anything with a ``policy(space)`` method
(every positional agent, every genome) compiles to one.
"""

from __future__ import annotations

import numpy as np

from nim_evo.space import Space


def as_table(policy, space: Space) -> np.ndarray:
    """A checked ``(n_positions, n_moves)`` probability table from an agent, a table or a move array."""
    if hasattr(policy, "policy"):
        table = policy.policy(space)
    else:
        table = np.asarray(policy)
        if table.ndim == 1:
            table = one_hot(table, space)
    check_table(table, space)
    return table


def one_hot(moves: np.ndarray, space: Space) -> np.ndarray:
    """The table of a deterministic policy given as one move index per position."""
    moves = np.asarray(moves)
    if moves.shape != (space.n_positions,):
        raise ValueError(f"a move array needs shape ({space.n_positions},), got {moves.shape}")
    table = np.zeros((space.n_positions, space.n_moves))
    table[np.arange(1, space.n_positions), moves[1:]] = 1.0
    return table


def check_table(table: np.ndarray, space: Space, atol: float = 1e-9) -> None:
    """Raise ``ValueError`` unless ``table`` is a valid policy table for ``space``."""
    if table.shape != (space.n_positions, space.n_moves):
        raise ValueError(f"a policy table needs shape {(space.n_positions, space.n_moves)}, got {table.shape}")
    rows = table[1:]
    if np.any(rows < -atol) or np.any(rows[~space.legal[1:]] > atol):
        raise ValueError("a policy table puts probability on an illegal move (or a negative one)")
    sums = rows.sum(axis=1)
    if not np.allclose(sums, 1.0, atol=1e-6):
        bad = int(np.argmax(np.abs(sums - 1.0))) + 1
        raise ValueError(f"policy row of position {space.position(bad)} sums to {sums[bad - 1]:.6g}, not 1")


class AliasSampler:
    """Draws the next position of many games in O(1) each from a policy table.

    Walker's alias method, one row per position: column ``j`` is kept with probability
    ``keep[row, j]`` and otherwise replaced by ``alias[row, j]``. One random 32-bit word
    ``r`` does both: ``r * n_moves >> 32`` picks the column, the low 32 bits of the product
    (uniform given the column) decide keep-or-alias against a 32-bit threshold, so
    probabilities are honoured to 2**-32. The transition is baked in: a step is one gather
    for the threshold and one into the concatenated kept/alias next positions.

    A move that empties the board leads to the sentinel ``ENDED`` (index ``n_positions``);
    the sentinels ``ENDED`` and ``ENDED + 1`` swap at every later ply, so a finished game's
    state tells the parity of the ply it ended on (see :func:`nim_evo.tournament.play_games`).
    """

    def __init__(self, table: np.ndarray, space: Space):
        n, m = table.shape
        keep, alias = alias_tables(table)
        nxt = np.where(space.legal, space.next, 0).astype(np.int32)
        nxt[space.legal & (space.next == 0)] = n
        sentinels = np.repeat(np.array([[n + 1], [n]], dtype=np.int32), m, axis=1)
        kept = np.vstack([nxt, sentinels])
        aliased = np.vstack([np.take_along_axis(nxt, alias, axis=1), sentinels])
        threshold = np.minimum(np.floor(keep * 2.0**32), 2**32 - 1).astype(np.uint32)
        self.threshold = np.vstack([threshold, np.zeros((2, m), dtype=np.uint32)]).ravel()
        self.next = np.concatenate([kept.ravel(), aliased.ravel()])
        self.ended = n
        self.n_moves = m

    def step(self, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The next position of each game (``(k,) int32`` in and out)."""
        k = len(positions)
        words = rng.bit_generator.random_raw((k + 1) // 2).view(np.uint32)[:k]
        product = words.astype(np.uint64)
        product *= self.n_moves
        flat = positions * self.n_moves
        flat += (product >> 32).astype(np.int32)
        aliased = product.astype(np.uint32) >= self.threshold.take(flat)
        flat += aliased.astype(np.int32) * np.int32(len(self.threshold))
        return self.next.take(flat)


def alias_tables(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker alias tables of every row: ``keep (n, m) float64`` and ``alias (n, m) int32``.

    Robin Hood pairing, all rows at once: ``m - 1`` times, each row's poorest unsettled
    column (scaled probability below 1) is topped up from its richest one.
    """
    n, m = table.shape
    scaled = table * m
    keep = np.ones((n, m))
    alias = np.tile(np.arange(m, dtype=np.int32), (n, 1))
    done = np.zeros((n, m), dtype=bool)
    rows = np.arange(n)
    for _ in range(m - 1):
        small = np.where(done, np.inf, scaled).argmin(axis=1)
        large = np.where(done, -np.inf, scaled).argmax(axis=1)
        deficit = 1.0 - scaled[rows, small]
        short = deficit > 1e-12
        keep[rows, small] = np.where(short, scaled[rows, small], 1.0)
        alias[rows, small] = np.where(short, large, small)
        scaled[rows, large] -= np.where(short & (large != small), deficit, 0.0)
        done[rows, small] = True
    return keep, alias
