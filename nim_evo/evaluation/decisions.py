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
from functools import lru_cache

import numpy as np

from nim_evo.games.base import Game
from nim_evo.genomes.protocol import GenomeKind
from nim_evo.validation import UserError

LARGEST = 120  # the biggest heap of a decision (Kayles' period, 12, from 71 on; Dawson's, 34, from 53)
PAIRS, MANY = 400, 200  # positions of two heaps, and of 3 to WIDTH - 1 heaps, drawn (before the lost ones are left out)
SMALL = 8  # every heap up to LARGEST also meets each heap up to this
SEED = 31
WIDTH = 9  # eight heaps and an empty slot a split fills
CHUNK = 256  # positions whose children are made at once (every action's child of each, legal or not)
RUNG_DRAWN = 120  # a rung's positions of its heap with two or three smaller ones, drawn (beside it with each smaller one)


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
        return cls.at(board, positions, names)

    @classmethod
    def at(cls, board: Game, positions: np.ndarray, names: tuple[str, ...] = ("perfect",)) -> Decisions | None:
        """The decisions at the winning ones of ``positions`` (rows of heaps in any order, an
        empty slot at least where a move splits: :data:`WIDTH`, or narrower rows, which have
        fewer actions) of ``board``'s family, its largest heap the largest of any; ``None``
        where its theory does not say which win."""
        positions = np.unique(np.sort(positions, axis=1)[:, ::-1], axis=0)  # (largest first: a split's free slot last)
        wins = board.theory_wins(positions)
        if wins is None:
            return None
        positions = positions[np.asarray(wins, dtype=bool)]
        legals, made = [], []
        for start in range(0, len(positions), CHUNK):
            chunk, chunk_legal = board.successors(positions[start:start + CHUNK])
            legals.append(chunk_legal)
            made.append(np.sort(np.where(chunk_legal[:, :, None], chunk, 0), axis=2)[chunk_legal])  # (an illegal action's is no child)
        legal = np.concatenate(legals)
        children, inverse = np.unique(np.concatenate(made), axis=0, return_inverse=True)
        child = np.full(legal.shape, len(children), dtype=np.int32)
        child[legal] = inverse.reshape(-1)
        lost = np.append(~np.asarray(board.theory_wins(children), dtype=bool), False)
        return cls._made(board, names, positions, children, child, lost)

    @classmethod
    def _made(cls, board, names, positions, children, index, lost) -> Decisions:
        children = np.asfortranarray(children)  # (a program's fold reads them column by column)
        ranks = np.arange(len(children))  # (rows in lexicographic order, as np.unique leaves them)
        for array in (positions, children, ranks, index, lost):
            array.flags.writeable = False
        return cls(board, tuple(names), positions, children, ranks, index, lost)

    def rows(self, which: np.ndarray) -> Decisions:
        """The decisions at the positions ``which`` selects (a mask or indices), with only
        their own children."""
        index = self.index[which]
        used = np.unique(index[index < len(self.children)])
        renamed = np.full(len(self.children) + 1, len(used), dtype=np.int32)
        renamed[used] = np.arange(len(used))
        return self._made(self.rules, self.names, self.positions[which], self.children[used], renamed[index],
                          np.append(self.lost[used], False))

    def ladder(self) -> tuple[Decisions | None, ...]:
        """The decisions heap by heap (:func:`ladder`): item ``h`` those whose largest heap is ``h``."""
        return ladder(self.rules, self.names)

    @property
    def ceiling(self) -> tuple[float, float]:
        """(1, 1): every position is won, by some move."""
        return 1.0, 1.0

    def right(self, kind: GenomeKind, genomes: list) -> np.ndarray:
        """``(len(genomes), k)`` bool: whether each genome's move at each position wins."""
        rows = np.arange(len(self.positions))
        return np.stack([self.lost[self.index[rows, kind.decide(genes, self.rules, self)]]
                         for genes in genomes])


@lru_cache(maxsize=2)
def ladder(board: Game, names: tuple[str, ...]) -> tuple[Decisions | None, ...]:
    """Decisions for a search that sets a genome's heap values in order, from the smallest
    heap up (:func:`nim_evo.evolution.localsearch.put_right`): rung ``h`` (item ``h``, up to
    the heap of ``board``, a board of one heap: :data:`LARGEST` for the decisions') holds the
    winning positions of the heap ``h`` alone, beside each smaller heap, and beside two or
    three smaller ones (:data:`RUNG_DRAWN` drawn, their own seed).
    Every heap of a rung's positions and of their children is at most ``h`` (a move takes or
    splits), so which of them a genome wins depends on its values of heaps up to ``h`` alone.
    Beside a heap of every size, a wrong value meets a heap that shares it; beside several,
    one their exclusive or gives. (The decisions of :meth:`Decisions.build` meet each big
    heap in a few positions, where a wrong value often plays right.) Built once, when first
    asked; ``()`` where the theory does not say which positions win."""
    rng = np.random.default_rng(SEED)
    rows, largest = [], max(board.start)
    for heap in range(1, largest + 1):
        rung = np.zeros((heap + RUNG_DRAWN, 5), dtype=np.int64)  # (four heaps and a slot a split fills: narrow rows, few actions)
        rung[:, 0] = heap
        rung[:heap, 1] = np.arange(heap)
        rung[heap:, 1:4] = rng.integers(0, heap, size=(RUNG_DRAWN, 3)) * (np.arange(3) < rng.integers(2, 4, size=(RUNG_DRAWN, 1)))
        rows.append(rung)
    positions = np.concatenate(rows)
    decisions = Decisions.at(board, positions, names)
    if decisions is None:
        return ()
    first = decisions.positions[:, 0]  # (each position's largest heap)
    return tuple(decisions.rows(first == heap) if heap and (first == heap).any() else None
                 for heap in range(largest + 1))
