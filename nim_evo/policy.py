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
    ``keep[row, j]`` and otherwise replaced by ``alias[row, j]``, so one uniform number
    ``u * n_moves`` picks the column (integer part) and decides keep-or-alias (fractional
    part). The transition is baked in: ``keep_next`` and ``alias_next`` hold the positions
    the two candidates lead to, so a step is three gathers. The empty board maps to itself.
    Uniforms are float32 (the runner's speed depends on it), so probabilities are honoured
    to about ``n_moves * 2**-24`` (1.5e-6 for 25 moves), far below any sampling error.
    """

    def __init__(self, table: np.ndarray, space: Space):
        n, m = table.shape
        keep, alias = alias_tables(table)
        nxt = np.where(space.legal, space.next, 0).astype(np.int32)
        self.keep = keep.astype(np.float32).ravel()
        self.keep_next = nxt.ravel()
        self.alias_next = np.take_along_axis(nxt, alias, axis=1).ravel()
        self.keep[:m], self.keep_next[:m] = 1.0, 0  # the empty board is absorbing
        self.n_moves = m

    def step(self, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The next position of each game (``(k,) int32`` in and out)."""
        u = rng.random(len(positions), dtype=np.float32)
        u *= self.n_moves
        column = u.astype(np.int32)
        flat = positions * self.n_moves
        flat += column
        u -= column
        return np.where(u < self.keep.take(flat), self.keep_next.take(flat), self.alias_next.take(flat))


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
