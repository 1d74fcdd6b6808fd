"""A person's agent as a :class:`~nim_evo.agents.player.Player`, by its primary answer.

:func:`nim_evo.agents.protocol.as_player` picks the adapter: ``move_probabilities``
(:class:`ProbabilitiesAgent`), ``distribution`` (:class:`DistributionAgent`) or ``move`` alone
(:class:`MoveAgent`, compiled to a table only if it is deterministic). Every face of the
adapted player derives from that one answer; an illegal move, a malformed answer or an
exception raised by the agent's own code is an :class:`~nim_evo.validation.AgentError`
naming the agent and the position.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from nim_evo.games.base import Game
from nim_evo.agents.deadline import OutOfTime
from nim_evo.agents.player import Player, PositionalAgent, index_of, is_order_blind, name_of
from nim_evo.games.base import Position
from nim_evo.games.takeaway import Move
from nim_evo.validation import AgentError, UserError, printable, shown

PROBES = (1, 2)  # the seeds of the two generators a move-only agent is asked with
SLOW = 10.0  # seconds: a person's agent asked at every position for longer is said to be slow, with an estimate
BATCH = 4096  # positions asked at once, at most


class Adapted(Player):
    """A person's agent as a :class:`Player`; ``order_blind`` as it declares. ``tell_slow``:
    whether :meth:`move_probabilities` says on stderr when asking it everywhere is slow (a
    caller that keeps its own watch, as grading does, turns it off)."""

    tell_slow = True

    def __init__(self, agent, rules: Game):
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
            if self.tell_slow and not told and elapsed >= 1 and done < len(positions):
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

    def _ask(self, question: str, *args, piles: Position | None = None, **kwargs):
        """The agent's answer to ``question`` (a method's name; ``"__call__"`` calls the agent
        itself) at ``piles`` (the first argument, where not given); its own exceptions as an
        :class:`AgentError` (a person's input, a :class:`UserError` it raises, passes as it is)."""
        try:
            return getattr(self.agent, question)(*args, **kwargs)
        except (UserError, AgentError, KeyboardInterrupt, OutOfTime):
            raise
        except BaseException as error:  # SystemExit too: a player's code never ends the command (as status 0)
            if piles is None and question != "move_probabilities" and args:
                piles = args[0]
            if piles is not None:
                where = f" at {tuple(piles)}"
            elif question == "move_probabilities" and args:  # a batch: its first position and its size
                where = f" at one of {len(args[0]):,} positions from {tuple(map(int, args[0][0]))} on"
            else:
                where = ""
            asked = "" if question == "__call__" else f" in {question}"
            raise AgentError(f"{self.name} raised {type(error).__name__}{asked}{where}: {error}") from error


class ProbabilitiesAgent(Adapted):
    """A duck-typed agent with ``move_probabilities``: its answer, checked for shape."""

    def _rows(self, positions):
        answer = self._ask("move_probabilities", positions)
        try:
            table = np.asarray(answer, dtype=float)
        except Exception as error:  # (strings, objects whose __float__ raises, ragged rows)
            raise AgentError(f"{self.name}.move_probabilities answered {shown(answer)} for {len(positions)} "
                             f"positions, not numbers: {type(error).__name__}") from None
        if table.shape != (len(positions), self.rules.n_moves):
            raise AgentError(f"{self.name}.move_probabilities answered shape {table.shape} for {len(positions)} "
                             f"positions of {self.rules.name}; expected {(len(positions), self.rules.n_moves)}")
        finite = np.isfinite(table)
        if not finite.all():  # (NaN among them: None in an array of objects reads as NaN)
            row = int(np.argmin(finite.all(axis=1)))
            raise AgentError(f"{self.name}.move_probabilities answered {shown(table[row])} at "
                             f"{tuple(map(int, positions[row]))}; probabilities are finite numbers")
        return table


class DistributionAgent(Adapted, PositionalAgent):
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


class MoveAgent(Adapted, PositionalAgent):
    """A duck-typed agent with ``move`` only: compiled if it is deterministic (asked each
    position with two generators, :data:`PROBES`, and refused in one line if its answers
    differ)."""

    _rows = PositionalAgent.move_probabilities
    random_moves = "an agent whose moves are random needs distribution(piles) to be compiled to a policy table"

    def distribution(self, piles: Position):
        piles = tuple(int(n) for n in piles)
        first, second = (self._move(piles, seed) for seed in PROBES)
        if first != second:
            raise RandomMoves(f"{self.name} plays {first} and then {second} from {piles}: {self.random_moves}")
        return [(first, 1.0)]

    def move(self, piles: Position, rng: np.random.Generator) -> Move:
        piles = tuple(int(n) for n in piles)
        return _checked(self, piles, self._answer(piles, rng))

    def _answer(self, piles: Position, rng: np.random.Generator):
        """The agent's move, as it gave it."""
        return self._ask("move", piles, rng)

    def _move(self, piles: Position, seed: int) -> Move:
        return self.move(piles, np.random.default_rng(seed))


class RandomMoves(UserError):
    """A move-only agent played two moves from one position: it has no table (games only)."""


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
