"""One game as a transcript recorded it: the board (its convention in the misère flag), who played
each seat, and its moves, as actions of the board or as the positions they led to.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from nim_evo.games.base import Game
from nim_evo.validation import UserError

if TYPE_CHECKING:
    import numpy as np

WINNING, BLUNDER, FORCED, ILLEGAL = "winning", "blunder", "forced", "illegal"
LABELS = (WINNING, BLUNDER, FORCED, ILLEGAL)  # a label's code is its index here

MAX_PLIES = 100_000  # moves in one recorded game, at most


class TranscriptError(UserError):
    """A transcript nim_evo cannot read: one line naming the file, the line and (when known) the game."""

    def __init__(self, where: str, message: str, game: Game | str | None = None):
        board = f" ({game if isinstance(game, str) else game.name})" if game is not None else ""
        super().__init__(f"{where}{board}: {message}")


@dataclass
class Record:
    """One recorded game.

    Exactly one of ``actions`` and ``positions`` says its moves:

    Attributes:
        game: the board from its start, whose misère flag is the convention it is graded under.
        convention: why that convention, in words for the report (``"TextArena's Nim-v0 plays
            normal play"``, ``"--convention misere"``).
        players: who played seat 0 (the first to move) and seat 1.
        source: ``FILE:LINE`` where the game is recorded.
        actions: the moves as actions of the board's alphabet, in order, replayed by the game's
            rule; an action that is not legal where it is played ends the game there, labelled
            illegal.
        positions: or, for a harness whose moves are not the board's actions (a row of pins, a
            row of coins), ``(plies + 1, width)``: the start and the position after each legal
            move, as its own rules played them (the reader checks their legality).
        objects: with ``positions``, the objects left before each move, where the harness counts
            them otherwise than the heaps' sum (coins showing heads).
        illegal: the text of a move that was no legal move, after the others (the game ends there).
        texts: the text of each move as recorded, for the report (optional).
        winner: the seat that won as the harness recorded it, where its games go on past a move
            the referee grades illegal (TextArena lets a player try again); ``None`` otherwise.
    """

    game: Game
    convention: str
    players: tuple[str, str]
    source: str
    actions: list[int] | None = None
    positions: np.ndarray | None = None
    objects: np.ndarray | None = None
    illegal: str | None = None
    texts: list[str] = field(default_factory=list)
    winner: int | None = None

    @property
    def plies(self) -> int:
        """The moves recorded, the illegal one included."""
        legal = len(self.actions) if self.actions is not None else len(self.positions) - 1  # type: ignore[arg-type]
        return legal + (self.illegal is not None)
