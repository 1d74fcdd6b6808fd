"""The games layer: one board of one family as a value, and the families.

Above :mod:`nim_evo.io` and :mod:`nim_evo.validation`, below the engine, which reads only
:class:`Game`: the only code that knows what a move is. One file per family (Nim in
:mod:`~nim_evo.games.nim`, subtraction games in :mod:`~nim_evo.games.subtraction`), a
registry (:mod:`~nim_evo.games.registry`) that reads their names, and the entry-point group
``nim_evo.games`` through which a package adds its own.
"""

from nim_evo.games.base import Game, Position
from nim_evo.games.nim import Nim, Rules
from nim_evo.games.registry import FAMILIES, GAME, game, game_from_json, game_to_json, register
from nim_evo.games.subtraction import Subtraction

__all__ = ["FAMILIES", "GAME", "Game", "Nim", "Position", "Rules", "Subtraction", "game", "game_from_json",
           "game_to_json", "register"]
