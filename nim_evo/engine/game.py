"""One game at a time on the scalar path (the ``playGame`` of Moore's NIM Rules)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from numbers import Integral

import numpy as np

from nim_evo.games.base import Game
from nim_evo.games.base import POSITION, Position
from nim_evo.games.takeaway import Move
from nim_evo.games.registry import GAME
from nim_evo.games.takeaway import TakeAway
from nim_evo.validation import Constraint, IllegalMove, InstanceOf, Interval, UserError, validate

RNG = InstanceOf(np.random.Generator, what="a numpy Generator (np.random.default_rng(seed))")


@dataclass(frozen=True)
class GameRecord:
    """What happened in one game.

    Attributes:
        start: the starting position.
        moves: the moves in order, in the game's own words (``move_of``); seat 0 made the
            even-numbered ones.
        winner: the seat (0 moved first, 1 second) that won.
    """

    start: Position
    moves: tuple[Move, ...]
    winner: int

    def positions(self, rules: Game) -> list[Position]:
        """Every position of the game, from the start to the empty board."""
        positions = [self.start]
        for move in self.moves:
            positions.append(rules.apply(positions[-1], move))
        return positions


class TooLong(UserError):
    """A game not over after its ``max_moves`` moves."""


class Pair(Constraint):
    """Two players, each with ``move(piles, rng)``."""

    def __call__(self, value) -> bool:
        return isinstance(value, (tuple, list)) and len(value) == 2 and all(callable(getattr(p, "move", None))
                                                                             for p in value)

    def __str__(self) -> str:
        return "two agents with move(piles, rng), the first moving first"


# A game ends within as many moves as it has objects, which on piles of 10^15 is forever
# for two players that take one at a time; a million moves take about ten seconds.
MAX_PLIES = 1_000_000  # bounds the plies (moves of either player) in one game record: play_game's default max_moves


class Plays(Protocol):
    """What plays a game here: ``move(position, rng)``, a move in the game's own words (every
    nim_evo player and agent)."""

    def move(self, piles: Position, rng: np.random.Generator) -> Move:
        """Its move at ``piles``, in the game's own words, drawing any randomness from ``rng``."""
        ...


def play_game(rules: Game, players: Sequence[Plays], rng: np.random.Generator, start: Position | None = None,
              max_moves: int = MAX_PLIES) -> GameRecord:
    """Play one game between two agents (``players[0]`` moves first) and return its record.

    Raises:
        IllegalMove (an AgentError): if an agent plays an illegal move (its fault, named with the position).
        UserError: if the start is not a valid position; :class:`TooLong` if the game is not
            over after ``max_moves`` moves.
    """
    validate({"rules": [GAME], "players": [Pair()], "rng": [RNG], "start": [None, POSITION],
              "max_moves": [Interval(Integral, 1, None)]},
             {"rules": rules, "players": players, "rng": rng, "start": start, "max_moves": max_moves})
    position = rules.check_position(rules.start if start is None else start)
    moves: list[Move]
    start, moves, seat = position, [], 0
    while not rules.is_over(position):
        if len(moves) == max_moves:
            raise TooLong(f"a game on {rules.name} was not over after {max_moves:,} moves ({sum(position):,} "
                            "objects left): these players take too few at a time for piles this big")
        move = players[seat].move(position, rng)
        try:
            move = (int(move[0]), int(move[1])) if isinstance(rules, TakeAway) and len(move) == 2 else move
            legal = rules.is_legal(position, move)
        except (TypeError, ValueError, IndexError):
            legal = False
        if not legal:
            name = getattr(players[seat], "name", None) or type(players[seat]).__name__
            raise IllegalMove(f"{name} played the illegal move {move!r} in position {position} of {rules.name}", move)
        position = rules.apply(position, move)
        moves.append(move)
        seat = 1 - seat
    if not moves:
        raise UserError(f"the game from {start} is already over")
    return GameRecord(start, tuple(moves), rules.winner(1 - seat))
