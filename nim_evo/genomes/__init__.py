"""The three genome kinds and what they share.

Each kind is a module with one protocol: ``create(rules, rng, container)``,
``mutate(genes, rules, rng, ...)``, ``crossover(a, b, rules, rng)``, ``policy(genes, space)``
(a move array or a probability table over an enumerated space), ``to_json(genes, rules)`` and
``from_json(data, rules, container)``. Kinds that play any board also give
``move_probabilities(genes, rules, positions)`` on arrays of positions.
"""

from __future__ import annotations

import numpy as np

from nim_evo.agents.base import PositionalAgent
from nim_evo.engine.rules import Rules, rules_from_json, rules_to_json
from nim_evo.engine.space import Space
from nim_evo.genomes import ruleset, table, thresholds
from nim_evo.io import FORMAT_VERSION

KINDS = {"table": table, "rules": ruleset, "thresholds": thresholds}
GENOME_FORMAT = "nim_evo/genome"


def get_kind(name: str):
    """The genome kind module by name (``table``, ``rules``, ``thresholds``)."""
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unknown genome {name!r}; known genomes: {', '.join(KINDS)}") from None


class GenomeAgent(PositionalAgent):
    """A genome as a playable strategy with the standard agent interface (a table genome
    over multisets plays every arrangement of their piles: its move on the first pile of
    the size it takes from)."""

    def __init__(self, kind: str, genes, rules: Rules, name: str | None = None):
        super().__init__(rules)
        self.kind = kind
        self.genes = genes
        self.name = name or f"{kind}-genome"

    def distribution(self, piles):
        piles = self.rules.check_position(piles)
        if not any(piles):
            return []
        if self.kind == "table":
            space = table.genes_space(self.genes, self.rules)
            move = int(np.asarray(self.genes)[space.index(piles)])
            return [(space.concrete_move(piles, move), 1.0)]
        probabilities = get_kind(self.kind).move_probabilities(self.genes, self.rules, np.array([piles]))[0]
        moves = table_moves(self.rules)
        return [(moves[k], float(probabilities[k])) for k in np.flatnonzero(probabilities > 0)]

    def policy(self, space: Space) -> np.ndarray:
        from nim_evo.engine.policy import one_hot

        result = get_kind(self.kind).policy(self.genes, space)
        return one_hot(result, space) if result.ndim == 1 else result


def table_moves(rules: Rules) -> list[tuple[int, int]]:
    from nim_evo.engine.boards import move_list

    return [(int(p), int(c)) for p, c in move_list(rules)]


def genome_document(kind: str, genes, rules: Rules, **meta) -> dict:
    """The versioned JSON document of a genome."""
    return {"format": GENOME_FORMAT, "version": FORMAT_VERSION, "kind": kind, "rules": rules_to_json(rules),
            "genome": get_kind(kind).to_json(genes, rules), **meta}


def genome_from_document(data: dict, source: str = "file", container=None):
    """``(kind, genes, rules)`` from a genome document; ``ValueError`` if it is not one."""
    if data.get("format") != GENOME_FORMAT:
        raise ValueError(f"{source} is not a nim_evo genome")
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(f"{source} has genome format version {data.get('version')!r}; "
                         f"this nim_evo reads version {FORMAT_VERSION}")
    kind = get_kind(data.get("kind"))
    rules = rules_from_json(data.get("rules"), source)
    genome = data.get("genome")
    if not isinstance(genome, dict):
        raise ValueError(f"{source} holds no genome")
    args = {} if container is None else {"container": container}
    return kind.NAME, kind.from_json(genome, rules, **args), rules
