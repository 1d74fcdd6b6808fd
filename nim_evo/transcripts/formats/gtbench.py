"""GTBench's Nim records (github.com/jinhaoduan/GTBench): the JSON its ``HistoryTracker`` saves.

GTBench plays OpenSpiel's ``nim`` with its default parameters (piles 1-3-5-7, ``is_misere``
true: whoever takes the last match loses). A record holds ``matches``, each with ``steps``: the
agent that moved, its ``observation`` (``piles``: the pile sizes before the move) and its
``move`` in GTBench's words, ``<pile:x, take:y>`` (piles from 1). GTBench reads a move as its
first and last numbers, pile and take, made OpenSpiel's action id ``(take - 1) * 4 + pile - 1``
(it assumes 4 piles: ``<pile:0, take:2>`` is id 3, pile 4 take 1, which it plays), and ends a
match at an id OpenSpiel refuses (``status`` "Abnormal"); the referee reads it the same way
and labels that move illegal. ``--game`` names the board of records whose steps show no piles. A player is its
agent's name and model (``prompt_agent_gpt-4``), as GTBench names a match's winner.
"""

from __future__ import annotations

import re

from nim_evo.games.base import Game
from nim_evo.games.nim import Rules
from nim_evo.io import parse_json
from nim_evo.transcripts.formats.common import board, graded_as, take_action
from nim_evo.transcripts.record import MAX_PLIES, Record, TranscriptError
from nim_evo.validation import UserError, shown

NAME = "gtbench"
HARNESS = "GTBench plays OpenSpiel's nim with is_misere=True (its default): whoever takes the last match loses"


def read(text: str, path: str, game: str | None, convention: str | None) -> list[Record]:
    """GTBench's transcript ``text`` (the file ``path``) as records; ``game`` and ``convention``: as
    given, where the file does not say."""
    data = parse_json(text, path)
    matches = data.get("matches") if isinstance(data, dict) else data
    if not isinstance(matches, list):
        raise TranscriptError(path, "a GTBench record is an object with \"matches\" (what HistoryTracker saves)")
    return [_record(match, f"{path}: match {k + 1}", game, convention) for k, match in enumerate(matches)]


def _record(match, where: str, named: str | None, convention: str | None) -> Record:
    steps = match.get("steps") if isinstance(match, dict) else None
    if not isinstance(steps, list) or not steps:
        raise TranscriptError(where, "a match has its steps (agent, observation, move)")
    for k, step in enumerate(steps):
        if not (isinstance(step, dict) and isinstance(step.get("agent"), str) and isinstance(step.get("move"), str)):
            raise TranscriptError(where, f"step {k + 1} has no agent and move: {shown(step)}")
    observed = _start(steps[0], where, required=named is None)  # --game is for records that show no piles
    played = observed if observed is not None else board(named, "--game")
    played, why = graded_as(played, convention, HARNESS)
    names = [_player(step) for step in steps[:2]]
    if len(names) == 1:
        names.append(str(match.get("winner") or "player 1") if names[0] != match.get("winner") else "player 1")
    record = Record(played, why, (names[0], names[1]), where, actions=[])
    for k, step in enumerate(steps):
        if _player(step) != names[k % 2]:
            raise TranscriptError(where, f"step {k + 1} is {_player(step)}'s, where {names[k % 2]} is to move",
                                  played)
        action = _action(played, step["move"])
        record.texts.append(step["move"])
        if action is None:
            record.illegal = step["move"].strip()[:200] or "(an empty move)"
            break
        record.actions.append(action)  # type: ignore[union-attr]
    if len(record.texts) > MAX_PLIES:
        raise TranscriptError(where, f"{len(record.texts):,} moves in one match; nim_evo reads at most {MAX_PLIES:,}")
    return record


def _action(played: Game, move: str) -> int | None:
    """GTBench's reading of a move, exactly: its first and last numbers as pile (from 1) and take,
    made OpenSpiel's action id ``(take - 1) * 4 + pile - 1`` (4: its piles, which it assumes) and
    played as OpenSpiel numbers that id on the board; ``None`` where that is no move of it."""
    numbers = re.findall(r"[0-9]+", move)
    if not numbers or max(map(len, numbers)) > 18:
        return None
    spiel = (int(numbers[-1]) - 1) * 4 + int(numbers[0]) - 1  # 4 whatever the board: GTBench's own arithmetic
    if spiel < 0:
        return None
    return take_action(played, spiel % played.width, spiel // played.width + 1)


def _player(step: dict) -> str:
    model = step.get("model_name")
    return f"{step['agent']}_{model}" if isinstance(model, str) and model else step["agent"]


def _start(step: dict, where: str, required: bool) -> Game | None:
    """The board of the piles the first step observed (``None`` where it shows none and
    ``required`` is False: ``--game`` names it)."""
    observation = step.get("observation")
    piles = observation.get("piles") if isinstance(observation, dict) else None
    if not (isinstance(piles, list) and piles and all(isinstance(p, (str, int)) and not isinstance(p, bool)
                                                       and re.fullmatch(r"[0-9]{1,18}", str(p)) for p in piles)):
        if required:
            raise TranscriptError(where, "the first step's observation holds no piles (GTBench's Nim observation)")
        return None
    try:
        return Rules(tuple(int(p) for p in piles), misere=True)
    except UserError as error:
        raise TranscriptError(where, str(error)) from None
