"""Who survives and who is remembered: the selections of the (mu + lambda) loop, written over
a numpy Generator (DEAP's draw from the global ``random``), and the run's hall of fame.

- :func:`select_elitist`: DEAP's ``selBest`` of one, then ``selTournament``;
- :func:`select_lexicase`: DEAP's ``selAutomaticEpsilonLexicase`` on arrays of every
  sub-game's win probability, with parsimony among genomes that play alike;
- :class:`HallOfFame`: DEAP's ``HallOfFame`` with lexicographic parsimony.
"""

from __future__ import annotations

import copy
from operator import attrgetter

import numpy as np
from deap import tools

from nim_evo.engine import draws
from nim_evo.engine.distinct import distinct_rows, firsts

HALL_OF_FAME = 5


def select_elitist(individuals: list, k: int, tournsize: int, rng: np.random.Generator) -> list:
    """The best individual (DEAP's selBest), then ``k - 1`` winners of tournaments among
    ``tournsize`` individuals drawn with replacement (DEAP's selTournament, over ``rng``)."""
    aspirants = rng.integers(len(individuals), size=(k - 1, tournsize))
    return tools.selBest(individuals, 1) + [max((individuals[i] for i in row), key=attrgetter("fitness"))
                                             for row in aspirants]


def select_lexicase(individuals: list, k: int, rng: np.random.Generator, size=len) -> list:
    """The best individual (DEAP's selBest), then ``k - 1`` picks by automatic epsilon-lexicase
    selection over each individual's ``cases`` (DEAP's ``selAutomaticEpsilonLexicase``, over
    ``rng`` and on arrays): the cases in a random order, each keeping the candidates within
    the median absolute deviation of the best on it, until one is left (or a random one of
    those left when the cases run out). Individuals with the same cases are one candidate,
    and the pick among them is the smaller (by ``size``) of two of them drawn at random:
    among genomes that play alike, parsimony, without collapsing each behaviour to one
    genome (crossover needs different genomes to mix). Cases every candidate scores alike
    are skipped: they filter nothing. A pick's first case meets every candidate: what each
    case keeps of them all is found for every case at once (:func:`_kept`)."""
    rows, group = _behaviours(individuals)
    rows = rows[:, (rows != rows[:1]).any(axis=0)]  # cases that separate some candidates
    members = [np.flatnonzero(group == g) for g in range(len(rows))]
    sizes = np.array([size(ind) for ind in individuals])
    chosen = [max(individuals, key=attrgetter("fitness"))]  # (selBest's first: the first of the fittest)
    kept = _kept(rows)
    everyone = np.arange(len(rows))
    for _ in range(k - 1):
        order = rng.permutation(rows.shape[1])
        candidates = np.flatnonzero(kept[:, order[0]]) if len(order) else everyone  # (every case separates all of them)
        at = 1  # the next case in order
        while len(candidates) > 1 and at < len(order):
            if len(candidates) <= _FEW:  # the next case that separates the few left, found at once
                left = rows[candidates]
                ahead = (left != left[:1]).any(axis=0)[order[at:]]
                first = int(ahead.argmax())
                if not ahead[first]:
                    break
                at += first
            scores = rows[candidates, order[at]]
            at += 1
            ordered = np.sort(scores)  # (its ends the best and the worst, its middle the median)
            if ordered[0] == ordered[-1]:  # all alike: the case keeps them all
                continue
            candidates = candidates[scores >= _least_kept(ordered)]
        alike = members[candidates[draws.below(rng, len(candidates))]]
        first, second = alike[draws.below(rng, len(alike))], alike[draws.below(rng, len(alike))]  # (the draws of size=2)
        chosen.append(individuals[second if sizes[second] < sizes[first] else first])
    return chosen


def _behaviours(individuals: list) -> tuple[np.ndarray, np.ndarray]:
    """:func:`unique_rows` of the individuals' cases: read once per array (copies of a genome,
    and genomes evaluated as one, share theirs)."""
    number: dict = {}  # each array's, by identity, in the order they come
    index = np.array([number.setdefault(id(ind.cases), len(number)) for ind in individuals], dtype=np.intp)
    arrays = list({id(ind.cases): ind.cases for ind in individuals}.values())
    rows, group = unique_rows(np.stack(arrays))
    return rows, group[index]


def _kept(rows: np.ndarray) -> np.ndarray:
    """``(candidates, cases)``: whether each case keeps each candidate, all of them
    meeting it (what a pick's first case does)."""
    if not rows.size:
        return np.zeros(rows.shape, dtype=bool)
    return rows >= _threshold(np.sort(rows, axis=0))


def _threshold(ordered: np.ndarray) -> np.ndarray:
    """Of each column of ``ordered`` (sorted ascending), the least score a case keeps: the
    best less the median absolute deviation from the median (each median a float64 of its
    middle value or two; the difference and the threshold in the scores' own type, as a
    Python float meets a numpy array)."""
    deviation = _middles(np.sort(np.abs(ordered - _middles(ordered).astype(ordered.dtype)), axis=0))
    return ordered[-1] - deviation.astype(ordered.dtype)


def _least_kept(ordered: np.ndarray):
    """:func:`_threshold` of one case's sorted scores (the same values, in scalars: a pick meets
    thousands of cases a generation, each a few candidates)."""
    kind = ordered.dtype.type
    deviation = _middle(np.sort(np.abs(ordered - kind(_middle(ordered)))))
    return ordered[-1] - kind(deviation)


def _middle(ordered: np.ndarray) -> float:
    """The median of a sorted 1-d array."""
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else (float(ordered[middle - 1]) + float(ordered[middle])) / 2


def _middles(ordered: np.ndarray) -> np.ndarray:
    """The median of each column of ``ordered`` (sorted ascending), as float64."""
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle].astype(np.float64)
    return (ordered[middle - 1].astype(np.float64) + ordered[middle].astype(np.float64)) / 2


_FEW = 4  # candidates few enough that lexicase finds the next case separating them in one pass (measured: 4 against 16, a quarter less)


def unique_rows(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, axis=0, return_inverse=True)``: the distinct rows in lexicographic
    order, and each row's index among them. For finite values >= 0 (win probabilities) the
    rows are told apart by their bytes, and the distinct ones ordered by their bytes
    big-endian, whose order is then the values' order: a hash a row, not numpy's sort of every
    column (thousands of cases: seconds a generation)."""
    if values.dtype.kind != "f" or values.size == 0 or not (values >= 0).all() or not np.isfinite(values).all():
        rows, group = np.unique(values, axis=0, return_inverse=True)
        return rows, group.reshape(-1)
    groups = distinct_rows(values + 0)  # (+ 0: no -0.0 apart from 0.0)
    index = firsts(groups)  # each distinct row's first copy
    big_endian = [row.tobytes() for row in (values[index] + 0).astype(values.dtype.newbyteorder(">"))]
    order = sorted(range(len(index)), key=big_endian.__getitem__)  # (only the distinct rows turned and sorted)
    rank = np.empty(len(index), dtype=np.intp)
    rank[order] = np.arange(len(index))
    return values[index[order]], rank[groups]


class HallOfFame(tools.HallOfFame):
    """DEAP's ``HallOfFame`` with lexicographic parsimony: of individuals of equal fitness the
    smaller (by the kind's ``size``) ranks first and displaces a bigger one from a full hall
    (a program right on every training board by a trick of small numbers is bigger than the
    rule itself, which generalises). Where sizes are equal (table genomes' are), it is DEAP's:
    a newcomer goes before those of equal fitness, and enters a full hall only if better."""

    def __init__(self, maxsize: int, similar, size=len):
        super().__init__(maxsize, similar=similar)
        self.size = size

    def update(self, population):
        for ind in population:
            if len(self) == 0 and self.maxsize != 0:
                self.insert(ind)
                continue
            worst = self[-1]
            if (len(self) < self.maxsize or ind.fitness > worst.fitness
                    or (ind.fitness == worst.fitness and self.size(ind) < self.size(worst))):
                if any(self.similar(ind, famer) for famer in self):
                    continue
                if len(self) >= self.maxsize:
                    self.remove(-1)
                self.insert(ind)

    def _ahead(self, member, item) -> bool:
        """Whether ``member`` ranks before ``item``: fitter, or as fit and smaller."""
        return member.fitness > item.fitness or (member.fitness == item.fitness and self.size(member) < self.size(item))

    def insert(self, item):
        item = copy.deepcopy(item)
        position = 0  # after the better ones, and the smaller ones of equal fitness
        while position < len(self.items) and self._ahead(self.items[position], item):
            position += 1
        self.items.insert(position, item)
        self.keys.insert(len(self.items) - 1 - position, item.fitness)


def hall_of_fame(kind, maxsize: int = HALL_OF_FAME) -> HallOfFame:
    """A run's hall of fame (``maxsize`` best, no two alike by ``kind.same``)."""
    return HallOfFame(maxsize, similar=kind.same, size=kind.size)
