"""A toy splitting family, all in this one file: take one object from a heap of two or more, or
split a heap in two.

It shows what a new family needs: a frozen :class:`~nim_evo.games.base.Game` dataclass with
its name grammar (``from_name``), its action alphabet and labels, its one vectorised rule
(``successors``) and, because a split keeps the objects, a retrograde order that every move
lowers; then a registration (``register(TakeOrSplit)`` in a process, or the ``nim_evo.games``
entry point of an installed package). A split adds a heap, so positions are rows as wide as
the most heaps a board can hold, zero-padded; a board of single objects has no move, so the
game ends there, not on the empty board. Nothing else in nim_evo changes.
"""

import re
from dataclasses import dataclass

import numpy as np

from nim_evo.games.base import Game
from nim_evo.validation import UserError

MAX_HEAP = 12


@dataclass(frozen=True)
class TakeOrSplit(Game):
    heap: int
    misere: bool = False

    family = "take-or-split"
    grammar = "N-split (one heap of N, at most 12), then optionally -misere"
    example = "6-split"

    def __post_init__(self):
        if not isinstance(self.heap, int) or not 1 <= self.heap <= MAX_HEAP:
            raise UserError(f"a take-or-split heap holds 1 to {MAX_HEAP} objects, got {self.heap!r}")

    @classmethod
    def from_name(cls, name):
        match = re.fullmatch(r"(\d+)-split(-misere)?", name)
        return None if match is None else cls(int(match[1]), match[2] is not None)

    @property
    def name(self):
        return f"{self.heap}-split" + ("-misere" if self.misere else "")

    @property
    def start(self):
        return (self.heap,) + (0,) * (self.heap - 1)  # a heap of n splits into at most n heaps

    @property
    def n_actions(self):
        return self.width * (1 + self.heap // 2)

    def _action(self, action):
        """``(heap slot, j)``: take one where ``j == 0``, else split off a heap of ``j``."""
        return divmod(action, 1 + self.heap // 2)

    def action_label(self, action):
        slot, j = self._action(action)
        return f"take 1 from heap {slot + 1}" if j == 0 else f"split {j} off heap {slot + 1}"

    def successors(self, positions):
        positions = np.asarray(positions, dtype=np.int64)
        k, width = positions.shape
        children = np.repeat(positions[:, None, :], self.n_actions, axis=1)
        legal = np.zeros((k, self.n_actions), dtype=bool)
        free = (positions == 0).argmax(axis=1)            # the first empty slot takes a split-off heap
        has_free = (positions == 0).any(axis=1)
        rows = np.arange(k)
        for action in range(self.n_actions):
            slot, j = self._action(action)
            if j == 0:
                children[:, action, slot] -= 1
                legal[:, action] = positions[:, slot] >= 2
            else:
                children[:, action, slot] -= j
                children[rows, action, free] += j
                legal[:, action] = (positions[:, slot] > j) & has_free
        return children, legal

    def order(self, positions):
        positions = np.asarray(positions, dtype=np.int64)
        return positions.sum(axis=-1) * (positions.shape[-1] + 1) - (positions > 0).sum(axis=-1)
