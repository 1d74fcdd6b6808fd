"""Policy tables: the probability of each move in each position of a space.

A policy table is a ``(n_positions, n_moves) float64`` array whose rows sum to 1 over legal
moves (the rows of terminal positions, the empty board's on a Nim board, are ignored). A deterministic policy may also be given as a
``(n_positions,) int`` array of move indices. Anything with a ``policy(space)`` method
(every positional agent, every genome) compiles to one.
"""

from __future__ import annotations

import numpy as np

from nim_evo.engine.space import Space
from nim_evo.validation import AgentError, UserError


def as_table(policy, space: Space) -> np.ndarray:
    """A checked ``(n_positions, n_moves)`` probability table from an agent, a table or a move
    array. A table an agent answers that is no policy is an :class:`AgentError` naming it (a
    table or move array given as such is the caller's: a :class:`UserError`)."""
    if hasattr(policy, "policy"):
        table = np.asarray(policy.policy(space), dtype=float)
        try:
            check_table(table, space)
        except UserError as error:
            name = getattr(policy, "name", None) or type(policy).__name__
            raise AgentError(f"{name}: {error}") from None
        return table
    table = np.asarray(dense(policy))  # (a kept table: dense again)
    if table.ndim == 1:
        if table.dtype.kind not in "iu":
            raise UserError(f"a move array must hold integer move indices, got dtype {table.dtype}")
        table = one_hot(table, space)
    else:
        table = table.astype(float, copy=False)
    check_table(table, space)
    return table


def kept(table: np.ndarray):
    """A checked policy table (or a CSR one) as it is kept for long: a read-only sparse matrix
    (SciPy's CSR) of its nonzero probabilities, the same values. A big board's tables are mostly zeros
    (nine heaps: 690,690 multisets and 81 moves; a panel's three, 1.34 GB as arrays, are
    0.40 GB so). :func:`as_table` and :func:`dense` give the array back."""
    from scipy.sparse import csr_matrix  # (import time: SciPy loads only when a table is kept)

    if isinstance(table, csr_matrix):  # (its arrays as they are: a kept table received)
        matrix = table
    else:
        rows, columns = np.nonzero(table)  # (row by row, as CSR keeps them: 2-3x SciPy's conversion on nine heaps)
        starts = np.zeros(len(table) + 1, dtype=np.int32 if len(rows) < 2**31 else np.int64)
        np.cumsum(np.bincount(rows, minlength=len(table)), out=starts[1:])
        matrix = csr_matrix((table[rows, columns], columns.astype(np.int32), starts), shape=table.shape)
    for array in (matrix.data, matrix.indices, matrix.indptr):
        array.flags.writeable = False
    return matrix


def dense(table) -> np.ndarray:
    """A policy table as an array: a :func:`kept` one made dense, an array as it is."""
    return table.toarray() if hasattr(table, "toarray") else table


def one_hot(moves: np.ndarray, space: Space) -> np.ndarray:
    """The table of a deterministic policy given as one move index per position."""
    moves = np.asarray(moves)
    if moves.shape != (space.n_positions,):
        raise UserError(f"a move array needs shape ({space.n_positions},), got {moves.shape}")
    playing = np.flatnonzero(~space.terminal)
    outside = playing[(moves[playing] < 0) | (moves[playing] >= space.n_moves)]
    if len(outside):
        index = int(outside[0])
        raise UserError(f"move index {moves[index]} at position {space.position(index)} is outside 0..{space.n_moves - 1}")
    table = np.zeros((space.n_positions, space.n_moves))
    table[playing, moves[playing]] = 1.0
    return table


def check_table(table: np.ndarray, space: Space) -> None:
    """Raise ``ValueError`` unless ``table`` is a valid policy table for ``space`` (read
    :data:`_CHECK_ROWS` rows at a time: a big board's table is checked in cache)."""
    if table.shape != (space.n_positions, space.n_moves):
        raise UserError(f"a policy table needs shape {(space.n_positions, space.n_moves)}, got {table.shape}")
    sums = np.ones(space.n_positions)
    for start in range(0, space.n_positions, _CHECK_ROWS):
        rows, live = table[start:start + _CHECK_ROWS], ~space.terminal[start:start + _CHECK_ROWS, None]
        for wrong, what in (((rows < 0) & live, "holds a negative probability"),
                            ((rows != 0) & ~space.legal[start:start + _CHECK_ROWS] & live,
                             "puts probability on an illegal move")):
            if wrong.any():
                bad = start + int(np.argwhere(wrong)[0, 0])
                raise UserError(f"policy row of position {space.position(bad)} {what}")
        sums[start:start + _CHECK_ROWS] = np.where(live[:, 0], rows.sum(axis=1), 1.0)
    if not np.allclose(sums, 1.0, atol=1e-6):
        worst = int(np.argmax(np.abs(sums - 1.0)))
        raise UserError(f"policy row of position {space.position(worst)} sums to {sums[worst]:.6g}, not 1")


_CHECK_ROWS = 4096


class AliasSampler:
    """Draws the next position of many games in O(1) each from a policy table.

    Walker's alias method, one row per position: column ``j`` is kept with probability
    ``keep[row, j]`` and otherwise replaced by ``alias[row, j]``. One random 32-bit word
    ``r`` does both: ``r * n_moves >> 32`` picks the column, the low 32 bits of the product
    (uniform given the column) decide keep-or-alias against a 32-bit threshold ``t``, so
    probabilities are honoured to 2**-32. The threshold is stored as the word it amounts to:
    the low bits reach ``t`` exactly when ``r >= ceil((j * 2**32 + t) / n_moves)`` (``cut``),
    so the word itself is compared, with no second product.

    Games are advanced as *row offsets*, ``position * n_moves`` (:meth:`advance`): a step is
    one gather for the cut at ``offset + column`` and one into the interleaved kept/alias
    next offsets at twice that plus the comparison's bit.

    A move that ends the game (into a position without a legal move: on a Nim board, the
    empty board) leads to the sentinel ``ENDED`` (index ``n_positions``);
    the sentinels ``ENDED`` and ``ENDED + 1`` swap at every later ply, so a finished game's
    state tells the parity of the ply it ended on (see :func:`nim_evo.evaluation.batched.play_games`).
    """

    def __init__(self, table: np.ndarray, space: Space):
        n, m = table.shape
        if (n + 2) * m * 2 >= 2**31:
            raise UserError(f"a space of {n} positions and {m} moves is too large for the sampler")
        # only legal, non-negative mass can ever be drawn, whatever tolerance a table passed with
        table = np.where(space.legal, np.maximum(table, 0.0), 0.0)
        keep, alias = alias_tables(table / np.maximum(table.sum(axis=1, keepdims=True), 1e-300))
        # next row offsets (position * m), kept and aliased interleaved, two sentinel rows below
        kept = np.where(space.legal, space.next, 0).astype(np.int32)
        kept[space.legal & space.terminal[np.maximum(space.next, 0)]] = n
        kept *= m
        nxt = np.empty((n + 2, m, 2), dtype=np.int32)
        nxt[:n, :, 0] = kept
        nxt[:n, :, 1] = kept.ravel().take(alias + np.arange(0, n * m, m, dtype=np.int32)[:, None])
        nxt[n:] = np.array([n + 1, n], dtype=np.int32)[:, None, None] * m
        keep *= 2.0**32
        np.floor(keep, out=keep)
        np.minimum(keep, 2**32 - 1, out=keep)
        cut = np.empty((n + 2, m), dtype=np.uint64)
        cut[:n] = keep
        cut[n:] = 0
        cut += np.arange(m, dtype=np.uint64) << np.uint64(32)
        cut += np.uint64(m - 1)
        cut //= np.uint64(m)  # ceil((column * 2**32 + threshold) / m) < 2**38: exact
        never = cut >= 2**32  # no 32-bit word of the column reaches the threshold: always kept
        nxt[never, 1] = nxt[never, 0]
        cut[never] = 0
        self.cut = cut.astype(np.uint32).ravel()
        self.next = nxt.ravel()
        self.ended = n
        self.n_moves = m

    def step(self, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The next position of each game (``(k,) int32`` in and out)."""
        offsets = np.asarray(positions, dtype=np.int32) * np.int32(self.n_moves)
        return self.advance(offsets, rng) // np.int32(self.n_moves)

    def advance(self, offsets: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """:meth:`step` on row offsets, ``position * n_moves`` (``(k,) int32`` in and out): the
        batched runner's form, one multiplication less per ply. The sentinels are the offsets
        ``ENDED * n_moves`` and ``(ENDED + 1) * n_moves``."""
        words = random_words(rng, len(offsets))
        flat = words.astype(np.uint64)
        flat *= self.n_moves
        flat >>= 32                      # the column, r * n_moves >> 32
        flat = flat.view(np.int64)
        flat += offsets
        aliased = words >= self.cut.take(flat)
        flat <<= 1
        flat += aliased
        return self.next.take(flat)


def samplers_for(tables, space: Space) -> list[AliasSampler]:
    """One :class:`AliasSampler` per table, built once per distinct table: equal tables (a
    player meeting its own policy, one agent named twice) share one sampler, and so one
    copy of its arrays in the cache. Draws are those of separate samplers."""
    built: list[tuple[np.ndarray, AliasSampler]] = []
    result = []
    for table in tables:
        sampler = next((s for t, s in built if t is table or np.array_equal(t, table)), None)
        if sampler is None:
            sampler = AliasSampler(table, space)
            built.append((table, sampler))
        result.append(sampler)
    return result


def random_words(rng: np.random.Generator, k: int) -> np.ndarray:
    """``k`` uniform 32-bit words: two per raw draw of a 64-bit bit generator (the fast path),
    else through ``Generator.integers``."""
    if type(rng.bit_generator).__name__ in _BITS_64:
        return rng.bit_generator.random_raw((k + 1) // 2).view(np.uint32)[:k]
    return rng.integers(0, 2**32, size=k, dtype=np.uint32)


_BITS_64 = {"PCG64", "PCG64DXSM", "Philox", "SFC64"}


def alias_tables(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker alias tables of every row: ``keep (n, m) float64`` and ``alias (n, m) int32``.

    Each row's scaled probabilities ``m * p`` are sorted once; then, all rows at once, a
    pointer ``i`` walks up from the poorest column and a donor ``j`` down from the richest.
    Every step settles one column: while the donor holds at least 1, column ``i`` keeps its
    mass and borrows the rest from ``j``; once the donor falls below 1 it settles itself,
    borrowing from ``j - 1``, the richest column not yet touched (it must hold more than 1,
    since the unsettled columns always hold one unit each on average). ``m - 1`` steps in all.
    """
    n, m = table.shape
    base = np.arange(0, n * m, m)                # flat offset of each row
    order = np.argsort(table, axis=1, kind="stable")
    order += base[:, None]                       # flat slot of each sorted slot
    order = order.ravel()
    value = table.ravel().take(order)
    value *= m
    keep_sorted = np.ones(n * m)
    donor_sorted = np.arange(n * m)              # settled sorted slot -> sorted slot it borrows from
    i = base.copy()
    j = base + m - 1
    for _ in range(m - 1):
        donor_rich = value.take(j) >= 1.0
        settle = np.where(donor_rich, i, j)      # flat slot settled this step
        donor = np.where(donor_rich, j, j - 1)   # flat slot it borrows from
        mass = value.take(settle)
        keep_sorted.put(settle, np.minimum(np.maximum(mass, 0.0), 1.0))
        donor_sorted.put(settle, donor)
        value.put(donor, value.take(donor) - (1.0 - mass))
        i += donor_rich
        j -= ~donor_rich
    keep = np.empty(n * m)
    keep.put(order, keep_sorted)
    alias = np.empty((n, m), dtype=np.int64)
    alias.ravel().put(order, order.take(donor_sorted))  # flat slots, of the same row
    alias -= base[:, None]
    return keep.reshape(n, m), alias.astype(np.int32)
