"""How a program plays: the score of a position, and the move into the position of lowest score.

A program (:mod:`nim_evo.genomes.program`) is three trees, the step, the score and a second
fold, and in a heap game other than Nim (not Wythoff's or Moore's) a fourth part, the heap part
(:class:`~nim_evo.genomes.heaps.HeapPart`). A position's score:

- its heap sizes sorted ascending, the step ``f(a, p, k)`` folded over them from ``a = 0``
  to ``v`` (and the second fold ``h(b, p, k)`` to ``w``), where ``p`` is the heap's size, or
  with a heap part the heap's value under it (an empty heap is then skipped: it is no heap,
  only a padded column); ``k`` is Nim's cap plus one (0 without a cap, and in other games);
- the score ``g(v, m, w, x)``, ``m`` the largest heap, ``x`` whether the game is misère.

The program plays the legal move into the position of lowest score. Ties: on a Nim board,
the move from the smallest pile, then the one that takes fewest (as programs always have);
in other games, the move to the smallest position (heap sizes sorted ascending, compared
lexicographically), then the first action. Both depend on the multiset of heaps alone, so the
program is the same player over multisets (fitness) as on any arrangement of a board.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from nim_evo.engine import boards
from nim_evo.engine.distinct import distinct_keys, firsts
from nim_evo.engine.kept import Memo, bounded, space_bytes
from nim_evo.engine.rules import Rules
from nim_evo.engine.space import Space
from nim_evo.games.base import Game
from nim_evo.games.splitting import SplitGame
from nim_evo.genomes import folds, heaps
from nim_evo.genomes.expressions import SCORE, SECOND, STEP, code, parse, run, text
from nim_evo.genomes.protocol import deterministic_move_probabilities

PARTS = ("step", "score", "second", "heap")  # (the second fold third: files of two trees are [step, score])
SETS = (STEP, SCORE, SECOND)  # the trees' languages, in PARTS' order
NOTHING = "0"  # a part no stage varies: the second fold of a family that does not need it
_BATCH_CELLS = 2_000_000  # heap sizes of the children scored at once, in moves()
# what is kept of each board a run scores (its positions sorted, its moves in order of
# preference, ...): a run of four families trains on 24 boards and measures on 8 more
_BOARDS, _BOARD_BYTES = 64, 256 << 20


def _nbytes(arguments: tuple, kept) -> int:
    """The bytes of what is kept of a board (an array, a tuple of arrays or None, or a
    :class:`_Legal`) and of the spaces it is kept for, which the cache keeps alive."""
    spaces = arguments[0] if isinstance(arguments[0], tuple) else arguments  # (_union's: a tuple of spaces)
    return (sum(getattr(part, "nbytes", 0) for part in (kept if isinstance(kept, tuple) else (kept,)))
            + sum(space_bytes(space) for space in spaces))


_per_board = bounded(_nbytes, _BOARDS, _BOARD_BYTES)


def parts(genes) -> tuple:
    """``(step, score, second, heap)`` of a program or of its plain form (two to four
    expressions); ``heap`` is ``None`` for a program of Nim without one."""
    if is_plain(genes):
        texts = (*genes, NOTHING) if len(genes) == 2 else tuple(genes)
        return _parsed(*texts[:3]) + (_heap(texts[3]) if len(texts) == 4 else None,)
    return _tree_parts(genes)


def _tree_parts(genes) -> tuple:
    """:func:`parts` of a program's trees (not its plain form)."""
    if len(genes) == 2:
        return (genes[0], genes[1], parse(NOTHING, SECOND, "the program's second fold"), None)
    return (genes[0], genes[1], genes[2], genes[3] if len(genes) == 4 else None)


def is_plain(genes) -> bool:
    """Whether ``genes`` is a program's plain form, its expressions as text."""
    if not isinstance(genes, (tuple, list)):
        return False
    for part in genes:  # (a loop: asked thousands of times a generation, of trees, which fail at once)
        if not isinstance(part, str):
            return False
    return True


def compiled(genes) -> tuple:
    """``(step, score, second, heap)``, the trees as :func:`~nim_evo.genomes.expressions.run`
    reads them (:func:`~nim_evo.genomes.expressions.code`) and the heap part (or None); of a
    plain form, made once (a generation's programs arrive as text: each is parsed once, or
    not at all where :func:`plain` wrote it from its trees in this process)."""
    if is_plain(genes):
        texts = tuple(genes)
        found = _WRITTEN.get(texts)
        return _compiled_texts(texts) if found is None else found
    return _coded(*parts(genes))


def _coded(step, score, second, heap) -> tuple:
    """:func:`compiled`'s form of a program's parts: each tree's code, and the heap part."""
    return code(step), code(score), code(second), heap


def plain(genes) -> list[str]:
    """The program's expressions as text (its plain form: ``[step, score, second]``, and the
    heap part's where it has one); of trees, their compiled form is kept for the texts
    (:data:`_WRITTEN`), which :func:`compiled` then reads instead of parsing them again."""
    if is_plain(genes):
        return [str(part) for part in parts(genes) if part is not None]
    step, score, second, heap = _tree_parts(genes)
    texts = [text(step), text(score), text(second)] + ([] if heap is None else [str(heap)])
    key = tuple(texts)
    if key not in _WRITTEN:
        if len(_WRITTEN) >= _KEPT:  # (the older half dropped: a generation's texts are read soon after written)
            for written in list(_WRITTEN)[:_KEPT // 2]:
                _WRITTEN.pop(written, None)
        # (the heap part the text reads back: the individual's own may change in place)
        _WRITTEN[key] = _coded(step, score, second, None if heap is None else _heap(texts[3]))
    return texts


_KEPT = 4096
_WRITTEN: dict = {}  # texts: their compiled form, made from the trees they were written from (a dict: thread-safe)


@lru_cache(maxsize=_KEPT)  # (a generation's offspring and its parents: a few megabytes)
def _compiled_texts(texts: tuple) -> tuple:
    return _coded(*parts(texts))


def scores(genes, rules: Game, positions: np.ndarray, ascending: bool = False) -> np.ndarray:
    """``(k,)`` int64: the score of each of ``positions (k, width)`` (lower: better to leave;
    ``ascending``: each row's heaps are sorted ascending already)."""
    positions = np.asarray(positions, dtype=np.int64)
    if not ascending:
        positions = np.sort(positions, axis=1)
    return _scores(genes, rules, positions, None)


def _scores(genes, rules: Game, positions: np.ndarray, padded: np.ndarray | None,
            spaces: tuple | None = None) -> np.ndarray:
    """:func:`scores` of ``positions`` sorted ascending, where ``padded`` (or None) marks the
    columns that are no heap of their row (rows of boards of fewer heaps, padded on the left:
    several boards scored in one pass, :func:`policies_on`); ``spaces``: the boards whose
    positions they are (:func:`_union`'s), whose folds are kept (:func:`_union_fold`)."""
    step, score, second, heap = compiled(genes)
    cap = getattr(rules, "max_take", None)
    k = np.int64(0 if cap is None else cap + 1)
    with np.errstate(over="ignore"):
        if heap is None and spaces is not None:  # (a generation's programs share many a step)
            value, other = (_union_fold(tree, name, spaces, int(k)) for tree, name in ((step, "a"), (second, "b")))
        else:
            value, other = _folds(step, second, heap, positions, padded, k)
        answer = run(score, {"v": value, "m": positions[:, -1] if positions.size else value, "w": other,
                             "x": np.bool_(rules.misere)})
    return folds.as_ints(answer, len(positions))


def _folds(step: tuple, second: tuple, heap, positions: np.ndarray, padded: np.ndarray | None,
           k: np.int64) -> tuple[np.ndarray, np.ndarray]:
    """The step's and the second fold's values at ``positions`` (as :func:`_scores` reads them)."""
    present = None if padded is None else ~padded
    value = (folds.fold(step, "a", positions, present, k) if heap is None
             else folds.fold_heaps(step, heap, positions, k))
    if second == _NOTHING_CODE:
        return value, np.zeros(len(positions), dtype=np.int64)
    # (with a heap part, the step reads each heap's value, and an empty heap is no heap)
    return value, folds.fold(second, "b", positions if heap is None else heap(positions),
                             present if heap is None else positions > 0, k)


_FOLDS, _FOLD_BYTES = 1024, 32 << 20  # folds of a run's boards kept: a generation's steps and its parents'


def _union_fold(tree: tuple, name: str, spaces: tuple, k: int) -> np.ndarray:
    """``tree``'s fold over the positions of ``spaces`` (:func:`_union`), kept (read-only)
    with them (:func:`_union`'s memo: kept and dropped with its boards)."""
    positions, padded, _, kept = _union(spaces)
    value = kept.get((tree, name, k))
    if value is None:
        if tree == _NOTHING_CODE:
            value = np.zeros(len(positions), dtype=np.int64)
        else:
            with np.errstate(over="ignore"):
                value = np.array(folds.fold(tree, name, positions, None if padded is None else ~padded,
                                            np.int64(k)))
        kept.put((tree, name, k), value, value.nbytes)
    return value


ORDER_SEED, ORDER_ROWS, ORDER_VALUES = 37, 256, 64  # the rows of values a fold reads in three orders, and their bound
ORDER_SMALL = 16  # and every pair of values below this, in both orders


def folds_in_any_order(genes) -> bool:
    """Whether the step's fold is 0 at the same rows of values whether it reads them
    ascending, descending or shuffled: every pair below :data:`ORDER_SMALL`, and rows of 2 to
    6 values below :data:`ORDER_VALUES` drawn with their own seed. On Nim's boards the fold reads heap sizes ascending; a heap part's
    values come in the order of their heaps' sizes, which is any order of the values, and a
    sum of games is the same sum in any order. (A step right on Nim's boards only as they are
    sorted, such as ``or(sub(or(a, p), a), mod(add(p, or(a, p)), p))``, which is 0 at 2 then 6
    and 4 at 6 then 2, is no fold for a heap part.)"""
    step = compiled(genes)[0]
    small = np.indices((ORDER_SMALL, ORDER_SMALL)).reshape(2, -1).T  # (every pair of small values, both orders)
    with np.errstate(over="ignore"):
        if not np.array_equal(folds.fold(step, "a", small, None, np.int64(0)) == 0,
                              folds.fold(step, "a", small[:, ::-1], None, np.int64(0)) == 0):
            return False
    rng = np.random.default_rng(ORDER_SEED)
    for width in range(2, 7):
        values = np.sort(rng.integers(0, ORDER_VALUES, size=(ORDER_ROWS, width)), axis=1)
        shuffled = np.take_along_axis(values, rng.permuted(np.tile(np.arange(width), (ORDER_ROWS, 1)), axis=1), axis=1)
        with np.errstate(over="ignore"):
            zero = [folds.fold(step, "a", read, None, np.int64(0)) == 0 for read in (values, values[:, ::-1], shuffled)]
        if not (np.array_equal(zero[0], zero[1]) and np.array_equal(zero[0], zero[2])):
            return False
    return True


def policy(genes, space: Space) -> np.ndarray:
    """The move array over an enumerated space: at each position the legal move into a
    position of lowest score (ties as the module says; over multisets, on the representative)."""
    return policies([genes], space)[0]


def policies(genomes: list, space: Space) -> np.ndarray:
    """``(k, n)``: :func:`policy` of each of a population's programs (:func:`policies_on`)."""
    return policies_on(genomes, (space,))[0]


def policies_on(genomes: list, spaces: tuple) -> list[np.ndarray]:
    """:func:`policy` of each of a population's programs over each of ``spaces``, ``(k, n)``
    each: every program scores the positions of all the spaces of one cap and kind of play in
    one pass (:func:`_union`), and the moves of all the programs are chosen together (on a Nim
    board, in blocks of programs of about :data:`_CHOICE_CELLS` position-move pairs)."""
    if not len(genomes):
        return [np.zeros((0, space.n_positions), dtype=np.int64) for space in spaces]
    values: dict = {}
    for group in _groups(spaces):
        positions, padded, bounds, _ = _union(group)
        scored = np.stack([_scores(genes, group[0].rules, positions, padded, group) for genes in genomes])
        values.update((space, scored[:, lo:hi]) for space, lo, hi in zip(group, bounds[:-1], bounds[1:]))
    return [_moves_of(values[space], space) for space in spaces]


def _groups(spaces: tuple) -> list[tuple]:
    """The spaces (each once) by what a score reads of their rules besides the heaps: the cap and misère play."""
    groups: dict = {}
    for space in dict.fromkeys(spaces):
        groups.setdefault((getattr(space.rules, "max_take", None), space.rules.misere), []).append(space)
    return [tuple(group) for group in groups.values()]


@_per_board
def _union(spaces: tuple) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, Memo]:
    """The positions of ``spaces`` one after another, each row's heaps ascending and padded on
    the left to the widest (``padded`` marks those columns; None where all are as wide),
    each space's rows' bounds, and the folds made of them (:func:`_union_fold`)."""
    rows = [_ascending(space) for space in spaces]
    kept = Memo(_FOLDS, _FOLD_BYTES)
    if len(rows) == 1:
        return rows[0], None, np.array([0, len(rows[0])]), kept
    width = max(part.shape[1] for part in rows)
    positions = np.zeros((sum(len(part) for part in rows), width), dtype=np.int64, order="F")
    padded = np.zeros(positions.shape, dtype=bool)
    bounds = np.cumsum([0] + [len(part) for part in rows])
    for part, lo, hi in zip(rows, bounds[:-1], bounds[1:]):
        positions[lo:hi, width - part.shape[1]:] = part
        padded[lo:hi, :width - part.shape[1]] = True
    positions.flags.writeable = padded.flags.writeable = False
    return positions, padded if padded.any() else None, bounds, kept


def _moves_of(values: np.ndarray, space: Space) -> np.ndarray:
    """``(k, n)``: the move of each program at each position of the space, given their scores of
    its positions ``(k, n)``; programs that score the board alike (bloat, a converging
    population: more than half of a generation's, on Nim's training boards) choose once, and
    scores of the board met before (seven in ten, generation after generation) are not
    chosen from again (:func:`_choices`)."""
    keys = [row.tobytes() for row in values]
    index = distinct_keys(keys)
    each = firsts(index)
    kept = _choices(space)
    found = [kept.get(keys[j]) for j in each]
    missing = [j for j, moves in zip(each, found) if moves is None]
    if missing:
        new = iter(_chosen(values[missing], space))
        for at, j in enumerate(each):
            if found[at] is None:  # (a copy: a row of the chosen would keep them all alive)
                found[at] = next(new).copy()
                kept.put(keys[j], found[at], len(keys[j]) + found[at].nbytes)
    return np.stack(found)[index]


_CHOICES, _CHOICE_BYTES = 4096, 32 << 20  # a board's scores and their moves remembered (a few generations')


@_per_board
def _choices(space: Space) -> Memo:
    """The moves :func:`_chosen` made of a board's scores, by the scores' bytes."""
    return Memo(_CHOICES, _CHOICE_BYTES)


def _chosen(values: np.ndarray, space: Space) -> np.ndarray:
    """:func:`_moves_of` of every row."""
    if not isinstance(space.rules, Rules):
        ranks, actions = _ranks(space), _space_legal(space)
        return np.stack([_first_lowest(np.ascontiguousarray(row), ranks, actions) for row in values])
    order, after, legal = _preference(space)
    block = max(1, _CHOICE_CELLS // max(1, after.size))
    scored = np.empty((min(block, len(values)), space.n_positions + 1), dtype=np.int64)
    scored[:, -1] = np.iinfo(np.int64).max  # (an illegal move's score: after reads it there)
    chosen = []
    for start in range(0, len(values), block):  # each row's first legal move, in its order of preference, of least score
        part = values[start:start + block]
        scored[:len(part), :-1] = part
        first = scored[:len(part), after].argmin(axis=-1)  # (the first of least score)
        chosen.append(np.take_along_axis(order, first.T, axis=1).T)
    return np.where(legal[:, 0], np.concatenate(chosen), 0)


_CHOICE_CELLS = 1 << 18  # position-move pairs of the programs whose moves are chosen at once (their arrays in cache)


@_per_board
def _preference(space: Space) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A Nim board's moves in each position in the order a program prefers them among equal
    scores (:func:`_lowest`'s keys: the legal ones first, from the smallest pile, then taking
    fewest, then the first column): ``(order, after, legal)``, each ``(n, m)``, the moves'
    columns, the positions they lead to (``n`` where illegal: a score past the positions'),
    and whether they are legal, in that order."""
    sizes = space.positions[:, space.moves[:, 0]].astype(np.int64)
    counts = np.broadcast_to(space.moves[:, 1].astype(np.int64), sizes.shape)
    columns = np.broadcast_to(np.arange(space.n_moves), sizes.shape)
    order = np.lexsort((columns, counts, sizes, ~space.legal), axis=-1)
    legal = np.take_along_axis(space.legal, order, axis=1)
    after = np.where(legal, np.take_along_axis(space.next, order, axis=1), space.n_positions).astype(np.intp)
    for array in (order, legal, after):
        array.flags.writeable = False
    return order, after, legal


def lowest_child(genes, rules: Game, children: np.ndarray, ranks: np.ndarray, index: np.ndarray) -> np.ndarray:
    """The move of each position, as :func:`moves` chooses it, given every child once:
    ``children (u, width)`` (each row's heaps sorted ascending), their ``ranks (u,)`` (rows
    compared lexicographically)
    and ``index (k, actions)``, the child of each action (``u`` where illegal)."""
    return _first_lowest(scores(genes, rules, children, ascending=True), ranks, _Legal.of(index, len(children)))


def moves(genes, rules: Game, positions: np.ndarray) -> np.ndarray:
    """``(k,)`` the action chosen in each of ``positions`` (0 where none is legal), boards too
    big to enumerate included (every child is scored)."""
    positions = np.asarray(positions, dtype=np.int64)
    chosen = np.zeros(len(positions), dtype=np.int64)
    if isinstance(rules, Rules):
        move_list = boards.move_list(rules)
        pile, count = move_list[:, 0], move_list[:, 1]
        batch = max(1, _BATCH_CELLS // max(1, len(pile) * positions.shape[1]))
        for start in range(0, len(positions), batch):
            part = positions[start:start + batch]
            legal = part[:, pile] >= count
            after = np.repeat(part[:, None, :], len(pile), axis=1)
            after[:, np.arange(len(pile)), pile] -= count
            values = scores(genes, rules, np.maximum(after, 0).reshape(-1, part.shape[1])).reshape(len(part), len(pile))
            chosen[start:start + batch] = _lowest(values, legal, part[:, pile], count)
        return chosen
    batch = max(1, _BATCH_CELLS // max(1, rules.n_actions * positions.shape[1]))
    for start in range(0, len(positions), batch):
        children, legal = rules.successors(positions[start:start + batch])
        size, actions, width = children.shape
        children = np.sort(np.maximum(children, 0), axis=2)
        values = scores(genes, rules, children.reshape(-1, width)).reshape(size, actions)
        chosen[start:start + batch] = _lowest(values, legal, *np.moveaxis(children, 2, 0))
    return chosen


def split_child(genes, game: SplitGame, heaps) -> np.ndarray:
    """The heaps left by the move :func:`moves` chooses in the position ``heaps`` of a
    splitting game, heaps of any size (no board is built, whose rows and actions would be
    too many): every child scored, a heap's at a time, in chunks; the least score, then the
    smallest child (sorted ascending, compared lexicographically; equal children are one).
    Sorted ascending, one wider than the position's non-empty heaps, 0 for none."""
    heaps = np.sort(np.asarray([h for h in heaps if h > 0], dtype=np.int64))
    width = len(heaps) + 1
    largest = int(heaps[-1])
    best: tuple | None = None
    for i in np.unique(heaps, return_index=True)[1]:  # (equal heaps leave the same children)
        small, large = game.heap_moves(int(heaps[i]), largest)
        others = np.delete(heaps, i)
        chunk = max(1, _BATCH_CELLS // width)
        for start in range(0, len(small), chunk):
            rows = np.empty((min(chunk, len(small) - start), width), dtype=np.int64)
            rows[:, :-2] = others
            rows[:, -2], rows[:, -1] = small[start:start + chunk], large[start:start + chunk]
            rows.sort(axis=1)
            values = scores(genes, game, rows, ascending=True)
            low = rows[values == values.min()]
            candidate = (int(values.min()), tuple(low[np.lexsort(low.T[::-1])[0]]))
            best = candidate if best is None or candidate < best else best
    if best is None:
        raise ValueError("no move from a position with no heap")  # (callers ask only where a move is)
    return np.array(best[1], dtype=np.int64)


def move_probabilities(genes, rules: Game, positions: np.ndarray) -> np.ndarray:
    """``(k, n_actions)``: a 1 at the move :func:`moves` chooses in each position with one."""
    return deterministic_move_probabilities(rules, positions, lambda live: moves(genes, rules, live))


def _lowest(values: np.ndarray, legal: np.ndarray, *keys: np.ndarray) -> np.ndarray:
    """Per row, the legal column of lowest value; among equal values the one of lowest first
    key, then second, ... (each ``(k, columns)`` or broadcast to it), then the first column
    (0 where none is legal; a legal value as high as int64 goes still beats an illegal column).
    (:func:`_preference` orders a board's moves by the same keys.)"""
    top = np.iinfo(np.int64).max
    best = legal & (values == np.where(legal, values, top).min(axis=1, keepdims=True))
    for key in keys:
        key = np.broadcast_to(key, values.shape)
        best &= key == np.where(best, key, top).min(axis=1, keepdims=True)
    return np.where(legal.any(axis=1), best.argmax(axis=1), 0)


class _Legal:
    """The legal actions of an ``(n, actions)`` child index (``u``, its children's count,
    where illegal), flat: the rows that have one, where each row's run starts, each
    action's column and child. A policy reads only these (a splitting board's rows are
    mostly empty slots)."""

    def __init__(self, index: np.ndarray, missing: int):
        self.shape = index.shape
        rows, self.columns = np.nonzero(index != missing)
        self.children = index[rows, self.columns]
        self.rows, self.starts, counts = np.unique(rows, return_index=True, return_counts=True)
        self.run = np.repeat(np.arange(len(self.rows)), counts)  # each legal action's run
        self._keys: tuple = (None, None)

    @property
    def nbytes(self) -> int:
        """The bytes of its arrays, the tie-break keys made last included (what a cache of it holds)."""
        return sum(array.nbytes for array in (self.columns, self.children, self.rows, self.starts, self.run,
                                              self._keys[1]) if array is not None)

    def keys(self, ranks: np.ndarray) -> np.ndarray:
        """Each legal action's tie-break key, its child's rank x actions + its column (made
        once for the read-only ``ranks`` asked last)."""
        if self._keys[0] is not ranks:
            self._keys = (ranks, ranks[self.children] * self.shape[1] + self.columns)
        return self._keys[1]

    @staticmethod
    def of(index: np.ndarray, missing: int) -> _Legal:
        """The legal actions of a read-only ``index``, made once (the 16 asked last are kept)."""
        key = (id(index), missing)
        if _LEGAL.get(key, (None,))[0] is not index:
            if len(_LEGAL) >= 16:
                _LEGAL.pop(next(iter(_LEGAL)))
            _LEGAL[key] = (index, _Legal(index, missing))
        return _LEGAL[key][1]


_LEGAL: dict = {}  # by the index array itself (kept alive here): a space's or a set of decisions'


def _first_lowest(values: np.ndarray, ranks: np.ndarray, legal: _Legal) -> np.ndarray:
    """Each row's first legal column of least (score, rank) child (0 in a row with none): per
    row the least score of its legal children, then among the columns that reach it the least
    of rank x actions + column (no sort)."""
    chosen = np.zeros(legal.shape[0], dtype=np.int64)
    if len(legal.rows):
        score = values[legal.children]
        least = np.minimum.reduceat(score, legal.starts)
        key = np.where(score == least[legal.run], legal.keys(ranks), np.iinfo(np.int64).max)
        chosen[legal.rows] = np.minimum.reduceat(key, legal.starts) % legal.shape[1]
    return chosen


@_per_board
def _ascending(space: Space) -> np.ndarray:
    """A space's positions, each row's heaps sorted ascending (read-only; in Fortran order, as a
    fold reads them column by column): what every program of a run scores."""
    ordered = np.asfortranarray(np.sort(space.positions, axis=1), dtype=np.int64)
    ordered.flags.writeable = False
    return ordered


@_per_board
def _ranks(space: Space) -> np.ndarray:
    """``(n_positions,)``: each position's rank among the space's by its heap sizes sorted
    ascending, compared lexicographically (the tie-break :func:`moves` applies to children);
    arrangements of the same heaps rank alike (among them, the first action is chosen)."""
    ordered = _ascending(space)
    order = np.lexsort(ordered.T[::-1])
    new = np.ones(len(order), dtype=bool)
    new[1:] = (ordered[order[1:]] != ordered[order[:-1]]).any(axis=1)
    rank = np.empty(len(ordered), dtype=np.int64)
    rank[order] = np.cumsum(new) - 1
    return rank


@_per_board
def _space_legal(space: Space) -> _Legal:
    """A space's legal actions and the position each leads to."""
    return _Legal(space.successors, space.n_positions)


@lru_cache(maxsize=256)
def _parsed(*texts: str) -> tuple:
    return tuple(parse(text, pset, f"the program's {part}") for text, pset, part in zip(texts, SETS, PARTS))


@lru_cache(maxsize=256)
def _heap(text: str) -> heaps.HeapPart:
    return heaps.parse(text, "the program's heap part")


_NOTHING_CODE = code(parse(NOTHING, SECOND, "the second fold"))
