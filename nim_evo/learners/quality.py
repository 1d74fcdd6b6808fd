"""The move-quality learner of the Math 495R Nim lab (labs 20-21).

Every legal move of every position starts with quality 50. While training, a move is
drawn uniformly among those whose quality exceeds ``best - window`` (the seed's 90);
in play, uniformly among those of highest quality. After each game the winner's moves
gain 29 (up to 100) and the loser's lose 11 (down to 0); then the winner's last move is
set to 1000 and the loser's last to -1000, verdicts that later updates leave alone.

Generalised to misère boards: the move that ends the game is certain (+1000 in normal
play, -1000 in misère), and in normal play so is the move before it (it left a board the
opponent emptied in one move). In misère the winner's last move is not certain, the loser
may have had a choice, so it gets the ordinary +29 only.

Ordinary updates skip the verdicts: the bounds 100 and 0 never pull a 1000 down or lift a
-1000 up (how this reads the lab's text: the manual's References, the Math 495R Nim lab).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nim_evo.engine.boards import uniform_rows
from nim_evo.learners.base import Learner
from nim_evo.learners.parameters import LearnerParameters
from nim_evo.validation import UserError


@dataclass(frozen=True)
class QualityParameters(LearnerParameters):
    """The move-quality learner's parameters (the Math 495R lab's values).

    Attributes:
        initial: every legal move's quality before training.
        window: while training, moves within this of the best quality are drawn uniformly.
        win: added to each of the winner's moves (up to ``high``).
        lose: taken from each of the loser's moves (down to ``low``).
        high: the most an ordinary update raises a quality to.
        low: the least an ordinary update lowers a quality to.
        certain: the verdict of a certain move (+ for a win, - for a loss), left alone after.
    """

    initial: float = 50.0
    window: float = 90.0
    win: float = 29.0
    lose: float = 11.0
    high: float = 100.0
    low: float = 0.0
    certain: float = 1000.0

    def check(self) -> None:
        if self.window <= 0 or self.win < 0 or self.lose < 0:
            raise UserError("window must be > 0 (moves within it of the best are explored), win and lose >= 0")
        if not self.low <= self.initial <= self.high < self.certain:
            raise UserError("quality bounds must satisfy low <= initial <= high < certain")


class QualityLearner(Learner):
    name = "quality"
    source = "the Math 495R Nim lab"
    Parameters = QualityParameters
    params: QualityParameters
    episodes = 15_000
    state_names = ("quality",)

    def check_state(self):
        legal, low, certain = self.space.legal, self.params.low, self.params.certain
        if np.any(self.quality[legal] < min(low, -certain)) or np.any(self.quality[legal] > certain):
            raise UserError(f"qualities must lie between -{certain:g} and {certain:g}")

    def reset(self):
        self.quality = np.where(self.space.legal, self.params.initial, 0.0)

    def explore(self, position, legal, uniforms):
        quality = self.quality[position, legal]
        near = legal[quality > quality.max() - self.params.window]
        return near[uniforms.below(len(near))] if len(near) > 1 else near[0]

    def update(self, positions, moves, winner, seats):
        quality, p = self.quality, self.params
        last = len(moves) - 1
        for seat in seats:
            mine = np.arange(seat, len(moves), 2)
            cells = positions[mine], moves[mine]
            q = quality[cells]
            new = np.minimum(q + p.win, p.high) if seat == winner else np.maximum(q - p.lose, p.low)
            quality[cells] = np.where(np.abs(q) >= p.certain, q, new)  # verdicts stay
        ending_seat = last % 2
        verdict = p.certain if ending_seat == winner else -p.certain
        if ending_seat in seats:
            quality[positions[last], moves[last]] = verdict
        if not self.rules.misere and last >= 1 and (last - 1) % 2 in seats:
            quality[positions[last - 1], moves[last - 1]] = -p.certain

    def values(self):
        return self.quality

    def stochastic_rows(self, rows):
        legal = self.space.legal[rows]
        quality = np.where(legal, self.quality[rows], -np.inf)
        return uniform_rows(legal & (quality > quality.max(axis=1, keepdims=True) - self.params.window))
