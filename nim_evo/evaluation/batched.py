"""Batched play: sampled games between two policy tables, played in numpy blocks.

One thing: games advance together as arrays (:func:`play_games`), a match repeats them from
both seats (:func:`play_matches`), and a tournament's sampled work is cut into joblib tasks
of at most :data:`GAMES_PER_TASK` games (:func:`task_slices`, :func:`play_task`), from start
positions read by :func:`start_indices`. Here too: how a player is read as a policy table
(:func:`policy_table`) and the argument constraints of the batched path.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nim_evo.agents.protocol import AGENT, compiled, is_agent
from nim_evo.annotations import PolicyLike
from nim_evo.engine.game import RNG
from nim_evo.engine.policy import AliasSampler, as_table, samplers_for
from nim_evo.engine.space import SPACE, Space
from nim_evo.validation import GAMES, Constraint, InstanceOf, UserError, validate

GAMES_PER_TASK = 50_000  # bounds the games one joblib task plays: work is cut by the problem, never by the worker count


class Policy(Constraint):
    """A player the batched path reads: an agent, an object with ``policy(space)``, a policy
    table or a move array (or a list of them: a stack, or a table as nested lists)."""

    def __call__(self, value) -> bool:
        return (is_agent(value) or callable(getattr(value, "policy", None))
                or isinstance(value, (np.ndarray, list, tuple)))

    def __str__(self) -> str:
        return f"{AGENT}, a policy table or a move array"


class Indices(Constraint):
    """Position indices: an integer, or a sequence or array of them."""

    def __call__(self, value) -> bool:
        if isinstance(value, (str, bytes, bool)):
            return False
        try:
            array = np.asarray(value)
        except (TypeError, ValueError):
            return False
        return array.ndim <= 1 and (array.dtype.kind in "iu" or array.size == 0)

    def __str__(self) -> str:
        return "position indices (integers)"


POLICY, INDICES = Policy(), Indices()
TABLE = InstanceOf(np.ndarray, AliasSampler, what="a policy table (n_positions, n_moves) or its AliasSampler")


def play_games(space: Space, first: np.ndarray | AliasSampler, second: np.ndarray | AliasSampler, starts: np.ndarray,
               rng: np.random.Generator) -> np.ndarray:
    """Play one game from each start at once; ``first`` moves first. Returns the winning seat.

    All games advance in lockstep, a ply at a time, each as two array gathers on row
    offsets (see :meth:`~nim_evo.engine.policy.AliasSampler.advance`). A finished game waits in a
    sentinel state that records the parity of its last ply; finished games leave the arrays
    whenever they are a quarter of them, in order, their winners noted (one bit each) beside
    the indices of the games kept, and put back in game order once, at the end.

    Args:
        first: the player who moves first: a policy table ``(n_positions, n_moves)``, or its
            :class:`AliasSampler`.
        second: the other player, the same way.
        starts: ``(g,)`` position indices, none of them terminal (on a Nim board, the empty board).
    Returns:
        ``(g,) int8``: 0 where ``first`` won, 1 where ``second`` won.
    """
    validate({"space": [SPACE], "first": [TABLE], "second": [TABLE], "starts": [INDICES], "rng": [RNG]},
             {"space": space, "first": first, "second": second, "starts": starts, "rng": rng})
    samplers = [t if isinstance(t, AliasSampler) else AliasSampler(t, space) for t in (first, second)]
    position = np.asarray(starts, dtype=np.int32)
    bad = (position < 0) | (position >= space.n_positions)
    bad[~bad] = space.terminal[position[~bad]]
    if bad.any():
        raise UserError(f"starts must be indices 0..{space.n_positions - 1} of positions with a legal move (games "
                        f"must start on one), got {position[bad][0]}")
    m = samplers[0].n_moves
    ended = np.int32(space.n_positions * m)          # offset of the sentinel ENDED
    offsets = position * np.int32(m)
    misere = int(space.rules.winner(0))              # 0 in normal play: the last mover wins
    levels = []
    ply = 0
    while len(offsets):
        offsets = samplers[ply & 1].advance(offsets, rng)
        live = offsets < ended
        if np.count_nonzero(live) < 0.75 * len(offsets):
            # in ENDED the game ended on a ply of this one's parity, in ENDED + 1 the other:
            # the last mover is (ply + offset is ENDED + 1) mod 2, and it won unless misère
            won = offsets == ended if (ply + misere) & 1 else offsets != ended
            kept = np.flatnonzero(live)
            levels.append((won, kept))
            offsets = offsets.take(kept)
        ply += 1
    winner = np.empty(0, dtype=np.int8)
    for won, kept in reversed(levels):
        won = won.view(np.int8)
        won[kept] = winner
        winner = won
    return winner if levels else np.empty(len(position), dtype=np.int8)


def play_matches(space: Space, player: PolicyLike, opponent: PolicyLike, starts: Sequence[int] | np.ndarray, games: int,
                 rng: np.random.Generator) -> np.ndarray:
    """``games`` games per start and seat between two policies.

    Returns:
        ``(2, len(starts)) int64``: row 0, the player's wins moving first from each start;
        row 1, its wins moving second.
    """
    validate({"space": [SPACE], "player": [POLICY], "opponent": [POLICY], "starts": [INDICES], "games": [GAMES],
              "rng": [RNG]},
             {"space": space, "player": player, "opponent": opponent, "starts": starts, "games": games, "rng": rng})
    player, opponent = samplers_for([policy_table(p, space) for p in (player, opponent)], space)
    starts = np.atleast_1d(np.asarray(starts, dtype=np.int64))
    repeated = np.repeat(starts, games)
    wins = np.empty((2, len(starts)), dtype=np.int64)
    for seat, (a, b) in enumerate([(player, opponent), (opponent, player)]):
        won = play_games(space, a, b, repeated, rng) == seat
        wins[seat] = won.reshape(len(starts), games).sum(axis=1)
    return wins


def play_task(space: Space, mine, theirs, seat: int, starts: np.ndarray, stream) -> int:
    """The joblib task of a sampled tournament: the games from ``starts`` between ``mine``
    (in ``seat``) and ``theirs``, drawn from their own ``stream``; returns ``mine``'s wins."""
    rng = np.random.default_rng(stream)
    first, second = (mine, theirs) if seat == 0 else (theirs, mine)
    return int(np.count_nonzero(play_games(space, first, second, starts, rng) == seat))


def task_slices(n: int) -> list[slice]:
    """``n`` games cut into consecutive slices of at most :data:`GAMES_PER_TASK`, one task each."""
    return [slice(i, min(i + GAMES_PER_TASK, n)) for i in range(0, n, GAMES_PER_TASK)]


def start_indices(space: Space, starts) -> np.ndarray:
    """Start position indices from ``"start"``, ``"all"`` (every non-empty position) or indices,
    checked against ``space``."""
    if isinstance(starts, str):
        if starts == "start":
            return np.array([space.start])
        if starts == "all":
            return np.flatnonzero(~space.terminal)
        raise UserError(f"starts must be 'start', 'all' or position indices, got {starts!r}")
    idx = np.atleast_1d(np.asarray(starts, dtype=np.int64))
    bad = (idx < 0) | (idx >= space.n_positions)
    bad[~bad] = space.terminal[idx[~bad]]
    if bad.any():
        raise UserError(f"starts must be indices 0..{space.n_positions - 1} of positions with a legal move, "
                        f"got {idx[bad][0]}")
    return idx


def policy_table(player, space: Space) -> np.ndarray:
    """The policy table of an agent (duck-typed ones compiled, see
    :mod:`nim_evo.agents.protocol`), a table or a move array."""
    return as_table(compiled(player, space.rules), space)
