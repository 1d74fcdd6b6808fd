"""Agents by name: :func:`make_agent` builds every fixed agent of :mod:`nim_evo.agents.base`,
the minimax agent of :mod:`nim_evo.agents.minimax`, and any agent a package registers under
the entry-point group ``nim_evo.agents`` (a class, or a factory, called with the rules and
options: a new agent is one file). The registry sits above both modules, so neither imports
the other's back."""

from __future__ import annotations

from nim_evo.agents.base import (AggressiveAgent, DumbAgent, FixedRulesAgent, NimSumAgent, RandomAgent,
                                 TakeNAgent)
from nim_evo.agents.minimax import MinimaxAgent
from nim_evo.agents.perfect import PerfectAgent
from nim_evo.agents.player import Mover, Player
from nim_evo.agents.protocol import as_player
from nim_evo.games.base import Game
from nim_evo.games.registry import GAME
from nim_evo.plugins import Registry
from nim_evo.validation import InstanceOf, UserError, validate

def perfect_agent(rules: Game) -> Player:
    """Perfect play on every board: Nim's nim-sum agent on Nim, :class:`PerfectAgent` elsewhere."""
    return NimSumAgent(rules) if rules.family == "nim" else PerfectAgent(rules)


ENTRY_POINTS = "nim_evo.agents"
AGENTS = Registry(ENTRY_POINTS, {
    "random": RandomAgent,
    "nimsum": NimSumAgent,
    "perfect": perfect_agent,
    "minimax": MinimaxAgent,
    "take-n": TakeNAgent,
    "dumb": DumbAgent,
    "aggressive": AggressiveAgent,
    "fixed-rules": FixedRulesAgent,
}, "agent")


def register(name: str, factory) -> object:
    """Register an agent under ``name``: a class or a factory called as ``factory(rules, **options)``."""
    return AGENTS.register(name, factory)


def make_agent(name: str, rules: Game, **options: object) -> Player:
    """Build an agent by name: ``random``, ``perfect`` (on Nim, ``nimsum``), ``minimax``,
    which play every game; Nim's ``nimsum``, ``take-n`` (or ``take-3`` for n=3), ``dumb``,
    ``aggressive``, ``fixed-rules``; or one a package registered.
    ``options`` go to its constructor (``minimax``: ``depth``, ``heuristic``; ``take-n``: ``n``)."""
    validate({"name": [InstanceOf(str, what="an agent's name")], "rules": [GAME]}, {"name": name, "rules": rules})
    key = name.strip().lower()
    if key.startswith("take-") and key[5:].isdecimal():
        if options:
            raise UserError(f"{name} takes no options (take-n with n=... chooses n)")
        if len(key) > 12:
            raise UserError(f"{name[:20]}...: take-N takes fewer than 10,000,000 objects a move")
        return TakeNAgent(rules, n=int(key[5:]))
    if key not in AGENTS:
        key = name.strip()
    if key not in AGENTS:
        raise UserError(f"unknown agent {name!r}; known agents: {', '.join(agent_names())}")
    try:
        agent = AGENTS[key](rules, **options)
    except TypeError as error:
        if not AGENTS.builtin(key):
            raise
        raise UserError(f"bad options for agent {name!r}: {error}") from None
    return as_player(agent, rules)


def agent_names() -> tuple[str, ...]:
    """Every agent's name, ``take-N`` for the family of take-n agents."""
    return tuple("take-N" if name == "take-n" else name for name in AGENTS)


def mover(name: str, rules: Game) -> Mover:
    """The agent called ``name`` as a mover of games on pile arrays (:mod:`nim_evo.engine.piles`)."""
    return Mover(make_agent(name, rules))


AGENT_NAMES = ("random", "nimsum", "perfect", "minimax", "take-N", "dumb", "aggressive", "fixed-rules")  # the built-in ones
