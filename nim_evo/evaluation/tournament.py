"""Tournaments: a player's record against each opponent of a panel, from both seats.

One thing: a tournament reads its arguments (the constraints below), then plays the sampled
games (:mod:`nim_evo.evaluation.batched`) or evaluates exactly (:mod:`nim_evo.evaluation.exact`),
and reports one :class:`TournamentResult` per opponent; :func:`pile_tournament` does the same
on pile arrays for a board too big to enumerate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from joblib import delayed

from nim_evo.games.base import Game
from nim_evo import processes
from nim_evo.agents.player import Mover
from nim_evo.agents.protocol import compiled, name_of
from nim_evo.agents.registry import make_agent
from nim_evo.annotations import PlayerSpec, SeedLike, Starts
from nim_evo.engine import piles
from nim_evo.engine.policy import samplers_for
from nim_evo.games.registry import GAME
from nim_evo.engine.seeds import seed_sequence
from nim_evo.engine.space import DEFAULT_MAX_POSITIONS, SPACE_LIMIT, space_for
from nim_evo.evaluation.batched import INDICES, POLICY, play_task, policy_table, start_indices, task_slices
from nim_evo.evaluation.exact import win_probabilities
from nim_evo.evaluation.judging import judging_space, ordered_starts
from nim_evo.genomes import movers
from nim_evo.genomes.protocol import GenomeKind
from nim_evo.validation import BOOL, GAMES, JOBS, Constraint, InstanceOf, Options, check, validate


class Several(Constraint):
    """A non-empty list or tuple (each item checked on its own, named by its index)."""

    def __call__(self, value) -> bool:
        return isinstance(value, (list, tuple)) and len(value) > 0

    def __str__(self) -> str:
        return "a non-empty list of agents or agents' names"


AGENT_NAME = InstanceOf(str, what="an agent's name")
TOURNAMENT: dict[str, list]
TOURNAMENT = {"rules": [GAME], "player": [POLICY, AGENT_NAME],
              "opponents": [Several()],  # and each one a player
              "games": [GAMES], "exact": [BOOL], "starts": [Options("start", "all"), INDICES],
              "jobs": [JOBS, Options(-1)],  # -1: joblib's every worker of the backend (a Dask cluster's)
              "max_positions": [SPACE_LIMIT], "multiset": [BOOL]}


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


def tournament(rules: Game, player: PlayerSpec, opponents: Sequence[PlayerSpec], games: int = 1000,
               seed: SeedLike = 0, exact: bool = False, starts: Starts = "start", jobs: int = 1, max_positions: int = DEFAULT_MAX_POSITIONS,
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
    validate(TOURNAMENT, {"rules": rules, "player": player, "opponents": opponents, "games": games, "exact": exact,
                          "starts": starts, "jobs": jobs, "max_positions": max_positions, "multiset": multiset})
    for i, opponent in enumerate(opponents):
        check(f"opponents[{i}]", opponent, TOURNAMENT["player"])
    player = make_agent(player, rules) if isinstance(player, str) else player
    opponents = [make_agent(o, rules) if isinstance(o, str) else o for o in opponents]
    space = judging_space(rules, [player, *opponents], multiset, max_positions)
    if multiset and not space.multiset and not isinstance(starts, str):  # multisets, as the positions they stand for
        multisets = space_for(rules, max_positions, multiset=True)
        start_idx = ordered_starts(multisets, space, start_indices(multisets, starts))
    else:
        start_idx = start_indices(space, starts)
    weights = space.weights[start_idx]
    mine = policy_table(player, space)
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
    my_sampler, *samplers = samplers_for([mine] + [policy_table(o, space) for o in opponents], space)
    tasks = [(o, seat, chunk) for o in range(len(opponents)) for seat in (0, 1)
             for chunk in task_slices(int(per_start * weights.sum()))]
    streams = seed_sequence(seed).spawn(len(tasks))
    repeated = np.repeat(start_idx.astype(np.int32), per_start * weights.astype(np.int64))
    wins = processes.parallel(jobs)(
        delayed(play_task)(space, my_sampler, samplers[o], seat, repeated[chunk], stream)
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


def pile_tournament(rules: Game, kind: GenomeKind, genes, opponents, games: int, seed, names=None) -> list:
    """The tournament of :func:`tournament` for a genome on a board too big to enumerate:
    ``games`` games per opponent (an agent, or an agent's name) and seat from the start
    (:mod:`nim_evo.engine.piles`), Wilson 95% intervals; ``names`` call the opponents in the results."""
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
