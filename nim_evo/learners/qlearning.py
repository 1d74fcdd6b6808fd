"""Seed 002's Q-table learner: self-play, +1 to every move of the winner, -1 to the loser's.

Training follows the seed's epsilon schedule (12,000 games at 0.99, 9,000 at 0.7, 6,000 at
0.5, 3,000 at 0.3), counted in games played; past its end the last epsilon stays. After
each game every (position, move) the winner played gains ``reward`` and every one the
loser played loses it.

Exploration, ``exploration="retry"`` (the seed's code): each try draws, with probability
epsilon, a column of the whole move list of the table (legal here or not), otherwise the
legal move of highest score (ties at random); an illegal column is drawn again. Where few
moves are legal the real exploration is far below epsilon (2 legal of 14 columns at
epsilon 0.5: a random move 6% of the time), so endgames are played almost greedily and
the results credited to earlier moves are less noisy. This side effect of the seed's
retry loop, not its nominal epsilon, is what lets it learn 2-3-4-5 misère: with
``exploration="uniform"`` (a uniformly random legal move with probability epsilon) the
same schedule finds a winning move in about 78% of the winning positions, with the retry
loop about 95% (sorted positions, 5 seeds; ``benchmarks/learners.py``). The seed reported
every winning position right, by its own count (the 75 sorted winning positions of its
table); a faithful replay of its code reaches about 89% of those after the schedule (10
seeds), ours 81-93% (5 seeds), so its table (saved to ``Qtable.mat`` after every game and trained further by
its own play) most likely saw more than the 30,000 scheduled games. The seed's
greedy pick was the first maximum over all columns, illegal ones at 0; that made no
measurable difference and is not reproduced.

With ``sorted_positions`` (the seed sorted the rows after every move) positions that are
permutations of each other share their scores: the table is kept over the *canonical*
board, the start's piles sorted, where a position is its piles sorted (a sorted reachable
position always fits inside the sorted start) and a move is (rank of its pile in that
order, count).
"""

from __future__ import annotations

import numpy as np

from nim_evo.learners.base import Learner
from nim_evo.rules import Rules
from nim_evo.space import space_for

SCHEDULE = ((12_000, 0.99), (9_000, 0.7), (6_000, 0.5), (3_000, 0.3))


class QLearner(Learner):
    """A Q-table over the enumerated space (or its canonical, sorted form)."""

    name = "qlearning"
    source = "002"
    defaults = {"schedule": SCHEDULE, "reward": 1.0, "sorted_positions": False, "exploration": "retry"}
    episodes = sum(games for games, _ in SCHEDULE)
    state_names = ("table",)

    def check_params(self):
        if self.reward <= 0:
            raise ValueError(f"reward must be > 0 (the winner's), got {self.reward}")
        if self.exploration not in ("retry", "uniform"):
            raise ValueError(f"exploration must be 'retry' (the seed's) or 'uniform', got {self.exploration!r}")
        for games, epsilon in self.schedule:
            if games < 0 or not 0.0 <= epsilon <= 1.0:
                raise ValueError(f"a schedule step needs games >= 0 and 0 <= epsilon <= 1, got {(games, epsilon)}")

    def reset(self):
        self._build_maps()
        self.table = np.zeros(self._table_shape)  # scores over canonical positions and moves
        self.epsilon_now = 0.0

    def _build_maps(self) -> None:
        """``cell[p, m]``: the flat table cell of each (position, move) of the space."""
        space = self.space
        if not self.sorted_positions:
            self._table_shape = (space.n_positions, space.n_moves)
            self.cell = np.arange(space.n_positions * space.n_moves).reshape(space.n_positions, space.n_moves)
            return
        canon = space_for(Rules(tuple(sorted(self.rules.piles)), self.rules.max_take, self.rules.misere))
        order = np.argsort(space.positions, axis=1, kind="stable")
        rank = np.argsort(order, axis=1)  # rank of each pile in its position's sorted order
        canon_position = canon.indices(np.take_along_axis(space.positions, order, axis=1))
        pile, count = space.moves[:, 0], space.moves[:, 1]
        canon_pile = rank[:, pile]  # (n_positions, n_moves)
        offsets = np.concatenate([[0], np.cumsum([min(n, self.rules.max_take or n) for n in canon.rules.piles])])
        widths = np.diff(offsets)
        valid = space.legal & (count <= widths[canon_pile])
        canon_move = np.where(valid, offsets[canon_pile] + count - 1, 0)
        self._table_shape = (canon.n_positions, canon.n_moves)
        self.cell = canon_position[:, None] * canon.n_moves + canon_move

    @property
    def q(self) -> np.ndarray:
        """``(n_positions, n_moves)``: the score of every legal (position, move) of the space (0 elsewhere)."""
        return np.where(self.space.legal, self.table.ravel()[self.cell], 0.0)

    def epsilon_at(self, games: int) -> float:
        """The schedule's epsilon for the game after ``games`` games."""
        for steps, epsilon in self.schedule:
            if games < steps:
                return epsilon
            games -= steps
        return self.schedule[-1][1] if self.schedule else 0.0

    def begin_episode(self):
        self.epsilon_now = self.epsilon_at(self.games_played)

    def choose(self, position, legal, uniforms):
        if self.exploration == "uniform":
            if uniforms.random() < self.epsilon_now:
                return legal[uniforms.below(len(legal))]
        else:  # the seed's: a column of the whole row, drawn again while illegal
            columns = self._table_shape[1]
            while uniforms.random() < self.epsilon_now:
                column = uniforms.below(columns)
                if column < len(legal):  # len(legal) of the columns are legal: uniform among them
                    return legal[column]
        scores = self.table.ravel()[self.cell[position, legal]]
        best = legal[scores == scores.max()]
        return best[uniforms.below(len(best))] if len(best) > 1 else best[0]

    def update(self, positions, moves, winner, seats):
        """The seed's update: +reward to the winner's (position, move) pairs, -reward to the loser's."""
        table = self.table.ravel()
        for seat in seats:  # a game's cells are distinct: its positions shrink, so do their sorted forms
            delta = self.reward if seat == winner else -self.reward
            table[self.cell[positions[seat::2], moves[seat::2]]] += delta

    def values(self):
        return self.q

    def row_values(self, rows):
        return np.where(self.space.legal[rows], self.table.ravel()[self.cell[rows]], 0.0)

    def stochastic_rows(self, rows):
        """The training rule with the schedule's epsilon where training stands (0.3 once
        the seed's 30,000 games are played; 0.99 before any)."""
        epsilon = self.epsilon_at(self.games_played)
        if self.exploration == "retry":  # the chance that the accepted try was a random column
            random_try = epsilon * self.space.legal[rows].sum(axis=1, keepdims=True) / self._table_shape[1]
            epsilon = np.divide(random_try, random_try + 1 - epsilon, out=np.ones_like(random_try, dtype=float),
                                where=random_try + 1 - epsilon > 0)
        return self.epsilon_rows(epsilon, rows)
