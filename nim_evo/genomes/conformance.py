"""The genome kinds' conformance suite: every view of a kind's play gives its one answer.

A kind's one answer is ``move_probabilities(genes, rules, positions)``; ``policies``,
``choose`` and the :meth:`~nim_evo.genomes.protocol.GenomeKind.stack` it reads are views a
kind may write for speed. :func:`check_kind` puts a kind through the same checks on a board,
for a few random genomes (each made by ``create`` in the kind's DEAP individual, then mutated
and crossed), at every position of the board's ordered space:

================  ==============================================================================
``rows``          ``move_probabilities``: the board's move list, legal moves only, rows summing
                  to 1 (a zero row where the game is over)
``stack``         the rows of a stack of the genomes, a genome per position, are each genome's
``policies``      ``policies`` over the ordered space (and the multiset one, for genes that are
                  order-blind) equal the rows (a deterministic kind's move arrays, one-hot)
``choose``        a move drawn from a stack lies in its genome's row (a one-hot row: its move)
``files``         ``to_json``/``from_json`` and ``plain``/``check_plain`` (a genome file, a
                  checkpoint) give back genes with the same rows
``variation``     genes ``mutate`` and ``crossover`` leave play by the same rules (``rows``)
``child_of``      of a kind that plays any board, the child it leaves a position's heaps in is
                  one its row plays
================  ==============================================================================

A kind bound to its board is checked over both spaces its genes may be over (multisets and the
ordered space). ``decide`` (a program's move at a run's decisions, which needs the evaluation
layer) is held to its moves by ``tests/evaluation/test_decisions.py``.

A failed check raises :class:`~nim_evo.agents.conformance.ConformanceError` listing what
failed where; otherwise it returns the checks and how many genomes each asked.
"""

from __future__ import annotations

import json
from copy import deepcopy

import numpy as np

from nim_evo.agents.conformance import TOLERANCE, ConformanceError
from nim_evo.engine.policy import one_hot
from nim_evo.engine.space import Space, space_for
from nim_evo.games.base import Game
from nim_evo.genomes.protocol import GenomeKind
from nim_evo.genomes.registry import get_kind

GENOMES = 4
CHILDREN = 24  # positions whose child_of is checked (it builds a board for each)


def check_kind(kind: GenomeKind | str, rules: Game, *, seed: int = 0, genomes: int = GENOMES) -> dict[str, int]:
    """Check every view of ``kind``'s play (a kind or its name) against its
    ``move_probabilities`` on ``rules``' board, for ``genomes`` random genomes drawn from
    ``seed`` (of a kind bound to its board, as many over multisets and over the ordered space;
    see the module docstring); ``{check: genomes asked}``, or a :class:`ConformanceError`
    naming every check that failed."""
    kind = get_kind(kind)
    rng = np.random.default_rng(seed)
    ordered = space_for(rules)
    positions = ordered.positions  # (the ended game's too: its row is zero)
    live = ~ordered.terminal
    failures: list[str] = []
    checks = dict.fromkeys(("rows", "stack", "policies", "choose", "files", "variation", "child_of"), 0)
    for multiset in (True,) if kind.board_free else (True, False):
        made = [kind.create(rules, rng, container=kind.individual, multiset=multiset) for _ in range(max(2, genomes))]
        varied = [deepcopy(genes) for genes in made]  # (what DEAP's clone gives)
        for k in range(0, len(varied) - 1, 2):
            kind.crossover(varied[k], varied[k + 1], rules, rng)
        varied = [kind.mutate(genes, rules, rng)[0] for genes in varied]
        space = "multisets" if multiset else "the ordered space"
        rows = []
        for g, genes in enumerate(made):
            who = f"genome {g} (over {space})" if not kind.board_free else f"genome {g}"
            answer = _rows(kind, genes, rules, positions, who, failures)
            rows.append(answer)
            checks["rows"] += 1
            if answer is None:
                continue
            for over in _spaces(kind, genes, rules, ordered):
                _policy(kind, genes, over, who, failures)
            checks["policies"] += 1
            for how, back in _read_back(kind, genes, rules):
                if not np.allclose(kind.move_probabilities(back, rules, positions), answer, atol=TOLERANCE):
                    failures.append(f"files: {who} read back by {how} plays other moves")
            checks["files"] += 1
            if kind.board_free:
                _child(kind, genes, rules, positions[live][:CHILDREN], who, failures)
                checks["child_of"] += 1
        answered = [answer[live] for answer in rows if answer is not None]
        if len(answered) == len(made):
            _stacked(kind, made, answered, rules, positions[live], rng, failures)
            checks["stack"] += len(made)
            checks["choose"] += len(made)
        for g, genes in enumerate(varied):
            _rows(kind, genes, rules, positions, f"varied genome {g}", failures)
            checks["variation"] += 1
    if failures:
        raise ConformanceError(f"the {kind.name} genome kind on {rules.name}:\n  " + "\n  ".join(failures))
    return checks


def _rows(kind: GenomeKind, genes, rules: Game, positions: np.ndarray, who: str, failures: list) -> np.ndarray | None:
    rows = np.asarray(kind.move_probabilities(genes, rules, positions), dtype=float)
    legal = rules.legal_mask(positions)
    if rows.shape != (len(positions), rules.n_actions):
        failures.append(f"rows: {who} answers shape {rows.shape}, not {(len(positions), rules.n_actions)}")
        return None
    wrong = ~np.isfinite(rows).all(axis=1) | (rows < -TOLERANCE).any(axis=1) | (np.abs(rows).sum(axis=1) > 0) & \
        (np.abs(np.where(legal, 0.0, rows)).max(axis=1) > TOLERANCE)
    wrong |= legal.any(axis=1) & (np.abs(rows.sum(axis=1) - 1.0) > TOLERANCE)
    if wrong.any():
        failures.append(f"rows: {who} at {tuple(positions[np.argmax(wrong)])}: not a distribution over its legal moves")
        return None
    return rows


def _spaces(kind: GenomeKind, genes, rules: Game, ordered: Space) -> list[Space]:
    return [ordered, space_for(rules, multiset=True)] if kind.order_blind(genes, rules) else [ordered]


def _policy(kind: GenomeKind, genes, space: Space, who: str, failures: list) -> None:
    stack = kind.policies([genes], (space,))[0]
    table = np.asarray(stack[0])
    table = one_hot(table, space) if table.ndim == 1 else table
    want = space.merge(kind.move_probabilities(genes, space.rules, space.positions))
    if table.shape != want.shape or not np.allclose(table, want, atol=TOLERANCE):
        where = "multisets" if space.multiset else "the ordered space"
        failures.append(f"policies: {who} over {where} differs from its rows")


def _read_back(kind: GenomeKind, genes, rules: Game):
    yield "to_json and from_json", kind.from_json(json.loads(json.dumps(kind.to_json(genes, rules))), rules)
    plain = json.loads(json.dumps(kind.plain(genes), default=np.ndarray.tolist))
    yield "plain and check_plain", kind.check_plain(plain, rules, multiset=kind.judged_space(genes, rules).multiset)


def _stacked(kind: GenomeKind, made: list, rows: list, rules: Game, positions: np.ndarray, rng, failures: list) -> None:
    owners = np.arange(len(positions)) % len(made)
    stacked = kind.stack(made)[owners]
    want = np.stack(rows)[owners, np.arange(len(positions))]
    if not np.allclose(kind.move_probabilities(stacked, rules, positions), want, atol=TOLERANCE):
        failures.append("stack: a stack's rows are not each genome's own")
    chosen = np.asarray(kind.choose(stacked, rules, positions, rng))
    if chosen.shape != (len(positions),) or not (want[np.arange(len(positions)), chosen] > 0).all():
        failures.append("choose: a move drawn from a stack is not in its genome's row")
    certain = want.max(axis=1) > 1 - TOLERANCE
    if chosen.shape == (len(positions),) and (chosen[certain] != want[certain].argmax(axis=1)).any():
        failures.append("choose: a genome's one move is not the move drawn")


def _child(kind: GenomeKind, genes, rules: Game, positions: np.ndarray, who: str, failures: list) -> None:
    """``child_of`` at each position's heaps, sorted: the heaps a move leaves that its row plays
    on the board of those heaps (where ``child_of`` reads them)."""
    for position in np.sort(positions, axis=1):
        heaps = tuple(int(n) for n in position)
        board = rules.board(heaps)
        row = kind.move_probabilities(genes, board, position[None])[0]
        child = tuple(int(n) for n in kind.child_of(genes, rules, position) if n)  # (its heaps, padding aside)
        played = {tuple(sorted(n for n in board.apply(heaps, board.move_of(int(k))) if n))
                  for k in np.flatnonzero(row > 0)}
        if child not in played:
            failures.append(f"child_of: {who} at {heaps} leaves {child}, no child its row plays")
            return
