"""A round robin: every participant against every other on one board, from both seats.

Each pair plays ``games`` games with each of them moving first (batched, in parallel, the
same result for any number of jobs), or is evaluated exactly. Nim has no draws, so a pair's
two cells are complementary: the column's record against the row is the row's, reversed.
"""

from __future__ import annotations

import csv
import io
import itertools
import zlib
from dataclasses import dataclass

import numpy as np

from nim_evo.games.base import Game
from nim_evo.engine.space import tabulable
from nim_evo.evaluation.tournament import tournament
from nim_evo.validation import UserError

CSV_COLUMNS = ("player", "opponent", "games", "wins", "win_rate", "ci_low", "ci_high", "first_rate", "second_rate")


@dataclass(frozen=True)
class RoundRobin:
    """The records of a round robin; ``(n, n) float64`` matrices, ``nan`` on the diagonal.

    Attributes:
        names: the participants, in the order given.
        games: games per pair and seat (0 when exact).
        rate: the row's win rate against the column, both seats together.
        low, high: its 95% Wilson interval (the value itself when exact).
        first, second: the row's win rate moving first, and moving second.
    """

    rules: Game
    names: tuple[str, ...]
    games: int
    exact: bool
    seed: int
    rate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    first: np.ndarray
    second: np.ndarray

    def mean_rates(self) -> np.ndarray:
        """Each participant's mean win rate against the others, ``(n,)``."""
        return np.nanmean(self.rate, axis=1) if len(self.names) > 1 else np.full(1, np.nan)

    def ranking(self) -> list[tuple[str, float]]:
        """Participants by mean win rate, best first (ties in the order given)."""
        means = self.mean_rates()
        order = sorted(range(len(self.names)), key=lambda i: -means[i])
        return [(self.names[i], float(means[i])) for i in order]

    def to_csv(self) -> str:
        """One row per ordered pair (player, opponent): games, wins, rates and interval."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        n = len(self.names)
        for i in range(n):
            for j in range(n):
                if i == j:
                    continue
                games = 2 * self.games
                wins = "" if self.exact else int(round(self.rate[i, j] * games))
                writer.writerow([self.names[i], self.names[j], games, wins,
                                 *(f"{m[i, j]:.6f}" for m in (self.rate, self.low, self.high, self.first, self.second))])
        return out.getvalue()


def round_robin(rules: Game, players: dict, games: int = 1000, seed: int = 0, exact: bool = False,
                jobs: int = 1) -> RoundRobin:
    """Play every pair of ``players`` (name -> agent) on ``rules``.

    Each pair is one :func:`~nim_evo.evaluation.tournament.tournament`, the player whose name sorts
    first against the other, seeded with ``[seed, crc32(name), crc32(other name)]``: a pair's
    games depend on the two names and the seed, not on the other participants, their order
    or ``jobs``.

    Games are played on the ordered space, exact for any player; a board too big for it
    but not for its multisets (eight heaps) plays on the multisets, where only order-blind
    players are judged (one that reads the pile order is refused in one line, naming it).

    Raises:
        UserError: fewer than two players, a board too big to enumerate, or an order-reading player
            on a board too big for its ordered tables.
    """
    multiset = not tabulable(rules)
    names = tuple(players)
    if len(names) < 2:
        raise UserError(f"a round robin needs at least two participants, got {len(names)}")
    agents = list(players.values())
    n = len(names)
    matrices = {key: np.full((n, n), np.nan) for key in ("rate", "low", "high", "first", "second")}
    for pair in itertools.combinations(range(n), 2):
        i, j = sorted(pair, key=lambda k: names[k])
        result, = tournament(rules, agents[i], [agents[j]], games=games, exact=exact, jobs=jobs, multiset=multiset,
                             seed=[seed, zlib.crc32(names[i].encode()), zlib.crc32(names[j].encode())])
        for key, mine, theirs in (("rate", result.win_rate, 1 - result.win_rate),
                                  ("low", result.ci_low, 1 - result.ci_high),
                                  ("high", result.ci_high, 1 - result.ci_low),
                                  ("first", result.first_rate, 1 - result.second_rate),
                                  ("second", result.second_rate, 1 - result.first_rate)):
            matrices[key][i, j], matrices[key][j, i] = mine, theirs
    return RoundRobin(rules, names, 0 if exact else games, exact, seed, **matrices)
