"""nim_evo: evolve, measure, compare and play strategies for Nim-family games."""

from nim_evo.agents import make_agent
from nim_evo.engine.game import GameRecord, play_game
from nim_evo.engine.multiset import MultisetSpace
from nim_evo.engine.rules import PRESETS, Rules, legal_moves
from nim_evo.engine.solver import Solution, solve
from nim_evo.engine.space import Space, SpaceTooLarge, space_for, space_size
from nim_evo.evaluation.strategy import load_strategy
from nim_evo.evaluation.tournament import play_games, play_matches, tournament, win_probabilities

__all__ = [
    "PRESETS", "GameRecord", "MultisetSpace", "Rules", "Solution", "Space", "SpaceTooLarge", "legal_moves",
    "load_strategy", "make_agent", "play_game", "play_games", "play_matches", "solve", "space_for", "space_size",
    "tournament", "win_probabilities",
]
