"""Genomes: the kinds (:mod:`~nim_evo.genomes.table`, :mod:`~nim_evo.genomes.ruleset`,
:mod:`~nim_evo.genomes.thresholds`, and any a package registers), their one protocol
(:mod:`~nim_evo.genomes.protocol`) and registry (:mod:`~nim_evo.genomes.registry`), and what
they share here: a genome as a playable agent, and the genome file.
"""

from __future__ import annotations

import numpy as np

from nim_evo.games.base import Game
from nim_evo.agents.player import Player, check_space
from nim_evo.games.registry import game_from_json, game_to_json
from nim_evo.engine.policy import one_hot
from nim_evo.engine.rules import MAX_LISTED_MOVES
from nim_evo.engine.space import Space
from nim_evo.genomes.protocol import GenomeKind
from nim_evo.genomes.registry import get_kind, kind_names, register
from nim_evo.io import FORMAT_VERSION, check_envelope
from nim_evo.validation import UserError

GENOME_FORMAT = "nim_evo/genome"
__all__ = ["GENOME_FORMAT", "GenomeAgent", "genome_document", "genome_from_document", "get_kind", "kind_names",
           "register"]


class GenomeAgent(Player):
    """A genome as a player: its one answer is its kind's ``move_probabilities``; its
    ``policy`` and ``choose`` are its kind's views (``policies``, ``choose``), kept for speed
    and held to it by the conformance suite (a table genome over multisets plays every
    arrangement of their piles: its move on the first pile of the size it takes from).
    Order-blind as its kind says of these genes.

    ``kind`` is a :class:`~nim_evo.genomes.protocol.GenomeKind` or its name; the agent keeps
    the kind itself."""

    def __init__(self, kind: GenomeKind | str, genes, rules: Game, name: str | None = None):
        super().__init__(rules)
        self.kind = get_kind(kind)
        if rules.n_actions > MAX_LISTED_MOVES:  # its moves are indices into the board's move list
            raise UserError(f"a {self.kind.name} genome plays boards of at most {MAX_LISTED_MOVES:,} moves; "
                            f"{rules.name} has {rules.n_actions:,}")
        self.genes = genes
        self.name = name or f"{self.kind.name}-genome"
        self.order_blind = self.kind.order_blind(genes, rules)

    def move_probabilities(self, positions: np.ndarray) -> np.ndarray:
        return self.kind.move_probabilities(self.genes, self.rules, np.asarray(positions, dtype=np.int64))

    def distribution(self, piles):
        """The row of ``piles``: any position of the family for a kind that plays any board
        of it; for one bound to its board, a position of the space its genes are over (over
        multisets, any arrangement of a multiset of the board), or one line."""
        piles = self.rules.check_position(piles)
        if not self.kind.board_free:
            self.kind.judged_space(self.genes, self.rules).index(piles)
        if not any(piles):
            return []
        row = self.move_probabilities(np.array([piles], dtype=np.int64))[0]
        return [(self.rules.move_of(int(k)), float(row[k])) for k in np.flatnonzero(row > 0)]

    def choose(self, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return self.kind.choose(self.genes, self.rules, np.asarray(positions, dtype=np.int64), rng)

    def policy(self, space: Space) -> np.ndarray:
        check_space(self, space)
        result = self.kind.policies([self.genes], (space,))[0][0]
        return one_hot(result, space) if result.ndim == 1 else result


def genome_document(kind: GenomeKind | str, genes, rules: Game, **meta) -> dict:
    """The versioned JSON document of a genome of ``kind`` (a kind or its name)."""
    kind = get_kind(kind)
    return {"format": GENOME_FORMAT, "version": FORMAT_VERSION, "kind": kind.name, "rules": game_to_json(rules),
            "genome": kind.to_json(genes, rules), **meta}


def genome_from_document(data: dict, source: str = "file", container=None):
    """``(kind, genes, rules)`` from a genome document (``kind`` the
    :class:`~nim_evo.genomes.protocol.GenomeKind` it names); a one-line :class:`UserError`
    naming ``source`` if it is not one."""
    check_envelope(data, source, GENOME_FORMAT, FORMAT_VERSION, "genome")
    try:
        kind = get_kind(data.get("kind"))
        rules = game_from_json(data.get("rules"), source)
        genome = data.get("genome")
        if not isinstance(genome, dict):
            raise UserError(f"{source} holds no genome")
        args = {} if container is None else {"container": container}
        return kind, kind.from_json(genome, rules, **args), rules
    except UserError as error:  # one line that names the file
        if str(error).startswith(source):
            raise
        raise UserError(f"{source}: {error}") from None
