"""nim_evo's boards as OpenSpiel names them: a short name per family and the board as game parameters.

Every family is an OpenSpiel game ``nim_evo_<family>`` (``nim_evo_nim``, ``nim_evo_subtraction``,
``nim_evo_octal``, ...), and Kayles and Dawson's Kayles, octal games of fixed codes, are also
``nim_evo_kayles`` and ``nim_evo_dawson``. A board is three parameters, read back to the same
board::

    heaps     the starting heaps, joined by ";" as OpenSpiel's nim joins pile_sizes ("3;4;5"),
              a ";" after the last allowed (heaps=10;: a game string's bare 10 is a number to
              OpenSpiel, and heaps is a string)
    rule      what the board's name says after its heaps (sub1.3.4, cap3, moore2, octal.137;
              empty for Nim without a cap, and no parameter at all for kayles and dawson)
    misere    False for normal play, True for misère play

so ``nim_evo_subtraction(heaps=20,rule=sub1.3.4,misere=True)`` is ``20-sub1.3.4-misere``. This
module needs no pyspiel: the referee reads such game strings in transcripts, and
:mod:`nim_evo.interop.spielgames` registers the games with pyspiel.
"""

from __future__ import annotations

import re

from nim_evo.games.base import Game
from nim_evo.games.registry import FAMILIES, game
from nim_evo.validation import UserError

PREFIX = "nim_evo_"
FIXED = {"kayles": ("octal", "kayles"), "dawson": ("octal", "dawson")}  # a short name whose rule is fixed
DEFAULTS = {"nim": "1-3-5-7", "subtraction": "21-sub1.2.3", "squares": "13-squares", "wythoff": "5-6-wythoff",
            "moore": "1-3-5-7-9-moore2", "octal": "10-octal.137", "lasker": "3-5-7-lasker", "grundy": "11-grundy",
            "kayles": "10-kayles", "dawson": "12-dawson"}  # each short name's board when no parameter says one
_NAME = re.compile(r"(?P<heaps>\d+(?:-\d+)*)(?:-(?!misere$)(?P<rule>.*?))?(?P<misere>-misere)?")  # Nim's rule may be none


def short_names() -> list[str]:
    """Every short name, registered families first (a family a package adds has no default board:
    its parameters are required)."""
    return [PREFIX + family for family in FAMILIES] + [PREFIX + alias for alias in FIXED]


def spiel_parameters(board: Game) -> tuple[str, dict]:
    """The short name and the parameters that say ``board``: ``kayles`` and ``dawson`` by their
    own names, every other board by its family's."""
    match = _NAME.fullmatch(board.name)
    if match is None:
        raise UserError(f"{board.name} is not a board name of heaps and a rule; it has no OpenSpiel parameters")
    rule = match.group("rule") or ""
    params: dict = {"heaps": match.group("heaps").replace("-", ";"), "misere": bool(board.misere)}
    for alias, (family, fixed) in FIXED.items():
        if board.family == family and rule == fixed:
            return PREFIX + alias, params
    return PREFIX + board.family, {**params, "rule": rule}


def from_spiel(short_name: str, params: dict) -> Game:
    """The board of an OpenSpiel short name and its parameters (missing ones from its default
    board); a one-line :class:`UserError` for a name or parameter that says none."""
    if not short_name.startswith(PREFIX):
        raise UserError(f"{short_name!r} is not one of nim_evo's OpenSpiel games (nim_evo_<family>)")
    kind = short_name[len(PREFIX):]
    family, fixed = FIXED.get(kind, (kind, None))
    if family not in FAMILIES:
        raise UserError(f"OpenSpiel's {short_name!r} is no game nim_evo plays; its games are "
                        f"{', '.join(short_names())}")
    allowed = {"heaps", "misere"} | ({"rule"} if fixed is None else set())
    unknown = set(params) - allowed
    if unknown:
        raise UserError(f"{short_name} has no parameter {sorted(unknown)[0]!r} (it has {', '.join(sorted(allowed))})")
    default = _NAME.fullmatch(DEFAULTS[kind]) if kind in DEFAULTS else None
    if default is None and ("heaps" not in params or (fixed is None and "rule" not in params)):
        raise UserError(f"{short_name} has no default board: give its heaps and rule")
    heaps = str(params.get("heaps", default.group("heaps").replace("-", ";") if default else ""))
    if not re.fullmatch(r"\d+(;\d+)*;?", heaps.strip()):  # one heap may say "10;": a string in a game string
        raise UserError(f"{short_name}: heaps={heaps!r} is not heap sizes joined by ;")
    rule = fixed if fixed is not None else str(params.get("rule", default.group("rule") or "" if default else ""))
    misere = params.get("misere", False)
    if isinstance(misere, str):
        if misere.lower() not in ("true", "false"):
            raise UserError(f"{short_name}: misere={misere!r} is neither True nor False")
        misere = misere.lower() == "true"
    sizes = heaps.strip().removesuffix(";").split(";")
    name = "-".join(sizes) + (f"-{rule}" if rule else "") + ("-misere" if misere else "")
    board = game(name)
    if board.family != family:
        raise UserError(f"{short_name}: heaps={heaps} and rule={rule!r} say {board.name}, a board of {board.family}")
    return board
