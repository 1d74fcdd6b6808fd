"""The Q-table learner of Kintner-Meyer's Q-learning report: self-play, +1 to every move of
the winner, -1 to the loser's.

Training follows the seed's epsilon schedule (12,000 games at 0.99, 9,000 at 0.7, 6,000 at
0.5, 3,000 at 0.3), counted in games played; past its end the last epsilon stays. After
each game every (position, move) the winner played gains ``reward`` and every one the
loser played loses it.

Exploration, ``exploration="retry"`` (the seed's code): each try draws, with probability
epsilon, a (row, value) pair of the seed's whole grid (legal here or not), otherwise the
legal move of highest score (ties at random); a pair that is no legal move is drawn again.
Where few moves are legal the real exploration is far below epsilon (2 legal of 20 pairs at
epsilon 0.5: a random move 9% of the time). What that does to learning, and the figures
beside the report's: the manual's References (Kintner-Meyer's Q-learning report).

By default (``symmetry``; the seed sorted the rows after every move) the table is kept over
multisets of pile sizes (:mod:`nim_evo.engine.multiset`), so positions that are arrangements of
each other share their scores (90 rows on 2-3-4-5 instead of 360), and moves from equal
piles share one score.

The retry exploration draws from the seed's grid of (row, value) pairs, every pile with
every count up to the largest pile (4 x 5 = 20 on 2-3-4-5, of which 14 are moves of the
board); a pair that is not a legal move there (or that takes from a pile equal to an
earlier one: the same move over multisets) is drawn again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from nim_evo.games.takeaway import TakeAway
from nim_evo.learners.base import Learner
from nim_evo.learners.parameters import LearnerParameters, Schedule
from nim_evo.validation import UserError

SCHEDULE: Schedule = ((12_000, 0.99), (9_000, 0.7), (6_000, 0.5), (3_000, 0.3))


@dataclass(frozen=True)
class QParameters(LearnerParameters):
    """The Q-table learner's parameters (Kintner-Meyer's Q-learning report's values).

    Attributes:
        schedule: ``(games, epsilon)`` steps counted in games played; past the end the last
            epsilon stays.
        reward: added to each of the winner's (position, move) pairs, taken from the loser's.
        exploration: ``retry`` (the seed's draw from its (row, value) grid, drawn again
            while no legal move) or ``uniform`` (a uniformly random legal move).
        symmetry: on by default: the seed sorted the piles after every move.
    """

    schedule: Schedule = SCHEDULE
    reward: float = 1.0
    exploration: Literal["retry", "uniform"] = "retry"
    symmetry: bool = True

    def check(self) -> None:
        if self.reward <= 0:
            raise UserError(f"reward must be > 0 (the winner's), got {self.reward}")
        if self.exploration not in ("retry", "uniform"):
            raise UserError(f"exploration must be 'retry' (the Q-learning report's) or 'uniform', "
                            f"got {self.exploration!r}")
        for games, epsilon in self.schedule:
            if games < 0 or not 0.0 <= epsilon <= 1.0:
                raise UserError(f"a schedule step needs games >= 0 and 0 <= epsilon <= 1, got {(games, epsilon)}")


class QLearner(Learner):
    """A Q-table over the enumerated space (by default of multisets, as the seed sorted)."""

    name = "qlearning"
    source = "Kintner-Meyer's Q-learning report"
    algorithm = 2  # 2: the retry draws from the seed's (row, value) grid; multisets replace sorted_positions
    Parameters = QParameters
    params: QParameters
    episodes = sum(games for games, _ in SCHEDULE)
    state_names = ("table",)

    def reset(self):
        space = self.space
        self.table = np.zeros((space.n_positions, space.n_moves))
        self.epsilon_now = 0.0
        # the seed's grid: (row, value) for every heap and value up to the largest heap; -1 where the
        # board has no such move (a game whose moves take from no single heap: its actions)
        if not isinstance(self.rules, TakeAway):
            self._grid = list(range(space.n_moves))
            return
        width = max(self.rules.start)
        heap, take = np.divmod(np.arange(len(self.rules.start) * width), width)
        index = {move: k for k, move in enumerate(self.rules.moves)}
        self._grid = [index.get((int(h), int(t) + 1), -1) for h, t in zip(heap, take)]

    @property
    def q(self) -> np.ndarray:
        """``(n_positions, n_moves)``: the score of every legal (position, move) of the space (0 elsewhere)."""
        return np.where(self.space.legal, self.table, 0.0)

    def epsilon_at(self, games: int) -> float:
        """The schedule's epsilon for the game after ``games`` games."""
        schedule = self.params.schedule
        for steps, epsilon in schedule:
            if games < steps:
                return epsilon
            games -= steps
        return schedule[-1][1] if schedule else 0.0

    def begin_episode(self):
        self.epsilon_now = self.epsilon_at(self.games_played)

    def explore(self, position, legal, uniforms):
        if self.params.exploration == "uniform":
            if uniforms.random() < self.epsilon_now:
                return legal[uniforms.below(len(legal))]
        else:  # the seed's: a (row, value) pair of the whole grid, drawn again while no legal move
            legal_here = self.space.legal[position]
            while uniforms.random() < self.epsilon_now:
                column = self._grid[uniforms.below(len(self._grid))]
                if column >= 0 and legal_here[column]:
                    return column
        scores = self.table[position, legal]
        best = legal[scores == scores.max()]
        return best[uniforms.below(len(best))] if len(best) > 1 else best[0]

    def update(self, positions, moves, winner, seats):
        """The seed's update: +reward to the winner's (position, move) pairs, -reward to the loser's."""
        for seat in seats:  # a game's positions are distinct: they shrink
            delta = self.params.reward if seat == winner else -self.params.reward
            self.table[positions[seat::2], moves[seat::2]] += delta

    def values(self):
        return self.q

    def row_values(self, rows):
        return np.where(self.space.legal[rows], self.table[rows], 0.0)

    def stochastic_rows(self, rows):
        """The training rule with the schedule's epsilon where training stands (0.3 once
        the seed's 30,000 games are played; 0.99 before any)."""
        epsilon = self.epsilon_at(self.games_played)
        if self.params.exploration == "retry":  # the chance that the accepted try was a random pair
            random_try = epsilon * self.space.legal[rows].sum(axis=1, keepdims=True) / len(self._grid)
            epsilon = np.divide(random_try, random_try + 1 - epsilon, out=np.ones_like(random_try, dtype=float),
                                where=random_try + 1 - epsilon > 0)
        return self.epsilon_rows(epsilon, rows)
