"""Every move of many transcripts labelled at once: positions replayed in lockstep, in arrays,
and judged by the oracle in one call per board.

Records of one board are replayed together, ply by ply: at ply ``t`` every game still going
takes its ``t``-th action through :meth:`~nim_evo.games.base.Game.step` (one numpy call for all
of them); an action that is not legal there ends its game, labelled illegal. Then the oracle
says who wins at every position reached, and each move's label follows from the values of
the positions before and after it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from nim_evo.engine.oracle import Oracle
from nim_evo.games.base import Game
from nim_evo.transcripts.record import BLUNDER, FORCED, ILLEGAL, LABELS, WINNING, Record

CODE = {label: code for code, label in enumerate(LABELS)}


@dataclass
class Judgement:
    """The labels of every move of ``records``, as flat arrays over the moves (record by record,
    ply by ply).

    Attributes:
        records: the games, in the order given.
        record: ``(moves,) int64``, the index in ``records`` of each move's game.
        ply: ``(moves,) int64``, the move's ply in its game (0: the first move).
        label: ``(moves,) int8``, the code of its label (an index of :data:`LABELS`).
        objects: ``(moves,) int64``, objects left before the move.
        graded: ``(records,) int64``, moves graded in each game (its illegal one included).
        illegal: each game's illegal move as recorded (``None`` where it has none).
        over: ``(records,) bool``, whether the game reached a position with no legal move.
        winner: ``(records,) int8``, the seat that won: the convention's where the game is
            over, else the other seat of one who moved illegally, unless the harness recorded
            who won (TextArena, whose player may try again after an invalid move); -1 where the
            game is not over.
    """

    records: list[Record]
    record: np.ndarray
    ply: np.ndarray
    label: np.ndarray
    objects: np.ndarray
    graded: np.ndarray
    illegal: list[str | None]
    over: np.ndarray
    winner: np.ndarray

    @property
    def seat(self) -> np.ndarray:
        """``(moves,) int64``: the seat that made each move (0 moves first)."""
        return self.ply % 2

    def labels(self, index: int) -> list[str]:
        """The labels of the moves of ``records[index]``, in order."""
        start, stop = np.searchsorted(self.record, [index, index + 1])
        return [LABELS[code] for code in self.label[start:stop]]


def judge(records: Sequence[Record]) -> Judgement:
    """Label every move of ``records`` (see the module); an oracle is built once per board."""
    records = list(records)
    parts: list[tuple[np.ndarray, ...]] = []
    graded = np.zeros(len(records), dtype=np.int64)
    over = np.zeros(len(records), dtype=bool)
    winner = np.full(len(records), -1, dtype=np.int8)
    illegal: list[str | None] = [r.illegal for r in records]
    groups: dict[Game, list[int]] = {}
    for index, each in enumerate(records):
        groups.setdefault(each.game, []).append(index)
    for game, indices in groups.items():
        oracle = Oracle(game, "the referee")
        for kind in ("actions", "positions"):
            chosen = [i for i in indices if (getattr(records[i], kind) is not None)]
            if not chosen:
                continue
            if kind == "actions":
                flat, offsets, lengths, stops = _replay(game, [records[i].actions for i in chosen])  # type: ignore[misc]
                for i, stop, ply in zip(chosen, stops, lengths.tolist()):
                    if stop is not None:  # the move as the transcript wrote it, where it says
                        texts = records[i].texts
                        illegal[i] = texts[ply] if ply < len(texts) else stop
            else:
                flat, offsets, lengths = _stacked(game, [records[i].positions for i in chosen])  # type: ignore[misc]
            parts.append(_labels(game, oracle, records, np.asarray(chosen), flat, offsets, lengths, illegal,
                                 graded, over, winner))
    record, ply, label, objects = (np.concatenate([p[k] for p in parts]) if parts else np.zeros(0, dtype=np.int64)
                                   for k in range(4))
    order = np.lexsort((ply, record))
    return Judgement(records, record[order], ply[order], label[order].astype(np.int8), objects[order], graded,
                     illegal, over, winner)


def _replay(game: Game, games: list[Sequence[int]]):
    """The positions of action transcripts of one board, in lockstep: ``flat`` holds game ``i``'s
    start and the positions after its legal moves from row ``offsets[i]``, ``lengths[i]`` moves;
    ``stops[i]`` is the recorded text of its first illegal action (``None`` where all are legal)."""
    lengths = np.fromiter(map(len, games), dtype=np.int64, count=len(games))
    actions = np.fromiter(itertools.chain.from_iterable(games), dtype=np.int64, count=int(lengths.sum()))
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    offsets = starts + np.arange(len(games))
    flat = np.empty((int(lengths.sum()) + len(games), game.width), dtype=np.int64)
    flat[offsets] = game.start
    current = np.tile(np.asarray(game.start, dtype=np.int64), (len(games), 1))
    legal_lengths = lengths.copy()
    stops: list[str | None] = [None] * len(games)
    active = np.flatnonzero(lengths > 0)
    ply = 0
    while len(active):
        played = actions[starts[active] + ply]
        children, legal = game.step(current[active], played)
        for i in np.flatnonzero(~legal):
            legal_lengths[active[i]] = ply
            action = int(played[i])
            stops[active[i]] = game.action_label(action) if 0 <= action < game.n_actions else str(action)
        active, children = active[legal], children[legal]
        current[active] = children
        flat[offsets[active] + ply + 1] = children
        ply += 1
        active = active[lengths[active] > ply]
    return flat, offsets, legal_lengths, stops


def _stacked(game: Game, games: list[np.ndarray]):
    lengths = np.array([len(p) - 1 for p in games], dtype=np.int64)
    flat = np.concatenate([np.asarray(p, dtype=np.int64).reshape(-1, game.width) for p in games])
    offsets = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64)
    return flat, offsets, lengths


def _labels(game: Game, oracle: Oracle, records: list[Record], chosen: np.ndarray, flat: np.ndarray,
            offsets: np.ndarray, lengths: np.ndarray, illegal: list[str | None], graded: np.ndarray,
            over: np.ndarray, winner: np.ndarray):
    """The labels of the moves of ``records[chosen]`` from their positions (see :func:`_replay`)."""
    tails = np.array([illegal[i] is not None for i in chosen], dtype=bool)
    counts = lengths + tails  # moves graded: the legal ones, and an illegal one that ends a game
    owner = np.repeat(np.arange(len(chosen)), counts)
    ply = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    before = offsets[owner] + ply
    used = np.zeros(len(flat), dtype=bool)
    used[before] = True
    used[before[ply < lengths[owner]] + 1] = True
    used[offsets + lengths] = True  # each game's last position (whether it is over)
    wins = np.zeros(len(flat), dtype=bool)
    wins[used] = oracle.wins(flat[used])
    is_legal = ply < lengths[owner]
    after_wins = np.where(is_legal, wins[np.minimum(before + 1, len(flat) - 1)], False)
    label = np.where(~is_legal, CODE[ILLEGAL],
                     np.where(~wins[before], CODE[FORCED], np.where(after_wins, CODE[BLUNDER], CODE[WINNING])))
    objects = flat[before].sum(axis=1)
    given = [records[i].objects for i in chosen]
    if any(o is not None for o in given):  # a harness that counts its objects otherwise (coins showing heads)
        for k, counted in enumerate(given):
            if counted is not None:
                objects[owner == k] = np.asarray(counted, dtype=np.int64)[: int(counts[k])]
    ends = flat[offsets + lengths]
    finished = np.zeros(len(ends), dtype=bool)  # a game with no move left is lost for the player to move
    maybe = np.flatnonzero(wins[offsets + lengths] == bool(game.misere))  # (won in misère): ask only those
    finished[maybe] = game.over_mask(ends[maybe])
    graded[chosen] = counts
    over[chosen] = finished  # (a move recorded after the end is illegal, and changes no result)
    last_mover = (lengths - 1) % 2
    won = np.where(finished, np.where(game.last_mover_wins, last_mover, 1 - last_mover), 1 - lengths % 2)
    recorded = np.array([-1 if records[i].winner is None else records[i].winner for i in chosen], dtype=np.int64)
    winner[chosen] = np.where(recorded >= 0, recorded, np.where(tails | finished, won, -1))
    return chosen[owner], ply, label, objects
