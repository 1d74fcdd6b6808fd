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

A value at a time does not reach a table of some 120 values past the boards (Dawson's Kayles'
period of 34 starts at heap 52). So the best program is also swept (:func:`put_right`): its
values set heap by heap from the smallest up, each to the one that wins the most of its rung of
a ladder of decisions (every heap of a rung's positions at most the rung's own), then read with
the period that predicts the ladder's top rungs from earliest (:func:`predicting`); the result
joins the offspring as the others do, if it wins more of the stage's decisions than its parent,
or as many and is smaller.
"""

from __future__ import annotations

import numpy as np
from deap import base

from nim_evo.evaluation.decisions import Decisions
from nim_evo.genomes.protocol import GenomeKind

SEARCHED = 8  # programs searched a generation (the best distinct ones that lost a decision)


def improved(population: list, toolbox: base.Toolbox, kind: GenomeKind, rng: np.random.Generator) -> list:
    """New individuals (fitness invalid), each one value away from one of ``population``'s best
    and winning more of the stage's decisions; ``[]`` where the stage has none."""
    decisions = [panel for panel in toolbox.stage_panels[toolbox.stage] if isinstance(panel, Decisions)]
    if not decisions:
        return []
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
        wins = sum(d.right(kind, plain).sum(axis=1) for d in decisions)
        best = int(np.argmax(wins[1:]))
        if wins[1 + best] > wins[0]:
            made.append(_child(toolbox, parent, variants[best]))
    swept = _swept(population, toolbox, kind, decisions)
    return made + ([swept] if swept is not None and all(kind.plain(swept) != kind.plain(m) for m in made) else [])


AHEAD = 4  # rungs above a heap's own that judge its value in a second pass (where it is a child's heap)


def put_right(genes, kind: GenomeKind, rungs: tuple) -> list | None:
    """``genes`` with each heap's value, from the smallest heap up, set to the one that wins
    the most of its rung's decisions (:func:`~nim_evo.evaluation.decisions.ladder`; kept
    where it wins them all, or none wins more), then again judged by its rung and the
    :data:`AHEAD` above it, and read as they repeat past the last rung
    (:meth:`~nim_evo.genomes.protocol.GenomeKind.repeating`); ``None`` where that is
    ``genes`` again. A value set at a heap changes no rung below it, so one pass sets them in
    order; but a heap whose moves always have a winning one elsewhere (Dawson's Kayles' 40:
    whatever its value, a move beside it wins where one in it would) is seen only where it
    is a child's heap, in the rungs above, which the second pass reads with their values set."""
    start = kind.plain(genes)
    for ahead in (0, AHEAD):
        won: dict[int, int] = {}  # (each rung's decisions the genes win, until a value changes)
        for heap in range(1, len(rungs)):
            judges = [k for k in range(heap, min(heap + ahead + 1, len(rungs))) if rungs[k] is not None]
            for k in judges:
                if k not in won:
                    won[k] = int(rungs[k].right(kind, [kind.plain(genes)]).sum())
            if sum(won[k] for k in judges) == sum(len(rungs[k].positions) for k in judges):
                continue
            variants = kind.values_at(genes, heap, len(rungs) - 1)
            if not variants:
                return None
            plain = [kind.plain(v) for v in variants]
            wins = sum(rungs[k].right(kind, plain).sum(axis=1) for k in judges)
            best = int(np.argmax(wins))  # (the least of the values that win the most)
            if wins[best] > sum(won[k] for k in judges):
                genes, won = variants[best], {}
    genes = predicting(genes, kind, rungs)
    return None if kind.plain(genes) == start else genes


def predicting(genes, kind: GenomeKind, rungs: tuple):
    """``genes`` read with the period whose values, cut from the table earliest, predict the
    rest of the ladder: for each period ``p`` (at most half the ladder), the least ``end``
    such that the table cut at ``end`` (:meth:`~nim_evo.genomes.protocol.GenomeKind.cut`:
    heaps from ``end`` on repeat the ``p`` before) wins as many decisions of every rung from
    ``end`` up as ``genes`` do, a whole period of rungs at least; the earliest ``end`` of all
    (the shorter period on a tie), simplified. Where no period predicts a whole period of
    rungs, the period the table's end repeats with
    (:meth:`~nim_evo.genomes.protocol.GenomeKind.repeating`). (A table set to the ladder's
    top can repeat with a wrong period at its end, Dawson's Kayles' 17 for its 34, which no
    rung sees, for every heap of a rung is at most the rung's: read from earlier on, the
    wrong period loses the rungs it predicts, and the right one wins them.)"""
    top = len(rungs) - 1
    plain = kind.plain(genes)
    base = {h: int(rungs[h].right(kind, [plain]).sum()) for h in range(1, top + 1) if rungs[h] is not None}
    best = None  # (end, period)
    for period in range(1, top // 2 + 1):
        for end in range(top + 1 - period, period, -1):  # (rungs end .. top predicted: a whole period at least)
            made = kind.cut(genes, end, period, top)
            if made is None:  # (no values to read: a saltus)
                return kind.repeating(genes)
            cut, changed = made  # (rungs below the first heap it changes play as the genes do)
            if any(int(rungs[h].right(kind, [kind.plain(cut)]).sum()) < base[h] for h in range(changed, top + 1) if h in base):
                break
            if best is None or end < best[0]:
                best = (end, period)
    made = None if best is None else kind.cut(genes, *best, top)
    return kind.repeating(genes) if made is None else made[0]


_SWEPT: dict = {}  # what the sweep made of each program asked last (the best stays for generations)


def _swept(population: list, toolbox: base.Toolbox, kind: GenomeKind, decisions: list):
    """The best program of ``population`` put right heap by heap (:func:`put_right`, on each
    of the stage's decisions' ladders), as a new individual, if it wins more of the stage's
    decisions than it did, or as many and is smaller (the hall of fame's parsimony: a table
    read with the period its ladder predicts, where its fitness is at the top already), and
    is no program of the population already; else ``None``."""
    parent = max(population, key=lambda ind: ind.fitness.values[0])
    genes = list(parent)
    if not kind.values_at(genes, 1, 1):  # (no values a sweep sets: its ladder is not built)
        return None
    key = (kind, str(kind.plain(parent)), tuple((d.rules, len(d.positions)) for d in decisions))  # (a family's, grown or not)
    if key not in _SWEPT:
        if len(_SWEPT) >= 8:
            _SWEPT.pop(next(iter(_SWEPT)))
        for panel in decisions:
            genes = put_right(genes, kind, panel.ladder()) or genes
        _SWEPT[key] = genes
    genes = _SWEPT[key]
    plain = kind.plain(genes)
    if plain == kind.plain(parent) or any(kind.plain(ind) == plain for ind in population):
        return None
    wins = sum(d.right(kind, [kind.plain(parent), plain]).sum(axis=1) for d in decisions)
    better = wins[1] > wins[0] or (wins[1] == wins[0] and kind.size(genes) < kind.size(parent))
    return _child(toolbox, parent, genes) if better else None


def _child(toolbox: base.Toolbox, parent, genes):
    """A clone of ``parent`` with the parts of ``genes`` that differ from its own, fitness invalid."""
    child = toolbox.clone(parent)
    for k, (mine, theirs) in enumerate(zip(parent, genes)):
        if mine is not theirs:  # (only the changed part: the trees stay the clone's own)
            child[k] = theirs
    del child.fitness.values
    return child
