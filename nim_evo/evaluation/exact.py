"""Exact evaluation: the probability of winning from every position, by backward induction.

One thing: no game is played. An opponent's policy table becomes sparse transitions per level
(:class:`Transitions`), and the player's winning probability at every position, either to
move, follows level by level by objects left (:func:`win_probabilities` and its variants;
:func:`best_response`, the most any player can win).
"""

from __future__ import annotations

import weakref

import numpy as np

from nim_evo.agents.protocol import compiled
from nim_evo.annotations import PolicyLike
from nim_evo.engine.policy import as_table, check_table, dense
from nim_evo.engine.space import SPACE, Space
from nim_evo.evaluation.batched import POLICY, policy_table
from nim_evo.validation import InstanceOf, UserError, validate


class Retrograde:
    """A space's positions renumbered level by level of its retrograde order, so that every
    level is one contiguous slice: the induction then reads and writes slices, and its
    gathers stay near each other (a level's positions were scattered over the space).
    Built once per space (:func:`retrograde`); the numbers are the induction's own and never
    leave it.

    Attributes:
        order: ``(n,)``, the space's index of each new number (new to old).
        rank: ``(n,)``, the new number of each of the space's indices (old to new).
        bounds: ``(levels + 1,)``, level ``t`` is new numbers ``bounds[t]:bounds[t + 1]``.
        ended: per level, the new numbers of its terminal positions.
    (The moves are read from the space's own arrays, in its numbering, and renumbered where
    they are read: :meth:`moves`, :meth:`children`; no copy of them is kept.)
    """

    def __init__(self, space: Space):
        self.order = np.concatenate(space.levels)
        self.rank = np.empty(space.n_positions, dtype=np.intp)
        self.rank[self.order] = np.arange(space.n_positions)
        self.bounds = np.cumsum([0] + [len(level) for level in space.levels])
        self._legal, self._next = space.legal, space.next
        terminal = space.terminal[self.order]
        self.ended = [lo + np.flatnonzero(terminal[lo:hi]) for lo, hi in zip(self.bounds[:-1], self.bounds[1:])]
        self.to_move_wins_at_end = space.rules.to_move_wins_at_end

    def children(self, moves: np.ndarray) -> np.ndarray:
        """Where ``k`` deterministic players' moves lead: ``moves`` ``(n, k)`` in the space's
        numbering (0 where the game is over), the result ``(n, k)`` in this one, as flat
        indices into an ``(n, k)`` array of values (at an end, the first position's: its
        value is set, not read)."""
        n, k = moves.shape
        child = np.take(self._next, moves + (np.arange(n) * self._next.shape[1])[:, None])  # (the space's rows in
        # order); -1 at an end (its move is 0, illegal there), which reads the last entry of:
        flat = np.empty(n + 1, dtype=np.int64)  # each position's first flat index in this numbering, and an end's
        np.multiply(self.rank, k, out=flat[:n])
        flat[n] = 0
        child = np.take(np.take(flat, child), self.order, axis=0)
        child += np.arange(k)
        return child

    def moves(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """``(legal, next)`` of new numbers ``lo:hi``, each ``(hi - lo, n_moves)``: whether each
        move is legal, and the new number it leads to (-1 where it is illegal)."""
        legal = self._legal[self.order[lo:hi]]
        return legal, np.where(legal, self.rank[np.maximum(self._next[self.order[lo:hi]], 0)], -1)

    def slices(self):
        """``(lo, hi, ended)`` of each level, lowest first."""
        return zip(self.bounds[:-1], self.bounds[1:], self.ended)

    def at_end(self, ended: np.ndarray, mine: np.ndarray, theirs: np.ndarray) -> None:
        """The values of a level's terminal positions: whoever is to move there wins only in misère."""
        if len(ended):
            mine[ended] = self.to_move_wins_at_end
            theirs[ended] = not self.to_move_wins_at_end


_RETROGRADE: "weakref.WeakKeyDictionary[Space, Retrograde]" = weakref.WeakKeyDictionary()


def retrograde(space: Space) -> Retrograde:
    """The space's :class:`Retrograde` numbering, built on first use and kept while the space lives."""
    found = _RETROGRADE.get(space)
    if found is None:
        found = _RETROGRADE[space] = Retrograde(space)
    return found


class Transitions:
    """An opponent's policy table as one sparse matrix per level (objects left): row ``i``
    of level ``t`` is the level's ``i``-th position, and holds, at column ``q``, the
    probability that the opponent moves from it to ``q``, in the :class:`Retrograde`
    numbering (``retro``). Built once per opponent and space; the evaluator's opponent step
    is then one sparse-times-dense product per level, over the moves the opponent can play
    only."""

    def __init__(self, space: Space, table: np.ndarray):
        from scipy.sparse import csr_matrix  # (import time: SciPy loads only for an opponent's transitions)

        if not hasattr(table, "toarray"):  # (a panel's kept table was checked when it was kept: policy.kept)
            table = policy_table(table, space)
        self.n_positions = space.n_positions
        self.retro = retrograde(space)
        self.levels: list = []  # one per level of the space's retrograde order
        for idx in space.levels:
            level = dense(table[idx])
            rows, moves = np.nonzero((level > 0) & space.legal[idx])  # a terminal position's row is ignored
            matrix = csr_matrix((level[rows, moves], (rows, space.next[idx[rows], moves])),
                                shape=(len(idx), space.n_positions))
            matrix.sum_duplicates()
            # renumbered in place, each row's entries kept in the order they were summed in
            # (the space's), so that the values are bit for bit those of the space's numbering
            matrix.indices = self.retro.rank[matrix.indices].astype(matrix.indices.dtype)
            matrix.has_sorted_indices = False
            self.levels.append(matrix)


def win_probabilities(space: Space, player: PolicyLike, opponent: PolicyLike | Transitions) -> np.ndarray:
    """Exact probability that ``player`` wins from every position, either to move.

    Backward induction by levels of the game's retrograde order (objects left on a take-away
    game: every move lowers it, so each level needs only the levels below it)::

        P[end, player to move] = misere; P[end, opponent to move] = not misere  (no legal move)
        for each level of the retrograde order (objects left), all its other positions p at once:
            P[p, opponent to move] = sum_m opponent[p, m] * P[next[p, m], player to move]
            P[p, player to move]   = sum_m player[p, m]   * P[next[p, m], opponent to move]

    Values are kept position-major, ``(n_positions, k)``, so that the opponent's step is a
    sparse product (:class:`Transitions`) and a deterministic player's a gather.

    Args:
        player: one policy (agent, table or move array) or a stack of ``k`` tables
            ``(k, n_positions, n_moves)`` or move arrays ``(k, n_positions)``, evaluated together.
        opponent: one policy, or its :class:`Transitions` (built once, reused).
    Returns:
        ``(n_positions, 2)``, or ``(k, n_positions, 2)`` for a stack: column 0 with the
        player to move, column 1 with the opponent to move.
    """
    validate({"space": [SPACE], "player": [POLICY], "opponent": [POLICY, InstanceOf(Transitions)]},
             {"space": space, "player": player, "opponent": opponent})
    return next(win_probabilities_each(space, player, [opponent]))


def win_probabilities_each(space: Space, player, opponents):
    """:func:`win_probabilities` of one player (or stack) against each opponent in turn,
    the player checked once; yields one array per opponent."""
    stack, tables, moves = _as_stack(player, space)
    for retro, mine, theirs in _inductions(space, tables, moves, opponents):
        result = _in_space_order(retro, mine, theirs)
        yield result if stack else result[0]


def induced_each(space: Space, player, opponents):
    """The induction of :func:`win_probabilities_each`, left in the :class:`Retrograde`
    numbering: yields ``(retro, mine, theirs)`` per opponent, each value array ``(n, k)``
    with a column per genome of the stack (one for a single player), ``mine`` with the player
    to move and ``theirs`` with the opponent to move; new number ``i`` is the space's position
    ``retro.order[i]``. For a caller that reads every position (a sum, a mean, credit): it
    can gather once what :func:`win_probabilities_each` gathers per opponent."""
    _, tables, moves = _as_stack(player, space)
    yield from _inductions(space, tables, moves, opponents)


def _inductions(space: Space, tables, moves, opponents):
    """:func:`_induction` against each opponent, a deterministic player's children found
    once: ``(retro, mine, theirs)`` each."""
    k = len(tables if tables is not None else moves)
    if moves is not None:
        moves = np.ascontiguousarray(moves.T)  # (n, k)
    chosen, retro = None, None
    for opponent in opponents:
        opp = opponent if isinstance(opponent, Transitions) else Transitions(space, policy_table(opponent, space))
        if opp.n_positions != space.n_positions:
            raise UserError(f"the opponent's transitions are for {opp.n_positions} positions, the space has "
                             f"{space.n_positions}")
        if moves is not None and opp.retro is not retro:  # (the same for every opponent of the space)
            retro = opp.retro
            chosen = retro.children(moves)
        yield (opp.retro, *_induction(opp, tables, chosen, k))


def forfeiting_win_probabilities(space: Space, table: np.ndarray, opponent) -> np.ndarray:
    """:func:`win_probabilities` of one policy table in which a zero row, at a position with
    objects left, forfeits: the player has no legal answer there and loses (a graded player
    that answered an illegal move). Other rows are checked as any table's are."""
    table = np.asarray(table, dtype=float)
    forfeits = ~table.any(axis=1) & ~space.terminal
    check_table(np.where(forfeits[:, None], space.legal / np.maximum(space.legal.sum(axis=1, keepdims=True), 1), table),
                space)
    opp = Transitions(space, policy_table(opponent, space))
    return _in_space_order(opp.retro, *_induction(opp, table[None], None, 1))[0]


def best_response(space: Space, opponent) -> np.ndarray:
    """The most any player can win against ``opponent``, from every position, either to move:
    :func:`win_probabilities`'s induction with the player's step a maximum over its legal moves
    instead of an average (against a fixed opponent the best reply is a deterministic one).

    Returns ``(n_positions, 2)``, as :func:`win_probabilities`: column 0 with the player to move.
    """
    opp = opponent if isinstance(opponent, Transitions) else Transitions(space, policy_table(opponent, space))
    retro = opp.retro
    mine, theirs = np.empty(space.n_positions), np.empty(space.n_positions)
    for level, (lo, hi, ended) in zip(opp.levels, retro.slices()):
        theirs[lo:hi] = level @ mine
        legal, nxt = retro.moves(lo, hi)
        after = np.where(legal, theirs[np.maximum(nxt, 0)], -1.0)
        mine[lo:hi] = after.max(axis=1)
        retro.at_end(ended, mine, theirs)
    return np.stack([mine[retro.rank], theirs[retro.rank]], axis=-1)


def _induction(opp: Transitions, tables, chosen, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The induction of one opponent, on the :class:`Retrograde` numbering: each level a
    slice, the opponent's step a sparse product, a deterministic player's step one gather
    of the children its moves lead to (``chosen``, from :meth:`Retrograde.children`), or a
    stochastic one's (``tables``) an average over its moves. ``(mine, theirs)``, each
    ``(n, k)`` in the retrograde numbering."""
    retro = opp.retro
    n = opp.n_positions
    mine = np.empty((n, k))    # player to move
    theirs = np.empty((n, k))  # opponent to move
    flat = theirs.reshape(-1)
    if tables is not None:
        tables = tables[:, retro.order]
        nxt = np.maximum(retro.moves(0, n)[1], 0)
    for level, (lo, hi, ended) in zip(opp.levels, retro.slices()):
        theirs[lo:hi] = level @ mine
        if tables is None:
            np.take(flat, chosen[lo:hi], out=mine[lo:hi])
        else:
            mine[lo:hi] = np.einsum("klm,lmk->lk", tables[:, lo:hi], theirs[nxt[lo:hi]])
        retro.at_end(ended, mine, theirs)
    return mine, theirs


def _in_space_order(retro: Retrograde, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """:func:`_induction`'s values in the space's numbering, ``(k, n, 2)``: a view of a
    position-major array, as the induction keeps it (a sum over positions reads it in this
    order: so that the bits are those it always gave)."""
    n, k = mine.shape
    result = np.empty((n, k, 2))
    result[:, :, 0] = np.take(mine, retro.rank, axis=0)
    result[:, :, 1] = np.take(theirs, retro.rank, axis=0)
    return result.transpose(1, 0, 2)


def _as_stack(player, space: Space):
    """``(is_stack, tables (k, n, m) or None, moves (k, n) or None)`` from what the caller gave:
    an agent, a table ``(n, m)``, a move array ``(n,)``, or a stack (list) of any of them."""
    player = compiled(player, space.rules)
    if hasattr(player, "policy"):
        return False, as_table(player, space)[None], None
    if isinstance(player, (list, tuple)):
        player = [compiled(p, space.rules) for p in player]
        if player and all(hasattr(p, "policy") or np.ndim(p) == 2 for p in player):
            return True, np.stack([as_table(p, space) for p in player]), None
        if player and all(np.ndim(p) == 1 for p in player):  # move arrays: never a table, however many
            return True, None, _check_moves(np.stack([np.asarray(p) for p in player]), space)
        player = np.stack([np.asarray(p) for p in player])
    array = np.asarray(player)
    table_shape = (space.n_positions, space.n_moves)
    if array.shape == table_shape:  # a table, whatever its dtype
        return False, as_table(array.astype(float), space)[None], None
    if array.ndim == 3 and array.shape[1:] == table_shape:
        for table in array:
            check_table(table, space)
        return True, array.astype(float, copy=False), None
    if array.ndim in (1, 2) and array.shape[-1] == space.n_positions:
        return array.ndim == 2, None, _check_moves(np.atleast_2d(array), space)
    raise UserError(f"a player must be an agent, a policy table {table_shape}, a move array "
                     f"({space.n_positions},), or a stack of them; got shape {array.shape}")


def _check_moves(moves: np.ndarray, space: Space) -> np.ndarray:
    """``(k, n)`` move arrays as ``int64``, every move checked legal where the game is not
    over, and 0 where it is (such a move is never read)."""
    if moves.dtype.kind not in "iu":
        raise UserError(f"move arrays must hold integer move indices, got dtype {moves.dtype}")
    moves = moves.astype(np.int64)
    moves[:, space.terminal] = 0
    in_range = (moves >= 0) & (moves < space.n_moves)
    offsets = np.arange(space.n_positions) * space.n_moves
    legal = np.take(space.legal, np.where(in_range, moves, 0) + offsets)
    legal &= in_range
    legal |= space.terminal
    if not legal.all():
        k, index = np.argwhere(~legal)[0]
        raise UserError(f"move array {k} holds move index {moves[k, index]}, not a legal move in "
                         f"position {space.position(int(index))}")
    return moves
