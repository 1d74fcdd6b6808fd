"""nim_evo players as TextArena agents in TextArena's own ``Nim-v0``, and TextArena games logged
for ``nim-evo referee``.

TextArena (``pip install 'nim-evo[textarena]'``) plays text games between agents, functions
of an observation (a string) answering an action (a string). Its Nim (``Nim-v0``: piles 3-4-5;
``Nim-v0-medium``, ``Nim-v0-large``; ``textarena.make("Nim-v0", piles=[7, 5, 3])`` for any
board) is normal play without a cap: a move is ``[pile quantity]``, piles from 0, and
whoever takes the last object wins. After every move the game announces the board
(``Current Pile:`` and a line ``  pile 0: 3`` per pile), which its default observation wrapper
(``LLMObservationWrapper``) adds to each player's running transcript.

:func:`agent` makes any nim_evo player a ``textarena.Agent``; :func:`play` plays one game
TextArena's way and returns (or appends to a JSON Lines file) its log, which ``nim-evo
referee`` grades move by move (:mod:`nim_evo.transcripts.formats.textarena` reads it)::

    from nim_evo.interop.textarena import agent, play

    def mine(observation: str) -> str:
        return "[0 1]"  # one object from the first pile, while it lasts

    game = play("Nim-v0", [agent("perfect"), mine], seed=0, path="nim.jsonl")
    game["rewards"]  # {"0": 1, "1": -1}

textarena is imported only when a function needs it (``import textarena`` itself takes a second
or two: it loads NLTK and the OpenAI client, though no Nim game uses them; Nim touches no
network).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from nim_evo.agents.player import name_of
from nim_evo.evaluation.specs import Spec, is_file, label
from nim_evo.evaluation.strategy import load_strategy
from nim_evo.games.nim import Rules, nim_board
from nim_evo.games.registry import game
from nim_evo.interop.extras import TEXTARENA, need
from nim_evo.interop.players import player_for
from nim_evo.io import MAX_JSON_BYTES, parse_json, read_regular
from nim_evo.atomic import atomic_write_bytes
from nim_evo.validation import SEED, AgentError, UserError, shown, validate

WHAT = "nim_evo.interop.textarena"
MAX_STEPS = 100_000  # TextArena steps in one game (a Nim game of 3-4-5 takes at most 24, retries included)
# TextArena's board, as its Nim announces it (envs/Nim/env.py): "Current Pile:" then "  pile i: n"
_BOARD = re.compile(r"Current Pile:[ \t]*\r?\n((?:[ \t]*pile[ \t]+\d{1,18}:[ \t]*\d{1,18}[ \t]*(?:\r?\n|$))+)")
_ROW = re.compile(r"\s*pile\s+(\d+):\s*(\d+)\s*")


class UnreadableObservation(UserError):
    """A nim_evo agent was given an observation without TextArena's Nim board in it."""


def _textarena() -> Any:
    return need("textarena", TEXTARENA, WHAT)


def position_of(observation: str) -> tuple[int, ...]:
    """The piles of the last ``Current Pile`` announcement in ``observation`` (TextArena's Nim
    announces the board after every move; its default wrapper keeps them all, other wrappers
    the latest one); a one-line :class:`UnreadableObservation` where there is none."""
    boards = _boards(observation)
    if not boards:
        start = " ".join(str(observation).split())[:80] if isinstance(observation, str) else shown(observation)
        raise UnreadableObservation(f"the observation holds no TextArena Nim board ('Current Pile:' and its "
                                    f"'pile i: n' lines): {start!r}; nim_evo's TextArena agents play Nim only")
    return boards[-1]


def _boards(observation) -> list[tuple[int, ...]]:
    """Every board announced in ``observation``, in order (malformed ones left out); a raw
    observation (a ``-raw`` environment's list of ``(from_id, message, type)``) is read as its
    messages."""
    if isinstance(observation, (list, tuple)):
        observation = "\n".join(str(entry[1]) for entry in observation
                                 if isinstance(entry, (list, tuple)) and len(entry) >= 2)
    if not isinstance(observation, str):
        return []
    boards = []
    for found in _BOARD.finditer(observation):
        rows = [_ROW.fullmatch(line) for line in found.group(1).splitlines() if line.strip()]
        sizes = [(int(row.group(1)), int(row.group(2))) for row in rows if row]
        if [pile for pile, _ in sizes] == list(range(len(sizes))):
            boards.append(tuple(size for _, size in sizes))
    return boards


def _agent_class():
    ta = _textarena()
    cached = getattr(_agent_class, "cls", None)
    if cached is not None and issubclass(cached, ta.Agent):
        return cached

    class NimEvoAgent(ta.Agent):
        """A nim_evo player as a TextArena agent (see :func:`agent`)."""

        def __init__(self, strategy, rules: Rules | None, seed: int):
            self.strategy, self.seed = strategy, seed
            self.name = label(strategy) if isinstance(strategy, str) else name_of(strategy)
            self.rng = np.random.default_rng(seed)
            self.rules = rules
            self.player = None if rules is None else player_for(strategy, rules, seed)

        def __repr__(self) -> str:
            board = "the board TextArena announces" if self.rules is None else self.rules.name
            return f"<nim_evo TextArena agent {self.name} for {board}>"

        def position(self, observation: str) -> tuple[int, ...]:
            """The piles to move from: the observation's last announced board, checked against
            the player's board (made here, on first use, where ``rules`` was not given)."""
            piles = position_of(observation)
            if not any(piles):
                raise UnreadableObservation(f"{self.name} was asked to move on an empty board: the game is over")
            if self.rules is None and not self._fits(piles):
                start = _boards(observation)[0]
                self.player = player_for(self.strategy, Rules(start if self._within(piles, start) else piles),
                                         self.seed)
            player = self.player
            assert player is not None
            board = player.rules.piles
            if not self._within(piles, board):
                raise UnreadableObservation(f"{self.name} plays {player.rules.name}, and the observation's board "
                                            f"{'-'.join(map(str, piles))} is not on it")
            return piles

        def _fits(self, piles) -> bool:
            return self.player is not None and self._within(piles, self.player.rules.piles)

        @staticmethod
        def _within(piles, board) -> bool:
            return len(piles) == len(board) and all(now <= size for now, size in zip(piles, board))

        def __call__(self, observation: str) -> str:
            piles = self.position(observation)
            player = self.player
            assert player is not None
            pile, count = player.move(piles, self.rng)
            return f"[{int(pile)} {int(count)}]"

    NimEvoAgent.__module__ = __name__
    setattr(_agent_class, "cls", NimEvoAgent)
    return NimEvoAgent


def agent(strategy, rules: Rules | str | None = None, seed: int = 0):
    """Any nim_evo player as a ``textarena.Agent`` for TextArena's Nim: ``agent(observation)``
    answers TextArena's move text ``[pile quantity]`` (piles from 0).

    It reads the position from the observation: the last ``Current Pile`` board announced in it
    (under TextArena's default wrappers the observation is the player's whole transcript, the
    game's start first). A string without a board is a one-line
    :class:`UnreadableObservation` (a :class:`~nim_evo.validation.UserError`). Its random draws
    come from a ``numpy.random.default_rng(seed)`` of its own, which goes on from game to game:
    a new agent with the same seed repeats a game. No global random state is touched.

    Args:
        strategy: anything :func:`~nim_evo.interop.players.player_for` takes: ``"perfect"``,
            ``"nimsum"``, ``"random"``, a learner's name (trained on first use, then cached),
            a strategy file (an evolved champion), ``module:NAME``, an agent object.
        rules: the nim_evo board the player plays (a :class:`~nim_evo.Rules` or a name such as
            ``"7-5-3"``): normal play without a cap, as TextArena's Nim. Default: the board the
            game announces first (TextArena's start, under its default wrappers), the player
            made on its first move; given, the player is made here, and an observation whose
            board is not on it is refused in one line.
        seed: the seed of the agent's generator (and of a learner's training).
    """
    validate({"seed": [SEED]}, {"seed": seed})
    cls = _agent_class()
    if rules is not None:
        rules = nim_board(game(rules))
        if rules.misere or rules.max_take is not None:
            raise UserError(f"TextArena's Nim is normal play without a cap; {rules.name} is not")
    elif isinstance(strategy, str) and is_file(strategy):
        load_strategy(strategy)  # an unreadable file: its one-line error now, not at the first move
    elif isinstance(strategy, str) and not Spec.parse(strategy).known:
        player_for(strategy, Rules((3, 4, 5)), seed)  # an unknown name: likewise
    return cls(strategy, rules, seed)


def play(env_id: str, agents: Sequence[Callable[[str], str]], seed: int, path=None,
         players: Sequence[str] | None = None, env_kwargs: dict | None = None) -> dict:
    """One game of the TextArena environment ``env_id`` between two agents, played TextArena's
    way, and its log::

        env = textarena.make(env_id, **env_kwargs)  # its default wrappers included
        env.reset(num_players=2, seed=seed)
        while not done:
            player_id, observation = env.get_observation()
            done, info = env.step(action=agents[player_id](observation))
        rewards, game_info = env.close()

    Returns ``{"env_id", "seed", "players", "logs", "rewards", "game_info"}`` (and ``"kwargs"``,
    ``env_kwargs``, where given), as JSON reads it back: ``logs`` is the environment's
    ``state.logs`` as ``[from_id, message]`` pairs (``-1`` the game), ``rewards`` and
    ``game_info`` are keyed by player id as strings. ``nim-evo referee`` grades a file of them.

    Note:
        TextArena's ``State`` calls ``random.seed(seed)`` (Python's global generator) when the
        game is reset; agents that draw from ``random`` are repeated by the seed. ``play``
        puts the global generator back as it found it after the game; nim_evo's agents never
        use it.

    Args:
        env_id: a registered TextArena environment (``"Nim-v0"``, ``"Nim-v0-large"``, ...).
            Nim touches no network; some of TextArena's word games download NLTK data when
            their module is first imported.
        agents: the agents of player 0 and player 1: any callable of an observation string
            answering an action string (``textarena.Agent``\\ s, :func:`agent`\\ s, functions).
        seed: TextArena's seed for the game.
        path: if given, the game is appended to this JSON Lines file as one line: the file
            (with the new line) is written anew, atomically, so a reader sees it with or without
            the game, never a part. A file that exists must already hold TextArena games (one
            JSON object with ``"logs"`` on its first line); any other file is refused in one
            line, never overwritten. One writer per file at a time.
        players: the two names the log gives the players (default: each agent's ``name``,
            else its function's or class's name).
        env_kwargs: keyword arguments for ``textarena.make`` (``{"piles": [7, 5, 3]}``).
    """
    ta = _textarena()
    validate({"seed": [SEED]}, {"seed": seed})
    if not isinstance(env_id, str):
        raise UserError(f"env_id is a TextArena environment's id such as 'Nim-v0', got {shown(env_id)}")
    agents = list(agents)
    if len(agents) != 2 or not all(callable(a) for a in agents):
        raise UserError("play() takes two agents: callables of an observation answering an action")
    names = [name_of(a) for a in agents] if players is None else list(players)
    if len(names) != 2 or not all(isinstance(n, str) and n for n in names):
        raise UserError(f"players are two names, got {shown(players)}")
    kwargs = dict(env_kwargs or {})
    if not isinstance(env_id, str) or env_id not in ta.envs.registration.ENV_REGISTRY:
        raise UserError(f"TextArena: environment {shown(env_id)} not found in its registry")
    env = ta.make(env_id, **kwargs)
    if path is not None:
        old = _existing(Path(path))
    caller = random.getstate()
    try:
        env.reset(num_players=2, seed=seed)
        done, steps = False, 0
        while not done:
            player_id, observation = env.get_observation()
            action = agents[player_id](observation)
            if not isinstance(action, str):
                raise AgentError(f"{names[player_id]} answered {shown(action)}, not a string, in {env_id}")
            done, _ = env.step(action=action)
            steps += 1
            if steps >= MAX_STEPS and not done:
                raise UserError(f"{env_id} went on past {MAX_STEPS:,} steps; play() gives up")
        closed = env.close()
    finally:
        random.setstate(caller)
    rewards, game_info = closed if isinstance(closed, tuple) and len(closed) == 2 else (closed, {})
    base = env
    while isinstance(base, ta.Wrapper):
        base = base.env
    record: dict[str, Any] = {"env_id": env_id, "seed": seed, "players": names,
                              "logs": [[int(who), str(message)] for who, message in base.state.logs],
                              "rewards": rewards, "game_info": game_info}
    if kwargs:
        record["kwargs"] = kwargs
    line = json.dumps(record, default=_jsonable)
    if path is not None:
        atomic_write_bytes(path, old + line.encode("utf-8") + b"\n")
    return json.loads(line)


def _existing(path: Path) -> bytes:
    """What ``path`` holds, to append a game to: nothing, or TextArena games as JSON Lines
    (ending in a newline); a one-line :class:`UserError` for any other file."""
    if not path.exists() and not path.is_symlink():
        return b""
    old = read_regular(path, MAX_JSON_BYTES, "TextArena logs")
    if not old.strip():
        return old
    first = old.lstrip().split(b"\n", 1)[0]
    try:
        data = parse_json(first, f"{path}:1")
    except UserError:
        data = None
    if not (isinstance(data, dict) and isinstance(data.get("logs"), list)):
        raise UserError(f"{path} exists and does not hold TextArena games (JSON Lines, one game with \"logs\" a "
                        "line); play() appends only to such a file: name another path")
    return old if old.endswith(b"\n") else old + b"\n"


def _jsonable(value):
    """What ``json`` cannot write, as it can: numpy numbers as numbers, other values as text."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)
