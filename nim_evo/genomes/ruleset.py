"""Rule-dictionary genome (Nagappan's CI report, 4.1.2): an evolved move rule per board situation.

Situations, decided on the non-empty piles, first match wins:

    one_pile                  a single non-empty pile
    two_piles_one_single      two piles, one of them holding one object
    two_piles                 two piles, both holding more
    three_piles_two_equal     three piles, exactly two of them equal (the seed's fixed rule 3)
    n_piles_n_minus_1_equal   four or more, all equal but one (the seed's fixed rule 4)
    otherwise

Each situation's value is a rule ``[pile, count, period, residue]``:

- ``pile``: which pile to take from: 0 the shortest non-empty pile, 1 the longest, 2 the
  odd one out (the pile whose size no other pile shares; the longest if none or several);
- ``count``: 0 *leave by residue*: leave the most objects ``L`` the move allows with
  ``L = residue`` (``period`` 0) or ``L = residue mod period`` (``period`` >= 1), which
  expresses taking all, leaving one, and the ``N mod (k + 1)`` rules of capped and misère
  heaps; 1 *match the smallest* other non-empty pile; 2 *match the largest* other pile
  (both equalising, the heart of two-pile Nim and of the seed's rule 4).
  Whatever cannot be done on the board (a match out of reach, no allowed ``L`` with that
  residue) falls back to taking one object, so every value is legal on every board and
  under any cap, and every situation's value is used.

All six rules are evolved. The policy is deterministic and computed on arrays of positions,
so the genome plays any board.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from nim_evo.engine import boards
from nim_evo.engine.rules import Rules
from nim_evo.games.nim import nim_board
from nim_evo.engine.space import Space
from nim_evo.genomes.protocol import (GenomeKind, deterministic_move_probabilities, individual_type, move_arrays,
                                      script_source)
from nim_evo.validation import UserError

NAME = "rules"
SITUATIONS = ("one_pile", "two_piles_one_single", "two_piles", "three_piles_two_equal",
              "n_piles_n_minus_1_equal", "otherwise")
PILES = ("shortest", "longest", "odd")
COUNTS = ("leave", "match_smallest", "match_largest")
MAX_PERIOD = 9
FIELDS = (len(PILES), len(COUNTS), MAX_PERIOD + 1, MAX_PERIOD)  # exclusive upper bounds


def moves(genes, rules: Rules, positions: np.ndarray, features: dict | None = None) -> np.ndarray:
    """``(k,)`` move index chosen in each non-empty position (0 for an empty one).

    ``genes`` is one genome, or a ``(k, situations, 4)`` array of rule tables, one per position
    (many genomes playing at once, see :func:`rule_table`). ``features`` (from
    :func:`board_features` on the same positions) may be passed to skip recomputing what does
    not depend on the genome.
    """
    f = board_features(rules, positions) if features is None else features
    rows = np.arange(len(f["situation"]))
    table = rule_table(genes)
    chosen_rules = table[f["situation"]] if table.ndim == 2 else table[rows, f["situation"]]
    pile_rule, count_rule, period, residue = chosen_rules.T
    pile = f["pile"][pile_rule, rows]
    size, low = f["size"][pile_rule, rows], f["low"][pile_rule, rows]
    high = size - 1
    # leave by residue: the largest L <= high with L == residue (mod period), or exactly residue
    by_period = high - np.mod(high - residue, np.maximum(period, 1))
    leave = np.where(period == 0, residue, by_period)
    leave = np.select([count_rule == 1, count_rule == 2],
                      [f["smallest_other"][pile_rule, rows], f["largest_other"][pile_rule, rows]], leave)
    leave = np.where((leave >= low) & (leave <= high), leave, high)  # out of reach: take one
    chosen = np.zeros(len(rows), dtype=np.int64)
    live = size > 0
    chosen[live] = boards.move_indices(rules, pile[live], (size - leave)[live])
    return chosen


def rule_table(genes) -> np.ndarray:
    """The genome as a ``(situations, 4)`` int array (an array passes through)."""
    if isinstance(genes, np.ndarray):
        return genes
    return np.array([genes[s] for s in SITUATIONS], dtype=np.int64)


def board_features(rules: Rules, positions: np.ndarray) -> dict:
    """What the rules read from each position, for each of the three pile choices:
    ``situation (k,)``, and ``pile``, ``size``, ``low`` (fewest objects a move may leave),
    ``smallest_other``, ``largest_other``, each ``(3, k)``."""
    positions = np.asarray(positions, dtype=np.int64)
    rows = np.arange(len(positions))
    pile = np.stack([boards.shortest(positions), boards.longest(positions), _odd_one_out(positions)])
    size = positions[rows, pile]
    cap = rules.max_take or np.iinfo(np.int64).max
    others = np.where(np.arange(positions.shape[1]) == pile[:, :, None], -1, positions[None])
    return {"situation": situations(positions), "pile": pile, "size": size,
            "low": np.maximum(size - cap, 0),
            "smallest_other": np.where(others > 0, others, np.iinfo(np.int64).max).min(axis=2),
            "largest_other": others.max(axis=2)}


def policy(genes, space: Space) -> np.ndarray:
    """The move array of the genome over the space (deterministic; over multisets, its
    move at each representative)."""
    return space.fold(moves(genes, nim_board(space.rules), space.positions, _space_features(space)))


def situations(positions: np.ndarray) -> np.ndarray:
    """Index into :data:`SITUATIONS` of each position."""
    positions = np.asarray(positions, dtype=np.int64)  # room for the sentinel
    active = (positions > 0).sum(axis=1)
    smallest = np.where(positions > 0, positions, np.iinfo(np.int64).max).min(axis=1)
    distinct, unique_count = _size_profile(positions)
    return np.select(
        [active == 1, (active == 2) & (smallest == 1), active == 2,
         (active == 3) & (distinct == 2), (active >= 4) & (distinct == 2) & (unique_count == 1)],
        [0, 1, 2, 3, 4], 5)


@lru_cache(maxsize=4)
def _space_features(space: Space) -> dict:
    return board_features(nim_board(space.rules), space.positions)


def _random_rule(rng) -> list[int]:
    return [int(rng.integers(bound)) for bound in FIELDS]


def _size_profile(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per position: how many distinct non-empty sizes, and how many sizes occur once."""
    ordered = np.sort(np.where(positions > 0, positions, 0), axis=1)
    live = ordered > 0
    starts = live & np.concatenate([np.ones((len(ordered), 1), bool), ordered[:, 1:] != ordered[:, :-1]], axis=1)
    ends = live & np.concatenate([ordered[:, :-1] != ordered[:, 1:], np.ones((len(ordered), 1), bool)], axis=1)
    return starts.sum(axis=1), (starts & ends).sum(axis=1)


def _odd_one_out(positions: np.ndarray) -> np.ndarray:
    """The pile whose non-empty size no other pile shares; the longest if none or several."""
    positions = np.asarray(positions)
    same = (positions[:, :, None] == positions[:, None, :]).sum(axis=2)
    unique = (same == 1) & (positions > 0)
    only_one = unique.sum(axis=1) == 1
    return np.where(only_one, unique.argmax(axis=1), boards.longest(positions))


class RulesKind(GenomeKind):
    """The rule dictionary as a genome kind: deterministic, plays any board."""

    name = NAME
    individual = individual_type("RulesIndividual", dict)

    def mutate(self, genes, rules: Rules, rng: np.random.Generator, indpb: float = 0.3):
        """Re-draw one field of each situation's rule with probability ``indpb`` (at least one)."""
        chosen = [s for s in SITUATIONS if rng.random() < indpb] or [SITUATIONS[rng.integers(len(SITUATIONS))]]
        for situation in chosen:
            rule = list(genes[situation])
            field = int(rng.integers(len(FIELDS)))
            rule[field] = int(rng.integers(FIELDS[field]))
            genes[situation] = rule
        return (genes,)

    def crossover(self, a, b, rules: Rules, rng: np.random.Generator):
        """Uniform crossover over situations: each swaps its rule with probability 1/2."""
        for situation in SITUATIONS:
            if rng.random() < 0.5:
                a[situation], b[situation] = b[situation], a[situation]
        return a, b

    def move_probabilities(self, genes, rules: Rules, positions: np.ndarray) -> np.ndarray:
        """The genome's moves at ``positions`` as rows of probabilities over the rules' moves (one move
        each)."""
        return deterministic_move_probabilities(rules, positions, lambda live: moves(genes, rules, live))

    def to_json(self, genes, rules: Rules) -> dict:
        """A rules genome as an exported file's ``genome`` field: each situation's rule by its words."""
        return {"rules": {s: dict(zip(("pile", "count", "period", "residue"),
                                      (PILES[r[0]], COUNTS[r[1]], int(r[2]), int(r[3]))))
                          for s, r in ((s, genes[s]) for s in SITUATIONS)}}

    def from_json(self, data: dict, rules: Rules, container=dict):
        """The rules genome a file's ``genome`` field holds, each rule checked; a one-line ``UserError``
        otherwise."""
        table = data.get("rules")
        if not isinstance(table, dict) or set(table) != set(SITUATIONS):
            raise UserError(f"a rules genome needs one rule for each of {', '.join(SITUATIONS)}")
        genes = {}
        for situation in SITUATIONS:
            rule = table[situation]
            try:
                numbers = rule["period"], rule["residue"]
                if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
                    raise TypeError
                genes[situation] = [PILES.index(rule["pile"]), COUNTS.index(rule["count"]), *numbers]
            except (KeyError, TypeError, ValueError):
                raise UserError(f"the rule for {situation} is malformed: {rule!r}") from None
            if not all(0 <= v < bound for v, bound in zip(genes[situation], FIELDS)):
                raise UserError(f"the rule for {situation} is out of range: {rule!r}")
        return container(genes)

    def order_blind(self, genes, rules: Rules) -> bool:
        return True  # it reads pile sizes, the first of equal piles where it picks one

    def create(self, rules: Rules, rng: np.random.Generator, container=dict, multiset: bool = True):
        """A rules genome of one random rule per situation."""
        return container({s: _random_rule(rng) for s in SITUATIONS})

    def choose(self, genes, rules: Rules, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return moves(genes, rules, positions)

    def policies(self, genomes: list, spaces: tuple) -> list[np.ndarray]:
        """Each genome's move array over each space (:func:`policy`)."""
        return move_arrays(policy, genomes, spaces)

    def stack(self, genomes: list) -> np.ndarray:
        return np.stack([rule_table(genes) for genes in genomes])

    def plain(self, genes) -> dict:
        return {situation: list(rule) for situation, rule in genes.items()}

    def check_ranges(self, genes, rules: Rules) -> None:
        for situation, rule in genes.items():
            if not all(0 <= v < bound for v, bound in zip(rule, FIELDS)):
                raise UserError(f"the rule for {situation} is out of range: {rule!r}")

    def same(self, a, b) -> bool:
        return dict(a) == dict(b)

    scripted = True

    def script(self, genes, game: Rules) -> tuple[tuple[str, ...], dict]:
        """``scripts/rules.js``, a port of :func:`moves`, reading the six rules in
        :data:`SITUATIONS`' order."""
        plain = self.check_plain(self.plain(genes), game)
        return (script_source("rules.js"),), {"rules": [[int(v) for v in plain[s]] for s in SITUATIONS]}


KIND = RulesKind()
