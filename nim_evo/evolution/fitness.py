"""Fitness from tournaments against an opponent panel, both seats, exact or sampled.

Work is cut by the problem, never by the worker count: individuals go in fixed-size
chunks, and a sampled chunk draws its games from a stream spawned for (seed, generation,
chunk), so the same seed gives the same fitness with any ``--jobs``. Task functions are
module-level and take arrays, cheap to pickle for joblib's workers.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, cast

import numpy as np

from nim_evo.games.base import Game
from nim_evo.agents.imported import is_code
from nim_evo.agents.player import Mover
from nim_evo.engine import piles
from nim_evo.engine.kept import Memo
from nim_evo.engine.policy import AliasSampler, as_table, dense, kept
from nim_evo.engine.sizes import MAX_PANEL_CELLS
from nim_evo.engine.space import enumerable, panel_tabulable, space_for, space_size
from nim_evo.evaluation import opponents
from nim_evo.evaluation.batched import play_games
from nim_evo.evaluation.decisions import Decisions
from nim_evo.evaluation.exact import Transitions, best_response
from nim_evo.evaluation.heldout import board_accuracy
from nim_evo.evaluation.judging import judging_space
from nim_evo.evolution import induction
from nim_evo.evolution.results import Evaluation, Results
from nim_evo.genomes import movers
from nim_evo.genomes.protocol import GenomeKind
from nim_evo.validation import KeywordError

INDIVIDUALS_PER_TASK = 16  # bounds the individuals per sampled-fitness task (each chunk draws from its own stream)
EXACT_CHUNK_SMALL, EXACT_CHUNK_LARGE = 80, 8  # exact fitness: below / above SMALL_SPACE positions
SMALL_SPACE = 10_000
THREADED_SPACE = 50_000  # exact fitness on spaces bigger than this runs its tasks in threads (in_threads)
CEILING_SAMPLED = 200_000  # with sampled fitness, the ceiling is computed on boards of at most this many positions


@dataclass(frozen=True)
class Panel:
    """The opponents of a run: on an enumerable board compiled once to policy tables over
    its space (of multisets, or ordered), with the start indices and their weights (how
    many positions of the board each stands for); on a bigger board just named, for games
    on pile arrays."""

    rules: Game
    names: tuple[str, ...]
    tables: tuple | None  # each a policy table kept sparse (engine.policy.kept; as_table gives it dense)
    starts: np.ndarray | None
    multiset: bool = False
    weights: np.ndarray | None = None
    transitions: tuple | None = None  # each table as per-level sparse matrices, for the exact evaluator
    players: tuple | None = None  # on a board too big for tables: the opponents, for games on pile arrays

    @classmethod
    def build(cls, rules: Game, names, starts: str = "start", fitness: str = "exact", seed: int = 0,
              multiset: bool = False, order_blind: bool = True, given: dict | None = None) -> Panel:
        """``names``: opponent specs (see :func:`nim_evo.evaluation.opponents.resolve`); ``seed`` trains
        learned opponents on first use; ``multiset``: play on the space of multisets, where every
        opponent and the genomes evaluated (``order_blind``) choose by pile sizes alone, else on
        the ordered board (:mod:`nim_evo.evaluation.judging`); ``given``: agent objects given in
        Python, by the names that stand for them in ``names``."""
        players: tuple | list  # the pile players (a big board), else the agents
        if not panel_tabulable(rules, multiset=multiset):
            if fitness == "exact" or starts == "all":
                what = "multisets of piles" if multiset else "positions"
                size = space_size(rules, multiset)
                reason = ("too many to enumerate" if not enumerable(rules, multiset=multiset) else
                          f"with {rules.n_actions:,} moves each, too many for a table of each opponent (at most "
                          f"{MAX_PANEL_CELLS:,} position-move pairs)")
                raise KeywordError(f"the board {rules.name} has {size:,} {what}, {reason}: use [[fitness=\"sampled\"|"
                                   f"--fitness sampled]] from "
                                "the start position")
            piles.check_board(rules)
            players = tuple(opponents.pile_player(name, rules, seed, given) for name in names)
            return cls(rules, tuple(names), None, None, multiset, players=players)
        players = [opponents.resolve(name, rules, seed, given=given) for name in names]
        space = judging_space(rules, players + ([] if order_blind else [_ORDER_READING]), multiset)
        multiset = space.multiset
        tables = tuple(kept(as_table(player, space)) for player in players)
        index = np.array([space.start]) if starts == "start" else np.arange(1, space.n_positions)
        transitions = tuple(Transitions(space, table) for table in tables) if fitness == "exact" else None
        return cls(rules, tuple(names), tables, index, multiset, space.weights[index], transitions)

    @cached_property
    def space(self):
        """The board's space, kept by the panel (space_for's cache holds a few boards, fewer
        than a run's training boards and the boards it measures on)."""
        return space_for(self.rules, multiset=self.multiset)

    @cached_property
    def remembered(self) -> Memo:
        """What exact fitness remembers of the policies evaluated against this panel
        (:func:`~nim_evo.evolution.induction.each_once`)."""
        return induction.memo()

    @cached_property
    def ceiling(self) -> tuple[float, float] | None:
        """The most a genome could score against this panel: (fitness, sub-games), each
        opponent met by its best reply (:func:`best_response`), in the fitness's own terms.
        One policy has to answer every opponent at once, so this bounds what it can reach;
        it is reached whenever the replies agree, as they do against a panel of perfect
        players and random play (where any winning move is best). None on a board played
        without tables, and with sampled fitness on a board of more than
        :data:`CEILING_SAMPLED` positions."""
        if self.tables is None or (self.transitions is None and self.space.n_positions > CEILING_SAMPLED):
            return None  # (sampled fitness keeps no transitions: on a big board, building them costs too much)
        space = self.space
        fitness = subgames = 0.0
        for opponent in self.transitions or self.tables:
            values = best_response(space, opponent)
            fitness += float(np.average(values[self.starts], weights=self.weights, axis=0).mean())
            subgames += float(np.average(values[1:].mean(axis=1), weights=space.weights[1:]))
        return fitness / len(self.tables), subgames / len(self.tables)

    # -- pickling: what a worker receives --------------------------------------------------------
    # A worker needs the tables (and, for exact fitness, their transitions, built from them).
    # Pickled, a panel is its digest and its arrays, not its 150-odd sparse transition
    # matrices: the tables are a few large arrays, which joblib's process pool memory-maps
    # (written once for a Parallel, each task carrying file references) and which a Dask
    # cluster receives once per run (scattered to every worker). Each process keeps the
    # panels it rebuilt by digest, so it builds the transitions once, however many tasks
    # it runs, and a task's unpickling costs it a dictionary look-up.
    SHARED: ClassVar[int] = 2  # panels each process keeps
    _shared: ClassVar[OrderedDict] = OrderedDict()
    _shared_lock: ClassVar = threading.Lock()

    @cached_property
    def digest(self) -> str:
        """A digest of everything that decides the panel's evaluations."""
        h = hashlib.blake2b(digest_size=16)
        h.update(repr((self.rules, self.names, self.multiset, self.transitions is not None)).encode())
        for array in (self.starts, self.weights, *(part for table in self.tables or () for part in _parts(table))):
            if array is None:
                h.update(b"none")
                continue
            array = np.ascontiguousarray(array)
            h.update(repr((array.shape, array.dtype.str)).encode())
            h.update(array.view(np.uint8).reshape(-1).data)
        return h.hexdigest()

    def __reduce__(self):
        if self.tables is None:  # a board too big to enumerate: the players themselves, but those of a person's
            # code, which a worker imports again by their spec (a file's module is this process's own)
            players = None if self.players is None else tuple(
                None if is_code(name) else player for name, player in zip(self.names, self.players))
            return Panel, (self.rules, self.names, None, self.starts, self.multiset, self.weights, None, players)
        return Panel._restore, (self.digest, self.rules, self.names, *_packed(self.tables), self.starts,
                                self.multiset, self.weights, self.transitions is not None)

    @classmethod
    def _restore(cls, digest: str, rules: Game, names, buffer: np.ndarray, layout: tuple, starts, multiset: bool,
                 weights, exact: bool) -> Panel:
        """The unpickled panel: this process's own if it has one of that digest, else
        rebuilt (its arrays copied into memory, its transitions built as :meth:`build` does)."""
        with cls._shared_lock:
            panel = cls._shared.get(digest)
            if panel is not None:
                cls._shared.move_to_end(digest)
                return panel
        tables = _unpacked(buffer, layout)
        space = space_for(rules, multiset=multiset)
        transitions = tuple(Transitions(space, table) for table in tables) if exact else None
        panel = cls(rules, tuple(names), tables, None if starts is None else np.array(starts), multiset,
                    None if weights is None else np.array(weights), transitions)
        panel.__dict__["digest"] = digest
        with cls._shared_lock:
            panel = cls._shared.setdefault(digest, panel)
            cls._shared.move_to_end(digest)
            while len(cls._shared) > cls.SHARED:
                cls._shared.popitem(last=False)
        return panel


def evaluate_chunk(kind: GenomeKind, panel: Panel, mode: str, games: int, genomes: list, seed, *,
                   cases: bool = False, policies: np.ndarray | None = None) -> list[Evaluation]:
    """Evaluate a chunk of genomes against the panel (``mode`` is ``exact`` or ``sampled``);
    ``seed`` (a SeedSequence, or what seeds one) draws the sampled games (``None`` only where
    nothing is drawn: exact mode on a tabled board); ``cases``: keep each genome's
    sub-game win probabilities (exact mode only). ``panel`` may be a set of
    :class:`~nim_evo.evaluation.decisions.Decisions` (each its own case, won or lost).
    ``policies``: the genomes' policies over the panel's space, where the caller has them."""
    return _results(kind, panel, mode, games, genomes, seed, cases, policies).evaluations(panel.names)


def _results(kind: GenomeKind, panel: Panel, mode: str, games: int, genomes: list, seed, cases: bool,
             policies) -> Results:
    """:func:`evaluate_chunk`'s results as arrays."""
    if isinstance(panel, Decisions):
        return _decided(kind, panel, genomes, cases)
    if seed is None and (panel.tables is None or mode != "exact"):  # never the system's entropy: a run repeats
        raise TypeError("games are drawn here: give a seed")
    if panel.tables is None or mode != "exact":
        if cases:
            raise KeywordError("lexicase selection reads every sub-game's exact win probability: use "
                               "[[fitness=\"exact\"|--fitness exact]]")
        if panel.tables is None:
            return _evaluate_on_piles(kind, panel, games, genomes, seed)
    space = panel.space
    policies_list = list(_policies(kind, genomes, space) if policies is None else policies)
    # (a list: a stack, even of n_moves genomes on n_moves positions)
    if mode != "exact":
        return _sampled(panel, policies_list, games, seed)
    if kind.uses_credit:
        return induction.induced(kind, panel, genomes, policies_list, cases, credit=True)
    return induction.each_once(kind, panel, genomes, policies_list, cases)


def _sampled(panel: Panel, policies_list: list, games: int, seed) -> Results:
    """Sampled fitness on a board with tables: ``games`` per start, opponent and seat."""
    space = panel.space
    assert panel.tables is not None and panel.starts is not None and panel.weights is not None  # (a panel with tables)
    rates = np.zeros((len(policies_list), len(panel.names), 2))
    rng = np.random.default_rng(seed)
    per_start = -(-games // len(panel.starts))
    starts = np.repeat(panel.starts, per_start)
    weights = np.repeat(panel.weights, per_start)  # a game counts for the positions its start stands for
    mine_samplers = [AliasSampler(as_table(policy, space), space) for policy in policies_list]  # once each
    for o, table in enumerate(panel.tables):
        opponent = AliasSampler(dense(table), space)
        for j, me in enumerate(mine_samplers):
            rates[j, o, 0] = np.average(play_games(space, me, opponent, starts, rng) == 0, weights=weights)
            rates[j, o, 1] = np.average(play_games(space, opponent, me, starts, rng) == 1, weights=weights)
    return Results.of_rates(rates, np.zeros(len(policies_list)), 2 * len(starts) * len(panel.tables))


def evaluate_boards(kind: GenomeKind, panels: tuple[Panel, ...], mode: str, games: int, genomes: list, seed, *,
                    cases: bool = False) -> list[Evaluation]:
    """:func:`evaluate_chunk` on each panel's board (one seed stream each), averaged: fitness,
    sub-games and win rates are means over the boards, credit is the first board's (a kind
    bound to its board has one), games add up, cases are every board's, one after another."""
    if len(panels) == 1:
        return evaluate_chunk(kind, panels[0], mode, games, genomes, seed, cases=cases)
    streams: list
    if seed is None:  # (exact on tabled boards: nothing drawn; anything else refuses it)
        streams = [None] * len(panels)
    elif isinstance(seed, np.random.SeedSequence):  # (a copy: spawning counts on the sequence itself)
        streams = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key).spawn(len(panels))
    else:
        streams = np.random.SeedSequence(seed).spawn(len(panels))
    tabled = [j for j, panel in enumerate(panels) if not isinstance(panel, Decisions) and panel.tables is not None]
    stacks: list = [None] * len(panels)  # (the policies over every board with a space, made together)
    for j, stack in zip(tabled, kind.policies(genomes, tuple(panels[j].space for j in tabled))):
        stacks[j] = stack
    boards = [_results(kind, panel, mode, games, genomes, stream, cases, stack)
              for panel, stream, stack in zip(panels, streams, stacks)]
    return Results.mean(boards).evaluations(panels[0].names)


def ceiling(panels: tuple[Panel, ...]) -> tuple[float, float] | None:
    """:attr:`Panel.ceiling` over a run's training boards, averaged as the fitness is
    (:func:`evaluate_boards`); None if a board has none."""
    values = [panel.ceiling for panel in panels]
    if any(value is None for value in values):
        return None
    return cast("tuple[float, float]", tuple(float(np.mean(column)) for column in zip(*values)))  # (fitness, sub-games)


def _parts(table) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A kept table's arrays (:func:`~nim_evo.engine.policy.kept`): values, columns, row starts."""
    return table.data, table.indices, table.indptr


def _packed(tables) -> tuple[np.ndarray, tuple]:
    """Kept tables' arrays in one byte buffer, and how to cut it (each table's shape, and its
    arrays' types and lengths): one large array, which joblib's process pool memory-maps once
    for a run, where each table's arrays might be small enough to travel with every task."""
    parts = [part for table in tables for part in _parts(table)]
    buffer = np.concatenate([part.view(np.uint8).reshape(-1) for part in parts]) if parts else np.zeros(0, np.uint8)
    return buffer, tuple((table.shape, tuple((part.dtype.str, len(part)) for part in _parts(table))) for table in tables)


def _unpacked(buffer: np.ndarray, layout: tuple) -> tuple:
    """:func:`_packed`'s tables again, each array copied into memory (not a memory map, nor a received buffer)."""
    from scipy.sparse import csr_matrix  # (import time: SciPy loads only when kept tables are unpacked)

    tables, at = [], 0
    for shape, parts in layout:
        arrays = []
        for dtype, length in parts:
            size = np.dtype(dtype).itemsize * length
            arrays.append(np.array(buffer[at:at + size]).view(dtype))
            at += size
        tables.append(kept(csr_matrix(tuple(arrays), shape=shape)))
    return tuple(tables)


def _decided(kind: GenomeKind, decisions: Decisions, genomes: list, cases: bool) -> Results:
    """Results of the one-move games of ``decisions``: fitness, sub-games and the win
    rate against each opponent are all the share won (the games after the move are perfect
    play's, whoever plays them); no game is played out."""
    right = decisions.right(kind, genomes).astype(np.float32)
    shares = right.mean(axis=1).astype(float)
    rates = np.repeat(shares[:, None, None], 2 * len(decisions.names), axis=1).reshape(len(shares), -1, 2)
    return Results(shares, shares, rates, 0, None, right if cases else None)


def _evaluate_on_piles(kind: GenomeKind, panel: Panel, games: int, genomes: list, seed) -> Results:
    """Sampled fitness on a board too big to enumerate: games on pile arrays from the start,
    every genome of the chunk playing at once (``games`` per genome, opponent and seat)."""
    rng = np.random.default_rng(seed)
    k = len(genomes)
    me = movers.genomes_mover(kind, genomes, panel.rules, games)
    rates = np.zeros((k, len(panel.names), 2))
    players = [opponents.pile_player(name, panel.rules) if player is None else player
               for name, player in zip(panel.names, panel.players or [None] * len(panel.names))]
    for o, player in enumerate(players):
        them = Mover(player)
        first = piles.play_pile_games(panel.rules, me, them, k * games, rng) == 0
        second = piles.play_pile_games(panel.rules, them, me, k * games, rng) == 1
        rates[:, o, 0] = first.reshape(k, games).mean(axis=1)
        rates[:, o, 1] = second.reshape(k, games).mean(axis=1)
    return Results.of_rates(rates, np.zeros(k), 2 * games * len(panel.names))


class _OrderReading:
    """Stands for evaluated genomes that read the pile order (:meth:`Panel.build`)."""

    name = "the genome"


_ORDER_READING = _OrderReading()


def chunks(items: list, size: int = INDIVIDUALS_PER_TASK) -> list[list]:
    """``items`` cut into lists of at most ``size``, in order: one fitness task each."""
    return [items[i:i + size] for i in range(0, len(items), size)]


def chunk_size(panel: Panel, mode: str) -> int:
    """Individuals per task, from the problem alone (never the worker count). Sampled
    fitness keeps :data:`INDIVIDUALS_PER_TASK` (its chunks seed its games). Exact fitness is
    the same however it is cut: on a small space one task takes many individuals (a task's
    fixed cost is most of it there), on a big one few, so that two workers share the work
    evenly (five tasks of sixteen split three to two: a 1.7x speed-up at best)."""
    if mode != "exact" or panel.tables is None:
        return INDIVIDUALS_PER_TASK
    return EXACT_CHUNK_SMALL if panel.space.n_positions <= SMALL_SPACE else EXACT_CHUNK_LARGE


def small_boards(panels) -> bool:
    """Whether every board of ``panels`` with a space is small (:data:`SMALL_SPACE` positions
    at most): where a fitness task's fixed cost is most of its work."""
    return all(isinstance(panel, Decisions) or panel.tables is None or panel.space.n_positions <= SMALL_SPACE
               for panel in panels)


def in_threads(panels) -> bool:
    """Whether a run's fitness tasks run best in threads: exact fitness on big spaces only
    (more than :data:`THREADED_SPACE` positions), where a task's work is the evaluator's
    numpy calls, which let go of the interpreter, and a panel is too big to copy to each
    process. On smaller spaces the tasks' Python counts for more, and processes do a little better."""
    return bool(panels) and all(isinstance(panel, Panel) and panel.transitions is not None
                                and panel.space.n_positions > THREADED_SPACE for panel in panels)


def accuracy(kind: GenomeKind, genome, rules: Game) -> float:
    """The genome's accuracy on its board: :func:`nim_evo.evaluation.heldout.board_accuracy`."""
    return board_accuracy(kind, genome, rules)


def _policies(kind: GenomeKind, genomes: list, space):
    """A stack of move arrays ``(k, n)`` or probability tables ``(k, n, m)``."""
    return kind.policies(genomes, (space,))[0]
