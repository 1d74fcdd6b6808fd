"""What a trained learner plays: rows of move probabilities over its own space, read at the actual positions.

A learner is a player (:class:`~nim_evo.agents.Player`): greedy by default (uniform among
the legal moves of highest value), or, with ``stochastic=True``, by its own sampling rule
(counts in proportion, an exploration window, epsilon-greedy). Its one answer is its rows
over its own space, read at the actual positions (:meth:`LearnedPolicy.move_probabilities`):
a learner with ``symmetry`` plays the move its multiset's row gives on the first pile of the
size it takes from, and is order-blind; one without reads the order of the piles.
"""

from __future__ import annotations

import numpy as np

from nim_evo.agents.player import Player, check_space
from nim_evo.engine.boards import uniform_rows
from nim_evo.engine.space import Space
from nim_evo.validation import UserError


class LearnedPolicy(Player):
    """A player whose answer is rows over its own ``space`` (of multisets with ``symmetry``):
    :meth:`greedy_rows` of :meth:`row_values`, or with ``stochastic`` its
    :meth:`stochastic_rows`. :class:`~nim_evo.learners.base.Learner` is one."""

    space: Space
    stochastic: bool

    @property
    def symmetry(self) -> bool:
        """Whether it plays over multisets of pile sizes (its space's kind)."""
        return bool(self.space.multiset)

    def values(self) -> np.ndarray:
        """``(n_positions, n_moves)``: what greedy play maximises (legal entries matter)."""
        raise NotImplementedError

    def row_values(self, rows) -> np.ndarray:
        """:meth:`values` at positions ``rows`` (override where that is cheaper than all)."""
        return self.values()[rows]

    def stochastic_rows(self, rows: np.ndarray) -> np.ndarray:
        """The learner's own sampling rule at positions ``rows``: ``(len(rows), n_moves)``."""
        return self.greedy_rows(rows)

    def detail(self, index: int, move: int, values: np.ndarray) -> str:
        """What the report (:mod:`nim_evo.learners.report`) shows beside a move's probability
        (``values``: :meth:`values`)."""
        return f"(value {values[index, move]:.4g})"

    def greedy_rows(self, rows: np.ndarray) -> np.ndarray:
        """Uniform among the legal moves of highest value at positions ``rows``."""
        legal = self.space.legal[rows]
        values = np.where(legal, self.row_values(rows), -np.inf)
        return uniform_rows(legal & (values == values.max(axis=1, keepdims=True)))

    def proportional_rows(self, weights: np.ndarray, rows) -> np.ndarray:
        """Rows of probabilities in proportion to ``weights`` over the legal moves."""
        weights = np.where(self.space.legal[rows], weights, 0.0)
        totals = weights.sum(axis=1, keepdims=True)
        return np.divide(weights, totals, out=np.zeros_like(weights), where=totals > 0)

    def epsilon_rows(self, epsilon, rows) -> np.ndarray:
        """A uniformly random legal move with probability ``epsilon`` (a number or a column),
        else the greedy move."""
        legal = self.space.legal[rows]
        explore = legal / legal.sum(axis=1, keepdims=True).clip(min=1)
        return epsilon * explore + (1 - epsilon) * self.greedy_rows(rows)

    def policy_rows(self, rows: np.ndarray) -> np.ndarray:
        """The rows it plays at positions ``rows``: stochastic or greedy."""
        return self.stochastic_rows(rows) if self.stochastic else self.greedy_rows(rows)

    @property
    def order_blind(self) -> bool:  # type: ignore[override]  # read-only: it follows the learner's symmetry
        """A learner over multisets (``symmetry``) chooses by the multiset alone."""
        return self.symmetry

    def move_probabilities(self, positions: np.ndarray) -> np.ndarray:
        """Its rows over its own space at the multisets (or positions) of ``positions``, read
        back on their piles (a multiset's column on the first pile of the size it takes from)."""
        positions = np.asarray(positions, dtype=np.int64)
        if self.rules.box:  # a counted space ranks any row: those past the start are refused first
            start = np.array(self.rules.start)
            beyond = np.sort(positions, axis=1) > np.sort(start) if self.symmetry else positions > start
            index = None if np.any(beyond) else self.space.indices(positions)
        else:  # a searched space knows its positions
            index = self.space.indices(positions)
            beyond = index < 0
        if index is None or np.any(beyond):
            raise UserError(f"positions beyond the start {self.rules.start} are not on this learner's board")
        return self.space.unfold(positions, self.policy_rows(index))

    def policy(self, space: Space) -> np.ndarray:
        """The learner's table over ``space``: its own rows on its own space (the fast path),
        else :meth:`move_probabilities` at the space's positions."""
        if space.rules != self.rules:
            raise UserError(f"this {self.name} learner was trained for {self.rules.name}, not {space.rules.name}")
        check_space(self, space)
        if space.multiset == self.space.multiset and space.n_positions == self.space.n_positions:
            return self.policy_rows(np.arange(space.n_positions))
        return super().policy(space)
