"""The games layer: one board of one family as a value, and the families.

Above :mod:`nim_evo.io` and :mod:`nim_evo.validation`, below the engine, which reads only
:class:`Game`: the only code that knows what a move is. One file per family: Nim
(:mod:`~nim_evo.games.nim`), subtraction games (:mod:`~nim_evo.games.subtraction`),
Subtract-a-Square (:mod:`~nim_evo.games.squares`), Wythoff's game (:mod:`~nim_evo.games.wythoff`),
Moore's Nim_k (:mod:`~nim_evo.games.moore`), octal games such as Kayles
(:mod:`~nim_evo.games.octal`), Lasker's Nim (:mod:`~nim_evo.games.lasker`) and Grundy's game
(:mod:`~nim_evo.games.grundysgame`), over the shapes of move they share (take-away,
:mod:`~nim_evo.games.takeaway`; several heaps at once, :mod:`~nim_evo.games.multitake`; take and
split, :mod:`~nim_evo.games.splitting`). A registry (:mod:`~nim_evo.games.registry`) that reads their names, and the entry-point group
``nim_evo.games`` through which a package adds its own.
"""

from nim_evo.games.base import Game, Position
from nim_evo.games.grundysgame import GrundysGame
from nim_evo.games.lasker import Lasker
from nim_evo.games.moore import Moore
from nim_evo.games.nim import Nim, Rules
from nim_evo.games.octal import Octal
from nim_evo.games.registry import FAMILIES, GAME, game, game_from_json, game_to_json, register
from nim_evo.games.squares import Squares
from nim_evo.games.subtraction import Subtraction
from nim_evo.games.wythoff import Wythoff

__all__ = ["FAMILIES", "GAME", "Game", "GrundysGame", "Lasker", "Moore", "Nim", "Octal", "Position", "Rules",
           "Squares", "Subtraction", "Wythoff", "game", "game_from_json", "game_to_json", "register"]
