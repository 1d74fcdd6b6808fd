"""Nim's closed forms under the name nim_evo has always imported them by: :mod:`nim_evo.games.nimtheory`.

Kept for code written before games were values (``from nim_evo.engine import theory``); new
code imports from :mod:`nim_evo.games.nimtheory`.
"""

from nim_evo.games.nimtheory import grundy, grundy_sum, is_win, known_wins, winning_moves, wins  # noqa: F401
