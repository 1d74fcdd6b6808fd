"""Lookup-table genome: one gene per position of the enumerated space, the move to make there.

The Math 495R Nim lab's strategy vector indexed by the position's digits, evolved instead of trained.
By default the space is that of multisets (:mod:`nim_evo.engine.multiset`: one gene for every
arrangement of the same pile sizes, 21,318 genes instead of 645,120 on seven heaps); the
ordered space of old files and of ``multiset=False`` keeps one gene per position. Which one
a gene array is over is told by its length (the two differ on every board with two
non-empty piles, and are the same space otherwise). Gene ``p`` is a move index (a legal
column of the space) and is always legal in position ``p``: creation and mutation draw only
legal moves, and crossover exchanges genes position by position. The gene of a position
where the game is over (on a Nim board, the empty board) is unused and kept at 0.

Per-position credit: an evaluated individual carries ``credit = (mine, theirs)``, two
``(n_positions,) float32`` arrays from the exact evaluator averaged over the opponent
panel: its probability of winning from each position with itself, or the opponent, to
move. The operators read it (never the solver):

- mutation re-draws a gene either uniformly among the legal moves or, with probability
  ``greedy`` (1 by default), as the move with the best ``theirs[next[p, m]]`` (the sub-game
  after it);
- crossover gives the first child, at every position, the gene of the parent that wins
  that position's sub-game more often. Against one opponent this child wins every
  position at least as often as both parents (by induction on objects left: its moves are
  as good and the positions they lead to are at least as good).
"""

from __future__ import annotations

import numpy as np
from joblib import Parallel, delayed

from nim_evo.engine.boards import move_indices
from nim_evo.engine.rules import Rules
from nim_evo.games.base import Game
from nim_evo.engine.seeds import stream_parts
from nim_evo.engine.space import Space, space_for, space_size
from nim_evo.genomes.protocol import GenomeKind, individual_type, like, move_arrays
from nim_evo.validation import UserError

NAME = "table"
SPACES = ("multiset", "ordered")


def genes_space(genes, rules: Game):
    """The space a gene array is over: that of multisets when it has a gene per multiset,
    unless the board is a box whose positions number the same (one heap: the spaces agree,
    and such tables were always read as ordered), else the ordered one. Only a box's ordered
    positions are counted (at once): another board's are searched, which may take long."""
    multisets = space_size(rules, multiset=True)
    ordered = len(genes) != multisets or (rules.box and space_size(rules) == multisets)
    return space_for(rules, multiset=not ordered)


GUIDED_INDPB = 0.3  # credit-guided re-draws never make a sub-game worse: many at once
RANDOM_INDPB = 0.05  # random ones mostly break what works: few


def policy(genes, space: Space) -> np.ndarray:
    """The move array of the genome over ``space``: ``(n_positions,)`` move indices. Genes
    over the other kind of space of the board are read at this space's positions (a
    multiset's move on the first pile of the size it takes from; an ordered table's move at
    a multiset's representative)."""
    genes = np.asarray(genes)
    if genes.ndim != 1:
        raise UserError(f"a table genome is one gene per position, got shape {genes.shape}")
    own = genes_space(genes, space.rules)
    if own is space or (own.multiset == space.multiset and own.n_positions == space.n_positions):
        return genes.astype(np.int64)
    if not own.multiset:  # ordered genes at the representatives, folded over equal piles
        return space.fold(genes[own.indices(space.positions)].astype(np.int64))
    return _unfold(own, genes, space)


def _word(move):
    """A move as JSON: a pair as a list of ints, an action as an int."""
    return [int(v) for v in move] if isinstance(move, tuple) else int(move)


def _unfold(own, genes: np.ndarray, space: Space) -> np.ndarray:
    """Multiset genes as moves of ``space``'s positions: the first pile of the chosen size."""
    rows = own.indices(space.positions)
    if own.moves is None:  # (a game whose moves are no (pile, count): its space unfolds them)
        live = ~space.terminal
        table = np.zeros((space.n_positions, own.n_moves))
        table[np.flatnonzero(live), genes[rows[live]]] = 1.0
        return space.fold(own.unfold(space.positions, table).argmax(axis=1))
    pile, count = own.moves[genes[rows], 0], own.moves[genes[rows], 1]
    size = own.positions[rows, pile]
    first = np.argmax(space.positions == size[:, None], axis=1)
    moves = move_indices(space.rules, first, count)
    moves[space.terminal] = 0
    return space.fold(moves)


def _random_legal(space: Space, positions: np.ndarray, rng: np.random.Generator, threads: int = 1) -> np.ndarray:
    """A uniformly random legal move index for each position (0 where the game is over): of
    each row of uniform draws, the legal column of the largest (:func:`_by_rows`)."""
    def draw(rows: np.ndarray, generator: np.random.Generator) -> np.ndarray:
        draws = generator.random((len(rows), space.n_moves))
        np.putmask(draws, ~space.legal[rows], -1.0)
        return draws.argmax(axis=1)

    return _by_rows(positions, space.n_moves, rng, threads, draw)


def _by_rows(positions: np.ndarray, width: int, rng: np.random.Generator, threads: int, choose) -> np.ndarray:
    """``choose(rows, generator)`` (a move per row, from ``width`` draws a row) over
    ``positions``, :data:`_DRAW_ROWS` rows at a time (in cache), as ``int16``. With
    ``threads`` > 1 on many draws, the rows are cut into as many parts, each drawn in a
    thread of its own from its part of ``rng``'s stream (:func:`~nim_evo.engine.seeds.stream_parts`):
    the same draws as in one, so the same moves."""
    chosen = np.empty(len(positions), dtype=np.int16)
    cuts = np.linspace(0, len(positions), max(1, threads) + 1).astype(int)
    generators = stream_parts(rng, np.diff(cuts) * width) if threads > 1 and chosen.size * width >= _THREADED_DRAWS \
        else None

    def part(lo: int, hi: int, generator: np.random.Generator) -> None:
        for start in range(lo, hi, _DRAW_ROWS):
            chosen[start:min(hi, start + _DRAW_ROWS)] = choose(positions[start:min(hi, start + _DRAW_ROWS)], generator)

    if generators is None:
        part(0, len(positions), rng)
    else:
        Parallel(n_jobs=len(generators), backend="threading")(
            delayed(part)(lo, hi, generator) for lo, hi, generator in zip(cuts[:-1], cuts[1:], generators))
    return chosen


_DRAW_ROWS = 2048
_THREADED_DRAWS = 1 << 22  # draws worth threads (a tenth of a second): seven heaps' greedy mutations are not


def _best_moves(space: Space, positions: np.ndarray, theirs: np.ndarray, rng, threads: int = 1) -> np.ndarray:
    """The move with the best sub-game value after it, ties broken at random (:func:`_by_rows`)."""
    after = np.empty(len(theirs) + 1, dtype=theirs.dtype)  # an illegal move's value last: where the space's
    after[:-1], after[-1] = theirs, -np.inf  # next is -1, read from the end (no array of its own: nine heaps' is 224 MB)

    def best(rows: np.ndarray, generator: np.random.Generator) -> np.ndarray:
        value = after[np.take(space.next, rows, axis=0)]  # (indexing: a third faster than np.take by 32-bit indices)
        top = value.max(axis=1, keepdims=True)
        top -= 1e-9
        scores = generator.random(value.shape)  # in [0, 1): a move short of the best goes below 0, the best keep theirs
        np.subtract(scores, value < top, out=scores)
        return scores.argmax(axis=1)

    return _by_rows(positions, space.n_moves, rng, threads, best)


class TableKind(GenomeKind):
    """The lookup table as a genome kind: bound to its board, with per-position credit."""

    name = NAME
    individual = individual_type("TableIndividual", np.ndarray)
    families = None  # a gene per position: every game
    board_free = False
    uses_credit = True
    threaded = True
    overlapped = True
    mutation_parameters = ("indpb", "greedy")

    def create(self, rules: Game, rng: np.random.Generator, container=np.asarray, multiset: bool = True,
               threads: int = 1):
        """A uniformly random legal move for every position (every multiset, by default); drawn
        in ``threads`` threads on a big board, the same moves."""
        space = space_for(rules, multiset=multiset)
        return container(_random_legal(space, np.arange(space.n_positions), rng, threads))

    def mutate(self, genes, rules: Game, rng: np.random.Generator,  # type: ignore[override]  # (its own
               indpb: float | None = None, greedy: float = 1.0, threads: int = 1):  # mutation_parameters, by name)
        """Re-draw each gene with probability ``indpb``: greedily from the credit with
        probability ``greedy`` (when the individual has credit), otherwise uniformly.

        ``indpb`` defaults to 0.3 for an individual with credit and 0.05 without. A greedy
        re-draw of every gene at once is a step of policy iteration against the panel (each
        position's move becomes the best reply given the genome's own play below it), so it
        can only raise every sub-game's value against one opponent; random re-draws are what
        stall the last genes (on seven heaps, 10% of them kept the champion at 99.89% for 150
        generations), so ``greedy`` is 1 by default. ``threads``: as :func:`create`."""
        space = genes_space(genes, rules)
        if indpb is None:
            indpb = RANDOM_INDPB if getattr(genes, "credit", None) is None else GUIDED_INDPB
        chosen = np.flatnonzero(rng.random(space.n_positions) < indpb)
        chosen = chosen[~space.terminal[chosen]]
        credit = getattr(genes, "credit", None)
        smart = np.zeros(len(chosen), dtype=bool) if credit is None else rng.random(len(chosen)) < greedy
        genes[chosen[~smart]] = _random_legal(space, chosen[~smart], rng, threads)
        if smart.any():
            assert credit is not None  # smart is all False without credit
            genes[chosen[smart]] = _best_moves(space, chosen[smart], credit[1], rng, threads)
        return (genes,)

    def crossover(self, a, b, rules: Game, rng: np.random.Generator):
        """First child: per position, the gene of the parent with the better sub-game (credit);
        second child: uniform crossover. Without credit, both are uniform crossovers."""
        first_a = rng.random(len(a)) < 0.5
        credit_a, credit_b = getattr(a, "credit", None), getattr(b, "credit", None)
        if credit_a is not None and credit_b is not None:
            better_a = np.where(credit_a[0] == credit_b[0], first_a, credit_a[0] > credit_b[0])
        else:
            better_a = first_a
        second_a = rng.random(len(a)) < 0.5
        child_a = np.where(better_a, a, b)
        child_b = np.where(second_a, a, b)
        a[:], b[:] = child_a, child_b
        return a, b

    def to_json(self, genes, rules: Game) -> dict:
        """Genes as the game's move per position index (``[pile, count]`` on a take-away game),
        ``null`` where the game is over (on a Nim board, the empty board). On a Nim board over
        multisets: index ``i`` is the ``i``-th multiset in lexicographic order of its sizes
        sorted ascending, and the move is read on its representative (the smallest size on the
        pile that starts smallest, and so on); over the ordered space: the mixed-radix index,
        first pile most significant. On another game's board: the positions its start reaches,
        by objects left (the game's retrograde order), then heap sizes, over multisets each
        in its canonical form (the same representative)."""
        space = genes_space(genes, rules)
        if isinstance(rules, Rules):
            where = ("multisets: lexicographic rank of the sizes sorted ascending; moves on the representative "
                     "(the k-th smallest size on the pile that starts k-th smallest)") if space.multiset \
                else "mixed-radix index, first pile most significant"
        else:
            where = ("the positions reached from the start, by retrograde order (objects left), then heap sizes"
                     + ("; one per multiset of heap sizes, on its representative (the k-th smallest size on the heap "
                        "that starts k-th smallest)" if space.multiset else ""))
        words = [_word(rules.move_of(action)) for action in range(space.n_moves)]  # (one object a move: nine
        genes = np.asarray(genes)  # heaps' 690,690 genes would be as many lists)
        codes = genes.tolist() if genes.dtype.kind in "iu" else [int(gene) for gene in genes]
        moves = [None if ended else words[code] if 0 <= code < len(words) else _word(rules.move_of(code))  # (refused)
                 for ended, code in zip(space.terminal.tolist(), codes, strict=True)]
        return {"space": "multiset" if space.multiset else "ordered", "positions": where, "moves": moves}

    def from_json(self, data: dict, rules: Game, container=np.asarray):
        """The table genome a file's ``genome`` field holds (over the ordered board or multisets), each
        move checked; a one-line ``UserError`` otherwise."""
        kind = data.get("space", "ordered")  # files written before multisets are ordered
        if kind not in SPACES:
            raise UserError(f"a table genome's space is one of {', '.join(SPACES)}, got {kind!r}")
        space = space_for(rules, multiset=kind == "multiset")
        moves = data.get("moves")
        if not isinstance(moves, list) or len(moves) != space.n_positions:
            raise UserError(f"a table genome for {rules.name} over its {kind} space needs {space.n_positions} moves")
        genes = np.zeros(space.n_positions, dtype=np.int16)
        for index in np.flatnonzero(~space.terminal):
            move = moves[index]
            try:
                genes[index] = rules.action_of(tuple(move) if isinstance(move, list) else move)
            except (TypeError, ValueError):
                raise UserError(f"gene {index} ({move!r}) is not a move of {rules.name}") from None
            if not space.legal[index, genes[index]]:
                raise UserError(f"gene {index} ({move!r}) is illegal in position {space.position(index)}")
        return container(genes)

    def check_plain(self, genes, rules: Game, multiset: bool = True):
        space = space_for(rules, multiset=multiset)
        genes = like(genes, np.zeros(space.n_positions, dtype=np.int16), "genes")
        over = np.flatnonzero(space.terminal & (np.asarray(genes) != 0))
        if len(over):
            raise UserError(f"genes[{int(over[0])}], of {space.position(int(over[0]))} where the game is over, "
                            "must be 0")
        playing = np.flatnonzero(~space.terminal)
        moves = np.asarray(genes, dtype=np.int64)[playing]
        legal = (moves >= 0) & (moves < space.n_moves)
        legal[legal] = space.legal[playing[legal], moves[legal]]
        if not legal.all():
            index = int(playing[np.flatnonzero(~legal)[0]])
            raise UserError(f"genes[{index}] ({int(genes[index])}) is not a legal move in position "
                            f"{space.position(index)}")
        return genes

    def order_blind(self, genes, rules: Game) -> bool:
        # a gene per multiset; an ordered table reads the order (where the two spaces differ)
        return genes_space(genes, rules).multiset or (rules.box and space_size(rules) == space_size(rules, True))

    def move_probabilities(self, genes, rules: Game, positions: np.ndarray) -> np.ndarray:
        """The gene of each position's multiset (or position), one-hot on the moves of the
        position itself: a multiset's move on the first pile of the size it takes from
        (``genes`` one genome, or a stack of them, one per position). ``positions`` must lie
        on the board."""
        genes = np.asarray(genes)
        space = genes_space(genes if genes.ndim == 1 else genes[0], rules)
        positions = np.asarray(positions, dtype=np.int64)
        rows = np.zeros((len(positions), space.n_moves))
        live = np.flatnonzero(rules.legal_mask(positions).any(axis=1))
        cells = space.indices(positions[live])
        rows[live, genes[cells] if genes.ndim == 1 else genes[live, cells]] = 1.0  # (a stack: a genome a position)
        return space.unfold(positions, rows)

    def policies(self, genomes: list, spaces: tuple) -> list[np.ndarray]:
        """Each genome's move array over each space (:func:`policy`)."""
        return move_arrays(policy, genomes, spaces)

    def judged_space(self, genes, rules: Game) -> Space:
        return genes_space(genes, rules)  # its own space: an ordered table is judged position by position

    def upgrade_config(self, data: dict) -> dict:
        if "space" not in data and data.get("indpb") is None:  # begun before multisets: random re-draws
            return {**data, "indpb": RANDOM_INDPB}
        return data


KIND = TableKind()
