"""Program genome: an evolved rule that scores positions, played on any board of its family.

A program is three typed trees (DEAP strongly-typed genetic programming; their language is in
:mod:`nim_evo.genomes.expressions`) and, in a heap game other than Nim, a heap part
(:mod:`nim_evo.genomes.heaps`; none in Wythoff's game and Moore's Nim, :data:`WHOLE_FAMILIES`):

- the **step** ``f(a, p, k) -> int``, folded over a position's heaps in ascending order from
  ``a = 0`` to ``v`` (``p`` the heap's size, or its value under the heap part);
- a **second fold** ``h(b, p, k) -> int``, folded the same way to ``w`` (``0`` where the
  families evolved for do not need it: see :meth:`ProgramKind.stages`);
- the **score** ``g(v, m, w, x) -> int``: how good the position is to leave to the opponent
  (``m`` its largest heap, ``x`` whether the game is misère), the lower the better.

It plays the legal move into the position of lowest score (ties and play in
:mod:`nim_evo.genomes.scoring`): a choice by the multiset of heaps alone, so it is the same
player over multisets (fitness) as on any arrangement (``play``, ``export``). Normal Nim's
answer: step ``sub(or(a, p), and(a, p))`` (exclusive or), score ``v``; Lasker's Nim adds the
heap part ``0 (1 2 4 3) +4``. A file of the first programs, a yes/no ``verdict`` in place of
the score, is read as the score ``if(verdict, 0, 1)`` and plays as it did. Why a score and
a fold, and what the search found: ``docs/explanation/programs.md``.

Fitness: exact tournaments against perfect play (``nimsum``, on Nim; ``perfect`` elsewhere),
every sub-game of the training boards a case of lexicase selection
(:func:`nim_evo.evolution.selection.select_lexicase`); a stalled population is replaced
(:attr:`ProgramKind.restart`), the hall of fame keeping the best, the smaller first among
equals. The search goes in stages (:meth:`ProgramKind.stages`): misère play after normal play,
a heap game's heap part after Nim's fold, each stage holding what the one before found.

Variation: one of DEAP's ``mutUniform``, ``mutNodeReplacement``, ``mutInsert`` and
``mutShrink`` on one tree under DEAP's ``staticLimit`` of :data:`VARIATION_HEIGHT` (files may
hold trees up to :data:`~expressions.MAX_HEIGHT`), or the heap part's own mutations;
crossover is DEAP's ``cxOnePoint`` within one tree, the heap part's one-point crossover, or a
whole part swapped. DEAP's ``gp`` operators draw from the module-level ``random``: each
operator here seeds it from the run's Generator and puts its state back after, so a run gives
the same champion with any number of workers and after ``--resume``. (Both tree types have
terminals in every set, so ``genFull``/``genGrow`` never raise ``IndexError``.)
"""

from __future__ import annotations

import contextlib
import json
import random
from functools import lru_cache

import numpy as np
from deap import gp

from nim_evo.engine import draws
from nim_evo.engine.rules import Rules
from nim_evo.engine.sizes import within
from nim_evo.engine.space import space_for
from nim_evo.games.base import Game
from nim_evo.games.splitting import SplitGame
from nim_evo.genomes import heaps
from nim_evo.genomes.expressions import MAX_NODES, SCORE, SECOND, STEP, parse, script_trees
from nim_evo.genomes.protocol import GenomeKind, Stage, individual_type, script_source
from nim_evo.genomes.scoring import (NOTHING, PARTS, SETS, compiled, folds_in_any_order, is_plain, lowest_child,
                                     move_probabilities, moves, parts, plain, policies_on, policy, scores,
                                     split_child)
from nim_evo.genomes.simplify import simplify
from nim_evo.validation import UserError

NAME = "program"
__all__ = ["KIND", "Program", "expression", "move_probabilities", "moves", "policy", "readable", "scores"]
INITIAL_HEIGHT = (1, 3)  # genHalfAndHalf's heights for a new tree
MUTANT_HEIGHT = (0, 2)  # and for the subtree mutUniform grows
# what fitness is measured on by default: small boards of 2 to 4 piles (every one enumerated,
# exact win rates in a fraction of a second), five with piles up to 7 and one of big 4-bit
# piles, 7-12-15, on which programs that fit the 3-bit piles alone (with or without a cap) fail
TRAIN_BOARDS = ((2, 3), (1, 4, 6), (3, 5, 7), (2, 4, 6, 7), (1, 2, 5, 7), (7, 12, 15))
# and under a cap, one of 5-bit piles, 6-19-27, on which programs that use k as a number fail; with a cap
# its 2,037 multisets have 9 moves each, about what 7-12-15 costs without one
CAPPED_TRAIN_BOARDS = ((6, 19, 27),)
# the heap games a program plays (Nim's fold over a value per heap: Sprague and Grundy's theorem)
HEAP_FAMILIES = ("nim", "subtraction", "squares", "lasker", "octal", "grundy")
# and games whose move takes from several heaps at once, no sum of one-heap games: the program
# folds over the heap sizes themselves (no heap part), in one stage, every tree free; Wythoff's
# on boards of its two heaps, Moore's on the take-away boards
WHOLE_FAMILIES = ("wythoff", "moore")
WYTHOFF_BOARDS = ((4, 7), (10, 16), (20, 30), (60, 90))
# and what fitness is measured on in a heap game other than Nim, by the shape of its moves:
# take-away games, Nim's boards and one of heaps up to 23 (three periods of most subtraction
# sets); games that split a heap, smaller boards (a heap of n reaches about as many positions as
# n has partitions) and single heaps up to 40; of these, the boards of at most TRAIN_POSITIONS
# multisets and TRAIN_CELLS multiset-action pairs (an exact evaluation's tables stay small).
TAKE_AWAY_BOARDS = (*TRAIN_BOARDS, (13, 17, 23))
SPLIT_BOARDS = ((2, 3), (1, 4, 6), (3, 5, 7), (2, 4, 6, 7), (12,), (20,), (9, 14), (40,))
TRAIN_POSITIONS, TRAIN_CELLS = 20_000, 4_000_000
VARIATION_HEIGHT = 5  # staticLimit on variation (the answers are 3 deep; taller trees only slow the search and
# fit the training boards without the rule)


def height(tree) -> int:
    """A tree's height, as DEAP's ``PrimitiveTree.height`` (the root's depth 0), counted
    with each open node's arguments still to come (twice as fast: variation asks it of
    every tree it makes)."""
    most = 0
    waiting: list[int] = []  # of each node still open, the arguments it has yet to get
    for node in tree:
        if len(waiting) > most:
            most = len(waiting)
        if node.arity:
            waiting.append(node.arity)
            continue
        while waiting:
            waiting[-1] -= 1
            if waiting[-1]:
                break
            waiting.pop()
    return most


_LIMIT = gp.staticLimit(key=height, max_value=VARIATION_HEIGHT)


class Program(list):
    """The three trees ``[step, score, second]``, each a new ``PrimitiveTree`` (variation
    changes a tree in place: a copy never shares one), and for a heap game other than Nim a
    fourth part, the :class:`~nim_evo.genomes.heaps.HeapPart` (immutable: variation replaces
    it); expressions given are parsed; given two, ``[step, score]``, the second fold is ``0``."""

    def __init__(self, trees=()):
        trees = list(trees)
        if len(trees) == 2:
            trees.append(NOTHING)
        super().__init__(gp.PrimitiveTree(tree) if isinstance(tree, gp.PrimitiveTree) else
                         parse(tree, pset, f"the program's {part}") for tree, pset, part in zip(trees, SETS, PARTS))
        if len(trees) == 4:
            self.append(trees[3] if isinstance(trees[3], heaps.HeapPart) else heaps.parse(trees[3], "the heap part"))

    def copied(self) -> list:
        """Its parts for a copy: each tree a new one (of the same nodes), the heap part itself."""
        return [gp.PrimitiveTree(tree) for tree in self[:3]] + self[3:]

    def __str__(self) -> str:
        return expression(self)


@contextlib.contextmanager
def _seeded(rng: np.random.Generator):
    """DEAP's gp drawing from a Python generator seeded from ``rng`` for the body. DEAP's gp
    draws from its module's ``random``, which is :data:`_DRAWS` meanwhile: Python's own
    generator, whose state a caller may count on, is not touched (saving and putting back its
    state cost more than a tree's variation)."""
    _DRAWS.seed(int(rng.integers(2**63)))
    kept = gp.random
    gp.random = _DRAWS
    try:
        yield
    finally:
        gp.random = kept


_DRAWS = random.Random()  # (seeded as the global one was: the same draws)


MUTATIONS = ("uniform", "node", "insert", "shrink")
MUTATION_WEIGHTS = (0.35, 0.25, 0.3, 0.1)
_MUTATION_CDF = draws.cumulative(MUTATION_WEIGHTS)


@_LIMIT  # (staticLimit keeps copies of the positional arguments, and may return one: the tree alone)
def _mutate_tree(tree, *, pset, how: str):
    if how == "node":
        return gp.mutNodeReplacement(tree, pset)
    if how == "shrink":
        return gp.mutShrink(tree)
    if how == "insert":
        return gp.mutInsert(tree, pset)
    return gp.mutUniform(tree, lambda pset, type_: gp.genFull(pset, *MUTANT_HEIGHT, type_), pset)


@_LIMIT
def _cross_trees(a, b):
    return gp.cxOnePoint(a, b)


def _free(genes, held) -> list[int]:
    """The parts variation may change: those of the program no stage holds."""
    return [k for k, part in enumerate(PARTS[:len(genes)]) if part not in held]


def _failing_heap(genes, decided, rng: np.random.Generator) -> int | None:
    """A heap of the first decision the program lost, as its ``cases`` say (they end with the
    decisions', ``decided`` their positions): the one whose largest heap is least, one of its
    heaps drawn in proportion to its size; ``None`` where it lost none, or nothing says."""
    cases = getattr(genes, "cases", None)
    if decided is None or cases is None or len(cases) < len(decided):
        return None
    lost = decided[np.asarray(cases[len(cases) - len(decided):]) < 1]
    if not len(lost):
        return None
    first = lost[int(np.argmin(lost.max(axis=1)))]
    first = first[first > 0]
    return int(rng.choice(first, p=first / first.sum()))  # (the bigger, the likelier: small heaps are learnt first)


SWAP = 1 / 3  # the share of crossovers that swap a whole tree
GROWING_VARIANTS = 24  # variants of a heap part with a saltus a local search tries, at most


def expression(genes) -> str:
    """The program in one line, step then score, e.g. ``fold(sub(or(a, p), and(a, p))) -> v``
    (and with a second fold, ``fold(...), fold(max(b, p)) -> ...``; with a heap part, the
    value it gives a heap first: ``p = 0 (1 2 4 3) +4; fold(...) -> v``)."""
    step, score, second, heap = parts(genes)
    folds = f"fold({step})" if str(second) == NOTHING else f"fold({step}), fold({second})"
    return ("" if heap is None else f"p = {heap}; ") + f"{folds} -> {score}"


def readable(genes, rules: Game) -> Program:
    """The program simplified (:func:`nim_evo.genomes.simplify.simplify`: identities and dead
    branches removed, each tree computing exactly what it did), checked to play as the
    evolved program does on every position of the training boards of ``rules``' family (the
    program itself where it would not: a bug, never a program shown that plays otherwise)."""
    *trees, heap = parts(genes)
    original = Program([*trees, heap] if heap is not None else trees)
    simple = Program([simplify(tree, pset) for tree, pset in zip(trees, SETS)]
                     + ([heap.simplest()] if heap is not None else []))
    boards = (tuple(Rules(board, rules.max_take, rules.misere) for board in TRAIN_BOARDS) if isinstance(rules, Rules)
              else heap_boards(rules))
    for board in boards:
        space = space_for(board, multiset=True)
        if not np.array_equal(policy(original, space), policy(simple, space)):
            return original
    return simple


def _score(text, where: str, verdict: bool = False) -> gp.PrimitiveTree:
    """The score ``text`` writes; with ``verdict``, or where ``text`` is no score but a yes/no
    verdict (a checkpoint of a run begun with the first design), the score ``if(verdict, 0, 1)``."""
    wrapped = f"if({text}, 0, 1)" if isinstance(text, str) and len(text) <= 20 * MAX_NODES else text
    if verdict:
        return parse(wrapped, SCORE, where)
    try:
        return parse(text, SCORE, where)
    except UserError as error:
        try:
            return parse(wrapped, SCORE, where)
        except UserError:
            raise error from None


def has_heap_part(game: Game) -> bool:
    """Whether a program of ``game`` has a heap part: in a heap game other than Nim (not in
    Nim, nor in :data:`WHOLE_FAMILIES`)."""
    return not isinstance(game, Rules) and game.family not in WHOLE_FAMILIES


@lru_cache(maxsize=32)
def heap_boards(game: Game) -> tuple[Game, ...]:
    """The boards a program's fitness is measured on in ``game``'s family (its rule and
    convention): :data:`TAKE_AWAY_BOARDS` where a move takes from heaps without splitting one
    (:data:`WYTHOFF_BOARDS` in Wythoff's game), else :data:`SPLIT_BOARDS`; boards the rule
    allows no move on, and boards over :data:`TRAIN_POSITIONS` or :data:`TRAIN_CELLS`, left out."""
    shapes = (WYTHOFF_BOARDS if game.family == "wythoff" else
              SPLIT_BOARDS if isinstance(game, SplitGame) else TAKE_AWAY_BOARDS)
    boards = []
    for heaps_ in shapes:
        try:
            board = game.board(heaps_)
        except UserError:  # (a subtraction set whose least member is above every heap)
            continue
        if within(board, TRAIN_POSITIONS, TRAIN_CELLS):
            boards.append(board)
    return tuple(boards)


class ProgramKind(GenomeKind):
    """The program as a genome kind: deterministic, plays any board."""

    name = NAME
    individual = individual_type("ProgramIndividual", Program)
    mutation_parameters = ()
    train_boards = TRAIN_BOARDS
    capped_train_boards = CAPPED_TRAIN_BOARDS
    selection = "lexicase"
    restart = 10
    reads_family = True
    defaults = {"population": 500, "offspring": 500, "starts": "all", "opponents": ("nimsum",)}

    def crossover(self, a, b, rules: Game, rng: np.random.Generator, held: tuple[str, ...] = ()):
        """Between the same part of both parents (one not ``held``): for a tree, DEAP's
        ``cxOnePoint`` (a subtree each, never the root), for the heap part, one-point crossover of
        the tables (:func:`nim_evo.genomes.heaps.crossover`); or with probability :data:`SWAP`
        the whole parts, so that a step evolved in one lineage meets a score evolved in another."""
        free = _free(a, held)
        part = free[int(rng.integers(len(free)))]
        if rng.random() < SWAP:
            a[part], b[part] = b[part], a[part]
            return a, b
        if PARTS[part] == "heap":
            a[part], b[part] = heaps.crossover(a[part], b[part], rng)
            return a, b
        with _seeded(rng):
            a[part], b[part] = _cross_trees(a[part], b[part])
        return a, b

    def to_json(self, genes, rules: Game) -> dict:
        """A program genome as an exported file's ``genome`` field: each tree as text, and the whole as
        one expression."""
        step, score, second, heap = parts(genes)
        more = {} if heap is None else {"heap": str(heap)}
        return {"step": str(step), "score": str(score), "second": str(second), **more, "expression": expression(genes)}

    def from_json(self, data: dict, rules: Game, container=Program):
        """The program of a file; a file of the first programs, a yes/no ``verdict`` ("is this
        position lost?") in place of the score, is read as the score ``if(verdict, 0, 1)``,
        which plays exactly as that verdict did (the first move into a position called lost)."""
        if "score" not in data and "verdict" in data:
            return container([parse(data.get("step"), STEP, "the program's step"),
                              _score(data["verdict"], "the program's verdict", verdict=True),
                              parse(NOTHING, SECOND, "the program's second fold")])
        data = {"second": NOTHING, **data}  # (files of two trees: no second fold)
        trees = [parse(data.get(part), pset, f"the program's {part}") for part, pset in zip(PARTS, SETS)]
        if "heap" in data:
            trees.append(heaps.parse(data["heap"], "the program's heap part"))
        return container(trees)

    families = HEAP_FAMILIES + WHOLE_FAMILIES

    def order_blind(self, genes, rules: Game) -> bool:
        return True  # it scores multisets, and breaks ties by what the multiset alone says

    def settings_for(self, game: Game) -> dict:
        """Its defaults; perfect play is ``perfect`` in a game other than Nim (``nimsum`` is Nim's)."""
        return {**self.defaults, "opponents": ("nimsum",) if isinstance(game, Rules) else ("perfect",)}

    def training_boards(self, game: Game) -> tuple[Game, ...]:
        """:func:`heap_boards`; a one-line error where none is a board of the family (Moore's
        Nim_k past 4 heaps: the boards have 2 to 4)."""
        boards = heap_boards(game)
        if not boards:
            raise UserError(f"a program trains on boards of 1 to 4 heaps of up to 40, and none is a board of "
                            f"{game.name}'s family and rule")
        return boards

    def decides_beyond(self, game: Game) -> bool:
        """In a splitting game (whose boards stop at heaps of 40, where Kayles' values are not
        yet periodic): yes."""
        return isinstance(game, SplitGame)

    def create(self, rules: Rules, rng: np.random.Generator, container=Program, multiset: bool = True,
               held: dict | None = None):
        """A random program, with a heap part where :func:`has_heap_part`; ``held``: parts it takes
        as given, by name (a stage's; ``None``: the kind's own, the constant ``0`` for a tree and
        Nim's heap value, the heap itself, for the heap part)."""
        held = held or {}
        with _seeded(rng):
            trees: list = [gp.PrimitiveTree(gp.genHalfAndHalf(pset, *INITIAL_HEIGHT)) for pset in SETS]
        if has_heap_part(rules) or "heap" in held:
            trees.append(heaps.create(rng) if "heap" not in held
                         else held["heap"] or heaps.parse(heaps.IDENTITY, "heap"))
        for part, tree in held.items():
            k = PARTS.index(part)
            if part != "heap":
                trees[k] = parse(NOTHING, SETS[k], part) if tree is None else gp.PrimitiveTree(tree)
        return container(trees)

    def mutate(self, genes, rules: Rules, rng: np.random.Generator, held: tuple[str, ...] = (), decided=None,
               **parameters):
        """One change to one of the parts not ``held``: to a tree, one of DEAP's mutations
        (:data:`MUTATIONS`, by :data:`MUTATION_WEIGHTS`); to the heap part, one of its own
        (:func:`nim_evo.genomes.heaps.mutate`), told where the parent's play first fails when it
        is known: ``decided``, the decisions' positions (the last of the parent's ``cases``,
        :mod:`nim_evo.evaluation.decisions`), and a heap of the first it lost."""
        free = _free(genes, held)
        part = free[int(rng.integers(len(free)))]
        if PARTS[part] == "heap":
            genes[part] = heaps.mutate(genes[part], rng, focus=_failing_heap(genes, decided, rng))
            return (genes,)
        how = MUTATIONS[draws.weighted(rng, _MUTATION_CDF)]
        with _seeded(rng):
            (genes[part],) = _mutate_tree(genes[part], pset=SETS[part], how=how)
        return (genes,)

    def stages(self, families, single: bool = False, game: Game | None = None) -> tuple[Stage, ...]:
        """In Wythoff's game and Moore's Nim (:data:`WHOLE_FAMILIES`): one stage, nothing held
        (neither is a sum of one-heap games, so Nim's fold is no start there).

        In a heap game other than Nim: two stages. The first evolves the step on Nim's
        training boards in normal play (the heap part held as Nim's, the heap itself), where the
        path to exclusive or pays at every step; its champion hands the step on, and the
        second evolves the heap part and the score, the step held, in the game itself. (The
        fold is the same in every heap game, Sprague and Grundy's theorem says: what a family
        adds is its heaps' values.) The second never restarts: a heap part's values accumulate
        over many generations, and a random population would lose them.

        In Nim, normal play: one stage. With misère play among the families: two. The first
        evolves the program in normal play (same boards, same caps), where the step's path to
        exclusive or pays at every step; its champion hands its step on, and the second
        evolves the score, the step held, in the families themselves. (From scratch in misère
        play alone, the step's path pays only under the misère score; and a search free to
        vary the step loses it.) The second fold evolves only where misère play under a cap needs it (its rule
        reads the largest residue), in the last stage; elsewhere it stays ``0``. (A program
        that sees ``k`` take one value may use it as a number, ``add(a, k)``, right on every
        training board and wrong on big ones: the validation sample keeps such a step from
        being handed on, or taken for a run's target. A run trains under its own caps alone:
        runs of several caps, ``--families cap2,cap3,cap4``, train so when asked.)"""
        families = tuple(families)
        if game is not None and game.family in WHOLE_FAMILIES:
            return (Stage(families),)
        if game is not None and not isinstance(game, Rules) and not single:
            return (Stage(((None, False),), held=("second", "heap"), nim=True),
                    Stage(families, held=("step", "second"), restarts=False))
        second = () if any(cap is not None and misere for cap, misere in families) else ("second",)
        if single:  # a run begun before stages and the second fold: one stage, its two trees
            return (Stage(families, held=("second",)),)
        if not any(misere for _, misere in families):
            return (Stage(families, held=("second",)),)
        normal = tuple(dict.fromkeys((cap, False) for cap, _ in families))
        return (Stage(normal, held=("second",)), Stage(families, held=("step", *second)))

    def describe(self, genes, rules: Game) -> str:
        return expression(readable(genes, rules))

    def trees(self, genes, rules: Game) -> list:
        step, score, second, _ = parts(readable(genes, rules))
        named = [("step f(a, p, k), folded to v", step)]
        if str(second) != NOTHING:
            named.append(("second fold h(b, p, k), folded to w", second))
        return [*named, ("score g(v, m, w, x): lowest is best", score)]

    @staticmethod
    def part(genes, name: str):
        """The part ``name`` (``step``, ``score``, ``second`` or ``heap``) of a program."""
        return genes[PARTS.index(name)]

    def move_probabilities(self, genes, rules: Game, positions: np.ndarray) -> np.ndarray:
        """One-hot rows of its move (:func:`~nim_evo.genomes.scoring.move_probabilities`), each
        program of a stack at its own positions."""
        if not _is_stack(genes):
            return move_probabilities(genes, rules, positions)
        positions = np.asarray(positions, dtype=np.int64)
        table = np.zeros((len(positions), rules.n_actions))
        for program, rows in _programs(genes):
            table[rows] = move_probabilities(program, rules, positions[rows])
        return table

    def choose(self, genes, rules: Rules, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Its move (deterministic: nothing drawn), each program of a stack at its own positions."""
        if not _is_stack(genes):
            return moves(genes, rules, positions)
        chosen = np.zeros(len(positions), dtype=np.int64)
        for program, rows in _programs(genes):
            chosen[rows] = moves(program, rules, np.asarray(positions)[rows])
        return chosen

    def policies(self, genomes: list, spaces: tuple) -> list[np.ndarray]:
        """A population's moves over several boards, chosen together, its scores of the boards
        of one family made in one pass (:func:`~nim_evo.genomes.scoring.policies_on`)."""
        return policies_on(genomes, spaces)

    def decide(self, genes, rules: Game, decisions) -> np.ndarray:
        """The move into the child of lowest score, as :func:`moves` plays it, each child
        scored once."""
        return lowest_child(genes, rules, decisions.children, decisions.ranks, decisions.index)

    def value_variants(self, genes, decided: np.ndarray, rng: np.random.Generator) -> list:
        """The heap part's value at a heap of the first decision the program lost, set to each
        of :func:`~nim_evo.genomes.heaps.candidates`, there alone and for its whole residue
        past the table. A part with a saltus (values that grow, as Lasker's Nim's do) also has
        that heap's value swapped with each neighbour's, its table read with each other
        period (:func:`~nim_evo.genomes.heaps.periods`: values grown one by one meet their
        period and saltus there), and the swap made in every period before and after it, for
        each period (:func:`~nim_evo.genomes.heaps.exchanged`); of these,
        :data:`GROWING_VARIANTS` at most, drawn. None without a heap part or a lost decision."""
        part = parts(genes)[3] if len(genes) == 4 else None
        if part is None:
            return []
        heap = _failing_heap(genes, decided, rng)
        if heap is None or heap >= heaps.MAX_VALUES:
            return []
        ways = (False, True) if heap + 1 + part.period <= heaps.MAX_VALUES else (False,)
        variants = {heaps.with_value(part, heap, value, alone): None for value in heaps.candidates(part, heap, rng)
                    for alone in ways}  # (the same part both ways where the heap is before the period)
        if part.saltus:
            variants.update(dict.fromkeys(heaps.swapped(part, heap, heap + step, alone) for step in (-1, 1)
                                          for alone in ways if 0 < heap + step < heaps.MAX_VALUES - part.period))
            variants.update(dict.fromkeys(heaps.periods(part)))
            variants.update(dict.fromkeys(variant for step in (-1, 1) for period in range(2, heaps.PERIODS + 1)
                                          if (variant := heaps.exchanged(part, heap, heap + step, period))))
            if len(variants) > GROWING_VARIANTS:  # (each plays every decision: a generation's time)
                drawn = rng.choice(len(variants), GROWING_VARIANTS, replace=False)
                variants = dict.fromkeys(list(variants)[i] for i in sorted(drawn))
        return [[*genes[:3], variant] for variant in variants]

    def values_at(self, genes, heap: int, through: int) -> list:
        """The heap part's value at ``heap`` set to each of :func:`~nim_evo.genomes.heaps.values_at`."""
        part = parts(genes)[3] if len(genes) == 4 else None
        return [] if part is None else [[*genes[:3], variant] for variant in heaps.values_at(part, heap, through)]

    def cut(self, genes, end: int, period: int, through: int):
        """The heap part cut at ``end`` with ``period`` (:func:`~nim_evo.genomes.heaps.cut`),
        simplified; ``None`` with a saltus."""
        part = parts(genes)[3] if len(genes) == 4 else None
        if part is None or part.saltus:
            return None
        made, changed = heaps.cut(part, end, period, through)
        return [*genes[:3], made.simplest()], changed

    def repeating(self, genes):
        """The heap part read with the period its values repeat with (:func:`~nim_evo.genomes.heaps.repeating`)."""
        return [*genes[:3], heaps.repeating(parts(genes)[3])] if len(genes) == 4 else genes

    def folds_in_any_order(self, genes) -> bool:
        """The step's fold is 0 at the same values in any order
        (:func:`~nim_evo.genomes.scoring.folds_in_any_order`)."""
        return folds_in_any_order(genes)

    def plays_any_heaps(self, genes, family: Game) -> bool:
        """In a splitting game, with a heap part (its values read at any heap)."""
        return isinstance(family, SplitGame) and parts(genes)[3] is not None

    def child_of(self, genes, family: Game, heaps) -> np.ndarray:
        """In a splitting game, among heaps of any size (:func:`split_child`)."""
        if isinstance(family, SplitGame):
            return split_child(genes, family, heaps)
        return super().child_of(genes, family, heaps)

    def stack(self, genomes: list) -> np.ndarray:
        stacked = np.empty(len(genomes), dtype=object)
        stacked[:] = [tuple(self.plain(g)) for g in genomes]
        return stacked

    def plain(self, genes) -> list:
        return plain(genes)

    def check_plain(self, genes, rules: Game, multiset: bool = True):
        if not isinstance(genes, list) or len(genes) not in (2, 3, 4):
            raise UserError("genes must be the program's expressions: step, score, (optional) second fold and "
                            "heap part")
        second = genes[2] if len(genes) >= 3 else NOTHING
        heap = [str(heaps.parse(genes[3], "genes[3]"))] if len(genes) == 4 else []
        return [str(parse(genes[0], STEP, "genes[0]")), str(_score(genes[1], "genes[1]")),
                str(parse(second, SECOND, "genes[2]")), *heap]

    def size(self, genes) -> int:
        *trees, heap = parts(genes)
        return sum(len(tree) for tree in trees) + (0 if heap is None else heap.size())

    def play_key(self, genes, largest: int) -> str:
        """Its trees, and its heap part's values on heaps up to ``largest`` (parts alike there play
        alike); of its plain form (:meth:`plain`), the texts themselves."""
        texts = list(genes) if is_plain(genes) else self.plain(genes)
        trees, heap = (texts + [NOTHING])[:3], compiled(genes)[3]
        values = [] if heap is None else heap(np.arange(largest + 1)).tolist()
        return json.dumps(trees + values)

    def same(self, a, b) -> bool:
        return self.plain(a) == self.plain(b)

    scripted = True

    def script(self, genes, game: Game) -> tuple[tuple[str, ...], dict]:
        """``scripts/program.js``, a small interpreter of the trees' node names
        (:func:`~nim_evo.genomes.expressions.script_trees`), BigInt held to int64 as numpy
        computes; where it plays heaps of any size, with ``scripts/splitting.js`` and the heap
        part's values, period and saltus."""
        plain = self.check_plain(self.plain(genes), game)
        trees: dict = script_trees(plain[:3])
        if not self.plays_any_heaps(plain, game):
            return (script_source("program.js"),), trees
        heap = heaps.parse(plain[3], "the program's heap part")
        return ((script_source("program.js"), script_source("splitting.js")),
                {**trees, "heap": {"values": list(heap.values), "period": heap.period, "saltus": heap.saltus}})


def _is_stack(genes) -> bool:
    """Whether ``genes`` is a :meth:`ProgramKind.stack` (a program per position)."""
    return isinstance(genes, np.ndarray) and genes.dtype == object


def _programs(stack: np.ndarray):
    """Each distinct program of a stack, with the rows it plays."""
    for program in {id(g): g for g in stack}.values():
        yield program, np.flatnonzero([g is program for g in stack])


KIND = ProgramKind()
