"""Agents: anything that answers ``move(piles, rng) -> (pile, count)``.

:mod:`~nim_evo.agents.base` holds the protocol's base class and the fixed agents,
:mod:`~nim_evo.agents.minimax` the searching agent, :mod:`~nim_evo.agents.registry` builds
them by name. The layer above the engine: agents read rules, spaces and the solver.
"""

from nim_evo.agents.base import PositionalAgent, uniform
from nim_evo.agents.registry import AGENT_NAMES, make_agent

__all__ = ["AGENT_NAMES", "PositionalAgent", "make_agent", "uniform"]
