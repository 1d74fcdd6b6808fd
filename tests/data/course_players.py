"""Course-style Nim players, written as their courses' students write them (test material).

* ``NimAI``: an AI course's Q-learning player; ``choose_action(state, epsilon=True)``
  returns ``(i, j)``, take ``j`` from pile ``i``; trained by self-play on piles 1-3-5-7 where
  whoever takes the last object loses. ``trained_ai`` makes one (a factory).
* Lab strategies: functions of a ``Nim`` state with ``rows`` and ``k`` returning a
  ``Nimply(row, num_objects)``, for piles 1-3-5-7-9 where whoever takes the last one wins.
"""

import random
from collections import namedtuple
from copy import deepcopy
from functools import reduce

Nimply = namedtuple("Nimply", "row, num_objects")


class Nim:
    """The AI course's game: piles, a player to move, a winner (misère: the taker of the last loses)."""

    def __init__(self, initial=(1, 3, 5, 7)):
        self.piles = list(initial)
        self.player = 0
        self.winner = None

    @classmethod
    def available_actions(cls, piles):
        actions = set()
        for i, pile in enumerate(piles):
            for j in range(1, pile + 1):
                actions.add((i, j))
        return actions

    def move(self, action):
        pile, count = action
        self.piles[pile] -= count
        self.player = 1 - self.player
        if all(pile == 0 for pile in self.piles):
            self.winner = self.player


class NimAI:
    def __init__(self, alpha=0.5, epsilon=0.1):
        self.q = dict()
        self.alpha = alpha
        self.epsilon = epsilon

    def update(self, old_state, action, new_state, reward):
        old = self.get_q_value(old_state, action)
        best_future = self.best_future_reward(new_state)
        self.update_q_value(old_state, action, old, reward, best_future)

    def get_q_value(self, state, action):
        return self.q.get((tuple(state), action), 0)

    def update_q_value(self, state, action, old_q, reward, future_rewards):
        self.q[(tuple(state), action)] = old_q + self.alpha * (reward + future_rewards - old_q)

    def best_future_reward(self, state):
        actions = Nim.available_actions(state)
        return max((self.get_q_value(state, a) for a in actions), default=0)

    def choose_action(self, state, epsilon=True):
        actions = Nim.available_actions(state)
        if epsilon and random.random() < self.epsilon:
            return random.choice(list(actions))
        best, best_q = None, None
        for action in sorted(actions):
            q = self.get_q_value(state, action)
            if best_q is None or q > best_q:
                best, best_q = action, q
        return best


def train(n):
    player = NimAI()
    for _ in range(n):
        game = Nim()
        last = {0: {"state": None, "action": None}, 1: {"state": None, "action": None}}
        while True:
            state = game.piles.copy()
            action = player.choose_action(game.piles)
            last[game.player]["state"], last[game.player]["action"] = state, action
            game.move(action)
            new_state = game.piles.copy()
            if game.winner is not None:
                player.update(state, action, new_state, -1)
                player.update(last[game.player]["state"], last[game.player]["action"], new_state, 1)
                break
            elif last[game.player]["state"] is not None:
                player.update(last[game.player]["state"], last[game.player]["action"], new_state, 0)
    return player


def trained_ai():
    random.seed(0)
    return train(2000)


class TieBreakingAI(NimAI):
    """Greedy with ties broken at random, as many students write it."""

    def choose_action(self, state, epsilon=True):
        actions = list(Nim.available_actions(state))
        best = max(self.get_q_value(state, a) for a in actions)
        return random.choice([a for a in actions if self.get_q_value(state, a) == best])


untrained_ai = TieBreakingAI()


def nim_sum(state):
    return reduce(lambda a, b: a ^ b, state.rows)


def pure_random(state):
    row = random.choice([r for r, c in enumerate(state.rows) if c > 0])
    most = state.rows[row] if state.k is None else min(state.rows[row], state.k)
    return Nimply(row, random.randint(1, most))


def gabriele(state):
    """Take the most possible from the lowest row."""
    possible = [(r, o) for r, c in enumerate(state.rows) for o in range(1, c + 1) if state.k is None or o <= state.k]
    return Nimply(*max(possible, key=lambda m: (-m[0], m[1])))


def expert(state):
    """Brute force on copies: a move leaving nim-sum 0, else one from the longest row."""
    for row, count in enumerate(state.rows):
        for taken in range(1, count + 1):
            if state.k is not None and taken > state.k:
                break
            tmp = deepcopy(state)
            tmp.nimming_remove(row, taken)
            if nim_sum(tmp) == 0:
                return Nimply(row, taken)
    longest = max(range(state.num_rows), key=lambda r: state.rows[r])
    return Nimply(longest, 1)


def cheater(state):
    """Takes one more than there is from the first row that holds exactly three."""
    for row, count in enumerate(state.rows):
        if count == 3:
            return Nimply(row, 4)
    return gabriele(state)


def broken(state):
    if sum(state.rows) == 2:
        raise KeyError("no entry for this position")
    return gabriele(state)
