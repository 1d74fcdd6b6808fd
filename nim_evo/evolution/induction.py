"""Exact fitness of move arrays against a panel: each genome's win rates from the starts, its
mean win rate over every sub-game, and where asked its cases (lexicase's) and per-position
credit, by backward induction against each opponent
(:func:`~nim_evo.evaluation.exact.induced_each`).

Exact fitness is a function of how a genome plays, and a run meets the same policies again
and again: of a normal-play program run's distinct policies, three in four were met in an
earlier chunk. :func:`each_once` evaluates each distinct policy of a chunk once, and a policy
the panel met before not at all (``panel.remembered``, a :class:`~nim_evo.engine.kept.Memo`, by its bytes). The bits are those
evaluating the whole chunk gives: a policy's values depend on no other's, but numpy adds a
stack of one in another order than a stack of more (see
:func:`~nim_evo.evolution.results.distinct_policies`), so a chunk of one genome is evaluated
alone and nothing of it is remembered, and any other evaluates two at least.
"""

from __future__ import annotations

import numpy as np

from nim_evo.engine.distinct import distinct_keys, firsts
from nim_evo.engine.kept import Memo
from nim_evo.evaluation.exact import induced_each
from nim_evo.evolution.results import Results, distinct_policies

REMEMBERED, REMEMBERED_BYTES = 4096, 32 << 20  # the policies a panel remembers, and their bytes (a few generations')


def each_once(kind, panel, genomes: list, policies: list, cases: bool) -> Results:
    """The exact results of ``policies`` (the genomes' move arrays over the panel's space; not
    for a kind that reads credit): each distinct one evaluated once, and none the panel met
    before (in a chunk of more than one genome)."""
    if len(policies) < 2 or any(np.ndim(p) != 1 for p in policies):
        distinct, copies = distinct_policies(policies)
        return _copied(induced(kind, panel, genomes, distinct, cases, credit=False), copies)
    keys = [np.ascontiguousarray(p).tobytes() for p in policies]
    index = distinct_keys(keys)
    first = firsts(index)
    kept = panel.remembered
    rows = [kept.get((cases, keys[j])) for j in first]
    missing = [at for at, row in enumerate(rows) if row is None]
    if missing:
        stack = [policies[first[at]] for at in missing]
        fresh = induced(kind, panel, genomes, stack * 2 if len(stack) == 1 else stack, cases, credit=False)
        for i, at in enumerate(missing):  # (each row its own arrays: a chunk's would stay alive with one of them)
            row = (fresh.fitness[i], fresh.subgames[i], fresh.rates[i].copy(),
                   None if fresh.cases is None else fresh.cases[i].copy())
            rows[at] = row
            kept.put((cases, keys[first[at]]), row, len(keys[first[at]]) + row[2].nbytes
                     + (0 if row[3] is None else row[3].nbytes))
    fitness, subgames, rates, found = zip(*rows)
    return Results(np.array(fitness)[index], np.array(subgames)[index], np.stack(rates)[index], 0, None,
                   None if not cases else np.stack(found)[index])


def _copied(results: Results, copies: np.ndarray | None) -> Results:
    """``results`` of distinct policies given to the genomes whose ``copies`` they are (None: each its own)."""
    if copies is None:
        return results
    return Results(results.fitness[copies], results.subgames[copies], results.rates[copies], 0, None,
                   None if results.cases is None else results.cases[copies])


def memo() -> Memo:
    """What a panel remembers of the policies it evaluated (``panel.remembered``)."""
    return Memo(REMEMBERED, REMEMBERED_BYTES)


def induced(kind, panel, genomes: list, policies: list, cases: bool, credit: bool) -> Results:
    """The exact results of each of ``policies`` (a row each; with ``credit``, the genomes'
    per-position credit in the space their genes are over, and ``kind`` and ``genomes`` say
    which)."""
    space = panel.space
    keep_credit = credit or cases
    k = len(policies)
    rates = np.zeros((k, len(panel.names), 2))
    subgames = np.zeros(k)
    # credit summed in the induction's numbering, (n, k), and read in the space's once, below
    mine_sum = np.zeros((space.n_positions if keep_credit else 0, k), dtype=np.float32)
    theirs_sum = np.zeros_like(mine_sum)
    opponents = panel.transitions or panel.tables
    count = len(panel.tables)
    for o, (retro, mine, theirs) in enumerate(induced_each(space, policies, opponents)):  # (n, k) each
        at_starts = np.stack([mine[retro.rank[panel.starts]], theirs[retro.rank[panel.starts]]], axis=-1)
        rates[:, o] = np.average(at_starts.transpose(1, 0, 2), weights=panel.weights, axis=1)
        # (k, n - 1), position-major, as it always was: summed over positions in their order, one by one
        either = np.take(mine + theirs, retro.rank[1:], axis=0).T
        subgames += np.average(either / 2, weights=space.weights[1:], axis=1) / count
        if keep_credit:
            mine_sum += mine / count
            theirs_sum += theirs / count
    if keep_credit:  # (k, n) each, in the space's numbering
        mine, theirs = np.take(mine_sum, retro.rank, axis=0).T, np.take(theirs_sum, retro.rank, axis=0).T
    results = Results.of_rates(rates, subgames, 0)
    if credit:
        own = kind.judged_space(genomes[0], panel.rules)  # the space the genes are over
        values = [_credit_on(own, space, values) for values in (mine, theirs)]
        results.credit = [(values[0][j].copy(), values[1][j].copy()) for j in range(k)]
    if cases:
        results.cases = np.concatenate([mine[:, 1:], theirs[:, 1:]], axis=1)
    return results


def _credit_on(own, space, values: np.ndarray) -> np.ndarray:
    """Per-position values ``(k, n_positions)`` over the panel's ``space`` as values over the
    genes' own space: where genes over multisets met an order-reading panel on the ordered
    board, each multiset's value is the mean over the positions it stands for."""
    if own.multiset == space.multiset:
        return values
    index = own.indices(space.positions)
    counts = np.maximum(np.bincount(index, minlength=own.n_positions), 1)
    return np.stack([np.bincount(index, weights=row, minlength=own.n_positions) / counts
                     for row in values]).astype(values.dtype)
