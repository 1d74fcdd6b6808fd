"""nim_evo's own transcripts: JSON Lines, one game per line.

::

    {"game": "3-4-5-misere", "players": ["model", "mcts"], "moves": [[0, 3], [2, 1]]}
    {"game": "8-kayles", "actions": [3, 17, 2]}
    {"game": "3-4-5", "moves": ["1 3", "3 1"]}

``game`` is a nim_evo board name (its ``-misere`` says the convention; ``--game`` names the
board for lines without one). The moves are either ``actions``, ids of the board's action
alphabet (what OpenSpiel calls distinct actions), or ``moves``: each a move in the family's
words (``[heap, count]`` with heaps from 0 on take-away boards, ``[heap, take, part]`` on split
games) or a label as ``nim-evo play`` shows it (``"1 3"``: heap 1 from 1, take 3). ``players``
names seat 0 (who moves first) and seat 1. Blank lines and lines starting with ``#`` are skipped.
A move that is no move of the board ends the game there, labelled illegal.
"""

from __future__ import annotations

import json
from functools import lru_cache

from nim_evo.games.base import Game
from nim_evo.io import parse_json
from nim_evo.transcripts.formats.common import SEATS, board, graded_as
from nim_evo.transcripts.record import MAX_PLIES, Record, TranscriptError
from nim_evo.validation import UserError, shown

NAME = "nim-evo"


def read(text: str, path: str, game: str | None, convention: str | None) -> list[Record]:
    """nim_evo's own transcript ``text`` (the file ``path``) as records; ``game`` and
    ``convention``: as given, where the file does not say."""
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    values = _parsed([line for _, line in lines])
    records = []
    boards: dict = {}  # each name read once
    for k, (number, line) in enumerate(lines):
        where = f"{path}:{number}"
        data = values[k] if values is not None else parse_json(line, where)
        if not isinstance(data, dict):
            raise TranscriptError(where, f"a line of a nim-evo transcript is a JSON object, got {shown(data)}")
        unknown = set(data) - {"game", "players", "actions", "moves"}
        if unknown:
            raise TranscriptError(where, f"unknown field {sorted(unknown)[0]!r} (a line has game, players, and "
                                         "actions or moves)")
        if "game" in data:
            if not isinstance(data["game"], str) or data["game"] not in boards:
                named = board(data["game"], where)
                boards[data["game"]] = named
            named = boards[data["game"]]
            why = "the transcript's board name"
        elif game is not None:
            named, why = board(game, "--game"), "--game"
        else:
            raise TranscriptError(where, "a line names its board (\"game\": \"3-4-5\"), or --game names it")
        named, why = graded_as(named, convention, why)
        records.append(_record(data, named, why, where))
    return records


def _parsed(lines: list[str]) -> list | None:
    """Every line's JSON value by one decoder of the C parser, or ``None`` where a line is not
    plain JSON (each line is then read by :func:`~nim_evo.io.parse_json`, for its message)."""
    try:
        return [_DECODER.decode(line) for line in lines]
    except (ValueError, RecursionError):  # a bad line, an integer past CPython's digit limit, deep nesting
        return None


_DECODER = json.JSONDecoder()


@lru_cache(maxsize=1 << 16)
def _known(game: Game, words: tuple) -> int:
    return game.action_of(words)


def _action(game: Game, move) -> int:
    """The action of a move in the family's words (a list read from JSON: looked up once per board)."""
    if isinstance(move, list) and all(type(x) is int for x in move):
        return _known(game, tuple(move))
    return game.action_of(move)


def _record(data: dict, game: Game, why: str, where: str) -> Record:
    players = data.get("players", list(SEATS))
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) and p for p in players)):
        raise TranscriptError(where, f"players are two names, got {shown(players)}", game)
    if ("actions" in data) == ("moves" in data):
        raise TranscriptError(where, "a line has either actions (the board's action ids) or moves", game)
    listed = data.get("actions", data.get("moves"))
    if not isinstance(listed, list):
        raise TranscriptError(where, f"{'actions' if 'actions' in data else 'moves'} is a list, got {shown(listed)}",
                              game)
    if len(listed) > MAX_PLIES:
        raise TranscriptError(where, f"{len(listed):,} moves in one game; nim_evo reads at most {MAX_PLIES:,}", game)
    record = Record(game, why, (players[0], players[1]), where)
    if "actions" in data:
        if not set(map(type, listed)) <= {int}:  # (bool and float are no action)
            bad = next(a for a in listed if type(a) is not int)
            raise TranscriptError(where, f"an action is a whole number, got {shown(bad)}", game)
        inside = not listed or (min(listed) >= 0 and max(listed) < 1 << 62)
        cut = len(listed) if inside else next(k for k, a in enumerate(listed) if not 0 <= a < 1 << 62)
        record.actions = listed[:cut]  # an action past any alphabet ends the game there, illegal
        record.illegal = None if inside else shown(listed[cut])[:40]
        return record
    actions: list[int] = []
    record.texts = [move if isinstance(move, str) else json.dumps(move) for move in listed]  # as written
    for move in listed:
        try:
            actions.append(game.parse_action(move) if isinstance(move, str) else _action(game, move))
        except UserError:
            record.illegal = move if isinstance(move, str) else shown(move)
            break
    record.actions = actions
    return record
