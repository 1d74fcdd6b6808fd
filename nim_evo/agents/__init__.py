"""Agents: anything that answers ``move(piles, rng) -> (pile, count)``.

:mod:`~nim_evo.agents.protocol` writes the protocol down (and compiles duck-typed agents),
:mod:`~nim_evo.agents.base` holds its base class and the fixed agents,
:mod:`~nim_evo.agents.minimax` the searching agent, :mod:`~nim_evo.agents.registry` builds
them by name. The layer above the engine: agents read rules, spaces and the solver.
"""

from nim_evo.agents.base import PositionalAgent, uniform
from nim_evo.agents.protocol import Agent, compiled
from nim_evo.agents.registry import AGENT_NAMES, make_agent

__all__ = ["AGENT_NAMES", "Agent", "PositionalAgent", "compiled", "make_agent", "uniform"]
