"""The sub-game learner of Moore's NIM Rules: every move of a game record is a sub-game won or lost.

A game record's suffixes are games of their own (Moore's NIM Rules, section 3): the move made at
each position is a win for its player if that player won the game, else a loss. The
learner keeps ``wins[p, m]`` and ``losses[p, m]`` and plays each legal move with
probability in proportion to ``max(wins, 1) / max(losses, 1)`` (the seed's ``winProb``).
It learns from the whole record, whoever made each move, as the seed's ``updateModel``
did; against a fixed opponent that includes the opponent's moves.

:func:`~nim_evo.learners.report.report` gives the seed's per-position report: ``OK!``
where the most probable move wins, ``NO!`` where it does not, ``---`` at lost positions,
each move with its probability and its wins and losses.
"""

from __future__ import annotations

import numpy as np

from nim_evo.learners.base import Learner
from nim_evo.validation import UserError


class SubgameLearner(Learner):
    name = "subgame"
    source = "Moore's NIM Rules"
    episodes = 5000
    state_names = ("wins", "losses")

    def reset(self):
        shape = self.space.legal.shape
        self.wins, self.losses = np.zeros(shape), np.zeros(shape)

    def check_state(self):
        if np.any(self.wins < 0) or np.any(self.losses < 0):
            raise UserError("wins and losses must be >= 0")

    def ratio(self, rows) -> np.ndarray:
        """The seed's ``winProb`` at positions ``rows`` (0 for illegal moves)."""
        ratio = np.maximum(self.wins[rows], 1) / np.maximum(self.losses[rows], 1)
        return np.where(self.space.legal[rows], ratio, 0.0)

    def explore(self, position, legal, uniforms):
        return legal[uniforms.proportional(self.ratio(position)[legal])]

    def update(self, positions, moves, winner, seats):
        won = np.arange(len(moves)) % 2 == winner
        np.add.at(self.wins, (positions[won], moves[won]), 1)
        np.add.at(self.losses, (positions[~won], moves[~won]), 1)

    def values(self):
        return self.ratio(slice(None))

    def stochastic_rows(self, rows):
        return self.proportional_rows(self.ratio(rows), rows)

    def detail(self, index, move, values):
        return f"(w={int(self.wins[index, move])},l={int(self.losses[index, move])})"
