"""Nim's board under the name nim_evo has always imported it by: :mod:`nim_evo.games.nim`.

Kept for code written before games were values (``from nim_evo.engine.rules import Rules``);
new code imports from :mod:`nim_evo.games`.
"""

from nim_evo.games.nim import (DEFAULT_GAME, FILE_NAME_LENGTH, MAX_LISTED_MOVES, MAX_PILE, MAX_PILES,  # noqa: F401
                               POSITION, PRESETS, RULES, Family, Move, Nim, PileSizes, Position, Rules, family_name,
                               family_of, legal_moves, parse_family, rules_from_json, rules_to_json)
