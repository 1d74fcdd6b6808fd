"""A toy genome kind, all in this one file: take ``k`` objects from the longest pile.

It shows what a new kind needs: a :class:`~nim_evo.genomes.protocol.GenomeKind` subclass
with its DEAP individual type, creation, variation, its moves on arrays of positions and its
JSON, and a registration (``register(ToyKind)`` in a process, or the ``nim_evo.genomes``
entry point of an installed package). Nothing else in nim_evo changes.
"""

import numpy as np

from nim_evo.engine import boards
from nim_evo.genomes.protocol import GenomeKind, individual_type
from nim_evo.validation import UserError

MAX_TAKE = 9


class ToyKind(GenomeKind):
    name = "toy"
    individual = individual_type("ToyIndividual", np.ndarray)

    def create(self, rules, rng, container=np.asarray, multiset=True):
        return container(rng.integers(1, MAX_TAKE + 1, size=1))

    def mutate(self, genes, rules, rng, indpb=0.5):
        if rng.random() < indpb:
            genes[0] = rng.integers(1, MAX_TAKE + 1)
        return (genes,)

    def crossover(self, a, b, rules, rng):
        a[0], b[0] = b[0], a[0]
        return a, b

    def move_probabilities(self, genes, rules, positions):
        positions = np.asarray(positions, dtype=np.int64)
        k = np.asarray(genes)[..., 0]  # one genome, or a stack with a row per position
        rows = np.arange(len(positions))
        pile = boards.longest(positions)
        size = positions[rows, pile]
        take = np.minimum(np.minimum(k, size), rules.max_take or MAX_TAKE)
        table = np.zeros((len(positions), len(boards.move_list(rules))))
        live = size > 0
        table[rows[live], boards.move_indices(rules, pile[live], take[live])] = 1.0
        return table

    def to_json(self, genes, rules):
        return {"take": int(np.asarray(genes)[0])}

    def from_json(self, data, rules, container=np.asarray):
        take = data.get("take")
        if not isinstance(take, int) or isinstance(take, bool) or not 1 <= take <= MAX_TAKE:
            raise UserError(f"a toy genome takes 1 to {MAX_TAKE} objects, got {take!r}")
        return container(np.array([take]))
