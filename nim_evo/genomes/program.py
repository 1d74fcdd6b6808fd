"""Program genome: an evolved rule that scores positions, played on any board.

A program is three typed trees (DEAP strongly-typed genetic programming; their language is in
:mod:`nim_evo.genomes.expressions`):

- the **step** ``f(a, p, k) -> int``, folded over a position's pile sizes in ascending order
  from ``a = 0`` (so a position's value does not depend on how its piles are arranged, and
  the fold reads any number of piles): ``v = f(...f(f(0, p1, k), p2, k)..., pn, k)``;
- a **second fold** ``h(b, p, k) -> int``, folded the same way to ``w`` (``0`` where the
  families evolved for do not need it: see :meth:`ProgramKind.stages`);
- the **score** ``g(v, m, w, x) -> int`` of the position (value ``v``, largest pile ``m``,
  second value ``w``, ``x`` whether the game is misère): how good it is to leave to the
  opponent, the lower the better.

The program plays the legal move into the position of lowest score; among equal scores, the
one from the smallest pile, then the one that takes fewest (then the first of equal piles):
so its choice depends on the multiset of pile sizes alone, never on their order, and the
program is the same player over multisets (what fitness reads) as on the board (what
``play``, ``export`` and the page run). Why this design: a program
that scores positions, not moves, states a theory of the game, which is what plays boards
never seen (a move's score would have to relearn the theory for each move); the fold reads
boards of any size; splitting the score from the fold lets one fold serve normal play (the
score ``v``), the cap (the step reads ``mod(p, k)``) and misère play (``if(lt(1, m), v, if(eq(v,
1), 0, 1))``), none of which the primitives give. A score, not a yes/no verdict, because it
grades the near misses the search has to climb through: with a verdict ("is this position
lost?"), a step that is not exclusive or yet claims wrong positions lost and plays worse than
claiming none, so most programs sit on one plateau (lose only when the largest pile is 0);
with a score, moving to the lowest value of ``p``, of ``or(a, p)``, of ``sub(or(a, p), a)``
and of ``sub(or(a, p), and(a, p))`` (exclusive or) wins more sub-games at each step, a path
DEAP's ``mutInsert`` walks one insertion at a time. A verdict is the score ``if(verdict, 0,
1)``: files written with one (``"verdict"``) are read as that score and play as they did.
Normal play's answer: step ``sub(or(a, p), and(a, p))``, score ``v``.

Fitness: the program kind plays its tournaments against a perfect opponent by default
(``nimsum``; ``minimax`` to full depth would add the same values at twice the cost). Against
a random opponent, the move made from a lost position changes the odds, so a program can
score above the exact rule by choosing those moves to suit the training boards; against
perfect play only winning every winnable sub-game counts, and only the rule does that on
every board. ``--opponents`` sets another panel.

Randomness: DEAP's ``gp`` operators draw from the module-level ``random``. Each operator
here seeds it from the run's Generator (a draw of ``rng``, which a run derives from its seed
and generation) and puts its state back after, so a program run gives the same champion with
any number of workers and after ``--resume``, and leaves Python's ``random`` as it found it.
Search (measured in ``benchmarks/program.py``): mutation is one of DEAP's ``mutUniform``
(a subtree regrown), ``mutNodeReplacement`` (one primitive or terminal swapped),
``mutInsert`` (a new primitive above a subtree: ``p`` to ``or(a, p)``) and ``mutShrink``;
crossover is DEAP's ``cxOnePoint`` within one of the trees, or swaps that whole tree;
survivors are chosen by lexicase selection over every sub-game of the training boards
(:func:`nim_evo.evolution.selection.select_lexicase`), which keeps programs that win sub-games
the best ones lose; and a stalled population is replaced by a new one
(:attr:`ProgramKind.restart`), the hall of fame keeping the best, the smaller first among
equals (:class:`nim_evo.evolution.selection.HallOfFame`). Bloat: variation is under DEAP's
``staticLimit`` of :data:`VARIATION_HEIGHT` (files may hold trees up to
:data:`~expressions.MAX_HEIGHT`); among programs that play alike, lexicase prefers the
smaller. Misère play is the hard family: with the score ``v`` even the exact step plays
worse than a random program (it moves into the endgame's losing positions), so the step's
path to exclusive or pays only under the misère score, eleven nodes found with no signal (no
seed of ten found both at once). So a misère run goes in two stages (:meth:`ProgramKind.stages`):
normal play on the same boards first, where the step's path pays at every step, and once its
champion is perfect there (and on a validation sample of bigger boards) a new population,
every program holding that champion's step, evolves the score in misère play.
The pitfalls of typed GP: ``genFull``/``genGrow`` raise ``IndexError`` when a type has no
terminal at the depth reached (both types have terminals in both sets, so they never do;
``mutInsert`` fills the new primitive's other arguments with terminals); evaluation is
vectorised, each tree interpreted once over all positions of a board (numpy arrays), never
compiled, and each distinct genome once a generation.
"""

from __future__ import annotations

import contextlib
import operator
import random
from functools import lru_cache

import numpy as np
from deap import gp

from nim_evo.engine import boards
from nim_evo.engine.rules import Rules
from nim_evo.games.nim import nim_board
from nim_evo.engine.space import Space
from nim_evo.genomes.expressions import MAX_HEIGHT, MAX_NODES, SCORE, SECOND, STEP, code, parse, run
from nim_evo.genomes.protocol import GenomeKind, Stage, deterministic_move_probabilities, individual_type
from nim_evo.validation import UserError

NAME = "program"
PARTS = ("step", "score", "second")  # (the second fold last: files of two trees are [step, score])
SETS = (STEP, SCORE, SECOND)
NOTHING = "0"  # a part no stage varies: the second fold of a family that does not need it
INITIAL_HEIGHT = (1, 3)  # genHalfAndHalf's heights for a new tree
MUTANT_HEIGHT = (0, 2)  # and for the subtree mutUniform grows
# what fitness is measured on by default: small boards of 2 to 4 piles (every one enumerated,
# exact win rates in a fraction of a second), five with piles up to 7 and one of big 4-bit
# piles: on 3-bit piles alone, programs such as add(p, sub(mod(a, and(a, p)), and(a, p)))
# play every training position right and 91% of seven heaps, and under a cap of 3 programs
# such as sub(or(a, p), and(add(a, k), sub(p, k))) play every position of 4-10-13 right and
# 88% of big boards; 7-12-15 catches both (benchmarks/program.py)
TRAIN_BOARDS = ((2, 3), (1, 4, 6), (3, 5, 7), (2, 4, 6, 7), (1, 2, 5, 7), (7, 12, 15))
# and under a cap, one of 5-bit piles: programs that use k as a number, such as
# sub(sub(or(a, p), and(p, sub(a, k))), k), play every position of the six right under a cap of
# 3 (and 1-3-5-7-9) but 76-86% of big boards; 6-19-27 catches them (94-98%), and with a cap its
# 2,037 multisets have 9 moves each, about what 7-12-15 costs without one
CAPPED_TRAIN_BOARDS = ((6, 19, 27),)
VARIATION_HEIGHT = 5  # staticLimit on variation (the answers are 3 deep; taller trees only slow the search and
# fit the training boards without the rule)
_LIMIT = gp.staticLimit(key=operator.attrgetter("height"), max_value=VARIATION_HEIGHT)


class Program(list):
    """The three trees ``[step, score, second]``, each a new ``PrimitiveTree`` (variation
    changes a tree in place: a copy never shares one); expressions given are parsed; given
    two, ``[step, score]``, the second fold is ``0``."""

    def __init__(self, trees=()):
        trees = list(trees)
        if len(trees) == 2:
            trees.append(NOTHING)
        super().__init__(gp.PrimitiveTree(tree) if isinstance(tree, gp.PrimitiveTree) else
                         parse(tree, pset, f"the program's {part}") for tree, pset, part in zip(trees, SETS, PARTS))

    def __str__(self) -> str:
        return expression(self)


@contextlib.contextmanager
def _seeded(rng: np.random.Generator):
    """Python's ``random`` seeded from ``rng`` for the body (DEAP's gp draws from it), then put back."""
    state = random.getstate()
    random.seed(int(rng.integers(2**63)))
    try:
        yield
    finally:
        random.setstate(state)


def create(rules: Rules, rng: np.random.Generator, container=Program, held: dict | None = None):
    """A random program; ``held``: trees it takes as given, by part name (a stage's; ``None``:
    the constant ``0``, for a part no stage before has evolved)."""
    with _seeded(rng):
        trees = [gp.PrimitiveTree(gp.genHalfAndHalf(pset, *INITIAL_HEIGHT)) for pset in SETS]
    for part, tree in (held or {}).items():
        k = PARTS.index(part)
        trees[k] = parse(NOTHING, SETS[k], part) if tree is None else gp.PrimitiveTree(tree)
    return container(trees)


MUTATIONS = ("uniform", "node", "insert", "shrink")
MUTATION_WEIGHTS = (0.35, 0.25, 0.3, 0.1)


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


def _free(held) -> list[int]:
    """The trees variation may change: those no stage holds."""
    return [k for k, part in enumerate(PARTS) if part not in held]


def mutate(genes, rules: Rules, rng: np.random.Generator, held: tuple[str, ...] = ()):
    """One of DEAP's mutations (:data:`MUTATIONS`, by :data:`MUTATION_WEIGHTS`) on one of the
    trees (of those not ``held``)."""
    free = _free(held)
    part = free[int(rng.integers(len(free)))]
    how = MUTATIONS[int(rng.choice(len(MUTATIONS), p=MUTATION_WEIGHTS))]
    with _seeded(rng):
        (genes[part],) = _mutate_tree(genes[part], pset=SETS[part], how=how)
    return (genes,)


SWAP = 1 / 3  # the share of crossovers that swap a whole tree


def crossover(a, b, rules: Rules, rng: np.random.Generator, held: tuple[str, ...] = ()):
    """Between the same tree of both parents (one not ``held``): DEAP's ``cxOnePoint`` (a
    subtree each, never the root), or with probability :data:`SWAP` the whole trees, so that
    a step evolved in one lineage meets a score evolved in another."""
    free = _free(held)
    part = free[int(rng.integers(len(free)))]
    if rng.random() < SWAP:
        a[part], b[part] = b[part], a[part]
        return a, b
    with _seeded(rng):
        a[part], b[part] = _cross_trees(a[part], b[part])
    return a, b


def expression(genes) -> str:
    """The program in one line, step then score, e.g. ``fold(sub(or(a, p), and(a, p))) -> v``
    (and with a second fold, ``fold(...), fold(max(b, p)) -> ...``)."""
    step, score, second = _trees(genes)
    folds = f"fold({step})" if str(second) == NOTHING else f"fold({step}), fold({second})"
    return f"{folds} -> {score}"


def scores(genes, rules: Rules, positions: np.ndarray) -> np.ndarray:
    """``(k,)`` int64: the score of each of ``positions (k, n_piles)`` (lower: better to leave)."""
    step, score, second = (code(tree) for tree in _trees(genes))
    positions = np.sort(np.asarray(positions, dtype=np.int64), axis=1)
    k = np.int64(0 if rules.max_take is None else rules.max_take + 1)
    value = np.zeros(len(positions), dtype=np.int64)
    other = np.zeros(len(positions), dtype=np.int64)
    with np.errstate(over="ignore"):
        for column in positions.T:
            value = _as_ints(run(step, {"a": value, "p": column, "k": k}), len(positions))
            if second != _NOTHING_CODE:
                other = _as_ints(run(second, {"b": other, "p": column, "k": k}), len(positions))
        answer = run(score, {"v": value, "m": positions[:, -1] if positions.size else value, "w": other,
                             "x": np.bool_(rules.misere)})
    return _as_ints(answer, len(positions))


def _lowest(successors: np.ndarray, legal: np.ndarray, sizes: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per row, the legal column of lowest score; among equal scores the one taking from the
    smallest pile (``sizes``, each column's pile size), then the fewest (``counts``), then the
    first (0 where none is legal; a legal score as high as int64 goes still beats an illegal column)."""
    top = np.iinfo(np.int64).max
    best = legal & (successors == np.where(legal, successors, top).min(axis=1, keepdims=True))
    for key in (sizes, np.broadcast_to(counts, sizes.shape)):
        best &= key == np.where(best, key, top).min(axis=1, keepdims=True)
    return np.where(legal.any(axis=1), best.argmax(axis=1), 0)


def policy(genes, space: Space) -> np.ndarray:
    """The move array over an enumerated space: at each position the legal move into a
    position of lowest score (ties by pile size, then count; over multisets, on the representative)."""
    values = scores(genes, nim_board(space.rules), space.positions)
    sizes = space.positions[:, space.moves[:, 0]].astype(np.int64)
    return _lowest(values[np.maximum(space.next, 0)], space.legal, sizes, space.moves[:, 1].astype(np.int64))


def moves(genes, rules: Rules, positions: np.ndarray) -> np.ndarray:
    """``(k,)`` the move index (the rules' move list) chosen in each of ``positions`` (0 for
    an empty one), boards too big to enumerate included (every successor is scored)."""
    positions = np.asarray(positions, dtype=np.int64)
    move_list = boards.move_list(rules)
    pile, count = move_list[:, 0], move_list[:, 1]
    chosen = np.zeros(len(positions), dtype=np.int64)
    batch = max(1, 2_000_000 // max(1, len(pile) * positions.shape[1]))
    for start in range(0, len(positions), batch):
        part = positions[start:start + batch]
        legal = part[:, pile] >= count
        after = np.repeat(part[:, None, :], len(pile), axis=1)
        after[:, np.arange(len(pile)), pile] -= count
        values = scores(genes, rules, np.maximum(after, 0).reshape(-1, part.shape[1])).reshape(len(part), len(pile))
        chosen[start:start + batch] = _lowest(values, legal, part[:, pile], count)
    return chosen


def move_probabilities(genes, rules: Rules, positions: np.ndarray) -> np.ndarray:
    return deterministic_move_probabilities(rules, positions, lambda live: moves(genes, rules, live))


def to_json(genes, rules: Rules) -> dict:
    step, score, second = _trees(genes)
    return {"step": str(step), "score": str(score), "second": str(second), "expression": expression(genes)}


def from_json(data: dict, rules: Rules, container=Program):
    """The program of a file; a file of the first programs, a yes/no ``verdict`` ("is this
    position lost?") in place of the score, is read as the score ``if(verdict, 0, 1)``,
    which plays exactly as that verdict did (the first move into a position called lost)."""
    if "score" not in data and "verdict" in data:
        return container([parse(data.get("step"), STEP, "the program's step"),
                          _score(data["verdict"], "the program's verdict", verdict=True),
                          parse(NOTHING, SECOND, "the program's second fold")])
    data = {"second": NOTHING, **data}  # (files of two trees: no second fold)
    return container(parse(data.get(part), pset, f"the program's {part}") for part, pset in zip(PARTS, SETS))


def readable(genes, rules: Rules) -> Program:
    """The program simplified (:func:`nim_evo.genomes.simplify.simplify`: identities and dead
    branches removed, each tree computing exactly what it did), checked to play as the
    evolved program does on every position of the training boards of ``rules``' family (the
    program itself where it would not: a bug, never a program shown that plays otherwise)."""
    from nim_evo.engine.space import space_for
    from nim_evo.genomes.simplify import simplify

    original = Program(_trees(genes))
    simple = Program([simplify(tree, pset) for tree, pset in zip(original, SETS)])
    for board in TRAIN_BOARDS:
        space = space_for(Rules(board, rules.max_take, rules.misere), multiset=True)
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


@lru_cache(maxsize=256)
def _parsed(*texts: str) -> tuple:
    return tuple(parse(text, pset, f"the program's {part}") for text, pset, part in zip(texts, SETS, PARTS))


def _trees(genes) -> tuple:
    """The three trees of a program, or of its plain form (two or three expressions)."""
    if isinstance(genes, (tuple, list)) and all(isinstance(g, str) for g in genes):
        return _parsed(*genes, NOTHING) if len(genes) == 2 else _parsed(*genes)
    return tuple(genes) if len(genes) == 3 else (*genes, parse(NOTHING, SECOND, "the program's second fold"))


_NOTHING_CODE = code(parse(NOTHING, SECOND, "the second fold"))


def _as_ints(value, size: int) -> np.ndarray:
    """A tree's value as an int64 array (a tree may be a constant)."""
    if isinstance(value, np.ndarray) and value.dtype == np.int64 and value.shape == (size,):
        return value
    return np.broadcast_to(np.asarray(value, dtype=np.int64), (size,))


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
    crossover = staticmethod(crossover)
    move_probabilities = staticmethod(move_probabilities)
    policy = staticmethod(policy)
    to_json = staticmethod(to_json)
    from_json = staticmethod(from_json)

    def order_blind(self, genes, rules: Rules) -> bool:
        return True  # it scores multisets, and breaks ties by pile size and count

    def create(self, rules: Rules, rng: np.random.Generator, container=Program, multiset: bool = True,
               held: dict | None = None):
        return create(rules, rng, container, held)

    def mutate(self, genes, rules: Rules, rng: np.random.Generator, held: tuple[str, ...] = (), **parameters):
        return mutate(genes, rules, rng, held)

    def stages(self, families, single: bool = False) -> tuple[Stage, ...]:
        """Normal play: one stage. With misère play among the families: two. The first
        evolves the program in normal play (same boards, same caps), where the step's path to
        exclusive or pays at every step; its champion hands its step on, and the second
        evolves the score, the step held, in the families themselves. (From scratch in misère
        play alone, the step's path pays only under the misère score: no seed of ten found
        it. Holding the step matters: seeded with it but free to vary it, the search lost it
        again.) The second fold evolves only where misère play under a cap needs it (its rule
        reads the largest residue), in the last stage; elsewhere it stays ``0``. (A program
        that sees ``k`` take one value may use it as a number, ``add(a, k)``, right on every
        training board and wrong on big ones: the validation sample keeps such a step from
        being handed on, or taken for a run's target. Training under the caps either side too,
        2, 3 and 4 for cap 3, tripled the work and lost seed 0 of cap 3: 53% of seven heaps
        after 200 generations, where cap 3 alone had found the rule at generation 78. Runs of
        several caps, ``--families cap2,cap3,cap4``, train so when asked.)"""
        families = tuple(families)
        second = () if any(cap is not None and misere for cap, misere in families) else ("second",)
        if single:  # a run begun before stages and the second fold: one stage, its two trees
            return (Stage(families, held=("second",)),)
        if not any(misere for _, misere in families):
            return (Stage(families, held=("second",)),)
        normal = tuple(dict.fromkeys((cap, False) for cap, _ in families))
        return (Stage(normal, held=("second",)), Stage(families, held=("step", *second)))

    def describe(self, genes, rules: Rules) -> str:
        return expression(readable(genes, rules))

    def trees(self, genes, rules: Rules) -> list:
        step, score, second = _trees(readable(genes, rules))
        named = [("step f(a, p, k), folded to v", step)]
        if str(second) != NOTHING:
            named.append(("second fold h(b, p, k), folded to w", second))
        return [*named, ("score g(v, m, w, x): lowest is best", score)]

    @staticmethod
    def part(genes, name: str):
        """The tree ``name`` (``step``, ``score`` or ``second``) of a program."""
        return genes[PARTS.index(name)]

    def choose(self, genes, rules: Rules, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if isinstance(genes, np.ndarray) and genes.dtype == object:  # a stack: a program per position
            chosen = np.zeros(len(positions), dtype=np.int64)
            for program in {id(g): g for g in genes}.values():
                rows = np.flatnonzero([g is program for g in genes])
                chosen[rows] = moves(program, rules, np.asarray(positions)[rows])
            return chosen
        return moves(genes, rules, positions)

    def stack(self, genomes: list) -> np.ndarray:
        stacked = np.empty(len(genomes), dtype=object)
        stacked[:] = [tuple(self.plain(g)) for g in genomes]
        return stacked

    def plain(self, genes) -> list:
        return [str(tree) for tree in _trees(genes)]

    def check_plain(self, genes, rules: Rules, multiset: bool = True):
        if not isinstance(genes, list) or len(genes) not in (2, 3):
            raise UserError("genes must be the program's expressions: step, score and (optional) second fold")
        second = genes[2] if len(genes) == 3 else NOTHING
        return [str(parse(genes[0], STEP, "genes[0]")), str(_score(genes[1], "genes[1]")),
                str(parse(second, SECOND, "genes[2]"))]

    def size(self, genes) -> int:
        return sum(len(tree) for tree in _trees(genes))

    def same(self, a, b) -> bool:
        return self.plain(a) == self.plain(b)


KIND = ProgramKind()
