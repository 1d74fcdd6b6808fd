"""The win-count learner of the Simple Nim AI post, generalised from one heap to positions of any board.

1. For each position keep a count per move (all start at 1).
2. Play each move with probability in proportion to its count.
3. After a win, add 1 to the count of each move the learner played.
4. After a loss, add 1 to the counts of the *other* legal moves at each position played.

Normalisation (the seed's "dirty trick"): once a position's counts sum to more than
``cutoff``, subtract ``min - 1`` from them, so the smallest is 1 again; the proportions
between moves keep their differences and the learner keeps adapting.

Only legal moves have counts, and in self-play each seat's moves are scored by that seat's
result (where this departs from the post's code: the manual's References, the Simple Nim AI
post).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nim_evo.learners.base import Learner
from nim_evo.learners.parameters import LearnerParameters
from nim_evo.validation import UserError


@dataclass(frozen=True)
class WinCountParameters(LearnerParameters):
    """The win-count learner's parameters.

    Attributes:
        cutoff: once a position's counts sum to more than this, ``min - 1`` is subtracted
            from each (the seed's normalisation).
    """

    cutoff: int = 1000

    def check(self) -> None:
        if self.cutoff < 1:
            raise UserError(f"cutoff must be >= 1, got {self.cutoff}")


class WinCountLearner(Learner):
    name = "wincount"
    source = "the Simple Nim AI post"
    Parameters = WinCountParameters
    params: WinCountParameters
    episodes = 100_000
    state_names = ("counts",)

    def check_state(self):
        if np.any(self.counts[self.space.legal] < 1):
            raise UserError("every legal move's count must be >= 1")

    def reset(self):
        self.counts = self.space.legal.astype(np.float64)

    def explore(self, position, legal, uniforms):
        return legal[uniforms.proportional(self.counts[position, legal])]

    def update(self, positions, moves, winner, seats):
        counts, legal = self.counts, self.space.legal
        for seat in seats:
            mine_p, mine_m = positions[seat::2], moves[seat::2]
            if seat == winner:
                counts[mine_p, mine_m] += 1
            else:
                counts[mine_p] += legal[mine_p]
                counts[mine_p, mine_m] -= 1
            totals = counts[mine_p].sum(axis=1)
            full = mine_p[totals > self.params.cutoff]
            if len(full):
                low = np.where(legal[full], counts[full], np.inf).min(axis=1, keepdims=True)
                counts[full] -= np.where(legal[full], low - 1, 0)

    def values(self):
        return self.counts

    def stochastic_rows(self, rows):
        return self.proportional_rows(self.counts[rows], rows)
