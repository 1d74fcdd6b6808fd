"""How a board-free genome generalises: its accuracy on boards it was never trained on.

Two held-out sets, both of the genome's family (its cap and misère flag):

- every winning position of 1-3-5-7-9-11-13 (its 21,318 multisets of piles, each counted for
  the positions it stands for), judged by the solver;
- winning positions sampled from random boards of 8 to 16 piles of up to 1,000 objects
  (each pile of a position uniform from empty to its board's size), judged by theory: the
  nim-sum for normal play, pile sizes modulo ``k + 1`` under a cap of ``k``, Bouton's rule
  for misère play, on those residues under a cap (:mod:`nim_evo.games.nimtheory`).

Accuracy is the share of those winning positions where the genome plays a winning move.
"""

from __future__ import annotations

import json

import numpy as np

from nim_evo.games.base import Game
from nim_evo.games.nim import nim_board
from nim_evo.engine import boards
from nim_evo.engine.rules import Rules
from nim_evo.games.nimtheory import known_wins
from nim_evo.genomes import get_kind

SEVEN_HEAPS = (1, 3, 5, 7, 9, 11, 13)
RANDOM = "random boards"  # the held-out report's name for them
RANDOM_BOARDS, POSITIONS_EACH = 20, 50
RANDOM_BOARD_PILES, RANDOM_BOARD_MAX_PILE = (8, 16), 1000


def board_accuracy(kind: str, genes, rules: Game) -> float:
    """Share of the board's winning positions where the genome plays a winning move (for a
    stochastic genome, the mean probability it does). Measured with the solver on the kind's
    judged space: the multisets (weighted by the positions each stands for), or a table
    genome's own space (an ordered one is judged position by position)."""
    from nim_evo.engine.solver import solve

    genome_kind = get_kind(kind)
    space = genome_kind.judged_space(genes, rules)
    return solve(space).accuracy(genome_kind.policies([genes], space)[0])


def held_out_accuracy(kind: str, genes, family: Rules, seed: int = 0) -> dict[str, float]:
    """``{"1-3-5-7-9-11-13": ..., "random boards": ...}``: the genome's accuracy on boards it
    was not trained on."""
    seven = Rules(SEVEN_HEAPS, family.max_take, family.misere)
    return {seven.name: board_accuracy(kind, genes, seven),
            RANDOM: random_boards_accuracy(kind, genes, family, np.random.default_rng([seed, 7]))}


def random_boards_accuracy(kind: str, genes, family: Rules, rng: np.random.Generator, piles: tuple = RANDOM_BOARD_PILES,
                           max_pile: int = RANDOM_BOARD_MAX_PILE) -> float:
    """The share of sampled winning positions of random big boards (``piles`` many, each of
    up to ``max_pile``) where the genome plays a winning move."""
    right = total = 0
    for _ in range(RANDOM_BOARDS):
        sizes = rng.integers(1, max_pile + 1, size=int(rng.integers(piles[0], piles[1] + 1)))
        rules = Rules(tuple(int(s) for s in sizes), family.max_take, family.misere)
        positions = rng.integers(0, sizes + 1, size=(4 * POSITIONS_EACH, len(sizes)))
        winning = known_wins(rules, positions)[0] & positions.any(axis=1)
        positions = positions[winning][:POSITIONS_EACH]
        chosen = get_kind(kind).choose(genes, rules, positions, rng)
        moves = boards.move_list(rules)[chosen]
        after = positions.copy()
        after[np.arange(len(after)), moves[:, 0]] -= moves[:, 1]
        legal = (after >= 0).all(axis=1)
        right += int((legal & ~known_wins(rules, np.maximum(after, 0))[0]).sum())
        total += len(positions)
    return right / total


# A stage hands its champion on only if it also plays a validation sample right: random boards
# of 5 to 10 piles up to 100, always the same (their own seed), apart from the held-out sets
# (the run reports those: seven heaps, and 8 to 16 piles up to 1,000 drawn from the run's seed).
VALIDATION_PILES, VALIDATION_MAX_PILE, VALIDATION_SEED = (5, 10), 100, 29
_VALIDATED: dict = {}


def validates(kind: str, genes, families) -> bool:
    """Whether the genome plays a winning move at every sampled winning position of the
    validation boards (:data:`VALIDATION_PILES`, judged by theory) in each of ``families``
    (``(max_take, misere)`` pairs): a program right on every training board by a trick of
    small or few piles fails it."""
    key = (kind, json.dumps(genes, sort_keys=True, default=np.ndarray.tolist), tuple(families))
    if key not in _VALIDATED:
        if len(_VALIDATED) >= 64:
            _VALIDATED.pop(next(iter(_VALIDATED)))
        _VALIDATED[key] = all(
            random_boards_accuracy(kind, genes, Rules((1,), cap, misere), np.random.default_rng(VALIDATION_SEED),
                                   VALIDATION_PILES, VALIDATION_MAX_PILE) == 1.0 for cap, misere in families)
    return _VALIDATED[key]


_SEVEN_HEAPS: dict = {}  # the accuracies measured last, by champion: a champion stays for many generations


def seven_heaps_accuracy(kind: str, genes, rules: Game) -> float:
    """A board-free champion's accuracy on 1-3-5-7-9-11-13 of its family (the held-out board
    the logbook follows, generation by generation; the sampled big boards are measured at the end)."""
    rules = nim_board(rules)  # board-free kinds play Nim alone
    key = (kind, json.dumps(genes, sort_keys=True, default=np.ndarray.tolist), rules.max_take, rules.misere)
    if key not in _SEVEN_HEAPS:
        if len(_SEVEN_HEAPS) >= 64:
            _SEVEN_HEAPS.pop(next(iter(_SEVEN_HEAPS)))
        _SEVEN_HEAPS[key] = board_accuracy(kind, genes, Rules(SEVEN_HEAPS, rules.max_take, rules.misere))
    return _SEVEN_HEAPS[key]
