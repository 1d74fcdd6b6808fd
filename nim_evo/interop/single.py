"""A Gymnasium environment: one agent plays Nim against any nim_evo player.

Register it by importing :mod:`nim_evo.envs` (``gymnasium.make`` does that for you)::

    import gymnasium
    env = gymnasium.make("nim_evo.envs:Nim-v0", piles="7-5-3", opponent="nimsum")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(info["winning_moves"][0])

An observation is the pile sizes the agent sees when it is to move (``int64``); an action is
the index of a ``(pile, count)`` move in the engine's fixed order (``env.unwrapped.moves``).
``info`` always holds ``"action_mask"`` (``int8``, 1 for each legal move of the observed
position), ``"winning_moves"`` (the indices of the moves Nim theory says win there, empty in a
lost position) and ``"seat"`` (the agent's: 0 moves first). The reward is +1 when the agent
wins, -1 when it loses, 0 before the end; an illegal action ends the episode with -1 and
``info["illegal"] = True`` (False in every other step's info). A game of Nim always ends:
``truncated`` is always False.

The opponent is anything :func:`~nim_evo.interop.players.player_for` takes: a name
(``"random"``, ``"nimsum"``, ``"minimax"``, a learner's), a strategy file, ``module:NAME``,
or an agent object. It draws its moves with the environment's seeded ``np_random``.

This module also holds what both environments share (:func:`board`, :func:`legal_and_winning`,
:func:`picture`); :mod:`nim_evo.interop.aec` builds the PettingZoo environment on them.
"""

from __future__ import annotations

import operator
from numbers import Integral

import numpy as np

from nim_evo.engine.boards import legal_mask
from nim_evo.games.nimtheory import winning_mask
from functools import lru_cache

from nim_evo.agents.perfect import PerfectAgent
from nim_evo.engine.rules import Rules
from nim_evo.games.registry import game as game_named
from nim_evo.games.base import Game
from nim_evo.interop.extras import RL, need
from nim_evo.interop.players import player_for
from nim_evo.validation import SEED, IllegalMove, UserError, check, shown

gymnasium = need("gymnasium", RL, "nim_evo.envs")
spaces = gymnasium.spaces

RENDER_MODES = ["ansi"]
DEFAULT_PILES = (1, 3, 5, 7, 9)
AGENT_SEATS = (0, 1, "alternate")


def board(piles, max_take=None, misere=False, game=None) -> Game:
    """The rules of an environment: ``piles`` a sequence of pile sizes (with ``max_take`` and
    ``misere``), a Nim board's name such as ``"7-5-3"`` or ``"17-cap3-misere"``, or a
    :class:`~nim_evo.engine.rules.Rules`; or ``game``, a board of any family or its
    name (``"20-sub1.3.4"``), instead of them.

    A name (or Rules) already says its cap and ending: ``max_take`` and ``misere`` left at
    their defaults (``None``, ``False``) take the name's, and given otherwise they must say
    the same as the name. A one-line :class:`UserError` for anything else.
    """
    if game is not None:
        board = game_named(game)
        if max_take is not None or misere or (not isinstance(piles, tuple) or piles != DEFAULT_PILES):
            raise UserError(f"game={board.name} says the whole board: leave piles, max_take and misere out")
        return board
    if not isinstance(piles, (str, Rules)):
        return Rules(piles, max_take, misere)
    named = Rules.parse(piles) if isinstance(piles, str) else piles
    given = Rules(named.piles, max_take, misere)  # the keywords' own checks
    if (max_take is not None and max_take != named.max_take) or (misere and not named.misere):
        raise UserError(f"board {named.name} says its own cap and ending: max_take={shown(max_take)}, "
                        f"misere={misere} contradict it (leave them out, or name the board {given.name})")
    return named


def legal_and_winning(rules: Game, position) -> tuple[np.ndarray, list[int]]:
    """``(mask, winning)`` at ``position``: ``(n_moves,) int8`` 1 for each legal move, and the
    sorted indices of the winning moves (Nim theory, or another game's theory or solved board:
    empty in a lost or finished position)."""
    positions = np.array([position], dtype=np.int64)
    mask = legal_mask(rules, positions)[0].astype(np.int8)
    if isinstance(rules, Rules):
        return mask, np.flatnonzero(winning_mask(rules, positions)[0]).tolist()
    return mask, sorted(rules.action_of(move) for move in _perfect(rules).winning_moves(position))


@lru_cache(maxsize=8)
def _perfect(rules: Game) -> PerfectAgent:
    return PerfectAgent(rules)


def picture(rules: Rules, position, to_move: str, winner: str | None = None) -> str:
    """One line of text: the piles, then who moves, or who won."""
    piles = " ".join(map(str, position))
    state = f"{to_move} to move" if winner is None else f"game over, {winner} wins"
    return f"{rules.name}: piles {piles}; {state}"


class NimEnv(gymnasium.Env):  # type: ignore[name-defined]  # gymnasium, an optional extra, is imported on use
    """One seat of a Nim game against a nim_evo player (see the module).

    Args:
        piles, max_take, misere: the board (see :func:`board`); or
        game: a board of any family, or its name (``"20-sub1.3.4"``, ``"8-kayles"``).
        opponent: anything :func:`~nim_evo.interop.players.player_for` takes (resolved once).
        seat: the agent's seat, 0 (moves first), 1, or ``"alternate"``: 0, 1, 0, ... from
            each ``reset(seed=...)`` on (an episode whose seat ``options`` name is not counted).
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns a line of text).
        opponent_seed: the seed a learner opponent trains with (see ``player_for``).

    Attributes:
        rules: the game; moves: every ``(pile, count)`` move, an action indexing it.

    On a board where one move can take everything (one pile, no cap), an opponent moving
    first may end the game: ``reset`` then shows the empty board (an all-zero mask), and the
    next step ends the episode with the game's reward, whatever the action.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(self, piles=(1, 3, 5, 7, 9), max_take=None, misere=False, opponent="random",
                 seat="alternate", render_mode=None, opponent_seed=0, game=None):
        self.rules = board(piles, max_take, misere, game)
        self.moves = self.rules.moves
        if isinstance(seat, bool) or seat not in AGENT_SEATS:
            raise UserError(f"seat must be 0, 1 or 'alternate', got {shown(seat)}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UserError(f"render_mode must be None or 'ansi', got {shown(render_mode)}")
        check("opponent_seed", opponent_seed, [SEED])
        self.opponent = player_for(opponent, self.rules, opponent_seed)
        self.seat, self.render_mode = seat, render_mode
        start = np.array(self.rules.start, dtype=np.int64)  # a heap at most its start, or where a split's part
        # may go to any empty slot, at most the largest heap
        high = start if self.rules.heaps_in_place else np.full(len(start), start.max())
        self.observation_space = spaces.Box(0, high, (len(start),), np.int64)
        self.action_space = spaces.Discrete(len(self.moves))
        self._episodes = 0  # episodes of the alternation since the last seeded reset
        self._position = None
        self._agent_seat = 0
        self._winner = None  # seat, once the game is over
        self._over = True  # no episode under way: step needs a reset

    def reset(self, *, seed=None, options=None):
        """Start a game: ``options={"seat": 0 or 1}`` for the agent's seat in this one, else
        the constructor's ``seat``. Returns ``(observation, info)``."""
        super().reset(seed=seed)
        if seed is not None:
            self._episodes = 0
        if options is not None and (not isinstance(options, dict) or set(options) - {"seat"}):
            raise UserError(f"options is None or a dict whose one key is 'seat', got {shown(options)}")
        seat = (options or {}).get("seat")
        if seat is not None:
            if not isinstance(seat, Integral) or isinstance(seat, bool) or seat not in (0, 1):
                raise UserError(f"options['seat'] must be 0 or 1, got {shown(seat)}")
        elif self.seat == "alternate":
            seat, self._episodes = self._episodes % 2, self._episodes + 1
        else:
            seat = self.seat
        self._agent_seat, self._position, self._winner, self._over = int(seat), self.rules.start, None, False
        if self._agent_seat == 1:
            self._opponent_moves()
        return self._observation(), self._info()

    def step(self, action):
        """Play ``action`` (a move's index), then the opponent's reply."""
        if self._over:
            raise UserError("the episode is over (or never started): call reset() first")
        if self._winner is None:  # (else the opponent's opening move ended the game)
            try:
                index = operator.index(action)
            except TypeError:
                index = -1
            if not (0 <= index < len(self.moves) and self.rules.is_legal(self._position, self.moves[index])):
                self._over, self._winner = True, 1 - self._agent_seat  # the opponent wins by forfeit
                return self._observation(), -1.0, True, False, self._info(illegal=True)
            self._position = self.rules.apply(self._position, self.moves[index])
            if self.rules.is_over(self._position):
                self._winner = self.rules.winner(self._agent_seat)
            else:
                self._opponent_moves()
        self._over = self._winner is not None
        reward = 0.0 if not self._over else 1.0 if self._winner == self._agent_seat else -1.0
        return self._observation(), reward, self._over, False, self._info(illegal=False)

    def render(self):
        """The position as a line of text (``render_mode="ansi"``); ``None`` and a warning
        without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self._position is None:
            return f"{self.rules.name}: no game yet (call reset())"
        names = {self._agent_seat: "agent", 1 - self._agent_seat: "opponent"}
        winner = None if self._winner is None else names[self._winner]
        return picture(self.rules, self._position, "agent", winner)

    def close(self):
        """Nothing to release."""

    # -- inside ------------------------------------------------------------------------

    def _opponent_moves(self):
        move = self.opponent.move(self._position, self.np_random)
        if not self.rules.is_legal(self._position, move):  # (a pair of whole numbers, legal here)
            raise IllegalMove(f"{self.opponent.name} played the illegal move {move!r} in position "
                              f"{self._position} of {self.rules.name}", move)
        self._position = self.rules.apply(self._position, move)
        if self.rules.is_over(self._position):
            self._winner = self.rules.winner(1 - self._agent_seat)

    def _observation(self) -> np.ndarray:
        return np.array(self._position, dtype=np.int64)

    def _info(self, **extra) -> dict:
        mask, winning = legal_and_winning(self.rules, self._position)
        return {"action_mask": mask, "winning_moves": winning, "seat": self._agent_seat, **extra}
