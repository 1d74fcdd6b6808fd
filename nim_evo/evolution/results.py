"""What fitness gives each genome: an :class:`Evaluation`, and a chunk's results as arrays
(:class:`Results`), worked out once for genomes that play alike (:func:`distinct_policies`).

Exact fitness is a function of how a genome plays, and a generation holds many genomes that
play alike; the results of the distinct ones are copied to the others, the bits the whole
chunk evaluated gives (see :func:`distinct_policies` and :meth:`Results.mean` for the two
places where numpy's order of adding would otherwise tell them apart).
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass

import numpy as np

from nim_evo.engine.distinct import all_distinct, distinct_rows, firsts


@dataclass
class Evaluation:
    """One individual's result: fitness (the mean win rate from the starts), its mean win
    rate over every sub-game (every non-empty position, either to move; exact mode only,
    else 0), per-opponent (first, second) win rates, games played, per-position credit
    ``(mine, theirs)`` where the kind uses it, and, where lexicase selection asks for them,
    its ``cases``: the win probability of every sub-game (every non-empty position, moving
    first then second, averaged over the panel), the test cases lexicase selection reads."""

    fitness: float
    subgames: float
    rates: dict
    games: int
    credit: tuple | None = None
    cases: np.ndarray | None = None


@dataclass
class Results:
    """A chunk's results on one board, one row a genome: what :class:`Evaluation` holds, as arrays."""

    fitness: np.ndarray  # (k,)
    subgames: np.ndarray  # (k,)
    rates: np.ndarray  # (k, opponents, seats)
    games: int
    credit: list | None = None  # each genome's (mine, theirs), where the kind uses credit
    cases: np.ndarray | None = None  # (k, cases)

    @classmethod
    def of_rates(cls, rates: np.ndarray, subgames: np.ndarray, games: int) -> Results:
        """Results whose fitness is the mean win rate over the opponents and seats."""
        return cls(rates.mean(axis=(1, 2)), subgames, rates, games)

    @classmethod
    def mean(cls, boards: list[Results]) -> Results:
        """The results on several boards: means of fitness, sub-games and win rates (the
        boards' added one after another, as a sum of floats adds them: ``np.sum`` adds
        eight or more in pairs, other bits), games added, the first board's credit, every
        board's cases one after another."""
        count = len(boards)
        return cls(added([b.fitness for b in boards]) / count, added([b.subgames for b in boards]) / count,
                   added([b.rates for b in boards]) / count, sum(b.games for b in boards),
                   boards[0].credit,
                   None if boards[0].cases is None else np.concatenate([b.cases for b in boards], axis=1))

    def evaluations(self, names) -> list[Evaluation]:
        """One :class:`Evaluation` a genome, its win rates by opponent ``names`` (its cases a
        copy: a view would keep the chunk's whole array alive while one genome of it lives)."""
        rates = self.rates.tolist()
        return [Evaluation(fitness, subgames, {name: tuple(pair) for name, pair in zip(names, rates[j])}, self.games,
                           None if self.credit is None else self.credit[j],
                           None if self.cases is None else self.cases[j].copy())
                for j, (fitness, subgames) in enumerate(zip(self.fitness.tolist(), self.subgames.tolist()))]


def added(arrays: list) -> np.ndarray:
    """The arrays added one after another (Python's ``sum`` of each element's floats)."""
    return functools.reduce(operator.add, arrays)


def distinct_policies(policies: list) -> tuple[list, np.ndarray | None]:
    """The distinct move arrays of a stack, and each genome's among them (None: each is its
    own, as for tables). Exact fitness is a function of the policy, and genomes that differ
    play alike often (a program's bloat, a population converging): each is evaluated once.
    (The induction's columns are independent of one another, so the values are the bits
    evaluating the whole stack gives.)"""
    if not policies or any(np.ndim(p) != 1 for p in policies):
        return policies, None
    index = distinct_rows(np.ascontiguousarray(p) for p in policies)
    if all_distinct(index):
        return policies, None
    distinct = [policies[j] for j in firsts(index)]
    if len(distinct) == 1:  # (a stack of one is a contiguous row, which numpy sums pairwise: other bits than a
        distinct.append(distinct[0])  # stack of more, summed position by position, gives; two, as the chunk had)
    return distinct, index
