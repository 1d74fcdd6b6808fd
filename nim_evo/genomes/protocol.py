"""The genome-kind protocol: everything evolution, fitness, pile games, files and players
need of a kind of genome, in one class.

A kind is a subclass of :class:`GenomeKind` with one instance, registered by name (see
:mod:`nim_evo.genomes.registry`: the built-in kinds, and third-party kinds through the
``nim_evo.genomes`` entry-point group). Nothing outside a kind's own file asks which kind it
is: callers read the attributes and call the methods below.

What a kind defines (``genes`` is one genome: an array, a dict, whatever the kind keeps;
``rules`` a :class:`~nim_evo.engine.rules.Rules`; ``rng`` a ``numpy.random.Generator``):

- ``name``: what ``--genome`` and genome files call it.
- ``individual``: its DEAP individual type, made once at import by :func:`individual_type`
  (the genes' container class with a ``fitness``), so that DEAP's toolbox, hall of fame and
  ``clone`` work on it and worker processes can unpickle it.
- ``create(rules, rng, container, multiset)``: a random genome, built by
  ``container(genes)`` (the individual type during evolution). ``multiset`` says on which
  enumerated space a kind bound to the board keeps its genes; kinds that play any board
  ignore it.
- ``mutate(genes, rules, rng, **parameters)`` and ``crossover(a, b, rules, rng)``: DEAP
  operators, in place, returning ``(genes,)`` and ``(a, b)``. ``mutation_parameters``
  names the run settings (:class:`nim_evo.evolution.config.Config` fields) ``mutate`` takes
  when they are set.
- ``move_probabilities(genes, rules, positions)``: its play, the one answer (as a player's):
  ``(k, n_moves)``, the probability of each move of the rules' move list at each of
  ``positions (k, n_piles)``; ``genes`` one genome, or a :meth:`~GenomeKind.stack` of them
  with a row per position. Every other face of its play is a view of it (below).
- ``to_json(genes, rules)`` and ``from_json(data, rules, container)``: the genome's part of
  a genome file (:func:`nim_evo.genomes.genome_document`), and back, checked: a malformed
  file is a one-line ``ValueError``.
- ``order_blind(genes, rules)``: whether the genome chooses by the multiset of pile sizes
  alone (its moves mapped onto the actual arrangement); only then is it evaluated over
  multisets. Every built-in kind is, but for a table over the ordered space; a kind that
  does not say so is not (the base class answers ``False``).
- ``board_free``: whether it plays any board of its family (same cap, same misère flag),
  boards too big to enumerate too (games on pile arrays, :mod:`nim_evo.genomes.movers`); a
  kind bound to its board (the table) answers at the positions of its board only.
- ``train_boards``: a board-free kind's default training set (pile sizes; the run's cap and
  misère flag are added): fitness is then the mean over these boards, not the run's board
  (``None``, the default: the run's board). ``capped_train_boards``: boards it adds in a family
  with a cap (a cap keeps their moves few: bigger piles cost little there). A run's
  ``--train-boards`` overrides both.
- ``selection`` (``"tournament"`` or ``"lexicase"``), ``restart`` (generations without
  progress before a new population, 0 for never) and ``defaults`` (run settings such as
  ``population`` used where the user gives none): how its runs search, unless told otherwise;
  ``size(genes)`` is what lexicase selection minimises among genomes that play alike.
- ``training_boards(game)``: the same, in a game other than Nim (by default, the board).
- ``stages(families, single, game)``: how its search goes on the run's families (``(max_take, misere)``
  pairs), as a sequence of :class:`Stage`: each the families its training boards are played
  in, and the parts of the genome it holds (never varied: the stage before's champion's, or
  the kind's own where no stage before had them; ``create``, ``mutate`` and ``crossover``
  then take ``held``, ``part(genes, name)`` reads one). By default one stage, the families.
- ``describe(genes, rules)`` and ``trees(genes, rules)``: the genome as a person reads it
  (``None`` by default) and its expression trees for a picture (``[]`` by default).
- ``uses_credit``: whether its operators read the per-position credit the exact evaluator
  leaves on an evaluated individual (``ind.credit = (mine, theirs)``, see
  :mod:`nim_evo.genomes.table`); only then is it computed.
- ``threaded`` and ``overlapped``: whether its ``create`` and ``mutate`` take ``threads`` (they
  draw in threads, the same genes), and whether its variation is numpy's work, which lets go
  of the interpreter, so that a run evaluates its offspring in a thread beside it, in its own
  process on the local backend whatever the jobs (:func:`nim_evo.evolution.loop.overlaps`).

The views of its play, each a default derived from ``move_probabilities`` that a kind may
override for speed: :meth:`GenomeKind.policies` (a population's rows over enumerated spaces:
what exact fitness reads), :meth:`GenomeKind.choose` (a move per position, drawn: games on
pile arrays), :meth:`GenomeKind.child_of` (a move among heaps too big for a board), each held
to the answer by :func:`nim_evo.genomes.conformance.check_kind`, and :meth:`GenomeKind.decide`
(a move at a run's decisions, held to it by the decisions' tests). A genome as a player is
:class:`~nim_evo.genomes.GenomeAgent`, whose one answer is its kind's.

Defaults cover the rest: :meth:`GenomeKind.stack` (many genomes as one array, one row per
game), :meth:`GenomeKind.judged_space` (where accuracy is measured), :meth:`GenomeKind.plain`
(genes cheap to send to a worker, and how a checkpoint keeps them),
:meth:`GenomeKind.check_plain` (such genes read back, checked against a new genome's
shapes, with a kind's ranges from :meth:`GenomeKind.check_ranges`),
:meth:`GenomeKind.same` (hall-of-fame similarity) and
:meth:`GenomeKind.upgrade_config` (a run config written by an older nim_evo). The abstract
methods (``create``, ``mutate``, ``crossover``, ``move_probabilities``, ``to_json``,
``from_json``) are what a kind must write; :func:`~nim_evo.genomes.registry.register`
refuses, in one line, a kind that leaves one out.
"""

from __future__ import annotations

import json
from importlib import resources
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from deap import base, creator

from nim_evo.games.base import Game
from nim_evo.engine.space import Space, space_for
from nim_evo.validation import UserError

# lexicographic: the win rate from the starts first, then the mean win rate over all sub-games
if not hasattr(creator, "FitnessWin"):
    creator.create("FitnessWin", base.Fitness, weights=(1.0, 1.0))


def individual_type(name: str, container: type) -> type:
    """The DEAP individual type ``creator.<name>``: ``container`` with a ``FitnessWin``
    fitness, made once (at the kind's import: worker processes unpickle individuals by it).

    Its deep copy (DEAP's ``clone`` and hall of fame) copies the genes (a container's own
    ``copied()`` where it has one, else its items) and the fitness and shares ``rates`` and
    ``credit``: an evaluation replaces them, nothing changes them in place, and a credit is
    two arrays of a value per position."""
    if not hasattr(creator, name):
        creator.create(name, container, fitness=creator.FitnessWin)
        getattr(creator, name).__deepcopy__ = _deepcopy_individual
    return getattr(creator, name)


def _deepcopy_individual(ind, memo):
    if isinstance(ind, np.ndarray):
        copy = np.ndarray.copy(ind)  # keeps the class and the dtype (DEAP's constructor goes through a list)
        copy.fitness = type(ind.fitness)()
    elif isinstance(ind, dict):
        copy = type(ind)({key: list(value) for key, value in ind.items()})
    else:  # (its class made without its constructor, which checks what a copy holds already: half the time)
        copy = type(ind).__new__(type(ind))
        copy.extend(ind.copied() if hasattr(ind, "copied") else ind)
        copy.fitness = type(ind.fitness)()
    if ind.fitness.valid:
        copy.fitness.wvalues = ind.fitness.wvalues
    for name in ("rates", "credit", "cases"):
        if name in ind.__dict__:
            setattr(copy, name, ind.__dict__[name])
    return copy


@dataclass(frozen=True)
class Stage:
    """A stage of a kind's search: the families ``(max_take, misere)`` its training boards
    are played in, and the parts of the genome it holds (never varied); with ``nim``, its
    boards are Nim's (the kind's ``train_boards``) in a run of another game. A stage hands on to
    the next once its champion is perfect against its panel (see :func:`~nim_evo.evolution.stages.stage_done`).
    Without ``restarts``, a stalled population is never replaced by a random one there (the
    run's ``restart`` patience does not apply)."""

    families: tuple[tuple[int | None, bool], ...]
    held: tuple[str, ...] = ()
    nim: bool = False
    restarts: bool = True


class GenomeKind(ABC):
    """The base class of genome kinds (see the module docstring for the protocol)."""

    name: ClassVar[str]
    individual: ClassVar[type]
    board_free: ClassVar[bool] = True
    uses_credit: ClassVar[bool] = False
    threaded: ClassVar[bool] = False  # its create and mutate take ``threads``: they draw in threads, the same genes
    # its variation is numpy's work, which lets go of the interpreter: a run evaluates its offspring in a
    # thread beside it, in its own process on the local backend whatever the jobs (loop.overlaps)
    overlapped: ClassVar[bool] = False
    selection: ClassVar[str] = "tournament"
    restart: ClassVar[int] = 0
    families: ClassVar[tuple[str, ...] | None] = ("nim",)  # the game families it plays (None: every one)
    reads_family: ClassVar[bool] = False  # it reads the cap and the misère flag: evolved for several families at once
    defaults: ClassVar[dict] = {}  # run settings of its own (population, offspring, starts, opponents), where not given

    def order_blind(self, genes, rules: Game) -> bool:
        """Whether these genes choose by the multiset of pile sizes alone (never assumed:
        a kind that chooses so says it)."""
        return False

    def describe(self, genes, rules: Game) -> str | None:
        """The genome as a person reads it (a program, simplified), or ``None``."""
        return None

    def trees(self, genes, rules: Game) -> list:
        """Its expression trees to draw, ``[(name, tree), ...]`` (``[]``: it has none)."""
        return []

    def settings_for(self, game: Game) -> dict:
        """Its own run settings (``defaults``) for a run of ``game``."""
        return dict(self.defaults)

    def stages(self, families: tuple[tuple[int | None, bool], ...], single: bool = False,
               game: Game | None = None) -> tuple[Stage, ...]:
        """How its search goes on the run's ``families`` (of its ``game``): one stage, on
        them (``single``: a run begun before stages asks for the one stage it began in)."""
        return (Stage(tuple(families)),)

    def decides_beyond(self, game: Game) -> bool:
        """Whether its fitness in a run of ``game`` (a game other than Nim) also reads its
        moves at positions of heaps bigger than its boards
        (:mod:`nim_evo.evaluation.decisions`): by default not."""
        return False

    def training_boards(self, game: Game) -> tuple[Game, ...]:
        """The boards fitness is measured on in a run of ``game``, a game other than Nim
        (Nim's are ``train_boards``, in the run's families): by default the board itself."""
        return (game,)

    if TYPE_CHECKING:  # defined by a kind whose stages hold parts only (no default)
        @staticmethod
        def part(genes, name: str) -> Any:
            """The part ``name`` of ``genes``, which a stage holds."""

    def size(self, genes) -> int:
        """How big a genome is (of genomes that play alike or score alike, lexicase selection
        and the hall of fame prefer the smaller)."""
        return 0
    mutation_parameters: ClassVar[tuple[str, ...]] = ("indpb",)
    train_boards: ClassVar[tuple[tuple[int, ...], ...] | None] = None  # a board-free kind's own training set
    capped_train_boards: ClassVar[tuple[tuple[int, ...], ...]] = ()  # and boards it adds under a cap

    def __repr__(self) -> str:
        return f"<genome kind {self.name}>"

    def __eq__(self, other) -> bool:  # (one instance a kind; a copy unpickled in a worker equals it)
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))

    # -- creation and variation ------------------------------------------------------------------
    @abstractmethod
    def create(self, rules: Game, rng: np.random.Generator, container=np.asarray, multiset: bool = True):
        """A random genome for ``rules`` (in ``container``: DEAP's individual class, or a plain
        value), over multisets where ``multiset`` is true and the kind tells them apart."""
        raise NotImplementedError

    @abstractmethod
    def mutate(self, genes, rules: Game, rng: np.random.Generator, **parameters):
        """Mutate ``genes`` in place, drawing from ``rng``; ``parameters``: the kind's own
        (``indpb``, ``sigma``). Returns DEAP's one-tuple."""
        raise NotImplementedError

    @abstractmethod
    def crossover(self, a, b, rules: Game, rng: np.random.Generator):
        """Cross ``a`` and ``b`` in place, drawing from ``rng``. Returns DEAP's pair."""
        raise NotImplementedError

    # -- play ------------------------------------------------------------------------------------
    @abstractmethod
    def move_probabilities(self, genes, rules: Game, positions: np.ndarray) -> np.ndarray:
        """The one answer of its play: ``(k, n_moves)``, the probability of each move of the
        rules' move list in each of ``positions (k, n_piles)`` (a zero row for an empty board).
        ``genes`` is one genome or a :meth:`stack` with a row per position. A kind bound to its
        board answers at its board's positions."""

    def policies(self, genomes: list, spaces: tuple) -> list[np.ndarray]:
        """Over each of ``spaces`` (enumerated: ordered or multiset), the rows of each of
        ``genomes`` at its positions (over multisets at each representative, equal piles'
        moves added up): a stack ``(k, n_positions, n_moves)`` of probability tables, or of
        move arrays ``(k, n_positions)`` for a deterministic kind. By default
        :meth:`move_probabilities` at every position; a kind overrides it where a
        population's play is cheaper together."""
        return [np.stack([space.merge(self.move_probabilities(genes, space.rules, space.positions))
                          for genes in genomes]) if len(genomes)
                else np.zeros((0, space.n_positions, space.n_moves)) for space in spaces]

    def choose(self, genes, rules: Game, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """``(k,)`` move indices (the rules' move list), one per non-empty position: drawn
        from :meth:`move_probabilities` (override it for a deterministic kind)."""
        probabilities = self.move_probabilities(genes, rules, positions)
        cumulative = probabilities.cumsum(axis=1)
        u = rng.random((len(positions), 1)) * cumulative[:, -1:]
        return np.minimum((cumulative <= u).sum(axis=1), probabilities.shape[1] - 1)

    def decide(self, genes, rules: Game, decisions) -> np.ndarray:
        """``(k,)`` the action chosen at each of a :class:`~nim_evo.evaluation.decisions.Decisions`'
        positions (few heaps in rows narrower than ``rules``' board, whose actions are those of
        their own slots): by default :meth:`choose` there (a kind that scores children may
        read the decisions' children, made once)."""
        return self.choose(genes, rules, decisions.positions, np.random.default_rng(0))

    def value_variants(self, genes, decided: np.ndarray, rng: np.random.Generator) -> list:
        """Genes that differ from ``genes`` in one value, each candidate there, where its play
        first fails at the ``decided`` positions (the last of its ``cases``), for a local
        search (:mod:`nim_evo.evolution.localsearch`): by default none."""
        return []

    def values_at(self, genes, heap: int, through: int) -> list:
        """Genes that differ from ``genes`` in the value of one heap, each candidate there (the
        value theirs alone, up to the heap ``through``), for a search that sets them heap by
        heap (:func:`nim_evo.evolution.localsearch.put_right`): by default none."""
        return []

    def cut(self, genes, end: int, period: int, through: int) -> tuple[Any, int] | None:
        """``genes`` with their values past the heap ``end - 1`` read as repeating the last
        ``period`` before it, and the first heap up to ``through`` whose value that changes,
        for a search that tries each period (:func:`nim_evo.evolution.localsearch.predicting`):
        by default ``None``, no values to read."""
        return None

    def repeating(self, genes):
        """``genes`` with their values past those a search set read as they repeat there: by
        default themselves."""
        return genes

    def folds_in_any_order(self, genes) -> bool:
        """Whether what the genome folds over a position's heaps is the same whatever order it
        reads them in (a stage of Nim's boards hands on only such a fold to a heap part, whose
        values come in any order): by default, yes."""
        return True

    def plays_any_heaps(self, genes, family: Game) -> bool:
        """Whether these genes play positions of ``family``'s game with heaps of any size, too
        big for a board (by :meth:`child_of`, no board built): by default not."""
        return False

    def child_of(self, genes, family: Game, heaps) -> np.ndarray:
        """The heaps its move leaves in the position ``heaps`` of ``family``'s game (sorted
        ascending, zero-padded; a position with a move): by default on the board of those
        heaps (a kind that plays heaps too big for a board says how)."""
        board = family.board(tuple(int(h) for h in heaps))
        start = np.array([board.start], dtype=np.int64)
        child, _ = board.step(start, self.choose(genes, board, start, np.random.default_rng(0)))
        return np.sort(child[0])

    def stack(self, genomes: list) -> np.ndarray:
        """Many genomes as one array whose rows :meth:`move_probabilities` and :meth:`choose`
        read, one per position (a game's genome at each game's position)."""
        return np.stack([np.asarray(genes) for genes in genomes])

    def judged_space(self, genes, rules: Game) -> Space:
        """The space its accuracy is measured on (the multisets of the board)."""
        return space_for(rules, multiset=True)

    # -- a web page's script ------------------------------------------------------------------------
    scripted: ClassVar[bool] = False  # a web page plays its genomes by its own script (:meth:`script`)

    def script(self, genes, game: Game) -> tuple[tuple[str, ...], dict]:
        """How a web page plays these genes in ``game`` (:mod:`nim_evo.web.translate` wraps it):
        its JavaScript sources in order, and the genes they read as ``GENES`` (JSON values),
        checked (a one-line :class:`UserError` for genes a script cannot play). The sources
        read ``RULES`` (``maxTake``, ``misere``), ``LIMITS`` and the helpers of the page's
        ``common.js``; on a board of Nim they define ``distribution(piles, board)``, where the
        genes play heaps of any size (:meth:`plays_any_heaps`) ``splitMove(heaps)``. Only a
        kind that says it is :attr:`scripted` has one (the page looks other kinds' moves up in
        a table of the exported board)."""
        raise UserError(f"a {self.name} genome cannot be played by a script")

    # -- files and bookkeeping ---------------------------------------------------------------------
    @abstractmethod
    def to_json(self, genes, rules: Game) -> dict:
        """The genes as an exported file's ``genome`` field: JSON values a person can read."""
        raise NotImplementedError

    @abstractmethod
    def from_json(self, data: dict, rules: Game, container=np.asarray):
        """The genes a file's ``genome`` field holds, checked for ``rules`` (in ``container``); a
        one-line ``UserError`` otherwise."""
        raise NotImplementedError

    def plain(self, genes):
        """The genes without the individual around them, cheap to send to a worker."""
        return np.asarray(genes).copy()

    def check_plain(self, genes, rules: Game, multiset: bool = True):
        """Genes read back in :meth:`plain` form (a checkpoint's, through JSON and arrays),
        checked before use: the structure, shapes and kind of number of a new genome of the
        board, every number finite; the genes as :meth:`plain` gives them, or a one-line
        :class:`UserError`. Kinds with ranges add them (:meth:`check_ranges`)."""
        model = self.plain(self.create(rules, np.random.default_rng(0), multiset=multiset))
        checked = like(genes, model, "genes")
        self.check_ranges(checked, rules)
        return checked

    def check_ranges(self, genes, rules: Game) -> None:
        """A one-line :class:`UserError` if plain genes of the right shape hold a value out of
        range (by default, none is)."""

    def play_key(self, genes, largest: int) -> str:
        """A text equal for genomes that play alike on every board of heaps up to ``largest``
        (fitness is then measured once for them): by default, the genes themselves."""
        return json.dumps(self.plain(genes), default=np.ndarray.tolist)

    def same(self, a, b) -> bool:
        """Hall-of-fame similarity: equal genes."""
        return np.array_equal(a, b)

    def upgrade_config(self, data: dict) -> dict:
        """A run config (JSON) written before the config had every field of today, as this
        kind ran it then."""
        return data


def script_source(name: str) -> str:
    """The text of a built-in kind's JavaScript file ``name`` (in ``nim_evo/genomes/scripts``)."""
    return resources.files("nim_evo.genomes").joinpath("scripts", name).read_text(encoding="utf-8")


def move_arrays(policy, genomes: list, spaces: tuple) -> list[np.ndarray]:
    """:meth:`GenomeKind.policies` of a deterministic kind whose ``policy(genes, space)`` gives
    one genome's move array: ``(k, n_positions)`` over each space."""
    return [np.stack([policy(genes, space) for genes in genomes]) if len(genomes)
            else np.zeros((0, space.n_positions), dtype=np.int64) for space in spaces]


def deterministic_move_probabilities(rules: Game, positions: np.ndarray, moves) -> np.ndarray:
    """The ``move_probabilities`` of a deterministic genome: ``(k, n_moves)``, a 1 in each
    non-empty position's row at the move ``moves(non_empty_positions)`` gives for it."""
    positions = np.asarray(positions)
    table = np.zeros((len(positions), rules.n_actions))
    live = rules.legal_mask(positions).any(axis=1)
    table[np.flatnonzero(live), moves(positions[live])] = 1.0
    return table


def like(value, model, where: str):
    """``value`` (read back from JSON and arrays) shaped as ``model``: dicts with the same keys,
    lists of the same length, arrays of the same shape and kind of number (cast to the model's
    dtype without loss), numbers finite. A one-line :class:`UserError` naming ``where`` otherwise."""
    if isinstance(model, dict):
        if not isinstance(value, dict) or set(value) != set(model):
            raise UserError(f"{where} must have the fields {', '.join(map(str, model))}")
        return {key: like(value[key], model[key], f"{where}.{key}") for key in model}
    if isinstance(model, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(model):
            raise UserError(f"{where} must be a list of {len(model)}")
        return [like(v, m, f"{where}[{k}]") for k, (v, m) in enumerate(zip(value, model))]
    model = np.asarray(model)
    wanted = ("a truth value" if model.dtype.kind == "b" else "a number") if not model.shape \
        else f"an array of shape {model.shape}"
    if isinstance(value, (bool, np.bool_)) != (model.dtype.kind == "b") or isinstance(value, (str, dict, type(None))):
        raise UserError(f"{where} must be {wanted}")
    try:
        array = np.asarray(value)
    except (ValueError, TypeError):  # ragged lists
        raise UserError(f"{where} must be {wanted}") from None
    if array.shape != model.shape or array.dtype.kind not in "biuf":
        raise UserError(f"{where} must be {wanted}")
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        raise UserError(f"{where} holds a number that is not finite")
    cast = array.astype(model.dtype)
    if not np.array_equal(cast, array):
        raise UserError(f"{where} must hold {model.dtype.name} values")
    return cast if model.shape else cast.item()
