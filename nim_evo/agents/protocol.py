"""The agent protocol: what nim_evo needs of a person's player, and how it becomes a
:class:`~nim_evo.agents.player.Player`.

An **agent** is any object with one of these (the first it has is its primary answer):

``move_probabilities(positions) -> (k, n_moves)``
    the probability of each move of the rules' move list at each of a batch of positions
    ``(k, n_piles)`` (what every built-in player answers);
``distribution(piles) -> [((pile, count), probability), ...]``
    its moves at one position with their probabilities (summing to 1): enough for any
    agent whose choice depends on the position alone, random or not;
``move(piles, rng) -> (pile, count)`` alone
    then the agent must be deterministic (the same move in the same position, whatever the
    generator): it is asked each position twice with different generators, and refused, in
    one line, if its answers differ (give it a ``distribution``);
``choose_action(piles, epsilon=False) -> (i, j)``, or a function ``f(state) -> (row, num_objects)``
    of a state with ``rows`` and ``k``: a course-style player (:mod:`nim_evo.agents.course`),
    a move-only agent as above.

``piles`` is a tuple of pile sizes (piles indexed from 0), ``rng`` a
``numpy.random.Generator`` (the only randomness an agent may use), a move takes ``count``
(>= 1, at most the rules' cap) objects from pile ``pile``. Optional attributes: ``name``
(shown in results; default the class name), ``rules`` (the game it was made for) and
``order_blind`` (``True`` if its choice depends only on the multiset of pile sizes: then it
may be judged over multisets, else it is judged on the ordered board).

:func:`as_player` wraps such an object in a :class:`~nim_evo.agents.player.Player` whose
every face derives from that one answer (:mod:`nim_evo.agents.adapted`). An illegal move, a malformed answer or an
exception raised by the agent's own code is an :class:`~nim_evo.validation.AgentError`
naming the agent and the position. An agent that remembers the game or learns while it
plays has no table: it plays on the scalar path only.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from nim_evo.agents.adapted import DistributionAgent, MoveAgent, ProbabilitiesAgent
from nim_evo.agents.course import ChooseActionAgent, StateFunctionAgent, is_strategy_function
from nim_evo.agents.player import Player, name_of
from nim_evo.annotations import AgentObject
from nim_evo.games.base import Position
from nim_evo.games.takeaway import Move
from nim_evo.games.base import Game
from nim_evo.games.registry import GAME
from nim_evo.validation import Constraint, UserError, check

__all__ = ["Agent", "as_player", "compiled", "is_agent", "name_of"]

QUESTIONS = ("move_probabilities", "distribution", "move", "choose_action")  # an agent's, in the order they are asked
NEEDS = ("an agent needs move(piles, rng) -> (pile, count), and distribution(piles) -> [((pile, count), "
         "probability), ...] to be evaluated exactly whatever its randomness")


@runtime_checkable
class Agent(Protocol):
    """Anything that plays: ``move(piles, rng) -> (pile, count)``."""

    def move(self, piles: Position, rng: np.random.Generator) -> Move:
        """Its move at ``piles``, in the game's own words, drawing any randomness from ``rng``."""
        ...


def is_agent(thing) -> bool:
    """Whether ``thing`` answers one of the protocol's questions, or is a lab's strategy function
    (a class is not: its objects are)."""
    if isinstance(thing, type):
        return False
    return any(callable(getattr(thing, name, None)) for name in QUESTIONS) or is_strategy_function(thing)


class AgentLike(Constraint):
    """What :func:`is_agent` accepts."""

    def __call__(self, value) -> bool:
        return is_agent(value)

    def __str__(self) -> str:
        return ("an agent (with move(piles, rng), distribution(piles), move_probabilities(positions) or "
                "choose_action(piles), or a function of a state with rows and k)")


AGENT = AgentLike()


def as_player(agent: AgentObject, rules: Game | None = None) -> Player:
    """``agent`` as a :class:`Player`: itself if it is one, else wrapped by its primary answer
    (see the module); ``rules`` is the game it plays where the agent names none. A one-line
    :class:`UserError` saying what an agent needs for anything else."""
    check("rules", rules, [None, GAME])
    if isinstance(agent, Player):
        return agent
    if isinstance(agent, type):
        raise UserError(f"{agent.__name__} is a class: give one of its objects, {agent.__name__}(...)")
    own = getattr(agent, "rules", None)
    if own is not None and not isinstance(own, Game):
        raise UserError(f"{name_of(agent)}.rules is a {type(own).__name__}, not a game (a nim_evo.Rules or another)")
    rules = own or rules
    if rules is None:
        raise UserError(f"{name_of(agent)} names no rules: give them when it plays")
    if callable(getattr(agent, "move_probabilities", None)):
        return ProbabilitiesAgent(agent, rules)
    if callable(getattr(agent, "distribution", None)):
        return DistributionAgent(agent, rules)
    if callable(getattr(agent, "move", None)):
        return MoveAgent(agent, rules)
    if callable(getattr(agent, "choose_action", None)):
        return ChooseActionAgent(agent, rules)
    if is_strategy_function(agent):
        return StateFunctionAgent(agent, rules)
    raise UserError(f"{type(agent).__name__} is not an agent: {NEEDS}")


def compiled(player, rules: Game | None = None):
    """``player`` in a form the batched path reads: a table, move array or list of them as it
    is, a duck-typed object with its own ``policy(space)`` as it is, anything else as a
    :class:`Player` (:func:`as_player`). (A table kept sparse, :func:`nim_evo.engine.policy.kept`, is a table.)"""
    if isinstance(player, (Player, np.ndarray, list, tuple)) or callable(getattr(player, "policy", None)) \
            or hasattr(player, "toarray"):
        return player
    return as_player(player, rules)
