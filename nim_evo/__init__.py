"""nim_evo: evolve, measure, compare and play strategies for Nim-family games."""

from nim_evo.rules import PRESETS, Rules, legal_moves
from nim_evo.solver import Solution, solve
from nim_evo.space import Space, SpaceTooLarge, space_size

__all__ = ["PRESETS", "Rules", "Solution", "Space", "SpaceTooLarge", "legal_moves", "solve", "space_size"]
