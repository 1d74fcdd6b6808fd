"""Players: the one base class and its protocol, the fixed agents, minimax, and the registry.

:mod:`~nim_evo.agents.player` holds :class:`Player`, the base of every player (one primary
answer, the probability of each move at a batch of positions, and its views),
:mod:`~nim_evo.agents.protocol` turns a person's duck-typed agent into one,
:mod:`~nim_evo.agents.base` holds the fixed agents, :mod:`~nim_evo.agents.minimax` the
searching agent, :mod:`~nim_evo.agents.registry` builds them by name (entry-point group
``nim_evo.agents``), and :mod:`~nim_evo.agents.conformance` checks that every face of a
player gives one answer. The layer above the engine: agents read rules, spaces and the solver.
"""

from nim_evo.agents.base import uniform
from nim_evo.agents.player import Player, PositionalAgent, is_order_blind
from nim_evo.agents.protocol import Agent, as_player, compiled
from nim_evo.agents.registry import AGENT_NAMES, make_agent

__all__ = ["AGENT_NAMES", "Agent", "Player", "PositionalAgent", "as_player", "compiled", "is_order_blind",
           "make_agent", "uniform"]
