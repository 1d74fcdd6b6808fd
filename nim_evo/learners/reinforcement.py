"""The reinforcement learners of Nagappan's CI report (section 4.1.5): TD Q-learning and Monte Carlo.

Both keep ``Q[position, move]`` from the mover's point of view, start it with small random
values (uniform in [0, ``init``)), choose epsilon-greedily while training and greedily in
play, and score a game +``reward`` for the winner and -``reward`` for the loser. A
learner's "next state" is its own next turn, two plies on: the opponent's reply is part of
the environment, as it was in the seed (which updated after the opponent's move too).

The report's code had bugs, fixed here (the manual's References, Nagappan's CI report, says
each and how): the TD update is Q-learning's; alpha and epsilon decay as parameters say
(``alpha_decay``, ``epsilon_decay``; epsilon 0.4 throughout by default, as reported); Monte
Carlo learns the (position, move) values it chooses by, from the game's result discounted by
``gamma`` per own move back from the end, starting from the TD's small values; who starts
each game is a training option (``seat``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nim_evo.learners.base import Learner
from nim_evo.learners.parameters import LearnerParameters
from nim_evo.validation import UserError


@dataclass(frozen=True)
class TDParameters(LearnerParameters):
    """The TD learner's parameters (Nagappan's CI report's values, its decay fixed).

    Attributes:
        epsilon: the chance of a uniformly random legal move while training, at first.
        epsilon_decay: subtracted from epsilon after each training game.
        epsilon_min: the least epsilon falls to.
        alpha: the learning rate, at first.
        alpha_decay: alpha is multiplied by ``1 - alpha_decay`` after each training game.
        alpha_min: the least alpha falls to.
        gamma: the discount per own move.
        reward: a win's value (a loss: ``-reward``).
        init: initial values are drawn uniformly in ``[0, init)``.
    """

    epsilon: float = 0.4
    epsilon_decay: float = 0.0
    epsilon_min: float = 0.1
    alpha: float = 0.3
    alpha_decay: float = 0.0005
    alpha_min: float = 0.1
    gamma: float = 0.9
    reward: float = 1.0
    init: float = 0.01

    def check(self) -> None:
        for key in ("epsilon", "epsilon_min", "alpha", "alpha_min", "gamma"):
            if not 0.0 <= getattr(self, key) <= 1.0:
                raise UserError(f"{key} must be in [0, 1], got {getattr(self, key)}")
        if self.epsilon_decay < 0 or not 0.0 <= self.alpha_decay < 1.0 or self.init < 0:
            raise UserError("epsilon_decay and init must be >= 0 and alpha_decay in [0, 1)")
        if self.reward <= 0:
            raise UserError(f"reward must be > 0 (the winner's), got {self.reward}")


@dataclass(frozen=True)
class MonteCarloParameters(TDParameters):
    """The Monte Carlo learner's parameters: the TD learner's, with its own defaults."""

    epsilon: float = 0.3
    epsilon_decay: float = 0.0001
    epsilon_min: float = 0.0
    alpha: float = 0.5
    alpha_decay: float = 0.0
    alpha_min: float = 0.0


class _EpsilonGreedy(Learner):
    """Shared by TD and Monte Carlo: Q table, random initial values, epsilon-greedy, decay."""

    params: TDParameters
    state_names = ("q", "epsilon_now", "alpha_now")  # decayed rates are trained state

    def check_state(self):
        if not (0.0 <= self.epsilon_now <= 1.0 and 0.0 <= self.alpha_now <= 1.0):
            raise UserError("epsilon_now and alpha_now (the decayed rates) must lie in [0, 1]")

    def reset(self):
        self.q = np.zeros(self.space.legal.shape)
        self.epsilon_now = self.params.epsilon
        self.alpha_now = self.params.alpha

    def initialise(self, rng):
        self.q = np.where(self.space.legal, rng.uniform(0.0, self.params.init, self.q.shape), 0.0)

    def explore(self, position, legal, uniforms):
        if uniforms.random() < self.epsilon_now:
            return legal[uniforms.below(len(legal))]
        return legal[np.argmax(self.q[position, legal])]

    def end_episode(self):
        p = self.params
        self.epsilon_now = max(self.epsilon_now - p.epsilon_decay, p.epsilon_min)
        self.alpha_now = max(self.alpha_now * (1.0 - p.alpha_decay), p.alpha_min)

    def values(self):
        return self.q

    def stochastic_rows(self, rows):
        """Epsilon-greedy with the epsilon training ended at."""
        return self.epsilon_rows(self.epsilon_now, rows)

    def _result(self, seat: int, winner: int) -> float:
        return self.params.reward if seat == winner else -self.params.reward


class TDLearner(_EpsilonGreedy):
    name = "td"
    source = "Nagappan's CI report"
    Parameters = TDParameters
    episodes = 5000

    def update(self, positions, moves, winner, seats):
        q, alpha, gamma = self.q, self.alpha_now, self.params.gamma
        legal = self.space.legal
        for seat in seats:
            mine = range(seat, len(moves), 2)
            for k in mine:
                p, m = positions[k], moves[k]
                if k + 2 < len(moves):
                    following = positions[k + 2]
                    target = gamma * q[following][legal[following]].max()
                else:
                    target = self._result(seat, winner)
                q[p, m] += alpha * (target - q[p, m])


class MonteCarloLearner(_EpsilonGreedy):
    name = "montecarlo"
    source = "Nagappan's CI report"
    Parameters = MonteCarloParameters
    episodes = 5000

    def update(self, positions, moves, winner, seats):
        q, alpha = self.q, self.alpha_now
        for seat in seats:
            mine = np.arange(seat, len(moves), 2)
            returns = self._result(seat, winner) * self.params.gamma ** np.arange(len(mine))[::-1]
            cells = positions[mine], moves[mine]
            q[cells] += alpha * (returns - q[cells])
