"""Where players are judged: over multisets of pile sizes only when every one is order-blind.

Over multisets, one arrangement of each multiset (its representative) stands for all of
them: exact for a player whose choice depends on the multiset alone, a phantom for one that
reads the pile order (it would be judged at positions it never meets as such). So a
tournament, a panel or a round robin asked to play over multisets plays there only when
every player declares itself order-blind (:func:`nim_evo.agents.is_order_blind`), and
otherwise on the ordered board, the game as it is played; where that board is too big for
tables, it refuses in one line naming the player that reads the order.
"""

from __future__ import annotations

import numpy as np

from nim_evo.games.base import Game
from nim_evo.agents.player import is_order_blind, name_of
from nim_evo.engine.space import DEFAULT_MAX_POSITIONS, Space, space_for, space_size, tabulable
from nim_evo.validation import UserError


def order_reading(players) -> list:
    """The players of ``players`` that read the order of the piles (tables and move arrays,
    given for a space, are taken as given)."""
    return [p for p in players if not isinstance(p, (np.ndarray, list, tuple)) and not is_order_blind(p)]


def judging_space(rules: Game, players, multiset: bool, max_positions: int = DEFAULT_MAX_POSITIONS) -> Space:
    """The space to judge ``players`` on: of multisets where asked and every player is
    order-blind, else the ordered board (see the module)."""
    reading = order_reading(players) if multiset else []
    if multiset and not reading:
        return space_for(rules, max_positions, multiset=True)
    if reading and not tabulable(rules):
        raise UserError(f"{name_of(reading[0])} reads the order of the piles (it does not declare order_blind), so it "
                        f"is judged on the ordered board, and {rules.name} has {space_size(rules):,} positions, too many "
                        "for its tables; a smaller board, or a player that chooses by pile sizes alone")
    return space_for(rules, max_positions)


def ordered_starts(multisets: Space, ordered: Space, starts: np.ndarray) -> np.ndarray:
    """Start indices over multisets as the ordered positions they stand for (every arrangement)."""
    chosen = np.zeros(multisets.n_positions, dtype=bool)
    chosen[starts] = True
    return np.flatnonzero(chosen[multisets.indices(ordered.positions)] & (ordered.totals > 0))
