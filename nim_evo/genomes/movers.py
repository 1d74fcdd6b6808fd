"""Genomes as movers of :mod:`nim_evo.engine.piles`: batched games on pile arrays, for
boards too big to enumerate, played by one genome or by many at once."""

from __future__ import annotations

import numpy as np

from nim_evo.games.base import Game
from nim_evo.genomes.protocol import GenomeKind


def mover(kind: GenomeKind, rules: Game, genes):
    """The mover of one genome of ``kind``."""
    return GenomeMover(kind, genes, rules)


class GenomeMover:
    """Plays one genome, or many at once: ``owners[g]`` is the genome of game ``g``."""

    def __init__(self, kind: GenomeKind, genes, rules, owners=None):
        self.kind, self.rules, self.owners = kind, rules, owners
        if owners is None:
            self.genes = genes
        else:
            self.genes = self.kind.stack(genes)

    def __call__(self, positions, rng, games=None):
        genes = self.genes if self.owners is None else self.genes[self.owners[games]]
        return self.kind.choose(genes, self.rules, positions, rng)


def genomes_mover(kind: GenomeKind, genomes: list, rules: Game, games_each: int):
    """One mover for ``len(genomes)`` genomes playing ``games_each`` consecutive games each."""
    return GenomeMover(kind, genomes, rules, owners=np.repeat(np.arange(len(genomes)), games_each))
