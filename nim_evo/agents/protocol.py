"""The agent protocol: what nim_evo needs of a player, and how a duck-typed one is compiled.

An **agent** is any object with

``move(piles, rng) -> (pile, count)``
    ``piles`` a tuple of pile sizes (the position; piles are indexed from 0), ``rng`` a
    ``numpy.random.Generator`` (the only randomness an agent may use), the result a legal
    move: take ``count`` (>= 1, at most the rules' cap) objects from pile ``pile``.

That is enough to play games one at a time (:func:`nim_evo.play_game`, ``python -m
nim_evo.play`` through strategy files). Tournaments, opponent panels and the exact evaluator
work on *policy tables* (the probability of each move in each position of an enumerated
space), and an agent becomes one in the first of these ways it allows:

``policy(space) -> (n_positions, n_moves)``
    the whole table at once (every built-in agent, genome and learner has one);
``distribution(piles) -> [((pile, count), probability), ...]``
    its moves at one position with their probabilities (summing to 1): enough for any
    agent whose choice depends on the position alone, random or not. It is asked at each
    position of the space (over multisets, at each representative, equal piles' moves added
    up); :class:`nim_evo.agents.base.PositionalAgent` is the base class that gives
    ``move`` and ``policy`` from it;
``move`` alone
    then the agent must be deterministic (the same move in the same position, whatever the
    generator): :func:`compiled` asks it each position twice with different generators and
    refuses, in one line, an agent whose answers differ (give it a ``distribution``).

An agent that remembers the game or learns while it plays has no table: it plays on the
scalar path only. Optional attributes: ``name`` (shown in results; default the class name)
and ``rules`` (the game it was made for).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from nim_evo.agents.base import PositionalAgent
from nim_evo.engine.rules import Move, Position
from nim_evo.validation import UserError

PROBES = (1, 2)  # the seeds of the two generators a move-only agent is asked with


@runtime_checkable
class Agent(Protocol):
    """Anything that plays: ``move(piles, rng) -> (pile, count)``."""

    def move(self, piles: Position, rng: np.random.Generator) -> Move: ...


def compiled(player):
    """``player`` in a form the batched path reads: itself if it has ``policy`` or is a
    table or move array (or a list of them), a compiling wrapper for an agent with only
    ``distribution`` or ``move``; a one-line :class:`UserError` saying what an agent needs
    for anything else."""
    if hasattr(player, "policy") or isinstance(player, (np.ndarray, list, tuple)):
        return player
    if hasattr(player, "distribution"):
        return DistributionAgent(player)
    if hasattr(player, "move"):
        return MoveAgent(player)
    raise UserError(f"{type(player).__name__} is not an agent: an agent needs move(piles, rng) -> (pile, count), "
                    "and distribution(piles) -> [((pile, count), probability), ...] to be evaluated exactly "
                    "whatever its randomness")


def name_of(agent) -> str:
    """What results call ``agent``."""
    return getattr(agent, "name", type(agent).__name__)


class DistributionAgent(PositionalAgent):
    """A duck-typed agent with ``distribution(piles)``, compiled as the built-in ones are."""

    def __init__(self, agent):
        super().__init__(getattr(agent, "rules", None))
        self.agent = agent
        self.name = name_of(agent)

    def distribution(self, piles: Position):
        return [((int(pile), int(count)), float(p)) for (pile, count), p in self.agent.distribution(tuple(piles))]


class MoveAgent(DistributionAgent):
    """A duck-typed agent with ``move`` only: compiled if it is deterministic (see the module)."""

    def distribution(self, piles: Position):
        first, second = (self._move(piles, seed) for seed in PROBES)
        if first != second:
            raise UserError(f"{self.name} plays {first} and then {second} from {tuple(piles)}: an agent whose "
                            "moves are random needs distribution(piles) to be compiled to a policy table")
        return [(first, 1.0)]

    def _move(self, piles: Position, seed: int) -> Move:
        move = self.agent.move(tuple(piles), np.random.default_rng(seed))
        try:
            pile, count = move
            return int(pile), int(count)
        except (TypeError, ValueError):
            raise UserError(f"{self.name} answered {move!r} from {tuple(piles)}; a move is (pile, count)") from None
