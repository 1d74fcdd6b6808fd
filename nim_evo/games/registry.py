"""The families by name, a game by its name or its JSON, and the entry-point group ``nim_evo.games``.

A family is a :class:`~nim_evo.games.base.Game` subclass with a ``family`` name, a ``grammar``
(how its boards are named, said in help), an ``example`` name, and a class method
``from_name(name)`` that returns the board a name says, ``None`` for a name of another
family's grammar, or a one-line :class:`UserError` for a name of its grammar with a bad value.
A package adds a family without editing nim_evo, in its ``pyproject.toml``::

    [project.entry-points."nim_evo.games"]
    dawson = "mypackage.dawson:Dawson"

and its boards' names are then read by every command and function that takes a game.
"""

from __future__ import annotations

from nim_evo.games.base import Game
from nim_evo.games.grundysgame import GrundysGame
from nim_evo.games.lasker import Lasker
from nim_evo.games.moore import Moore
from nim_evo.games.nim import Rules, rules_from_json, rules_to_json
from nim_evo.games.octal import Octal
from nim_evo.games.squares import Squares
from nim_evo.games.subtraction import Subtraction
from nim_evo.games.wythoff import Wythoff
from nim_evo.plugins import Registry
from nim_evo.validation import InstanceOf, UserError, shown

MAX_NAME = 10_000  # characters of a game's name read (a hundred heaps of 10^15 and their set fit)


def _check_family(name: str, family) -> None:
    if not (isinstance(family, type) and issubclass(family, Game) and callable(getattr(family, "from_name", None))):
        raise UserError(f"game family {name!r} must be a nim_evo Game subclass with a from_name class method, "
                        f"got {family!r}")


# Boards people play beyond the write-ups' presets (Nim's, in nim.PRESETS), each a name in its
# family's grammar: what --list-games shows after Nim's
PRESETS: dict[str, str] = {
    "3-4-5-misere": "piles 3-4-5, last take loses (a published LLM benchmark's Book Nim; its list plays 1-3-4)",
    "1-3-5-7-misere": "piles 1-3-5-7, last take loses (OpenSpiel's nim with its default parameters)",
    "21-sub1.2.3": "count to 21: one heap of 21, take 1 to 3, whoever says 21 wins (a published LLM benchmark's; "
                   "seeds 000 and 001 play it as 21-cap3)",
    "11-grundy": "Grundy's game from a heap of 11 (a published LLM benchmark's)",
    "8-kayles": "Kayles on a row of 8 pins (a published LLM benchmark's)",
    "13-squares": "Subtract-a-Square from a heap of 13 (a published LLM benchmark's)",
    "5-6-wythoff": "Wythoff's game from heaps of 5 and 6 (a published LLM benchmark's)",
    "10-kayles": "Kayles on a row of 10 pins (a row of OpenSpiel's Kayles, whose length is a parameter)",
    "12-dawson": "Dawson's Kayles on a row of 12",
    "3-5-7-lasker": "Lasker's Nim on 3-5-7",
    "1-3-5-7-9-moore2": "Moore's Nim_2 on 1-3-5-7-9: take from one or two piles at once",
}

FAMILIES = Registry("nim_evo.games", {"nim": Rules, "subtraction": Subtraction, "squares": Squares, "wythoff": Wythoff,
                                      "moore": Moore, "octal": Octal, "lasker": Lasker, "grundy": GrundysGame},
                     "game family", _check_family)
GAME = InstanceOf(Game, what="a game (nim_evo.game('7-5-3'))")


def register(family: type[Game]) -> type[Game]:
    """Add a family under its ``family`` name (usable as a class decorator); returns it."""
    FAMILIES.register(getattr(family, "family", None), family)
    return family


def game(name) -> Game:
    """The board a name says, in any registered family's grammar (``7-5-3``, ``20-sub1.3.4``,
    ``3-5-7-sub1.2.4-misere``); a game passes through. A one-line :class:`UserError` otherwise."""
    if isinstance(name, Game):
        return name
    if not isinstance(name, str):
        raise UserError(f"a game is a name such as 7-5-3 or 20-sub1.3.4, got {shown(name)}")
    text = name.strip().lower()
    if len(text) > MAX_NAME:
        raise UserError(f"cannot read game {name[:30]!r}...: a game's name has at most {MAX_NAME:,} characters")
    for family in FAMILIES.values():
        try:
            board = family.from_name(text)
        except UserError as error:
            if str(error).startswith("cannot read game"):
                raise
            raise UserError(f"cannot read game {shown(name)}: {error}") from None
        if board is not None:
            return board
    grammars = "; ".join(f"{key}: {family.grammar}, e.g. {family.example}" for key, family in FAMILIES.items())
    raise UserError(f"cannot read game {shown(name)}: no family names its boards so ({grammars})")


def game_to_json(board: Game) -> dict:
    """A game as the files nim_evo writes record it: a Nim board by Nim's three fields, as
    every file has since the first (older nim_evo reads them), any other by its name under
    ``"game"``. :func:`game_from_json` reads both, and a Nim board's ``to_json`` (both at once)."""
    return rules_to_json(board) if isinstance(board, Rules) else board.to_json()


def game_from_json(data, source: str = "file") -> Game:
    """The game a JSON object records: by its ``"game"`` name, or, in a file written before
    games were values (no ``"game"`` key), Nim's ``piles``, ``max_take`` and ``misere``. A
    one-line :class:`UserError` naming ``source`` if it records none, or two that disagree."""
    if not isinstance(data, dict):
        raise UserError(f"{source} does not record a game")
    if "game" not in data:
        return rules_from_json(data, source)
    try:
        board = game(data["game"])
    except UserError as error:
        raise UserError(f"{source}: {error}") from None
    if "piles" in data and board != rules_from_json(data, source):
        raise UserError(f"{source} records the game {board.name} and other rules ({rules_from_json(data, source)})")
    return board
