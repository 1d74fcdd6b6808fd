"""A PettingZoo AEC environment of Nim, played on nim_evo's exact engine.

Two agents, ``player_0`` (moves first) and ``player_1``, take turns on any Nim-family board::

    from nim_evo.envs import nim_v0

    env = nim_v0.env(piles="17-cap3-misere")       # or piles=(3, 4, 5), max_take=2, misere=True
    env.reset(seed=0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        elif info["winning_moves"]:
            action = info["winning_moves"][0]        # what Nim theory says wins
        else:
            action = int(observation["action_mask"].argmax())
        env.step(action)

An action is the index of a ``(pile, count)`` move in the engine's fixed order (by pile, then
count): ``env.unwrapped.moves[action]``, with ``env.unwrapped.rules`` the game. An observation
is ``{"observation": pile sizes (int64), "action_mask": int8}``, the mask 1 for each legal move
for the agent to move and all zeros for the other (as PettingZoo's classic games do).
``infos[agent]["winning_moves"]`` lists, for the agent to move, the indices of the winning
moves (empty in a lost position; ``[]`` for the other agent). Rewards: +1 to the winner and
-1 to the loser when the last object is taken (who wins is the rules': the taker in normal
play, the other in misère), 0 before. The game is deterministic: ``reset(seed=...)`` takes a
seed for the API and needs none. :func:`env` ends the game with -1 to an agent that plays an
illegal action; :func:`raw_env` raises a :class:`~nim_evo.validation.UserError` instead.
"""

from __future__ import annotations

import operator

import numpy as np

from nim_evo.interop.extras import RL, need
from nim_evo.interop.single import RENDER_MODES, board, legal_and_winning, picture
from nim_evo.validation import UserError, shown

WHAT = "nim_evo.envs"
pettingzoo = need("pettingzoo", RL, WHAT)
wrappers = need("pettingzoo.utils.wrappers", RL, WHAT)
gymnasium = need("gymnasium", RL, WHAT)
EzPickle = need("gymnasium.utils", RL, WHAT).EzPickle
spaces = gymnasium.spaces

AGENTS = ("player_0", "player_1")


def env(**kwargs):
    """The environment as PettingZoo's classic games come: :class:`raw_env` (same keywords)
    in ``TerminateIllegalWrapper(illegal_reward=-1)``, ``AssertOutOfBoundsWrapper`` and
    ``OrderEnforcingWrapper``."""
    game = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


class raw_env(pettingzoo.AECEnv, EzPickle):  # type: ignore[name-defined, valid-type, misc]  # optional extras, imported on use
    """Nim for two agents (see the module).

    Args:
        piles: the starting piles, a sequence, or a board's name such as ``"7-5-3"`` or
            ``"17-cap3-misere"``; with a name, ``max_take`` and ``misere`` left at their
            defaults take the name's, and given otherwise must say the same.
        max_take: the most objects one move may take (``None``: no cap).
        misere: True when whoever takes the last object loses.
        game: instead of the three above, a board of any family or its name
            (``"20-sub1.3.4"``).
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns a line of text).

    Raises:
        UserError: one line for a bad board or render mode.
    """

    metadata = {"render_modes": RENDER_MODES, "name": "nim_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(self, piles=(1, 3, 5, 7, 9), max_take=None, misere=False, render_mode=None, game=None):
        super().__init__()
        EzPickle.__init__(self, piles, max_take, misere, render_mode, game)
        self.rules = board(piles, max_take, misere, game)
        self.moves = self.rules.moves
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UserError(f"render_mode must be None or 'ansi', got {shown(render_mode)}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        n_piles, n_moves = len(self.rules.start), len(self.moves)
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0, max(self.rules.start), (n_piles,), np.int64),
                "action_mask": spaces.Box(0, 1, (n_moves,), np.int8),
            })
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(n_moves) for agent in AGENTS}
        self.reset()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """A new game from the starting piles, ``player_0`` to move (``seed`` and ``options``
        are accepted and unused: nothing in the game is random)."""
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = AGENTS[0]
        self.position = self.rules.start
        self.winner = None  # the winning agent's name, once the game is over
        self._look()

    def observe(self, agent):
        """The pile sizes, and the legal-move mask for the agent to move (zeros for the other)."""
        mask = self._mask.copy() if agent == self.agent_selection else np.zeros_like(self._mask)
        return {"observation": np.array(self.position, dtype=np.int64), "action_mask": mask}

    def step(self, action):
        """The agent to move plays ``action``; ``None`` for an agent whose game is over."""
        if not self.agents:  # (each agent's None after the end taken: the game is gone)
            raise UserError("the game is over and every agent has left it: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        try:
            index = operator.index(action)
        except TypeError:
            index = -1
        if not (0 <= index < len(self.moves) and self._mask[index]):
            raise UserError(f"{agent} cannot play action {shown(action)} in position {self.position} of "
                            f"{self.rules.name}: not a legal move's index (env() ends the game with -1 instead)")
        self._cumulative_rewards[agent] = 0
        self.position = self.rules.apply(self.position, self.moves[index])
        seat = AGENTS.index(agent)
        if self.rules.is_over(self.position):
            self.winner = AGENTS[self.rules.winner(seat)]
            self.rewards = {name: 1 if name == self.winner else -1 for name in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
        self.agent_selection = AGENTS[1 - seat]
        self._look()
        self._accumulate_rewards()

    def render(self):
        """The position as a line of text (``render_mode="ansi"``); ``None`` and a warning
        without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        return picture(self.rules, self.position, self.agent_selection, self.winner)

    def close(self):
        """Nothing to release."""

    def _look(self):
        """The mask and winning moves of the position, for the agent to move."""
        self._mask, winning = legal_and_winning(self.rules, self.position)
        self.infos = {name: {"winning_moves": list(winning) if name == self.agent_selection else []}
                      for name in self.agents}
