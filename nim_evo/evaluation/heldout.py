"""How a board-free genome generalises: its accuracy on boards it was never trained on.

Two held-out sets, both of the genome's family (its cap and misère flag; in a heap game other
than Nim, its rule and convention: :func:`held_out_board` and random boards of 3 to 12 heaps, as
many of those as the rule is played on (Wythoff's game: two), up to :func:`largest_heap`, judged
by the family's theory, its Grundy values where it has them):

- every winning position of 1-3-5-7-9-11-13 (its 21,318 multisets of piles, each counted for
  the positions it stands for), judged by the solver;
- winning positions sampled from random boards of 8 to 16 piles of up to 1,000 objects
  (each pile of a position uniform from empty to its board's size), judged by theory: the
  nim-sum for normal play, pile sizes modulo ``k + 1`` under a cap of ``k``, Bouton's rule
  for misère play, on those residues under a cap (:mod:`nim_evo.games.nimtheory`).

Accuracy is the share of those winning positions where the genome plays a winning move. In a
family with no theory (misère play of a heap game other than Nim) the random boards are small
enough for the solver, which judges each whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from nim_evo.games.base import Game
from nim_evo.games.multitake import MultiTake
from nim_evo.games.splitting import SplitGame
from nim_evo.games.takeaway import TakeAway
from nim_evo.engine import boards
from nim_evo.engine.rules import Rules
from nim_evo.engine.sizes import within
from nim_evo.engine.solver import solve
from nim_evo.games.nimtheory import known_wins
from nim_evo.genomes.protocol import GenomeKind
from nim_evo.validation import UserError

SEVEN_HEAPS = (1, 3, 5, 7, 9, 11, 13)
RANDOM = "random boards"  # the held-out report's name for them
RANDOM_BOARDS, POSITIONS_EACH = 20, 50
RANDOM_BOARD_PILES, RANDOM_BOARD_MAX_PILE = (8, 16), 1000


def board_accuracy(kind: GenomeKind, genes, rules: Game) -> float:
    """Share of the board's winning positions where the genome plays a winning move (for a
    stochastic genome, the mean probability it does). Measured with the solver on the kind's
    judged space: the multisets (weighted by the positions each stands for), or a table
    genome's own space (an ordered one is judged position by position)."""
    space = kind.judged_space(genes, rules)
    return solve(space).accuracy(kind.policies([genes], (space,))[0][0])


def held_out_accuracy(kind: GenomeKind, genes, family: Game, seed: int = 0) -> dict[str, float]:
    """``{"1-3-5-7-9-11-13": ..., "random boards": ...}``: the genome's accuracy on boards it
    was not trained on (in a game other than Nim, its :func:`held_out_board` and random
    boards of :data:`GAME_BOARD_HEAPS` heaps up to :func:`largest_heap`)."""
    return dict(_remembered(_HELD_OUT, (kind, _text(kind.plain(genes)), family, seed),
                            lambda: _held_out_accuracy(kind, genes, family, seed)))


def held_out_perfect(kind: GenomeKind, genes, family: Game, seed: int = 0) -> bool:
    """Whether :func:`held_out_accuracy` is 1 on both sets, found with less work where it is
    not: the board first (in a run, the logbook has measured it), then the random boards
    judged a board (in a splitting game, a position) at a time up to the first wrong move
    (each position of heaps of a million there asks the genome to score a million children)."""
    plain = kind.plain(genes)
    key = (kind, _text(plain), family, seed)
    if key in _HELD_OUT:
        return all(share == 1.0 for share in _HELD_OUT[key].values())
    if seven_heaps_accuracy(kind, plain, family) < 1.0:  # (the logbook's: measured already in a run)
        return False
    return _perfect_on_random_boards(kind, genes, family, *_random_sample(family, seed))


def _perfect_on_random_boards(kind: GenomeKind, genes, family: Game, rng: np.random.Generator, piles: tuple,
                              max_pile: int) -> bool:
    """Whether the genome plays every judged position of the random boards right, asked up to
    the first wrong move (:func:`_random_boards`)."""
    judged, _ = _random_boards(kind, genes, family, rng, piles, max_pile, RANDOM_BOARDS, POSITIONS_EACH)
    return all(right == total for right, total in judged)


def _held_out_accuracy(kind: GenomeKind, genes, family: Game, seed: int) -> dict[str, float]:
    board = held_out_board(family)
    return {board.name: board_accuracy(kind, genes, board),
            RANDOM: random_boards_accuracy(kind, genes, family, *_random_sample(family, seed))}


def _random_sample(family: Game, seed: int) -> tuple[np.random.Generator, tuple, int]:
    """The held-out random boards' generator, heap counts and largest heap, drawn from the run's seed."""
    rng = np.random.default_rng([seed, 7])
    if isinstance(family, Rules):
        return rng, RANDOM_BOARD_PILES, RANDOM_BOARD_MAX_PILE
    return rng, GAME_BOARD_HEAPS, GAME_MAX_HEAP


# in a game other than Nim: the random boards hold 3 to 12 heaps, up to a million objects each
# where the engine builds such a board and the family's theory reaches it (largest_heap)
GAME_BOARD_HEAPS, GAME_MAX_HEAP = (3, 12), 10**6
# a splitting family's held-out board: the last of these within HELD_OUT_POSITIONS multisets and
# HELD_OUT_CELLS multiset-action pairs (counted in this order, up to the first beyond them)
SPLIT_HELD_OUT = ((20,), (24,), (30,), (36,), (40,))
HELD_OUT_POSITIONS, HELD_OUT_CELLS = 30_000, 20_000_000


# where a move takes from several heaps: Wythoff's two heaps, and fewer of Moore's (its moves are many)
MULTI_HELD_OUT = {"wythoff": ((50, 80), (100, 160), (150, 240)),
                  "moore": ((1, 3, 5, 7, 9), (2, 5, 8, 11, 14), SEVEN_HEAPS)}


def held_out_board(family: Game) -> Game:
    """The board of ``family`` (its rule and convention) every position of which a
    board-free genome is judged on: 1-3-5-7-9-11-13 where a move only takes from a heap,
    else the biggest of :data:`SPLIT_HELD_OUT` (or, where a move takes from several heaps,
    :data:`MULTI_HELD_OUT`) within :data:`HELD_OUT_POSITIONS` and :data:`HELD_OUT_CELLS`."""
    if isinstance(family, (Rules, TakeAway)):
        return family.board(SEVEN_HEAPS)
    return _last_within(family, MULTI_HELD_OUT.get(family.family, SPLIT_HELD_OUT))


@lru_cache(maxsize=16)
def _last_within(family: Game, shapes: tuple) -> Game:
    chosen = family.board(shapes[0])
    for heaps in shapes[1:]:
        try:
            board = family.board(heaps)
        except UserError:  # (a board past the engine's bounds)
            break
        if not within(board, HELD_OUT_POSITIONS, HELD_OUT_CELLS):
            break
        chosen = board
    return chosen


@lru_cache(maxsize=64)
def largest_heap(family: Game, heaps: int = GAME_BOARD_HEAPS[1], most: int = GAME_MAX_HEAP) -> int:
    """The largest heap size, ``most`` or ``most`` halved until it fits (at least 1), of
    which the engine builds a board of ``heaps`` heaps in ``family`` and its theory judges it
    (a splitting family's board holds a row for every heap a split may make, and an action
    for every split: it stays far below a million; where a move takes from several heaps,
    each board lists its moves: at most :data:`MULTI_MAX_HEAP`)."""
    if isinstance(family, MultiTake):  # (a board's moves are listed: Wythoff's on two heaps of n, 3n of them)
        most = min(most, MULTI_MAX_HEAP)
    size = most
    while size > 1:
        try:
            board = family.board((size,) * heaps)
        except UserError:  # refused: too many actions or rows
            size //= 2
            continue
        if board.theory_wins(np.array([board.start])) is not None:
            return size
        size //= 2
    return 1


def random_boards_accuracy(kind: GenomeKind, genes, family: Game, rng: np.random.Generator, piles: tuple = RANDOM_BOARD_PILES,
                           max_pile: int = RANDOM_BOARD_MAX_PILE, count: int = RANDOM_BOARDS,
                           each: int = POSITIONS_EACH) -> float:
    """The share of sampled winning positions of random big boards (``count`` boards of ``piles``
    many heaps, each of up to ``max_pile``, in ``family``'s family, rule and convention; ``each``
    positions a board) where the genome plays a winning move, judged by the family's theory
    (in a family with none, the mean of each board's share: :func:`_solved_boards`)."""
    judged, shares = _random_boards(kind, genes, family, rng, piles, max_pile, count, each)
    rights, totals = zip(*judged)
    return float(np.mean(rights)) if shares else sum(rights) / sum(totals)


def _random_boards(kind: GenomeKind, genes, family: Game, rng: np.random.Generator, piles: tuple, max_pile: int, count: int,
                   each: int) -> tuple[Iterator[tuple[float, int]], bool]:
    """What :func:`random_boards_accuracy` judges, a board (or a position) at a time, as it is
    judged: ``(right, judged)`` pairs, and whether they are each board's share instead
    (``(share, 1)``). A perfect genome is right in each; the first miss ends the question."""
    if not isinstance(family, Rules):
        return _game_boards(kind, genes, family, rng, piles, max_pile, count, each)
    return _nim_boards(kind, genes, family, rng, piles, max_pile, count, each), False


def _nim_boards(kind: GenomeKind, genes, family: Rules, rng: np.random.Generator, piles: tuple, max_pile: int, count: int,
                each: int) -> Iterator[tuple[int, int]]:
    for _ in range(count):
        sizes = rng.integers(1, max_pile + 1, size=int(rng.integers(piles[0], piles[1] + 1)))
        rules = Rules(tuple(int(s) for s in sizes), family.max_take, family.misere)
        positions = rng.integers(0, sizes + 1, size=(4 * POSITIONS_EACH, len(sizes)))
        winning = known_wins(rules, positions)[0] & positions.any(axis=1)
        positions = positions[winning][:each]
        chosen = kind.choose(genes, rules, positions, rng)
        moves = boards.move_list(rules)[chosen]
        after = positions.copy()
        after[np.arange(len(after)), moves[:, 0]] -= moves[:, 1]
        legal = (after >= 0).all(axis=1)
        yield int((legal & ~known_wins(rules, np.maximum(after, 0))[0]).sum()), len(positions)


def _game_boards(kind: GenomeKind, genes, family: Game, rng: np.random.Generator, piles: tuple, max_pile: int,
                 count: int, each: int) -> tuple[Iterator[tuple[float, int]], bool]:
    """:func:`_random_boards` in a game other than Nim: heaps up to ``max_pile`` where
    the engine builds such boards, else the :func:`largest_heap` it does (a splitting game in
    normal play: :func:`_split_boards`, up to ``max_pile`` itself); each heap of a
    position drawn from empty to its board's, judged by the family's theory (a one-line
    :class:`UserError` where it has none there); in a family with none,
    :func:`_solved_boards`."""
    if isinstance(family, SplitGame) and not family.misere:
        return _split_boards(kind, genes, family, rng, piles, max_pile, count, min(each, SPLIT_EACH)), False
    counts = heap_counts(family, piles)
    if not _has_theory(family, counts[0]):
        return ((share, 1) for share in _solved_boards(kind, genes, family, rng, piles, max_pile, count)), True
    return _theory_boards(kind, genes, family, rng, counts, largest_heap(family, counts[-1], max_pile), count,
                          each), False


def _theory_boards(kind: GenomeKind, genes, family: Game, rng: np.random.Generator, counts: tuple, max_pile: int,
                   count: int, each: int) -> Iterator[tuple[int, int]]:
    for _ in range(count):
        sizes = rng.integers(1, max_pile + 1, size=int(rng.choice(counts)))
        board = family.board(int(s) for s in sizes)
        here = max(1, min(each, CHILD_CELLS // (count * board.n_actions * board.width)))
        drawn = rng.integers(0, sizes + 1, size=(4 * here, len(sizes)))
        positions = np.zeros((len(drawn), board.width), dtype=np.int64)
        positions[:, :len(sizes)] = drawn
        winning = _theory(board, positions) & board.legal_mask(positions).any(axis=1)
        positions = positions[winning][:here]
        children, legal = board.step(positions, kind.choose(genes, board, positions, rng))
        yield int((legal & ~_theory(board, children)).sum()), len(positions)


# where a family has no theory (misère play of a heap game other than Nim): random boards the
# solver judges whole, each heap drawn up to a size halved until the board's multisets fit these
SOLVED_POSITIONS, SOLVED_CELLS = 20_000, 2_000_000


def _has_theory(family: Game, heaps: int) -> bool:
    """Whether ``family``'s theory judges a board of ``heaps`` heaps (each the largest of its
    own; its own board, if it builds none such)."""
    try:
        board = family.board((max(family.heaps),) * heaps)  # type: ignore[attr-defined]  # (every family but Nim's)
    except UserError:
        board = family
    return board.theory_wins(np.array([board.start])) is not None


def _solved_boards(kind: GenomeKind, genes, family: Game, rng: np.random.Generator, piles: tuple, max_pile: int,
                   count: int) -> Iterator[float]:
    """:func:`_random_boards` in a family with no theory to judge by: ``count`` boards of
    ``piles`` heaps, each heap drawn up to ``max_pile`` halved until the board has at most
    :data:`SOLVED_POSITIONS` multisets and :data:`SOLVED_CELLS` multiset-action pairs, each
    judged whole by the solver (:func:`board_accuracy`: every winning position): each one's share."""
    counts = heap_counts(family, piles)
    for _ in range(count):
        heaps, size = int(rng.choice(counts)), max_pile
        while True:
            sizes = rng.integers(1, size + 1, size=heaps)
            try:
                board = family.board(int(s) for s in sizes)
            except UserError:  # refused: too many actions or rows
                board = None
            if board is not None and (size == 1 or within(board, SOLVED_POSITIONS, SOLVED_CELLS)):
                break
            if size == 1:
                raise UserError(f"{family.name}'s family builds no board of {heaps} heaps of 1 to judge by the solver")
            size //= 2
        yield board_accuracy(kind, genes, board)


CHILD_CELLS = 50_000_000  # heap sizes of the children the genome's moves on the random boards look at, at most
MULTI_MAX_HEAP = 10_000  # heaps of the random boards where a move takes from several (each board lists its moves)


def heap_counts(family: Game, piles: tuple) -> tuple[int, ...]:
    """How many heaps the random boards of ``family`` hold: those of ``piles[0] .. piles[1]``
    its rule is played on (:meth:`~nim_evo.games.base.Game.takes_heaps`), else the fewest it
    is (Wythoff's game: two)."""
    counts = tuple(n for n in range(piles[0], piles[1] + 1) if family.takes_heaps(n))
    return counts or (next(n for n in range(1, 10_000) if family.takes_heaps(n)),)


SPLIT_EACH = 2  # positions a board in a splitting game (each asks for every child of up to 12 heaps of a million)


def _split_boards(kind: GenomeKind, genes, family: SplitGame, rng: np.random.Generator, piles: tuple,
                  max_pile: int, count: int, each: int) -> Iterator[tuple[int, int]]:
    """:func:`_random_boards` in a splitting game in normal play, a position at a time, heaps up to
    ``max_pile`` where the family's Grundy values are known there (certified or computed),
    with no board built: the genome's move by its kind's
    :meth:`~nim_evo.genomes.protocol.GenomeKind.child_of`, judged by those values."""
    values = family.values_for(max_pile)
    max_pile = min(max_pile, values.known)
    for _ in range(count):
        sizes = rng.integers(1, max_pile + 1, size=int(rng.integers(piles[0], piles[1] + 1)))
        drawn = rng.integers(0, sizes + 1, size=(4 * each, len(sizes)))
        for heaps in drawn[np.bitwise_xor.reduce(values(drawn), axis=1) != 0][:each]:  # (a won position has a move)
            child = kind.child_of(genes, family, heaps)
            yield int(np.bitwise_xor.reduce(values(child)) == 0), 1


def _theory(board: Game, positions: np.ndarray) -> np.ndarray:
    wins = board.theory_wins(positions)
    if wins is None:
        raise UserError(f"{board.name} cannot be judged by theory: {board.theory_scope() or 'its family has none'}")
    return np.asarray(wins, dtype=bool)


# A stage hands its champion on only if it also plays a validation sample right: random boards
# of 5 to 10 piles up to 100, always the same (their own seed), apart from the held-out sets
# (the run reports those: seven heaps, and 8 to 16 piles up to 1,000 drawn from the run's seed).
VALIDATION_PILES, VALIDATION_MAX_PILE, VALIDATION_SEED = (5, 10), 100, 29
_VALIDATED: dict = {}


def validates(kind: GenomeKind, genes, families) -> bool:
    """Whether the genome plays a winning move at every sampled winning position of the
    validation boards (:data:`VALIDATION_PILES`, judged by theory) in the family of each of
    ``families`` (a board of each, whose heaps are not read, or Nim's ``(max_take, misere)``
    pairs): a program right on every training board by a trick of small or few piles fails it."""
    families = tuple(family if isinstance(family, Game) else Rules((1,), *family) for family in families)
    return _remembered(_VALIDATED, (kind, _text(genes), families), lambda: all(
        _perfect_on_random_boards(kind, genes, family, np.random.default_rng(VALIDATION_SEED), VALIDATION_PILES,
                                  VALIDATION_MAX_PILE) for family in families))


_SEVEN_HEAPS: dict = {}  # the accuracies measured last, by champion: a champion stays for many generations
_HELD_OUT: dict = {}


def seven_heaps_accuracy(kind: GenomeKind, genes, rules: Game) -> float:
    """A board-free champion's accuracy on 1-3-5-7-9-11-13 of its family (its
    :func:`held_out_board`: the board the logbook follows, generation by generation; the
    sampled big boards are measured at the end)."""
    board = held_out_board(rules)
    return _remembered(_SEVEN_HEAPS, (kind, _text(genes), board), lambda: board_accuracy(kind, genes, board))


def _remembered(store: dict, key, compute):
    """``store[key]``, computed once (the 64 asked last are kept)."""
    if key not in store:
        if len(store) >= 64:
            store.pop(next(iter(store)))
        store[key] = compute()
    return store[key]


def _text(genes) -> str:
    return json.dumps(genes, sort_keys=True, default=lambda value: np.asarray(value).tolist())
