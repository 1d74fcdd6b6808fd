"""Decisions beyond the enumerable boards: a genome's move at positions of a few big heaps.

A splitting game's board of one heap of 40 already has some 30,000 positions, so exact
tournaments stop there; but Kayles' values break their period for the last time at a heap of
70, Dawson's Kayles' at 51. A board-free genome meets bigger heaps here, in one-move games:
each case is a winning position of one to eight heaps of up to :data:`LARGEST` objects, and
the genome's move there is played against perfect play (won if it leaves a position perfect
play loses, which the family's theory says; lost otherwise). The positions are always the
same (their own seed): every heap from 1 to :data:`LARGEST` alone and with each heap up to
:data:`SMALL` (a program that knows the small heaps' values must know the big one's to find
the move there), then pairs, and positions of 3 to 8 heaps, drawn uniformly (a value no other
heap shares is wrong unseen in one or two heaps, and plain in many).

Every position's children are made and labelled once (:class:`Decisions`), each distinct
child once: a genome then only scores them (:meth:`GenomeKind.decide`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nim_evo.games.base import Game
from nim_evo.genomes import get_kind
from nim_evo.validation import UserError

LARGEST = 120  # the biggest heap of a decision (Kayles' period, 12, from 71 on; Dawson's, 34, from 53)
PAIRS, MANY = 400, 200  # positions of two heaps, and of 3 to WIDTH - 1 heaps, drawn (before the lost ones are left out)
SMALL = 8  # every heap up to LARGEST also meets each heap up to this
SEED = 31
WIDTH = 9  # eight heaps and an empty slot a split fills


@dataclass(frozen=True, eq=False)
class Decisions:
    """The decision cases of ``rules``' family (its board of one heap of :data:`LARGEST`).

    Attributes:
        rules: the family's board of one heap of :data:`LARGEST` (its largest heap is the
            largest of any decision).
        names: the names of the perfect players the games after the move stand for (a
            run's opponents).
        positions: ``(k, WIDTH)`` the winning positions, heaps largest first, then 0 (a split fills it).
        children: ``(u, WIDTH)`` every position's children, each once, heaps sorted ascending.
        ranks: ``(u,)`` each child's rank among them, compared lexicographically.
        index: ``(k, actions)`` the child each action of each position leads to (``u`` where illegal).
        lost: ``(u + 1,)`` whether each child is lost for the player to move (the last: no child).
    """

    rules: Game
    names: tuple[str, ...]
    positions: np.ndarray
    children: np.ndarray
    ranks: np.ndarray
    index: np.ndarray
    lost: np.ndarray

    @classmethod
    def build(cls, family: Game, names: tuple[str, ...] = ("perfect",)) -> Decisions | None:
        """The decisions of ``family``'s rule and convention; ``None`` where its theory does not
        reach :data:`LARGEST` (misère play, a sequence not computed that far) or the engine
        builds no board of one heap that big."""
        try:
            board = family.board((LARGEST,))
        except UserError:
            return None
        rng = np.random.default_rng(SEED)
        big, small = np.meshgrid(np.arange(1, LARGEST + 1), np.arange(1, SMALL + 1))
        drawn = [np.arange(1, LARGEST + 1)[:, None], np.column_stack([big.ravel(), small.ravel()]), rng.integers(1, LARGEST + 1, size=(PAIRS, 2)),
                 rng.integers(1, LARGEST + 1, size=(MANY, WIDTH - 1)) * (np.arange(WIDTH - 1) < rng.integers(
                     3, WIDTH, size=(MANY, 1)))]  # (3 to WIDTH - 1 heaps: the rest empty)
        positions = np.zeros((sum(len(d) for d in drawn), WIDTH), dtype=np.int64)
        row = 0
        for heaps in drawn:
            positions[row:row + len(heaps), WIDTH - heaps.shape[1]:] = np.sort(heaps, axis=1)
            row += len(heaps)
        positions = np.unique(np.sort(positions, axis=1)[:, ::-1], axis=0)  # (largest first: a split's free slot last)
        wins = board.theory_wins(positions)
        if wins is None:
            return None
        positions = positions[np.asarray(wins, dtype=bool)]
        children, legal = board.successors(positions)
        children = np.sort(np.where(legal[:, :, None], children, 0), axis=2)[legal]  # (what an illegal action leaves is no child)
        children, inverse = np.unique(children, axis=0, return_inverse=True)
        children = np.asfortranarray(children)  # (a program's fold reads them column by column)
        child = np.full(legal.shape, len(children), dtype=np.int32)
        child[legal] = inverse.reshape(-1)
        lost = np.append(~np.asarray(board.theory_wins(children), dtype=bool), False)
        ranks = np.arange(len(children))  # (np.unique's rows are in lexicographic order already)
        for array in (positions, children, ranks, child, lost):
            array.flags.writeable = False
        return cls(board, tuple(names), positions, children, ranks, child, lost)

    @property
    def ceiling(self) -> tuple[float, float]:
        """(1, 1): every position is won, by some move."""
        return 1.0, 1.0

    def right(self, kind: str, genomes: list) -> np.ndarray:
        """``(len(genomes), k)`` bool: whether each genome's move at each position wins."""
        genome_kind = get_kind(kind)
        rows = np.arange(len(self.positions))
        return np.stack([self.lost[self.index[rows, genome_kind.decide(genes, self.rules, self)]]
                         for genes in genomes])
