"""The exact report of any player (``nim-evo grade``): how right it is, position by position.

* **accuracy**: the share of the board's winning positions (the player to move can win) where
  the player plays a winning move; for a player whose moves are random, the mean probability
  that it does. Every arrangement of the piles counts (over multisets for an order-blind
  player, each multiset weighted by its arrangements: the same share).
* **win rates**: its exact probability of winning from the start against ``random`` and
  ``nimsum``, moving first and moving second.
* **wrong**: the first winning positions (fewest objects first) where it may miss the win,
  each with what it plays and a winning move. A move that is not legal there is a finding,
  counted as wrong (and as losing the game), not a crash; an exception in the player's own
  code is an :class:`~nim_evo.validation.AgentError` naming it and the position.

Where the board is too big to enumerate, the player would take longer than ``budget``
seconds to be asked at every position, or its moves are random without a ``distribution``
to read them from, the report is **sampled**: ``positions`` winning positions drawn
uniformly from the board (each pile's size uniform from empty to its start; theory judges
them) asked once each, and ``games`` games per opponent and seat; it says so, why, and
gives each figure's 95% margin (Wilson's interval).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np
from scipy.stats import binomtest

from nim_evo.agents.adapted import RandomMoves
from nim_evo.agents.player import is_order_blind
from nim_evo.agents.protocol import AGENT, as_player
from nim_evo.agents.registry import make_agent
from nim_evo.engine import theory
from nim_evo.engine.boards import move_list
from nim_evo.engine.game import TooLong, play_game
from nim_evo.engine.rules import RULES, Move, Rules
from nim_evo.engine.solver import solve
from nim_evo.engine.space import space_for, tabulable
from nim_evo.evaluation.opponents import resolve
from nim_evo.evaluation.tournament import forfeiting_win_probabilities
from nim_evo.validation import SEED, IllegalMove, InstanceOf, Interval, UserError, validate

OPPONENTS = ("random", "nimsum")
POSITIONS = 2000  # winning positions asked in a sampled report (accuracy within about ±0.02)
GAMES = 200  # games per opponent and seat in a sampled report
GAME_MOVES = 10_000  # a sampled game not over after so many moves is left unfinished (piles of 10^12, one at a time)
BUDGET = 60.0  # seconds of asking the player at every position, at most, before the report samples
PROBE = 64  # positions timed to foresee how long asking every position takes
SHOWN = 10  # wrong positions listed
MAX_SAMPLE = 1_000_000  # positions or games in a sample, at most
CHUNK = 256  # positions asked at once (a chunk with an illegal move is asked again position by position)


@dataclass(frozen=True)
class Wrong:
    """A winning position where the player may miss the win."""

    position: tuple[int, ...]
    played: tuple[tuple[Move, float], ...]  # its moves there with their probabilities; () for an illegal move
    winning: Move  # a winning move there
    illegal: object = None  # the illegal move it answered, if it did


@dataclass(frozen=True)
class Report:
    """A player's grade on one board; see the module."""

    player: str
    rules: Rules
    exact: bool
    accuracy: float
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
    seconds: float = field(default=0.0, compare=False)

    @property
    def convention(self) -> str:
        """The board's rule, which a course-style player was judged by."""
        rule = ("misère play: whoever takes the last object loses" if self.rules.misere
                else "normal play: whoever takes the last object wins")
        cap = f", at most {self.rules.max_take} a move" if self.rules.max_take is not None else ""
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
                       **({"illegal_move": repr(w.illegal)} if w.illegal is not None else {})} for w in self.wrong],
            "win_rates": self.win_rates, "games": self.games if not self.exact else None,
            "win_rates_margin": self.rates_margin, "unfinished_games": self.unfinished,
        }


def grade_player(player, rules: Rules, *, budget: float = BUDGET, positions: int = POSITIONS, games: int = GAMES,
          seed: int = 0) -> Report:
    """Grade ``player`` on ``rules``; see the module.

    Args:
        player: an agent object (a :class:`~nim_evo.agents.player.Player`, a person's agent, a
            course-style player) or a spec as ``--opponents`` takes it (``nimsum``, a learner's
            name, a strategy file, ``module:NAME``).
        budget: seconds of asking the player at every position, at most, before sampling.
        positions, games: the sample's size, where the report samples.
        seed: the sample's, and the games', seed.

    Raises:
        UserError: a spec that names no player, an object that is no player.
        AgentError: the player's own code raised (named with the position).
    """
    validate({"player": [InstanceOf(str, what="a player's name or spec"), AGENT], "rules": [RULES],
              "budget": [Interval(Real, 0, None)], "positions": [Interval(Integral, 1, MAX_SAMPLE)],
              "games": [Interval(Integral, 1, MAX_SAMPLE)], "seed": [SEED]},
             {"player": player, "rules": rules, "budget": budget, "positions": positions, "games": games,
              "seed": seed})
    player = resolve(player, rules, seed) if isinstance(player, str) else as_player(player, rules)
    began = time.perf_counter()
    ordered = not is_order_blind(player)
    why = None
    if not tabulable(rules, multiset=not ordered):
        why = f"the board {rules.name} is too big to ask the player at every position"
    else:
        try:
            report = _exact(player, rules, ordered, budget)
        except RandomMoves as error:
            why = f"its moves are random ({error})"
        except _TooSlow as error:
            why = str(error)
        else:
            return _timed(report, began)
    return _timed(_sampled(player, rules, ordered, why, positions, games, np.random.default_rng(seed)), began)


class _TooSlow(Exception):
    pass


def _timed(report: Report, began: float) -> Report:
    object.__setattr__(report, "seconds", time.perf_counter() - began)
    return report


def _exact(player, rules: Rules, ordered: bool, budget: float) -> Report:
    space = space_for(rules, multiset=not ordered)
    solution = solve(space)
    rows, illegal = _table(player, space, budget)  # over the rules' moves at each representative
    table = space.merge(rows)  # over the space's moves
    winners = solution.win & (space.totals > 0)
    right = (table * solution.winning).sum(axis=1)
    accuracy = solution.accuracy(table)
    misses = np.flatnonzero(winners & (right < 1 - 1e-9))
    misses = misses[np.lexsort((misses, space.totals[misses]))]
    moves = move_list(rules)
    wrong = []
    for i in misses[:SHOWN]:
        position = tuple(map(int, space.positions[i]))
        played = tuple(((int(moves[k, 0]), int(moves[k, 1])), float(rows[i, k])) for k in np.flatnonzero(rows[i] > 0))
        wrong.append(Wrong(position, played, solution.winning_moves(position)[0], illegal.get(int(i))))
    start = space.index(rules.start)
    rates = {}
    for name in OPPONENTS:
        values = forfeiting_win_probabilities(space, table, make_agent(name, rules))
        rates[name] = {"first": float(values[start, 0]), "second": float(values[start, 1])}
    weights = space.weights
    return Report(player.name, rules, True, accuracy, int(weights[winners].sum()), int(weights[misses].sum()),
                  int(sum(weights[i] for i in illegal if winners[i])), tuple(wrong), rates, ordered)


def _table(player, space, budget: float) -> tuple[np.ndarray, dict]:
    """The player's rows at every position of ``space``, a zero row where it answered an
    illegal move (with that move, by position index); :class:`_TooSlow` if asking them all
    would take longer than ``budget`` seconds."""
    table = np.zeros((space.n_positions, space.rules.n_moves))
    illegal: dict = {}
    began = time.perf_counter()
    done = 1  # the empty board is never asked
    for size in (PROBE, *[CHUNK] * (space.n_positions // CHUNK + 1)):
        if done >= space.n_positions:
            break
        rows = slice(done, min(done + size, space.n_positions))
        try:
            table[rows] = player.move_probabilities(space.positions[rows])
        except IllegalMove:
            for i in range(rows.start, rows.stop):
                try:
                    table[i] = player.move_probabilities(space.positions[i:i + 1])[0]
                except IllegalMove as error:
                    illegal[i] = _answered(error)
        done = rows.stop
        elapsed = time.perf_counter() - began
        if done < space.n_positions and elapsed / done * space.n_positions > budget:
            left = elapsed / done * (space.n_positions - done)
            raise _TooSlow(f"asking {player.name} at all {space.n_positions:,} positions would take about "
                           f"{left:.0f} s more (budget {budget:g} s)")
    return table, illegal


class GradedPolicy:
    """A player as the policy picture reads it (``rules`` and ``policy(space)``), a zero row
    where it answers an illegal move (a losing move in the picture) instead of failing."""

    def __init__(self, player):
        self.player, self.rules, self.name = player, player.rules, player.name

    def policy(self, space) -> np.ndarray:
        return space.merge(_table(self.player, space, float("inf"))[0])


def _answered(error: IllegalMove):
    """The move an :class:`IllegalMove` names (its message is the record)."""
    return str(error)


def _sampled(player, rules: Rules, ordered: bool, why: str, n: int, games: int,
             rng: np.random.Generator) -> Report:
    sample = _winning_sample(rules, n, rng)
    hits, wrong, illegal = 0, [], 0
    for piles in map(tuple, sample.tolist()):
        try:
            move = player.move(piles, rng)
        except IllegalMove as error:
            illegal += 1
            wrong.append((piles, None, _answered(error)))
            continue
        if theory.is_win(rules, rules.apply(piles, move)):
            wrong.append((piles, move, None))
        else:
            hits += 1
    wrong.sort(key=lambda w: (sum(w[0]), w[0]))
    shown = tuple(Wrong(piles, () if move is None else ((move, 1.0),), theory.winning_moves(rules, piles)[0], bad)
                  for piles, move, bad in wrong[:SHOWN])
    rates, margin, unfinished = {}, 0.0, 0
    for name in OPPONENTS:
        opponent = make_agent(name, rules)
        seats = {}
        for seat, key in ((0, "first"), (1, "second")):
            outcomes = [_game_won(rules, player, opponent, seat, rng) for _ in range(games)]
            finished = [won for won in outcomes if won is not None]
            unfinished += games - len(finished)
            seats[key] = sum(finished) / len(finished) if finished else None
            margin = max(margin, _margin(sum(finished), len(finished)))
        rates[name] = seats
    return Report(player.name, rules, False, hits / n, n, len(wrong), illegal, shown, rates, ordered,
                  margin=_margin(hits, n), games=games, rates_margin=margin, unfinished=unfinished,
                  sampled_because=why)


def _winning_sample(rules: Rules, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` positions drawn uniformly from the board's winning positions (rejection)."""
    found, kept, tries = [], 0, 0
    while kept < n:
        draw = rng.integers(0, np.array(rules.piles, dtype=np.int64) + 1, size=(4 * n, len(rules.piles)))
        draw = draw[draw.any(axis=1)]
        draw = draw[theory.wins(rules, draw)]
        found.append(draw)
        kept += len(draw)
        tries += 1
        if tries > 100 and not kept:
            raise UserError(f"no winning position found on {rules.name} in {tries * 4 * n:,} draws")
    return np.concatenate(found)[:n]


def _game_won(rules: Rules, player, opponent, seat: int, rng: np.random.Generator) -> bool | None:
    """Whether ``player`` in ``seat`` wins a game against ``opponent``; None for a game not
    over after :data:`GAME_MOVES` moves."""
    players = (player, opponent) if seat == 0 else (opponent, player)
    try:
        return play_game(rules, players, rng, max_moves=GAME_MOVES).winner == seat
    except IllegalMove:
        return False  # an illegal move loses the game (the opponent never plays one)
    except TooLong:
        return None


def _margin(successes: int, n: int) -> float:
    """The half width of the 95% Wilson interval of ``successes`` in ``n``, at its widest side."""
    if n == 0:
        return 0.0
    ci = binomtest(successes, n).proportion_ci(0.95, method="wilson")
    rate = successes / n
    return float(max(rate - ci.low, ci.high - rate))
