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
    one line, if its answers differ (give it a ``distribution``).

``piles`` is a tuple of pile sizes (piles indexed from 0), ``rng`` a
``numpy.random.Generator`` (the only randomness an agent may use), a move takes ``count``
(>= 1, at most the rules' cap) objects from pile ``pile``. Optional attributes: ``name``
(shown in results; default the class name), ``rules`` (the game it was made for) and
``order_blind`` (``True`` if its choice depends only on the multiset of pile sizes: then it
may be judged over multisets, else it is judged on the ordered board).

:func:`as_player` wraps such an object in a :class:`~nim_evo.agents.player.Player` whose
every face derives from that one answer. An illegal move, a malformed answer or an
exception raised by the agent's own code is an :class:`~nim_evo.validation.AgentError`
naming the agent and the position. An agent that remembers the game or learns while it
plays has no table: it plays on the scalar path only.
"""

from __future__ import annotations

import sys
import time
from typing import Protocol, runtime_checkable

import numpy as np

from nim_evo.agents.player import Player, PositionalAgent, index_of, is_order_blind, name_of
from nim_evo.engine.rules import RULES, Move, Position, Rules
from nim_evo.validation import AgentError, Constraint, UserError, check, printable

__all__ = ["Agent", "as_player", "compiled", "is_agent", "name_of"]

PROBES = (1, 2)  # the seeds of the two generators a move-only agent is asked with
SLOW = 10.0  # seconds: a person's agent asked at every position for longer is said to be slow, with an estimate
BATCH = 4096  # positions asked at once, at most
NEEDS = ("an agent needs move(piles, rng) -> (pile, count), and distribution(piles) -> [((pile, count), "
         "probability), ...] to be evaluated exactly whatever its randomness")


@runtime_checkable
class Agent(Protocol):
    """Anything that plays: ``move(piles, rng) -> (pile, count)``."""

    def move(self, piles: Position, rng: np.random.Generator) -> Move: ...


def is_agent(thing) -> bool:
    """Whether ``thing`` answers one of the protocol's questions."""
    return any(callable(getattr(thing, name, None)) for name in ("move_probabilities", "distribution", "move"))


class AgentLike(Constraint):
    """What :func:`is_agent` accepts."""

    def __call__(self, value) -> bool:
        return is_agent(value)

    def __str__(self) -> str:
        return "an agent (with move(piles, rng), distribution(piles) or move_probabilities(positions))"


AGENT = AgentLike()


def as_player(agent, rules: Rules | None = None) -> Player:
    """``agent`` as a :class:`Player`: itself if it is one, else wrapped by its primary answer
    (see the module); ``rules`` is the game it plays where the agent names none. A one-line
    :class:`UserError` saying what an agent needs for anything else."""
    check("rules", rules, [None, RULES])
    if isinstance(agent, Player):
        return agent
    own = getattr(agent, "rules", None)
    if own is not None and not isinstance(own, Rules):
        raise UserError(f"{name_of(agent)}.rules is a {type(own).__name__}, not a nim_evo.Rules")
    rules = own or rules
    if rules is None:
        raise UserError(f"{name_of(agent)} names no rules: give them when it plays")
    if callable(getattr(agent, "move_probabilities", None)):
        return ProbabilitiesAgent(agent, rules)
    if callable(getattr(agent, "distribution", None)):
        return DistributionAgent(agent, rules)
    if callable(getattr(agent, "move", None)):
        return MoveAgent(agent, rules)
    raise UserError(f"{type(agent).__name__} is not an agent: {NEEDS}")


def compiled(player, rules: Rules | None = None):
    """``player`` in a form the batched path reads: a table, move array or list of them as it
    is, a duck-typed object with its own ``policy(space)`` as it is, anything else as a
    :class:`Player` (:func:`as_player`)."""
    if isinstance(player, (Player, np.ndarray, list, tuple)) or callable(getattr(player, "policy", None)):
        return player
    return as_player(player, rules)


class _Adapted(Player):
    """A person's agent as a :class:`Player`; ``order_blind`` as it declares."""

    def __init__(self, agent, rules: Rules):
        super().__init__(rules)
        self.agent = agent
        self.name = name_of(agent)
        self.order_blind = is_order_blind(agent)

    def move_probabilities(self, positions):
        """The agent's rows, asked in batches that double in size: once a second has passed,
        if the rest would take more than :data:`SLOW` seconds, one line on stderr says how long
        (a person's agent is asked at every position of the board before a game is played)."""
        positions = np.asarray(positions, dtype=np.int64)
        if len(positions) <= 1:
            return self._rows(positions)
        rows, done, size, began, told = [], 0, 1, time.perf_counter(), False
        while done < len(positions):
            rows.append(self._rows(positions[done:done + size]))
            done += len(rows[-1])
            elapsed = time.perf_counter() - began
            if not told and elapsed >= 1 and done < len(positions):
                left = elapsed / done * (len(positions) - done)
                told = True
                if left > SLOW:
                    print(f"nim_evo: {printable(self.name)} takes {elapsed / done:.2g} s a position: asking it at "
                          f"{len(positions):,} positions of {self.rules.name} takes about {_duration(left)} more",
                          file=sys.stderr, flush=True)
            size = min(2 * size, BATCH)
        return np.concatenate(rows)

    def _rows(self, positions):
        raise NotImplementedError

    def _ask(self, question: str, *args):
        """The agent's answer; its own exceptions as an :class:`AgentError` (a person's input,
        a :class:`UserError` it raises, passes as it is)."""
        try:
            return getattr(self.agent, question)(*args)
        except (UserError, AgentError):
            raise
        except Exception as error:
            where = f" at {tuple(args[0])}" if question != "move_probabilities" and args else ""
            raise AgentError(f"{self.name} raised {type(error).__name__} in {question}{where}: {error}") from error


class ProbabilitiesAgent(_Adapted):
    """A duck-typed agent with ``move_probabilities``: its answer, checked for shape."""

    def _rows(self, positions):
        table = np.asarray(self._ask("move_probabilities", positions), dtype=float)
        if table.shape != (len(positions), self.rules.n_moves):
            raise AgentError(f"{self.name}.move_probabilities answered shape {table.shape} for {len(positions)} "
                             f"positions of {self.rules.name}; expected {(len(positions), self.rules.n_moves)}")
        return table


class DistributionAgent(_Adapted, PositionalAgent):
    """A duck-typed agent with ``distribution(piles)``, compiled as the built-in ones are."""

    _rows = PositionalAgent.move_probabilities

    def distribution(self, piles: Position):
        piles = tuple(int(n) for n in piles)
        answer = self._ask("distribution", piles)
        try:
            pairs = [(move, float(p)) for move, p in answer]
        except (TypeError, ValueError):
            raise AgentError(f"{self.name}.distribution answered {answer!r} at {piles}; a distribution is "
                             "[((pile, count), probability), ...]") from None
        return [(_checked(self, piles, move), p) for move, p in pairs]


class MoveAgent(_Adapted, PositionalAgent):
    """A duck-typed agent with ``move`` only: compiled if it is deterministic (see the module)."""

    _rows = PositionalAgent.move_probabilities

    def distribution(self, piles: Position):
        piles = tuple(int(n) for n in piles)
        first, second = (self._move(piles, seed) for seed in PROBES)
        if first != second:
            raise UserError(f"{self.name} plays {first} and then {second} from {piles}: an agent whose "
                            "moves are random needs distribution(piles) to be compiled to a policy table")
        return [(first, 1.0)]

    def move(self, piles: Position, rng: np.random.Generator) -> Move:
        piles = tuple(int(n) for n in piles)
        return _checked(self, piles, self._ask("move", piles, rng))

    def _move(self, piles: Position, seed: int) -> Move:
        return self.move(piles, np.random.default_rng(seed))


def _checked(player, piles: Position, move) -> Move:
    """``move`` as ``(pile, count)`` ints, an :class:`AgentError` unless it is legal at ``piles``."""
    index_of(player, piles, move)
    return int(move[0]), int(move[1])


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
