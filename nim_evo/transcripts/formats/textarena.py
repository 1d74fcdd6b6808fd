"""TextArena's game logs: its ``Nim-v0`` environments' ``state.logs``, one game per JSON value.

TextArena keeps a game's log in memory as ``(from_id, message)`` pairs (``-1`` the game, ``0``
and ``1`` the players); :mod:`nim_evo.interop.textarena` writes it to a file as one JSON object
per game (JSON Lines; a JSON list of them, or one object, reads too)::

    {"env_id": "Nim-v0", "seed": 3, "players": ["perfect", "scripted"],
     "logs": [[-1, "Current Pile:\\n  pile 0: 3\\n  pile 1: 4\\n  pile 2: 5"], [0, "[2 2]"], ...],
     "rewards": {"0": 1, "1": -1}}

and a bare list of the pairs (``json.dump(env.state.logs, f)``) reads as one game. The start is
the first ``Current Pile`` the game announces (else the environment's piles, or ``--game``); a
player's move is the first ``[pile quantity]`` in its message, read as TextArena reads it (piles
from 0); a message without one, or naming a pile the board lacks, is illegal (TextArena gives a
player one more try after an invalid move; the referee grades none after it). TextArena's Nim is
normal play: whoever takes the last object wins.
"""

from __future__ import annotations

import json
import re

from nim_evo.games.base import Game
from nim_evo.games.nim import Rules
from nim_evo.io import parse_json
from nim_evo.transcripts.formats.common import SEATS, board, graded_as, take_action
from nim_evo.transcripts.record import MAX_PLIES, Record, TranscriptError
from nim_evo.validation import UserError, shown

NAME = "textarena"
PILES = {"Nim-v0": (3, 4, 5), "Nim-v0-medium": (4, 2, 3, 7), "Nim-v0-large": (5, 7, 9, 11, 2)}  # TextArena's registry
HARNESS = "TextArena's Nim plays normal play (whoever takes the last object wins)"
_MOVE = re.compile(r"\[\s*(\d+)\s+(\d+)\s*\]")  # TextArena's own pattern (envs/Nim/env.py)
DIGITS = 18  # a pile or a quantity of more digits is no move of any board (and no int() of 4,300 digits)
_PILE = re.compile(r"\s*pile ([0-9]{1,18}): ([0-9]{1,18})\s*")


def games_of(text: str, path: str) -> list[tuple[object, str]]:
    """Each game's JSON value in the file, with where it is (a JSON value, a list of them, or lines)."""
    stripped = text.strip()
    try:
        whole = json.loads(stripped) if stripped.startswith("[") else None
    except (ValueError, RecursionError):  # not one JSON value (lines), an integer past the digit limit, deep nesting
        whole = None
    if isinstance(whole, list):
        if whole and all(isinstance(pair, list) and len(pair) == 2 for pair in whole):
            return [(whole, f"{path}:1")]  # a bare log
        return [(game, f"{path}: game {k + 1}") for k, game in enumerate(whole)]
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) > 1 and all(line.lstrip().startswith("{") for _, line in lines):
        return [(parse_json(line, f"{path}:{n}"), f"{path}:{n}") for n, line in lines]
    return [(parse_json(text, path), f"{path}:1")]


def read(text: str, path: str, game: str | None, convention: str | None) -> list[Record]:
    """A TextArena game log ``text`` (the file ``path``) as records; ``game`` and ``convention``: as
    given, where the file does not say."""
    return [_record(data, where, game, convention) for data, where in games_of(text, path)]


def _record(data, where: str, named: str | None, convention: str | None) -> Record:
    if isinstance(data, list):
        data = {"logs": data}
    if not isinstance(data, dict) or not isinstance(data.get("logs"), list):
        raise TranscriptError(where, "a TextArena game is its logs: a list of [from_id, message] pairs, or an "
                                     "object with \"logs\"")
    logs = data["logs"]
    if len(logs) > 4 * MAX_PLIES:
        raise TranscriptError(where, f"{len(logs):,} log entries in one game; nim_evo reads at most {4 * MAX_PLIES:,}")
    for entry in logs:
        if not (isinstance(entry, list) and len(entry) == 2 and type(entry[0]) is int and isinstance(entry[1], str)):
            raise TranscriptError(where, f"a log entry is [from_id, message], got {shown(entry)}")
    env_id = data.get("env_id")
    env_id = env_id if isinstance(env_id, str) else None
    start = _announced(logs)
    base = env_id.rsplit("-", 1)[0] if env_id and env_id not in PILES else env_id
    if start is not None:  # the board the game announced (--game is for logs that name none)
        played = _nim(start, where)
    elif base in PILES:
        played = _nim(PILES[base], where)
    elif named is not None:
        played = board(named, "--game")
    else:
        raise TranscriptError(where, "the log announces no piles (Current Pile) and names no Nim environment: "
                                     "--game names the board")
    played, why = graded_as(played, convention, HARNESS)
    players = data.get("players", list(SEATS))
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) and p for p in players)):
        raise TranscriptError(where, f"players are two names, got {shown(players)}", played)
    record = Record(played, why, (players[0], players[1]), where, actions=[])
    moves = [(k, who, message) for k, (who, message) in enumerate(logs) if who in (0, 1)]
    for seat, (k, who, message) in enumerate(moves):
        if who != seat % 2:
            raise TranscriptError(where, f"player {who} moves at ply {seat}, where player {seat % 2} is to move",
                                  played)
        match = _MOVE.search(message.strip())
        small = match is not None and max(map(len, match.groups())) <= DIGITS
        action = take_action(played, int(match.group(1)), int(match.group(2))) if match and small else None
        if action is None:
            record.illegal = message.strip()[:200] or "(an empty message)"
            break
        record.actions.append(action)  # type: ignore[union-attr]
        record.texts.append(match.group(0))  # type: ignore[union-attr]
        if _rejected(logs, k, who):
            break  # illegal where it was played (the judge says so); the retry TextArena allows is not graded
    rewards = data.get("rewards")
    if isinstance(rewards, dict) and sorted(map(str, rewards)) == ["0", "1"]:
        values = {str(k): v for k, v in rewards.items()}
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values.values()) \
                and values["0"] != values["1"]:
            record.winner = 0 if values["0"] > values["1"] else 1  # TextArena's own result
    return record


def _rejected(logs: list, k: int, who: int) -> bool:
    """Whether TextArena announced the move at ``logs[k]`` invalid (its state's words, before the
    next player's message): a move with a pile and a quantity that the position does not allow."""
    for later, message in logs[k + 1:]:
        if later in (0, 1):
            return False
        if message.startswith(f"Player {who} attempted an invalid move"):
            return True
    return False


def _announced(logs: list) -> tuple[int, ...] | None:
    """The piles of the first ``Current Pile`` the game announces."""
    for who, message in logs:
        if who == -1 and message.startswith("Current Pile:"):
            rows = [_PILE.fullmatch(line) for line in message.splitlines()[1:] if line.strip()]
            if rows and all(rows):
                sizes = {int(row.group(1)): int(row.group(2)) for row in rows if row}
                if sorted(sizes) == list(range(len(sizes))):
                    return tuple(sizes[k] for k in range(len(sizes)))
    return None


def _nim(piles, where: str) -> Game:
    try:
        return Rules(tuple(piles))
    except UserError as error:
        raise TranscriptError(where, str(error)) from None
