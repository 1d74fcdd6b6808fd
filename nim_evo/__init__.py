"""nim_evo: evolve, measure, compare and play strategies for Nim-family games."""

from nim_evo.agents import make_agent
from nim_evo.game import GameRecord, play_game
from nim_evo.multiset import MultisetSpace
from nim_evo.rules import PRESETS, Rules, legal_moves
from nim_evo.solver import Solution, solve
from nim_evo.space import Space, SpaceTooLarge, space_for, space_size
from nim_evo.strategy import load_strategy
from nim_evo.tournament import play_games, play_matches, tournament, win_probabilities

__all__ = [
    "PRESETS", "GameRecord", "MultisetSpace", "Rules", "Solution", "Space", "SpaceTooLarge", "legal_moves",
    "load_strategy", "make_agent", "play_game", "play_games", "play_matches", "solve", "space_for", "space_size",
    "tournament", "win_probabilities",
]
