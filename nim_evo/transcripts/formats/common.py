"""What the readers share: the convention a board is graded under, and a take-away harness's
``(heap, count)`` read as an action of the board."""

from __future__ import annotations

import dataclasses

from nim_evo.games.base import Game
from nim_evo.games.registry import game as game_named
from nim_evo.transcripts.record import TranscriptError
from nim_evo.validation import UserError

CONVENTIONS = ("normal", "misere")
SEATS = ("player 0", "player 1")  # who played, where a transcript does not say


def graded_as(game: Game, convention: str | None, harness: str) -> tuple[Game, str]:
    """``game`` under ``convention`` (``"normal"``, ``"misere"``, or ``None``: the harness's own),
    and why, for the report: ``harness`` says what the harness plays."""
    if convention is None:
        return game, harness
    misere = convention == "misere"
    if game.misere == misere:
        return game, f"{harness}; --convention {convention} says the same"
    return dataclasses.replace(game, misere=misere), f"--convention {convention} (the harness's own: {harness})"  # type: ignore[type-var]


def board(name, where: str) -> Game:
    """The board a transcript names (a nim_evo name), or a :class:`TranscriptError` at ``where``."""
    try:
        return game_named(name)
    except UserError as error:
        raise TranscriptError(where, str(error)) from None


def take_action(game: Game, heap: int, count: int) -> int | None:
    """The action taking ``count`` from heap ``heap`` (from 0) of a take-away board; ``None``
    where the board has no such move at all (a heap it does not have, more than its start)."""
    try:
        return game.action_of((heap, count))
    except UserError:
        return None
