"""Many games at once: the batched runner, the exact evaluator and tournaments."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed

from nim_evo.agents.protocol import AGENT, compiled, is_agent, name_of
from nim_evo.engine import piles
from nim_evo.engine.game import RNG
from nim_evo.engine.policy import AliasSampler, as_table, check_table, samplers_for
from nim_evo.engine.rules import RULES, Rules
from nim_evo.engine.seeds import seed_sequence
from nim_evo.engine.space import DEFAULT_MAX_POSITIONS, SPACE, SPACE_LIMIT, Space, space_for
from nim_evo.evaluation.judging import judging_space, ordered_starts
from nim_evo.genomes import movers
from nim_evo.validation import BOOL, GAMES, JOBS, Constraint, InstanceOf, Options, UserError, check, validate

CHUNK = 50_000  # games per task: work is cut by the problem, never by the worker count


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


class Several(Constraint):
    """A non-empty list or tuple (each item checked on its own, named by its index)."""

    def __call__(self, value) -> bool:
        return isinstance(value, (list, tuple)) and len(value) > 0

    def __str__(self) -> str:
        return "a non-empty list of agents or agents' names"


POLICY, INDICES = Policy(), Indices()
NAME = InstanceOf(str, what="an agent's name")
TABLE = InstanceOf(np.ndarray, AliasSampler, what="a policy table (n_positions, n_moves) or its AliasSampler")
TOURNAMENT: dict[str, list]
TOURNAMENT = {"rules": [RULES], "player": [POLICY, NAME],
              "opponents": [Several()],  # and each one a player
              "games": [GAMES], "exact": [BOOL], "starts": [Options("start", "all"), INDICES],
              "jobs": [JOBS, Options(-1)],  # -1: joblib's every worker of the backend (a Dask cluster's)
              "max_positions": [SPACE_LIMIT], "multiset": [BOOL]}


def play_games(space: Space, first, second, starts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
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
        starts: ``(g,)`` position indices, none of them the empty board.
    Returns:
        ``(g,) int8``: 0 where ``first`` won, 1 where ``second`` won.
    """
    validate({"space": [SPACE], "first": [TABLE], "second": [TABLE], "starts": [INDICES], "rng": [RNG]},
             {"space": space, "first": first, "second": second, "starts": starts, "rng": rng})
    samplers = [t if isinstance(t, AliasSampler) else AliasSampler(t, space) for t in (first, second)]
    position = np.asarray(starts, dtype=np.int32)
    bad = (position <= 0) | (position >= space.n_positions)
    if bad.any():
        raise UserError(f"starts must be indices 1..{space.n_positions - 1} of non-empty positions (games must "
                        f"start on one), got {position[bad][0]}")
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


def play_matches(space: Space, player, opponent, starts, games: int, rng: np.random.Generator) -> np.ndarray:
    """``games`` games per start and seat between two policies.

    Returns:
        ``(2, len(starts)) int64``: row 0, the player's wins moving first from each start;
        row 1, its wins moving second.
    """
    validate({"space": [SPACE], "player": [POLICY], "opponent": [POLICY], "starts": [INDICES], "games": [GAMES],
              "rng": [RNG]},
             {"space": space, "player": player, "opponent": opponent, "starts": starts, "games": games, "rng": rng})
    player, opponent = samplers_for([_table(p, space) for p in (player, opponent)], space)
    starts = np.atleast_1d(np.asarray(starts, dtype=np.int64))
    repeated = np.repeat(starts, games)
    wins = np.empty((2, len(starts)), dtype=np.int64)
    for seat, (a, b) in enumerate([(player, opponent), (opponent, player)]):
        won = play_games(space, a, b, repeated, rng) == seat
        wins[seat] = won.reshape(len(starts), games).sum(axis=1)
    return wins


class Transitions:
    """An opponent's policy table as one sparse matrix per level (objects left): row ``p``
    of level ``t`` holds, at column ``q``, the probability that the opponent moves from
    ``p`` to ``q``. Built once per opponent and space; the evaluator's opponent step is then
    one sparse-times-dense product per level, over the moves the opponent can play only."""

    def __init__(self, space: Space, table: np.ndarray):
        from scipy.sparse import csr_matrix

        table = _table(table, space)
        self.n_positions = space.n_positions
        self.levels: list = [None]  # level 0, the empty board, has no move
        for total in range(1, space.max_total + 1):
            idx = space.level(total)
            rows, moves = np.nonzero(table[idx] > 0)
            matrix = csr_matrix((table[idx[rows], moves], (rows, space.next[idx[rows], moves])),
                                shape=(len(idx), space.n_positions))
            matrix.sum_duplicates()
            self.levels.append(matrix)


def win_probabilities(space: Space, player, opponent) -> np.ndarray:
    """Exact probability that ``player`` wins from every position, either to move.

    Backward induction by objects left (every move lowers the count, so each level needs
    only the levels below it)::

        P[empty, player to move] = misere; P[empty, opponent to move] = not misere
        for t in 1 .. total objects, all positions p with t objects at once:
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
    k = len(tables if tables is not None else moves)
    if moves is not None:
        moves = np.ascontiguousarray(moves.T)  # (n, k)
    for opponent in opponents:
        opp = opponent if isinstance(opponent, Transitions) else Transitions(space, _table(opponent, space))
        if opp.n_positions != space.n_positions:
            raise UserError(f"the opponent's transitions are for {opp.n_positions} positions, the space has "
                             f"{space.n_positions}")
        result = _induction(space, opp, tables, moves, k)
        yield result if stack else result[0]


def forfeiting_win_probabilities(space: Space, table: np.ndarray, opponent) -> np.ndarray:
    """:func:`win_probabilities` of one policy table in which a zero row, at a position with
    objects left, forfeits: the player has no legal answer there and loses (a graded player
    that answered an illegal move). Other rows are checked as any table's are."""
    table = np.asarray(table, dtype=float)
    forfeits = ~table.any(axis=1) & (space.totals > 0)
    check_table(np.where(forfeits[:, None], space.legal / np.maximum(space.legal.sum(axis=1, keepdims=True), 1), table),
                space)
    opp = Transitions(space, _table(opponent, space))
    return _induction(space, opp, table[None], None, 1)[0]


def best_response(space: Space, opponent) -> np.ndarray:
    """The most any player can win against ``opponent``, from every position, either to move:
    :func:`win_probabilities`'s induction with the player's step a maximum over its legal moves
    instead of an average (against a fixed opponent the best reply is a deterministic one).

    Returns ``(n_positions, 2)``, as :func:`win_probabilities`: column 0 with the player to move.
    """
    opp = opponent if isinstance(opponent, Transitions) else Transitions(space, _table(opponent, space))
    mine, theirs = np.empty(space.n_positions), np.empty(space.n_positions)
    mine[0] = space.rules.to_move_wins_at_end
    theirs[0] = not space.rules.to_move_wins_at_end
    for total in range(1, space.max_total + 1):
        idx = space.level(total)
        theirs[idx] = opp.levels[total] @ mine
        after = np.where(space.legal[idx], theirs[np.maximum(space.next[idx], 0)], -1.0)
        mine[idx] = after.max(axis=1)
    return np.stack([mine, theirs], axis=-1)


def _induction(space: Space, opp: Transitions, tables, moves, k: int) -> np.ndarray:
    mine = np.empty((space.n_positions, k))    # player to move
    theirs = np.empty((space.n_positions, k))  # opponent to move
    mine[0] = space.rules.to_move_wins_at_end
    theirs[0] = not space.rules.to_move_wins_at_end
    columns = np.arange(k)
    for total in range(1, space.max_total + 1):
        idx = space.level(total)
        theirs[idx] = opp.levels[total] @ mine
        if moves is not None:
            chosen = space.next[idx[:, None], moves[idx]]  # (l, k)
            mine[idx] = theirs[chosen, columns]
        else:
            nxt = np.where(space.legal[idx], space.next[idx], 0)
            mine[idx] = np.einsum("klm,lmk->lk", tables[:, idx], theirs[nxt])
    return np.stack([mine.T, theirs.T], axis=-1)


@dataclass(frozen=True)
class TournamentResult:
    """The player's record against one opponent, both seats together (and each seat apart)."""

    opponent: str
    games: int
    win_rate: float
    ci_low: float
    ci_high: float
    first_rate: float
    second_rate: float
    exact: bool


def tournament(rules: Rules, player, opponents, games: int = 1000, seed=0, exact: bool = False,
               starts="start", jobs: int = 1, max_positions: int = DEFAULT_MAX_POSITIONS,
               multiset: bool = False) -> list[TournamentResult]:
    """Play ``player`` against each opponent from both seats.

    Args:
        player: an agent or an agent's name (or a policy table / move array for the space of ``rules``).
        opponents: agents or agent names (see :func:`nim_evo.agents.make_agent`).
        games: sampled games per opponent and seat, spread evenly over the starts with at
            least one game from each (so ``starts="all"`` plays at least one per position).
        seed: an int, ints, a ``SeedSequence`` or a ``Generator`` (see
            :func:`nim_evo.engine.seeds.seed_sequence`); each (opponent, seat, chunk) task gets its
            own spawned stream, so results do not depend on ``jobs``.
        exact: use the exact evaluator instead of sampling (no games, no noise).
        starts: ``"start"`` (the start position), ``"all"`` (every non-empty position:
            the sub-games of Moore's NIM Rules), or position indices.
        jobs: joblib workers for the sampled games.
        max_positions: the space limit (see :class:`nim_evo.engine.space.Space`).
        multiset: play on the space of multisets (:mod:`nim_evo.engine.multiset`) where every
            player is order-blind; start indices are then multisets, each standing for the
            positions of the board it holds (``"all"`` plays as many games from each as the
            ordered board would from them). A player that reads the pile order is judged on
            the ordered board instead (:mod:`nim_evo.evaluation.judging`), the figures those
            of the game as it is played.
    Returns:
        One :class:`TournamentResult` per opponent, in order; the 95% interval is Wilson's
        (scipy's ``binomtest``), and collapses to the value when ``exact``.
    """
    from nim_evo.agents.registry import make_agent

    validate(TOURNAMENT, {"rules": rules, "player": player, "opponents": opponents, "games": games, "exact": exact,
                          "starts": starts, "jobs": jobs, "max_positions": max_positions, "multiset": multiset})
    for i, opponent in enumerate(opponents):
        check(f"opponents[{i}]", opponent, TOURNAMENT["player"])
    player = make_agent(player, rules) if isinstance(player, str) else player
    opponents = [make_agent(o, rules) if isinstance(o, str) else o for o in opponents]
    space = judging_space(rules, [player, *opponents], multiset, max_positions)
    if multiset and not space.multiset and not isinstance(starts, str):  # multisets, as the positions they stand for
        multisets = space_for(rules, max_positions, multiset=True)
        start_idx = ordered_starts(multisets, space, _starts(multisets, starts))
    else:
        start_idx = _starts(space, starts)
    weights = space.weights[start_idx]
    mine = _table(player, space)
    if exact:
        results = []
        for opponent in opponents:
            values = win_probabilities(space, mine, opponent)[start_idx]
            first, second = (float(r) for r in np.average(values, weights=weights, axis=0))
            mean = (first + second) / 2
            results.append(TournamentResult(name_of(opponent), 0, mean, mean, mean, first, second, True))
        return results
    per_start = max(1, -(-games // int(weights.sum())))
    # built once per distinct table (random against random: one sampler for both seats)
    my_sampler, *samplers = samplers_for([mine] + [_table(o, space) for o in opponents], space)
    tasks = [(o, seat, chunk) for o in range(len(opponents)) for seat in (0, 1)
             for chunk in _chunks(int(per_start * weights.sum()))]
    streams = seed_sequence(seed).spawn(len(tasks))
    repeated = np.repeat(start_idx.astype(np.int32), per_start * weights.astype(np.int64))
    wins = Parallel(n_jobs=jobs)(
        delayed(_play_task)(space, my_sampler, samplers[o], seat, repeated[chunk], stream)
        for (o, seat, chunk), stream in zip(tasks, streams))
    totals = np.zeros((len(opponents), 2), dtype=np.int64)
    for (o, seat, _), won in zip(tasks, wins):
        totals[o, seat] += won
    return [result_from_wins(name_of(opponent), int(totals[o, 0]), int(totals[o, 1]), len(repeated))
            for o, opponent in enumerate(opponents)]


def result_from_wins(opponent: str, first: int, second: int, games: int) -> TournamentResult:
    """A sampled result from wins as first and as second player, ``games`` games per seat."""
    from scipy.stats import binomtest  # here: scipy.stats takes half a second to import

    wins = first + second
    ci = binomtest(wins, 2 * games).proportion_ci(0.95, method="wilson")
    return TournamentResult(opponent, 2 * games, wins / (2 * games), float(ci.low), float(ci.high),
                            first / games, second / games, False)


def _play_task(space, mine, theirs, seat, starts, stream) -> int:
    rng = np.random.default_rng(stream)
    first, second = (mine, theirs) if seat == 0 else (theirs, mine)
    return int(np.count_nonzero(play_games(space, first, second, starts, rng) == seat))


def _chunks(n: int) -> list[slice]:
    return [slice(i, min(i + CHUNK, n)) for i in range(0, n, CHUNK)]


def _starts(space: Space, starts) -> np.ndarray:
    if isinstance(starts, str):
        if starts == "start":
            return np.array([space.start])
        if starts == "all":
            return np.arange(1, space.n_positions)
        raise UserError(f"starts must be 'start', 'all' or position indices, got {starts!r}")
    idx = np.atleast_1d(np.asarray(starts, dtype=np.int64))
    bad = (idx < 1) | (idx >= space.n_positions)
    if bad.any():
        raise UserError(f"starts must be indices 1..{space.n_positions - 1} of non-empty positions, "
                        f"got {idx[bad][0]}")
    return idx


def _table(player, space: Space) -> np.ndarray:
    """The policy table of an agent (duck-typed ones compiled, see
    :mod:`nim_evo.agents.protocol`), a table or a move array."""
    return as_table(compiled(player, space.rules), space)


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
    if moves.dtype.kind not in "iu":
        raise UserError(f"move arrays must hold integer move indices, got dtype {moves.dtype}")
    moves = moves.astype(np.int64)
    inner = moves[:, 1:]
    legal = (inner >= 0) & (inner < space.n_moves)
    legal[legal] = space.legal[np.nonzero(legal)[1] + 1, inner[legal]]
    if not legal.all():
        k, index = np.argwhere(~legal)[0]
        raise UserError(f"move array {k} holds move index {inner[k, index]}, not a legal move in "
                         f"position {space.position(int(index) + 1)}")
    return moves


def pile_tournament(rules: Rules, kind: str, genes, opponents, games: int, seed, names=None) -> list:
    """The tournament of :func:`tournament` for a genome on a board too big to enumerate:
    ``games`` games per opponent (an agent, or an agent's name) and seat from the start
    (:mod:`nim_evo.engine.piles`), Wilson 95% intervals; ``names`` call the opponents in the results."""
    from nim_evo.agents.player import Mover
    from nim_evo.agents.registry import make_agent

    me = movers.mover(kind, rules, genes)
    streams = seed_sequence(seed).spawn(2 * len(opponents))
    results = []
    for o, opponent in enumerate(opponents):
        player = make_agent(opponent, rules) if isinstance(opponent, str) else compiled(opponent, rules)
        them = Mover(player)
        first = np.sum(piles.play_pile_games(rules, me, them, games, np.random.default_rng(streams[2 * o])) == 0)
        second = np.sum(piles.play_pile_games(rules, them, me, games, np.random.default_rng(streams[2 * o + 1])) == 1)
        name = names[o] if names is not None else name_of(player)
        results.append(result_from_wins(name, int(first), int(second), games))
    return results
