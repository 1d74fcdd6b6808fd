"""Every nim_evo game family as an OpenSpiel game, registered with pyspiel on import.

Importing this module registers ``nim_evo_<family>`` for every family of
:data:`nim_evo.games.registry.FAMILIES` (``nim_evo_nim``, ``nim_evo_subtraction``,
``nim_evo_octal``, ...) and ``nim_evo_kayles`` and ``nim_evo_dawson``, with the parameters of
:mod:`nim_evo.games.spielnames` (``heaps``, ``rule``, ``misere``; each short name's default
board in :data:`~nim_evo.games.spielnames.DEFAULTS`)::

    import pyspiel
    import nim_evo.interop.spielgames  # noqa: F401  (registers the games)

    game = pyspiel.load_game("nim_evo_subtraction(heaps=9;7,rule=sub1.3.4,misere=True)")
    kayles = pyspiel.load_game("nim_evo_kayles", {"heaps": "10"})

An OpenSpiel game's distinct actions are the board's action alphabet (``game.n_actions``), so
a history is a list of nim_evo action ids and ``action_to_string`` is the board's label. It is
sequential, deterministic, of perfect information and zero-sum; the last mover wins (+1, the
other -1) in normal play and loses in misère play. A state prints as OpenSpiel's ``nim``
prints one, ``(player): heaps``; its observation tensor is who is to move (two entries) and
the heap sizes (``board.width`` of them: a splitting game's row is zero-padded).

``heaps`` is a string, as OpenSpiel's ``nim``'s ``pile_sizes`` is, and OpenSpiel reads a bare
number in a game string as an integer: a board of one heap is written with a trailing ``;``
in a game string (``nim_evo_kayles(heaps=10;)``, which is also how the game prints itself, so
that it reads back), or as ``{"heaps": "10"}`` in a dict.

pyspiel is imported here, and only here (``pip install 'nim-evo[openspiel]'``).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from nim_evo.games.base import Game
from nim_evo.games.registry import FAMILIES
from nim_evo.games.spielnames import DEFAULTS, FIXED, PREFIX, from_spiel, short_names, spiel_parameters
from nim_evo.games.splitting import SplitGame
from nim_evo.interop.extras import OPENSPIEL, need
from nim_evo.validation import UserError

WHAT = "nim_evo.interop.spielgames"

pyspiel = need("pyspiel", OPENSPIEL, WHAT)
_observation = need("open_spiel.python.observation", OPENSPIEL, WHAT)
_SpielGame: Any = pyspiel.Game  # the bases, typed as what they are to mypy: pyspiel ships no types
_SpielState: Any = pyspiel.State

_PLAYERS = 2
MAX_LENGTH = 2**31 - 1  # the largest max_game_length OpenSpiel holds


def max_game_length(board: Game) -> int:
    """A bound on the moves of any game of ``board``: the start's retrograde order (every move
    lowers it, and it is never negative), or for a splitting game, tighter, the objects (where
    every move takes one at least) or twice the objects less the heaps (where a move may split
    a heap without taking: every move lowers that by one at least). OpenSpiel holds it in a C
    ``int``: a board whose bound passes 2**31 - 1 (no game of it is played out in Python) says that."""
    start = np.array([board.start], dtype=np.int64)
    bound = int(board.order(start)[0])
    if isinstance(board, SplitGame):
        objects, heaps = int(start.sum()), int(np.count_nonzero(start))
        splits = any(take == 0 for take, _ in board.pairs)
        bound = min(bound, 2 * objects - heaps if splits else objects)
    return min(max(bound, 1), MAX_LENGTH)


def _parameters(short_name: str, board: Game) -> dict:
    """The board's parameters as the game keeps and prints them (so its game string reads
    back): heaps joined by ``;``, one heap with a ``;`` after it."""
    said, params = spiel_parameters(board)
    if ";" not in params["heaps"]:
        params["heaps"] += ";"
    if short_name[len(PREFIX):] in FIXED:
        params.pop("rule", None)
    elif "rule" not in params:  # a board of fixed rule (10-kayles) loaded as its family's (nim_evo_octal)
        params["rule"] = FIXED[said[len(PREFIX):]][1]
    return params


_TYPES: dict = {}  # short name -> its pyspiel.GameType


def _game_type(short_name: str):
    """The ``pyspiel.GameType`` of a short name: its parameters' defaults from its default board
    (a family without one: empty heaps and rule, which the game then asks for)."""
    if short_name not in _TYPES:
        _TYPES[short_name] = _new_game_type(short_name)
    return _TYPES[short_name]


def _new_game_type(short_name: str):
    kind = short_name[len(PREFIX):]
    if kind in DEFAULTS:
        board = from_spiel(short_name, {})
        spec = _parameters(short_name, board)
        title = board.title if kind in FIXED else FAMILIES[kind].title
    else:
        spec = {"heaps": "", "misere": False, "rule": ""}
        title = FAMILIES[kind].title
    if not isinstance(title, str):  # a family whose title is its board's (octal games, Moore's Nim_k)
        title = f"{kind} games"
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"nim_evo {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_PLAYERS,
        min_num_players=_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec)


MEMO = 1 << 16  # positions (and moves) whose legal actions (and children) a game remembers, at most


class _Shared:
    """What every state of a game reads and none changes: the board, and the legal actions and
    children of the positions seen lately (a search such as MCTS meets the same ones again and
    again). A state's clone (OpenSpiel deep-copies a Python state's attributes) shares it."""

    def __init__(self, board: Game):
        self.board = board
        self._legal: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._children: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}

    def __deepcopy__(self, memo) -> _Shared:
        return self

    def __reduce__(self):
        return _shared, (self.board,)  # a serialized state holds its board, not what was remembered

    def legal(self, position: tuple[int, ...]) -> tuple[int, ...]:
        """The legal actions of ``position``, ascending."""
        found = self._legal.get(position)
        if found is None:
            if len(self._legal) >= MEMO:
                self._legal.clear()
            found = self._legal[position] = tuple(self.board.legal_actions(position))
        return found

    def child(self, position: tuple[int, ...], action: int) -> tuple[int, ...]:
        """The position a legal ``action`` leads to from ``position``."""
        found = self._children.get((position, action))
        if found is None:
            if len(self._children) >= MEMO:
                self._children.clear()
            children, _ = self.board.step(np.array([position], dtype=np.int64), np.array([action], dtype=np.int64))
            found = self._children[position, action] = tuple(int(v) for v in children[0])
        return found


_SHARED: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # board -> its _Shared, while a game holds it


def _shared(board: Game) -> _Shared:
    """The :class:`_Shared` of ``board``: one for all its games and states."""
    found = _SHARED.get(board)
    if found is None:
        found = _SHARED[board] = _Shared(board)
    return found


class NimEvoGame(_SpielGame):
    """A nim_evo board as an OpenSpiel game (made by ``pyspiel.load_game``; see the module).

    Attributes:
        board: the nim_evo :class:`~nim_evo.games.base.Game` its parameters say.
    """

    short_name = ""  # each registered game's class says its own (see register)

    def __init__(self, params=None):
        short_name = self.short_name
        params = dict(params or {})
        spec = _game_type(short_name)
        if short_name[len(PREFIX):] not in DEFAULTS:  # no default board: the parameters left empty are missing
            params = {key: value for key, value in params.items() if value != ""}
        board = from_spiel(short_name, params)
        info = pyspiel.GameInfo(num_distinct_actions=board.n_actions, max_chance_outcomes=0, num_players=_PLAYERS,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=max_game_length(board))
        super().__init__(spec, info, _parameters(short_name, board))
        self.board = board
        self._shared = _shared(board)

    def new_initial_state(self):
        """The board's start, player 0 to move."""
        return NimEvoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The heaps and who is to move; a perfect-recall observation (an information state) is
        OpenSpiel's history-based one for a game of public information."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return HeapsObserver(self.board, params)
        return _observation.IIGObserverForPublicInfoGame(iig_obs_type, params)


class NimEvoState(_SpielState):
    """A position of a nim_evo board and the player to move."""

    def __init__(self, game: NimEvoGame):
        super().__init__(game)
        self._shared = game._shared
        self._position = game.board.start
        self._player = 0
        self._legal = self._shared.legal(self._position)

    @property
    def position(self) -> tuple[int, ...]:
        """The heap sizes (the board's row: zero-padded in a splitting game)."""
        return self._position

    def current_player(self):
        """The player to move, or ``pyspiel.PlayerId.TERMINAL`` once no move is legal."""
        return pyspiel.PlayerId.TERMINAL if not self._legal else self._player

    def _legal_actions(self, player):
        return list(self._legal)

    def _apply_action(self, action):
        if action not in self._legal:
            board = self._shared.board
            label = board.action_label(action) if 0 <= action < board.n_actions else str(action)
            raise UserError(f"illegal move {label!r} (action {action}) in position {self._position} of {board.name}")
        self._position = self._shared.child(self._position, action)
        self._legal = self._shared.legal(self._position)
        self._player = 1 - self._player

    def _action_to_string(self, player, action):
        return self._shared.board.action_label(action)

    def is_terminal(self):
        return not self._legal

    def returns(self):
        """+1 to the winner and -1 to the loser once the game is over (the player to move, who
        cannot, wins only in misère play); zeros before."""
        if self._legal:
            return [0.0, 0.0]
        winner = self._player if self._shared.board.to_move_wins_at_end else 1 - self._player
        return [1.0 if winner == 0 else -1.0, 1.0 if winner == 1 else -1.0]

    def __str__(self):
        return f"({self._player}): {' '.join(map(str, self._position))}"


class HeapsObserver:
    """OpenSpiel's observer (the PyObserver interface): who is to move, then the heap sizes."""

    def __init__(self, board: Game, params):
        if params:
            raise UserError(f"nim_evo's OpenSpiel games take no observation parameters; got {params}")
        self.tensor = np.zeros(_PLAYERS + board.width, np.float32)
        self.dict = {"to_move": self.tensor[:_PLAYERS], "heaps": self.tensor[_PLAYERS:]}

    def set_from(self, state, player):
        """The tensor of ``state`` (the same for either player: the game has no secret)."""
        self.tensor.fill(0)
        if not state.is_terminal():
            self.dict["to_move"][state.current_player()] = 1
        self.dict["heaps"][:] = state.position

    def string_from(self, state, player):
        """The state as text, for OpenSpiel's observation string."""
        return str(state)


GAMES: dict[str, type[NimEvoGame]] = {}  # short name -> the class pyspiel makes its games with


def register() -> list[str]:
    """Register every short name pyspiel does not have yet (importing the module does this;
    calling it again registers only a family added since); the names registered.

    Each is registered with a class of its own, kept in :data:`GAMES` (pyspiel holds what it
    registers until the interpreter has gone: a class lives as long, where a closure freed
    then would crash the exit)."""
    known = set(pyspiel.registered_names())
    added = []
    for short_name in short_names():
        if short_name not in known:
            name = f"NimEvoGame_{short_name[len(PREFIX):]}"
            GAMES[short_name] = globals()[name] = type(name, (NimEvoGame,), {  # pickled by reference, as a class is
                "short_name": short_name, "__module__": __name__, "__qualname__": name,
                "__doc__": f"OpenSpiel's {short_name}: {NimEvoGame.__doc__}"})
            pyspiel.register_game(_game_type(short_name), GAMES[short_name])
            added.append(short_name)
    return added


register()
