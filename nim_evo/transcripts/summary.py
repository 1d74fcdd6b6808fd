"""What the referee reports: per player (over all boards, and per board), per position size, and
per game, from a :class:`~nim_evo.transcripts.judge.Judgement`.

A player's **winning-move rate** is the share of its legal moves from winning positions that win
(Wilson's 95% interval beside it; its illegal moves are counted apart); its **blunder rate** is the share of all its graded legal
moves that hand a won game over; its **first blunder** is the ply of its first blunder in each
game (0: the game's first move), summarised by the median over the games that have one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import binomtest

from nim_evo.transcripts.judge import CODE, Judgement
from nim_evo.transcripts.record import BLUNDER, FORCED, ILLEGAL, LABELS, WINNING


@dataclass
class Line:
    """One player's figures over a set of moves."""

    player: str
    games: int
    moves: int  # legal moves graded
    winning_positions: int  # legal moves made from a winning position
    winning_moves: int
    blunders: int
    forced: int
    illegal: int
    first_blunders: list[int]  # the ply of the first blunder, in each game that has one

    @property
    def rate(self) -> float:
        """The share of its winning positions where the player played a winning move (NaN: none)."""
        return self.winning_moves / self.winning_positions if self.winning_positions else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        """That share's 95% Wilson interval."""
        return wilson_interval(self.winning_moves, self.winning_positions)

    @property
    def blunder_rate(self) -> float:
        """The share of its moves that threw a win away (NaN: no move)."""
        return self.blunders / self.moves if self.moves else math.nan

    @property
    def first_blunder(self) -> float:
        """The median ply of a first blunder (NaN where no game has one)."""
        return float(np.median(self.first_blunders)) if self.first_blunders else math.nan

    def to_json(self) -> dict:
        """The line as one JSON object."""
        low, high = self.interval
        return {"player": self.player, "games": self.games, "moves": self.moves,
                "winning_positions": self.winning_positions, "winning_moves": self.winning_moves,
                "winning_move_rate": _number(self.rate), "interval": [_number(low), _number(high)],
                "blunders": self.blunders, "blunder_rate": _number(self.blunder_rate), "forced": self.forced,
                "illegal": self.illegal, "games_with_a_blunder": len(self.first_blunders),
                "first_blunder_median_ply": _number(self.first_blunder)}


@dataclass
class Report:
    """The referee's report (see the module). ``boards`` maps each board's name to its
    convention in words; ``players`` and ``per_board`` hold a :class:`Line` per player (per
    board: keyed by board name); ``by_size`` holds, per player, the objects left before a move
    mapped to ``(winning positions, winning moves)``."""

    judgement: Judgement
    boards: dict[str, dict]
    players: list[Line]
    per_board: dict[str, list[Line]]
    by_size: dict[str, dict[int, tuple[int, int]]]

    @property
    def moves(self) -> int:
        """How many moves the transcripts hold."""
        return len(self.judgement.label)

    def to_json(self) -> dict:
        """The report as one JSON object: each game's moves judged, and each player's line."""
        j = self.judgement
        games = []
        for index, record in enumerate(j.records):
            labels = j.labels(index)
            first = [next((ply for ply, label in enumerate(labels) if label == BLUNDER and ply % 2 == seat), None)
                     for seat in (0, 1)]
            games.append({"source": record.source, "game": record.game.name, "players": list(record.players),
                          "labels": labels, "illegal": j.illegal[index], "over": bool(j.over[index]),
                          "winner": None if j.winner[index] < 0 else record.players[int(j.winner[index])],
                          "first_blunder_ply": first})
        return {"games": len(j.records), "moves": self.moves, "boards": self.boards,
                "players": [line.to_json() for line in self.players],
                "per_board": {board: [line.to_json() for line in lines] for board, lines in self.per_board.items()},
                "by_objects_left": {player: [{"objects": size, "winning_positions": n, "winning_moves": k}
                                             for size, (n, k) in sorted(sizes.items())]
                                    for player, sizes in self.by_size.items()},
                "per_game": games}


def summarise(judgement: Judgement) -> Report:
    """The report of a judgement."""
    j = judgement
    seat_names = [record.players for record in j.records]
    names = sorted({name for pair in seat_names for name in pair})
    number = {name: k for k, name in enumerate(names)}
    seats = np.array([[number[a], number[b]] for a, b in seat_names], dtype=np.int64).reshape(-1, 2)
    player_of_move = seats[j.record, j.seat]
    boards: dict[str, dict] = {}
    for record in j.records:
        entry = boards.setdefault(record.game.name, {"convention": "misère" if record.game.misere else "normal",
                                                     "why": record.convention, "games": 0})
        entry["games"] += 1
    board_names = list(boards)
    board_of_record = np.array([board_names.index(record.game.name) for record in j.records], dtype=np.int64)
    board_of_move = board_of_record[j.record]
    players = [_line(j, name, player_of_move == k) for k, name in enumerate(names)]
    per_board = {board: [line for k, name in enumerate(names)
                         if (line := _line(j, name, (player_of_move == k) & (board_of_move == b))).games]
                 for b, board in enumerate(board_names)}
    by_size: dict[str, dict[int, tuple[int, int]]] = {}
    from_winning = _legal_from_winning(j.label)
    for k, name in enumerate(names):
        mine = (player_of_move == k) & from_winning
        sizes, inverse = np.unique(j.objects[mine], return_inverse=True)
        n = np.bincount(inverse, minlength=len(sizes))
        wins = np.bincount(inverse, weights=j.label[mine] == CODE[WINNING], minlength=len(sizes))
        by_size[name] = {int(s): (int(a), int(b)) for s, a, b in zip(sizes, n, wins)}
    return Report(j, boards, players, per_board, by_size)


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """Wilson's 95% interval of a rate (NaN, NaN for no trials)."""
    if not trials:
        return math.nan, math.nan
    ci = binomtest(successes, trials).proportion_ci(0.95, method="wilson")
    return float(ci.low), float(ci.high)


def _legal_from_winning(label: np.ndarray) -> np.ndarray:
    return (label == CODE[WINNING]) | (label == CODE[BLUNDER])


def _line(j: Judgement, name: str, mine: np.ndarray) -> Line:
    labels = j.label[mine]
    counts = np.bincount(labels, minlength=len(LABELS))
    games = sorted(set(j.record[mine].tolist()))
    blunders = mine & (j.label == CODE[BLUNDER])
    first: dict[int, int] = {}
    for record, ply in zip(j.record[blunders][::-1], j.ply[blunders][::-1]):  # the earliest wins
        first[int(record)] = int(ply)
    legal = int(counts[CODE[WINNING]] + counts[CODE[BLUNDER]] + counts[CODE[FORCED]])
    return Line(name, len(games), legal, int(counts[CODE[WINNING]] + counts[CODE[BLUNDER]]),
                int(counts[CODE[WINNING]]), int(counts[CODE[BLUNDER]]), int(counts[CODE[FORCED]]),
                int(counts[CODE[ILLEGAL]]), sorted(first.values()))


def _number(value: float):
    return None if math.isnan(value) else round(value, 6)
