"""Agents by name: :func:`make_agent` builds every fixed agent of :mod:`nim_evo.agents.base`
and the minimax agent of :mod:`nim_evo.agents.minimax` (which builds on the base: the
registry sits above both, so neither imports the other's module back)."""

from __future__ import annotations

from nim_evo.agents.base import (AggressiveAgent, DumbAgent, FixedRulesAgent, NimSumAgent, PositionalAgent, RandomAgent,
                                 TakeNAgent)
from nim_evo.agents.minimax import MinimaxAgent
from nim_evo.agents.player import Mover
from nim_evo.engine.rules import Rules
from nim_evo.validation import UserError


def make_agent(name: str, rules: Rules, **options) -> PositionalAgent:
    """Build an agent by name: ``random``, ``nimsum``, ``minimax``, ``take-n`` (or ``take-3``
    for n=3), ``dumb``, ``aggressive``, ``fixed-rules``. ``options`` go to its constructor
    (``minimax``: ``depth``, ``heuristic``; ``take-n``: ``n``)."""
    registry = {
        "random": RandomAgent,
        "nimsum": NimSumAgent,
        "minimax": MinimaxAgent,
        "take-n": TakeNAgent,
        "dumb": DumbAgent,
        "aggressive": AggressiveAgent,
        "fixed-rules": FixedRulesAgent,
    }
    key = name.strip().lower()
    if key.startswith("take-") and key[5:].isdigit():
        if options:
            raise UserError(f"{name} takes no options (take-n with n=... chooses n)")
        return TakeNAgent(rules, n=int(key[5:]))
    if key not in registry:
        raise UserError(f"unknown agent {name!r}; known agents: {', '.join(AGENT_NAMES)}")
    try:
        return registry[key](rules, **options)
    except TypeError as error:
        raise UserError(f"bad options for agent {name!r}: {error}") from None


AGENT_NAMES = ("random", "nimsum", "minimax", "take-N", "dumb", "aggressive", "fixed-rules")


def mover(name: str, rules: Rules) -> Mover:
    """The agent called ``name`` as a mover of games on pile arrays (:mod:`nim_evo.engine.piles`)."""
    return Mover(make_agent(name, rules))
