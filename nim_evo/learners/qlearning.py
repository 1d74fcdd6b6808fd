"""Seed 002's Q-table learner: self-play, +1 to every move of the winner, -1 to the loser's.

Training follows the seed's epsilon schedule (12,000 games at 0.99, 9,000 at 0.7, 6,000 at
0.5, 3,000 at 0.3): with probability epsilon a move is uniformly random, otherwise the move
of highest score (ties broken at random). After each game every (position, move) the
winner played gains ``reward`` and every one the loser played loses it.
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

    def __init__(self, rules: Rules, schedule=SCHEDULE, reward: float = 1.0):
        super().__init__(rules)
        self.space = space_for(rules)
        self.schedule = tuple((int(games), float(epsilon)) for games, epsilon in schedule)
        for games, epsilon in self.schedule:
            if games < 0 or not 0.0 <= epsilon <= 1.0:
                raise ValueError(f"a schedule step needs games >= 0 and 0 <= epsilon <= 1, got {(games, epsilon)}")
        self.reward = float(reward)
        self.q = np.zeros((self.space.n_positions, self.space.n_moves))
        self.games_played = 0

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
        space, q = self.space, self.q
        position, positions, moves = space.start, [], []
        legal_rows, next_rows = space.legal, space.next
        while position:
            legal = np.flatnonzero(legal_rows[position])
            if rng.random() < epsilon:
                move = legal[rng.integers(len(legal))]
            else:
                scores = q[position, legal]
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
        np.add.at(self.q, (positions, moves), np.where(seat == winner, self.reward, -self.reward))
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
        scores = self.q[index, legal]
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
