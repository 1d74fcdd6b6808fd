"""Seed 002's Q-table learner: self-play, +1 to every move of the winner, -1 to the loser's.

Training follows the seed's epsilon schedule (12,000 games at 0.99, 9,000 at 0.7, 6,000 at
0.5, 3,000 at 0.3): with probability epsilon a move is uniformly random, otherwise the move
of highest score (ties broken at random). After each game every (position, move) the
winner played gains ``reward`` and every one the loser played loses it.

With ``sorted_positions`` (the seed sorted the rows after every move) positions that are
permutations of each other share their scores: the table is kept over the *canonical*
board, the start's piles sorted, where a position is its piles sorted (a sorted reachable
position always fits inside the sorted start) and a move is (rank of its pile in that
order, count).
"""

from __future__ import annotations

import numpy as np

from nim_evo.agents import PositionalAgent
from nim_evo.boards import uniform_rows
from nim_evo.game import GameRecord
from nim_evo.rules import Rules
from nim_evo.space import Space, space_for

SCHEDULE = ((12_000, 0.99), (9_000, 0.7), (6_000, 0.5), (3_000, 0.3))


class QLearner(PositionalAgent):
    """A Q-table over the enumerated space; plays greedily (ties uniformly) once trained."""

    name = "qlearning"

    def __init__(self, rules: Rules, schedule=SCHEDULE, reward: float = 1.0, sorted_positions: bool = False):
        super().__init__(rules)
        self.space = space_for(rules)
        self.sorted_positions = bool(sorted_positions)
        self.schedule = tuple((int(games), float(epsilon)) for games, epsilon in schedule)
        for games, epsilon in self.schedule:
            if games < 0 or not 0.0 <= epsilon <= 1.0:
                raise ValueError(f"a schedule step needs games >= 0 and 0 <= epsilon <= 1, got {(games, epsilon)}")
        self.reward = float(reward)
        self._build_maps()
        self.table = np.zeros(self._table_shape)  # scores over canonical positions and moves
        self.games_played = 0

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
        """``(n_positions, n_moves)``: the score of every (position, move) of the space."""
        return self.table.ravel()[self.cell]

    # -- learning ------------------------------------------------------------------------

    def train(self, rng: np.random.Generator, schedule=None) -> int:
        """Self-play through ``schedule`` (the seed's by default); returns games played."""
        played = 0
        for games, epsilon in (self.schedule if schedule is None else schedule):
            for _ in range(games):
                self.learn(*self.self_play(rng, epsilon))
                played += 1
        return played

    def self_play(self, rng: np.random.Generator, epsilon: float) -> tuple[list, list, int]:
        """One game against itself: ``(positions, moves, winner)``, indices, seat 0 first."""
        space, scores_of, cell = self.space, self.table.ravel(), self.cell
        position, positions, moves = space.start, [], []
        legal_rows, next_rows = space.legal, space.next
        while position:
            legal = np.flatnonzero(legal_rows[position])
            if rng.random() < epsilon:
                move = legal[rng.integers(len(legal))]
            else:
                scores = scores_of[cell[position, legal]]
                best = legal[scores == scores.max()]
                move = best[rng.integers(len(best))] if len(best) > 1 else best[0]
            positions.append(position)
            moves.append(move)
            position = next_rows[position, move]
        return positions, moves, self.rules.winner((len(moves) - 1) % 2)

    def learn(self, positions, moves, winner: int) -> None:
        """The seed's update: +reward to the winner's (position, move) pairs, -reward to the loser's."""
        positions, moves = np.asarray(positions), np.asarray(moves)
        seat = np.arange(len(moves)) % 2
        np.add.at(self.table.ravel(), self.cell[positions, moves], np.where(seat == winner, self.reward, -self.reward))
        self.games_played += 1

    def learn_record(self, record: GameRecord) -> None:
        """Learn from a game record of the scalar path."""
        positions = record.positions(self.rules)[:-1]
        self.learn([self.space.index(p) for p in positions], [self.space.move_index(m) for m in record.moves],
                   record.winner)

    # -- playing -------------------------------------------------------------------------

    def distribution(self, piles):
        index = self.space.index(piles)
        legal = np.flatnonzero(self.space.legal[index])
        if not len(legal):
            return []
        scores = self.table.ravel()[self.cell[index, legal]]
        best = legal[scores == scores.max()]
        return [(self.space.move(k), 1.0 / len(best)) for k in best]

    def policy(self, space: Space) -> np.ndarray:
        """Greedy: uniform among the legal moves of highest score."""
        scores = np.where(space.legal, self.q, -np.inf)
        return uniform_rows(space.legal & (scores == scores.max(axis=1, keepdims=True)))

    def __getstate__(self):
        return {**self.__dict__, "space": None}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.space = space_for(self.rules)
