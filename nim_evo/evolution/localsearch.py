"""A local search beside variation: where a program's play first fails, every value tried.

In a splitting game a program's heap part holds a value for every heap up to past 70 (Kayles)
and one wrong value is most of what keeps a good program from a perfect one. The value mutation
redraws a value at random; this tries them all. Each generation, for the best few programs of
the population that lost a decision (:mod:`nim_evo.evaluation.decisions`), a heap of the first
decision each lost is taken, as the value mutation's focus takes it, and every value the heap
part holds there and one more is tried (the kind's
:meth:`~nim_evo.genomes.protocol.GenomeKind.value_variants`); each variant plays the stage's
decisions alone, and the one that wins the most of them, if it wins more than its parent, joins
the offspring, to be evaluated and selected with them (a Lamarckian step: what the search finds
is inherited). It reads only which decisions a program wins against perfect play, never a
value of the game; its draws come from the generation's Generator. DEAP has no such operator:
it is written here, on the toolbox's clone. (A program's cases are kept under lexicase
selection, the program kind's: under tournament selection nothing says which decisions a
program lost, and neither this nor the focused value mutation does anything.)
"""

from __future__ import annotations

import numpy as np
from deap import base

from nim_evo.evaluation.decisions import Decisions
from nim_evo.genomes import get_kind

SEARCHED = 8  # programs searched a generation (the best distinct ones that lost a decision)


def improved(population: list, toolbox: base.Toolbox, genome: str, rng: np.random.Generator) -> list:
    """New individuals (fitness invalid), each one value away from one of ``population``'s best
    and winning more of the stage's decisions; ``[]`` where the stage has none."""
    decisions = [panel for panel in toolbox.stage_panels[toolbox.stage] if isinstance(panel, Decisions)]
    if not decisions:
        return []
    kind = get_kind(genome)
    decided = np.concatenate([d.positions for d in decisions])
    made: list = []
    seen: set[str] = set()
    searched = 0
    for parent in sorted(population, key=lambda ind: ind.fitness.values[0], reverse=True):
        if searched >= SEARCHED:
            break
        key = str(kind.plain(parent))
        if key in seen:
            continue
        seen.add(key)
        variants = kind.value_variants(parent, decided, rng)
        if not variants:
            continue
        searched += 1
        plain = [kind.plain(parent)] + [kind.plain(v) for v in variants]
        wins = sum(d.right(genome, plain).sum(axis=1) for d in decisions)
        best = int(np.argmax(wins[1:]))
        if wins[1 + best] > wins[0]:
            child = toolbox.clone(parent)
            for k, (mine, theirs) in enumerate(zip(parent, variants[best])):
                if mine is not theirs:  # (only the changed part: the trees stay the clone's own)
                    child[k] = theirs
            del child.fitness.values
            made.append(child)
    return made
