"""A player's grade as a value (:class:`Report`, :class:`Wrong`): its figures, the positions it
gets wrong, the board's rule it was judged by, and the same as one JSON object
(:mod:`nim_evo.evaluation.grading` makes it)."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

import numpy as np

from nim_evo.engine.multiset import MultisetSpace
from nim_evo.engine.space import Space
from nim_evo.games.base import Game
from nim_evo.games.nim import nim_board
from nim_evo.games.takeaway import Move, TakeAway
from nim_evo.validation import shown


@dataclass(frozen=True)
class Wrong:
    """A winning position where the player may miss the win."""

    position: tuple[int, ...]
    played: tuple[tuple[Move, float], ...]  # its moves there with their probabilities; () for an illegal move
    winning: Move  # a winning move there
    illegal: object = None  # the illegal move it answered there, if it did


@dataclass(frozen=True)
class Report:
    """A player's grade on one board; see the module."""

    player: str
    rules: Game
    exact: bool
    accuracy: float | None  # None where the board has no winning position
    positions: int  # winning positions judged (every one of the board's, or those sampled)
    wrong_positions: int  # of those, where it may miss the win
    illegal_moves: int  # of those, where it answered an illegal move
    wrong: tuple[Wrong, ...]
    win_rates: dict  # opponent -> {"first": rate, "second": rate}; None where no sampled game finished
    ordered: bool  # judged on the ordered board (it reads the order of the piles)
    margin: float = 0.0  # the accuracy's 95% margin (sampled)
    games: int = 0  # games per opponent and seat (sampled)
    rates_margin: float = 0.0  # the widest win rate's 95% margin (sampled)
    unfinished: int = 0  # sampled games left unfinished after GAME_MOVES moves (not counted)
    sampled_because: str | None = None
    cut_short: str | None = None  # how the budget cut the sample short (sampled), if it did
    seconds: float = field(default=0.0, compare=False)
    table: np.ndarray | None = field(default=None, repr=False, compare=False)  # exact: the player's policy table
    space: Space | MultisetSpace | None = field(default=None, repr=False, compare=False)  # the space it is over

    @property
    def convention(self) -> str:
        """The board's rule, which a course-style player was judged by."""
        if self.rules.family != "nim":  # where the game may end before the board is empty
            rule = ("misère play: whoever makes the last move loses" if self.rules.misere
                    else "normal play: whoever makes the last move wins")
            return f"{rule}, a move taking {self.rules.takes_words()}" if isinstance(self.rules, TakeAway) else rule
        rule = ("misère play: whoever takes the last object loses" if self.rules.misere
                else "normal play: whoever takes the last object wins")
        board = nim_board(self.rules)
        cap = f", at most {board.max_take} a move" if board.max_take is not None else ""
        return rule + cap

    def to_json(self) -> dict:
        """The report as one JSON object (moves as ``[pile, count]``, piles from 0)."""
        return {
            "player": self.player, "game": self.rules.name, "convention": self.convention, "exact": self.exact,
            "sampled_because": self.sampled_because, "accuracy": self.accuracy, "margin": self.margin,
            "positions": self.positions, "wrong_positions": self.wrong_positions,
            "illegal_moves": self.illegal_moves, "ordered": self.ordered,
            "wrong": [{"position": list(w.position), "winning_move": list(w.winning),
                       "played": [{"move": list(move), "probability": p} for move, p in w.played],
                       **({"illegal_move": _answer_json(w.illegal)} if w.illegal is not None else {})}
                      for w in self.wrong],
            "win_rates": self.win_rates, "games": self.games if not self.exact else None,
            "win_rates_margin": self.rates_margin, "unfinished_games": self.unfinished,
            "cut_short": self.cut_short,
        }


def _answer_json(answer):
    """An illegal answer as JSON: ``[pile, count]`` for two whole numbers, else its repr."""
    try:
        return [operator.index(answer[0]), operator.index(answer[1])]
    except (TypeError, IndexError, KeyError):
        return shown(answer)
