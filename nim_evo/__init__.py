"""nim_evo: evolve, measure, compare and play strategies for Nim-family games.

The names below are the package's public API. Each is imported the first time it is used
(PEP 562), so ``import nim_evo``, and every command's ``--help``, answers at once: numpy,
scipy, joblib and DEAP load only when something needs them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

__version__ = "0.1.0"  # the package's version (pyproject.toml reads it from here)

_EXPORTS = {
    "Run": "nim_evo.api",
    "evolve": "nim_evo.api",
    "resume": "nim_evo.api",
    "train": "nim_evo.api",
    "sweep": "nim_evo.experiments",
    "UserError": "nim_evo.validation",
    "AgentError": "nim_evo.validation",
    "Player": "nim_evo.agents.player",
    "as_player": "nim_evo.agents.protocol",
    "check_player": "nim_evo.agents.conformance",
    "make_agent": "nim_evo.agents.registry",
    "Game": "nim_evo.games.base",
    "game": "nim_evo.games.registry",
    "check_game": "nim_evo.engine.conformance",
    "GameRecord": "nim_evo.engine.game",
    "play_game": "nim_evo.engine.game",
    "MultisetSpace": "nim_evo.engine.multiset",
    "PRESETS": "nim_evo.engine.rules",
    "Rules": "nim_evo.engine.rules",
    "legal_moves": "nim_evo.engine.rules",
    "Solution": "nim_evo.engine.solver",
    "solve": "nim_evo.engine.solver",
    "Space": "nim_evo.engine.space",
    "SpaceTooLarge": "nim_evo.engine.space",
    "space_for": "nim_evo.engine.space",
    "space_size": "nim_evo.engine.space",
    "grade_player": "nim_evo.evaluation.grading",
    "load_strategy": "nim_evo.evaluation.strategy",
    "play_games": "nim_evo.evaluation.batched",
    "play_matches": "nim_evo.evaluation.batched",
    "tournament": "nim_evo.evaluation.tournament",
    "win_probabilities": "nim_evo.evaluation.exact",
    "referee_transcripts": "nim_evo.transcripts.grading",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # the same names, for type checkers and the docs (which read the code, not run it);
    # `name as name` re-exports each, as a typed package must
    from nim_evo.api import Run as Run, evolve as evolve, resume as resume, train as train
    from nim_evo.experiments import sweep as sweep
    from nim_evo.validation import AgentError as AgentError, UserError as UserError
    from nim_evo.agents.player import Player as Player
    from nim_evo.agents.protocol import as_player as as_player
    from nim_evo.agents.conformance import check_player as check_player
    from nim_evo.agents.registry import make_agent as make_agent
    from nim_evo.games.base import Game as Game
    from nim_evo.games.registry import game as game
    from nim_evo.engine.conformance import check_game as check_game
    from nim_evo.engine.game import GameRecord as GameRecord, play_game as play_game
    from nim_evo.engine.multiset import MultisetSpace as MultisetSpace
    from nim_evo.engine.rules import PRESETS as PRESETS, Rules as Rules, legal_moves as legal_moves
    from nim_evo.engine.solver import Solution as Solution, solve as solve
    from nim_evo.engine.space import (Space as Space, SpaceTooLarge as SpaceTooLarge, space_for as space_for,
                                      space_size as space_size)
    from nim_evo.evaluation.grading import grade_player as grade_player
    from nim_evo.evaluation.strategy import load_strategy as load_strategy
    from nim_evo.evaluation.batched import play_games as play_games, play_matches as play_matches
    from nim_evo.evaluation.exact import win_probabilities as win_probabilities
    from nim_evo.evaluation.tournament import tournament as tournament
    from nim_evo.transcripts.grading import referee_transcripts as referee_transcripts


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'nim_evo' has no attribute {name!r}")
    value = getattr(import_module(_EXPORTS[name]), name)
    globals()[name] = value  # once: later look-ups find it here
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
