"""Any player an adapter is given, as a nim_evo :class:`~nim_evo.agents.player.Player`."""

from __future__ import annotations

from nim_evo.games.base import Game
from nim_evo.agents.protocol import as_player
from nim_evo.evaluation.opponents import resolve
from nim_evo.validation import UserError


def player_for(thing, rules: Game, seed: int = 0):
    """``thing`` as a player of ``rules``: a spec (an agent's or learner's name, a strategy
    file, ``module:NAME``) resolved as ``--opponents`` resolves it, anything else (an agent
    object, a course-style player) through :func:`~nim_evo.agents.protocol.as_player`.

    Raises:
        UserError: one line for a spec that names nothing, an object that is no player, or a
            player made for another game.
    """
    player = resolve(thing, rules, seed) if isinstance(thing, str) else as_player(thing, rules)
    if player.rules != rules:
        raise UserError(f"{player.name} plays {player.rules.name}, not {rules.name}")
    return player
