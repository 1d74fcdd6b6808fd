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
them) asked once each, and ``games`` games per opponent and seat (for a slow player, fewer:
as many as fit in what is left of the budget); it says so, why, and gives each figure's 95%
margin (Wilson's interval). ``budget`` bounds the time the player is asked, in all
(:class:`~nim_evo.agents.deadline.Deadline`; the grade's own work, solving the board, is
not counted): the positions get half of what is left of it, the games the rest, and a sample
it cuts short says so (:attr:`Report.cut_short`); a player that answers no position within it
is a one-line :class:`~nim_evo.validation.KeywordError`. A probability row that puts weight
on an illegal move is a finding too; one that is no distribution (negative, or not summing to
1) is an error.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from numbers import Integral, Real

import numpy as np
from scipy.stats import binomtest

from nim_evo.agents.adapted import Adapted, RandomMoves
from nim_evo.agents.deadline import Deadline, OutOfTime, Timed
from nim_evo.evaluation.gradereport import Report, Wrong
from nim_evo.agents.player import is_order_blind
from nim_evo.agents.protocol import AGENT, as_player
from nim_evo.annotations import PlayerSpec
from nim_evo.agents.registry import make_agent
from nim_evo.games import nimtheory
from nim_evo.engine.boards import legal_mask, move_list
from nim_evo.engine.game import TooLong, play_game
from nim_evo.engine.rules import Move, Rules
from nim_evo.engine.oracle import Oracle
from nim_evo.agents.perfect import PerfectAgent
from nim_evo.games.base import Game
from nim_evo.games.registry import GAME
from nim_evo.games.takeaway import TakeAway
from nim_evo.engine.solver import solve
from nim_evo.engine.space import space_for, tabulable
from nim_evo.evaluation.exact import forfeiting_win_probabilities
from nim_evo.evaluation.opponents import resolve
from nim_evo.validation import (SEED, AgentError, IllegalMove, InstanceOf, Interval, KeywordError, UserError, printable,
                                validate)

OPPONENTS = ("random", "nimsum")  # on Nim; on another game, perfect play under its own name


def opponents_for(rules) -> tuple[str, ...]:
    """The grading opponents of a board: random play and perfect play (named nimsum on Nim)."""
    return OPPONENTS if rules.family == "nim" else ("random", "perfect")
SAMPLED_POSITIONS = 2000  # winning positions asked in a sampled report (accuracy within about ±0.02)
SAMPLED_GAMES = 200  # games per opponent and seat in a sampled report
GAME_MOVES = 10_000  # a sampled game not over after so many moves is left unfinished (piles of 10^12, one at a time)
MIN_BUDGET = 0.001  # seconds: no time at all would ask nothing
BUDGET = 60.0  # seconds of asking the player, at most, in all (a player too slow to ask everywhere in it is sampled)
PROBES = (1, 4, 16, 64)  # positions asked at once first, each time foreseeing how long asking every position takes
SHOWN = 10  # wrong positions listed
MAX_SAMPLE = 1_000_000  # positions or games in a sample, at most
MIN_SAMPLE, MIN_GAMES = 100, 10  # a slow player's sample, sized to the budget, is never smaller
POSITIONS_PER_ASK = 256  # bounds the positions asked of a player at once (a chunk with an illegal move is asked
                         # again position by position)


def grade_player(player: PlayerSpec, rules: Game, *, budget: float = BUDGET, positions: int = SAMPLED_POSITIONS, games: int = SAMPLED_GAMES,
          seed: int = 0) -> Report:
    """Grade ``player`` on ``rules``; see the module.

    Args:
        player: an agent object (a :class:`~nim_evo.agents.player.Player`, a person's agent, a
            course-style player) or a spec as ``--opponents`` takes it (``nimsum``, a learner's
            name, a strategy file, ``module:NAME``).
        budget: seconds of asking the player, at most, in all (see the module).
        positions: how many winning positions the report asks, where it samples.
        games: how many games per seat and opponent the report plays, where it samples.
        seed: the sample's, and the games', seed.

    Raises:
        UserError: a spec that names no player, an object that is no player.
        AgentError: the player's own code raised (named with the position).
    """
    validate({"player": [InstanceOf(str, what="a player's name or spec"), AGENT], "rules": [GAME],
              "budget": [Interval(Real, MIN_BUDGET, None)], "positions": [Interval(Integral, 1, MAX_SAMPLE)],
              "games": [Interval(Integral, 1, MAX_SAMPLE)], "seed": [SEED]},
             {"player": player, "rules": rules, "budget": budget, "positions": positions, "games": games,
              "seed": seed})
    player = resolve(player, rules, seed) if isinstance(player, str) else as_player(player, rules)
    if player.rules != rules:
        raise UserError(f"{player.name} plays {player.rules.name}, not {rules.name}")
    began = time.perf_counter()
    ordered = not is_order_blind(player)
    deadline = Deadline(budget)
    with _quiet(player), deadline.armed():
        asked = Timed(player, deadline)
        if not tabulable(rules, multiset=not ordered):
            why, per_position = f"the board {rules.name} is too big to ask the player at every position", None
        else:
            try:
                return _timed(_exact(asked, rules, ordered, deadline), began)
            except RandomMoves as error:
                why, per_position = str(error), None
            except _TooSlow as error:
                why, per_position = str(error), error.per_position
        if per_position is not None:  # a slow player: a sample sized to what is left of the budget
            left = deadline.left()
            positions = min(positions, max(MIN_SAMPLE, int(left / 2 / per_position)))
            moves = 2 * len(rules.start)  # a rough count of the player's moves in a game
            games = min(games, max(MIN_GAMES, int(left / 2 / (2 * len(opponents_for(rules))) / (per_position * moves))))
        return _timed(_sampled(asked, rules, ordered, why, positions, games, np.random.default_rng(seed), deadline),
                      began)


class _TooSlow(Exception):
    def __init__(self, message: str, per_position: float):
        super().__init__(message)
        self.per_position = per_position


def _timed(report: Report, began: float) -> Report:
    object.__setattr__(report, "seconds", time.perf_counter() - began)
    return report


def _exact(player, rules: Game, ordered: bool, deadline: Deadline) -> Report:
    space = space_for(rules, multiset=not ordered)
    solution = solve(space)
    rows, illegal = _table(player, space, deadline)  # over the rules' moves at each representative
    table = space.merge(rows)  # over the space's moves
    winners = solution.win & ~space.terminal
    right = (table * solution.winning).sum(axis=1)
    misses = np.flatnonzero(winners & (right < 1 - 1e-9))
    misses = misses[np.lexsort((misses, space.totals[misses]))]
    wrong = []
    for i in misses[:SHOWN]:
        position = tuple(map(int, space.positions[i]))
        played = tuple((rules.move_of(int(k)), float(rows[i, k])) for k in np.flatnonzero(rows[i] > 0))
        wrong.append(Wrong(position, played, solution.winning_moves(position)[0], illegal.get(int(i))))
    start = space.index(rules.start)
    rates = {}
    for name in opponents_for(rules):
        values = forfeiting_win_probabilities(space, table, make_agent(name, rules))
        rates[name] = {"first": float(values[start, 0]), "second": float(values[start, 1])}
    weights = space.weights
    judged = int(weights[winners].sum())
    return Report(player.name, rules, True, solution.accuracy(table) if judged else None, judged,
                  int(weights[misses].sum()), int(sum(weights[i] for i in illegal if winners[i])), tuple(wrong), rates,
                  ordered, table=table, space=space)


def _table(player, space, deadline: Deadline) -> tuple[np.ndarray, dict]:
    """The player's rows at every position of ``space`` (over the rules' moves there), a zero
    row where it answered an illegal move (that move, by position index); :class:`_TooSlow`
    if asking them all would outlast ``deadline``, or did; an :class:`AgentError` for a row
    that is no distribution. ``player`` is asked at one position first, then at more at a time
    (a slow player's first answers foresee the rest)."""
    table = np.zeros((space.n_positions, space.rules.n_moves))
    illegal: dict = {}
    began = time.perf_counter()
    done = 1  # the empty board is never asked
    for size in (*PROBES, *[POSITIONS_PER_ASK] * (space.n_positions // POSITIONS_PER_ASK + 1)):
        if done >= space.n_positions:
            break
        rows = slice(done, min(done + size, space.n_positions))
        try:
            try:
                table[rows] = player.move_probabilities(space.positions[rows])
            except IllegalMove:
                for i in range(rows.start, rows.stop):
                    try:
                        table[i] = player.move_probabilities(space.positions[i:i + 1])[0]
                    except IllegalMove as error:
                        illegal[i] = error.answer
        except OutOfTime:  # (it slowed down past the estimate: nothing is left for a sample)
            raise _out_of_time(player, deadline, done - 1, space.n_positions - 1) from None
        _check_rows(player, space, rows, table, illegal)
        done = rows.stop
        per_position = (time.perf_counter() - began) / (done - 1)  # (the empty board is never asked)
        if done < space.n_positions and per_position * (space.n_positions - done) > deadline.left():
            asked = space.n_positions - 1  # (every position but the empty board)
            raise _TooSlow(f"asking {player.name} at all {asked:,} positions would take about "
                           f"{per_position * asked:.0f} s (budget {deadline.seconds:g} s)", per_position)
    return table, illegal


def _check_rows(player, space, rows: slice, table: np.ndarray, illegal: dict) -> None:
    """Rows that put probability on an illegal move become findings (zeroed, the first such
    move recorded); a row with a negative probability, or not summing to 1, is an error."""
    part = table[rows]
    legal = legal_mask(space.rules, space.positions[rows])
    k: int | np.integer
    for k in np.flatnonzero((part * ~legal).any(axis=1)):
        moves = move_list(space.rules)
        bad = int(np.flatnonzero(part[k] * ~legal[k])[0])
        illegal[rows.start + int(k)] = (int(moves[bad, 0]), int(moves[bad, 1]))
        part[k] = 0
    live = part.any(axis=1)
    sums = part.sum(axis=1)
    wrong = live & ((part < 0).any(axis=1) | ~np.isclose(sums, 1.0, atol=1e-6))
    if wrong.any():
        k = int(np.flatnonzero(wrong)[0])
        raise AgentError(f"{player.name} answered probabilities summing to {sums[k]:.6g} at "
                         f"{tuple(map(int, space.positions[rows.start + k]))}, not a distribution over its legal moves")


@contextmanager
def _quiet(player):
    """A person's agent asked without its own slowness warnings (grading keeps its own watch)."""
    if not isinstance(player, Adapted):
        yield
        return
    player.tell_slow = False
    try:
        yield
    finally:
        del player.tell_slow


class GradedPolicy:
    """A graded player as the policy picture reads it (``rules`` and ``policy(space)``): the
    report's own table (a zero row, a losing move in the picture, where it answered an illegal
    move), unfolded from multisets to the ordered board where the picture needs that."""

    def __init__(self, player, report: Report):
        if report.table is None:
            raise UserError(f"{player.name}'s report on {report.rules.name} is sampled: it has no table to picture")
        self.player, self.report, self.rules, self.name = player, report, player.rules, player.name

    def policy(self, space) -> np.ndarray:
        """The graded player's policy table over ``space``'s moves."""
        graded, table = self.report.space, self.report.table
        assert graded is not None and table is not None  # __init__ refused a report without its table
        if space.multiset == graded.multiset:
            return table
        if graded.multiset:
            return space.merge(graded.unfold(space.positions, table[graded.indices(space.positions)]))
        with _quiet(self.player):
            return space.merge(_table(self.player, space, Deadline(float("inf")))[0])


def _sampled(player, rules: Game, ordered: bool, why: str, n: int, games: int, rng: np.random.Generator,
             deadline: Deadline) -> Report:
    """The sampled report: ``n`` winning positions asked within half of what is left of
    ``deadline``, then ``games`` games per opponent and seat, a round of one each at a time,
    within the rest; cut short where the time runs out, and said."""
    oracle = Oracle(rules, "grading")  # (the theory, or the solved board: perfect play's, made once)
    sample = _winning_sample(oracle, n, rng)
    hits, wrong, illegal, asked = 0, [], 0, 0
    half = time.monotonic() + deadline.left() / 2
    for piles in map(tuple, sample.tolist()):
        if time.monotonic() >= half and asked:
            break
        try:
            move = player.move(piles, rng)
        except IllegalMove as error:
            illegal += 1
            wrong.append((piles, None, error.answer))
            asked += 1
            continue
        except OutOfTime:
            break
        asked += 1
        if oracle.wins(np.array([rules.apply(piles, move)], dtype=np.int64))[0]:
            wrong.append((piles, move, None))
        else:
            hits += 1
    if not asked:
        raise _out_of_time(player, deadline, 0, n)
    first = sorted({piles: (piles, move, bad) for piles, move, bad in wrong}.values(),
                   key=lambda w: (sum(w[0]), w[0]))  # each position once (a sample may draw one twice)
    shown = tuple(Wrong(piles, () if move is None else ((move, 1.0),), _first_winning(rules, piles), bad)
                  for piles, move, bad in first[:SHOWN])
    seats = [(name, seat) for name in opponents_for(rules) for seat in ("first", "second")]
    outcomes: dict = {key: [] for key in seats}
    opponents = {name: make_agent(name, rules) for name in opponents_for(rules)}
    try:
        for _ in range(games):
            for name, seat in seats:
                outcomes[name, seat].append(_game_won(rules, player, opponents[name], 0 if seat == "first" else 1, rng))
    except OutOfTime:
        pass
    rates: dict = {name: {} for name in opponents}
    margin, unfinished = 0.0, 0
    for (name, seat), results in outcomes.items():
        finished = [won for won in results if won is not None]
        unfinished += len(results) - len(finished)
        rates[name][seat] = sum(finished) / len(finished) if finished else None
        margin = max(margin, _margin(sum(finished), len(finished)))
    played = min(len(results) for results in outcomes.values())
    cut = None
    if asked < n or played < games:
        cut = (f"the budget of {deadline.seconds:g} s ran out: {asked:,} of {n:,} positions asked, "
               f"{played:,} of {games:,} games a seat played")
    return Report(player.name, rules, False, hits / asked, asked, len(wrong), illegal, shown, rates, ordered,
                  margin=_margin(hits, asked), games=played, rates_margin=margin, unfinished=unfinished,
                  sampled_because=why, cut_short=cut)


def _out_of_time(player, deadline: Deadline, asked: int, positions: int) -> KeywordError:
    """The budget ran out with nothing to report: no position answered, or not all of them
    where every one was to be asked."""
    said = (f"{printable(player.name)} answered no position within the budget of {deadline.seconds:g} s" if not asked
            else f"the budget of {deadline.seconds:g} s ran out after {printable(player.name)} answered {asked:,} of "
                 f"{positions:,} positions")
    return KeywordError(f"{said}; [[pass a bigger budget|give it more with --budget]]")


def _first_winning(rules: Game, piles) -> Move:
    """The first winning move of a winning position (Nim's closed forms; another game's theory
    or solved board)."""
    moves = nimtheory.winning_moves(rules, piles) if isinstance(rules, Rules) else PerfectAgent(rules).winning_moves(piles)
    assert moves is not None  # the closed forms answer every variant of Nim
    return moves[0]


def _winning_sample(oracle: Oracle, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` positions drawn uniformly from the board's winning positions (rejection), as the
    ``oracle`` judges them: on a board that is not a box, from the positions of heaps at most
    the start's, some of them beyond the start's reach (positions of the game all the same,
    where the family's theory judges them)."""
    rules = oracle.game
    found, kept, tries = [], 0, 0
    while kept < n:
        draw = rng.integers(0, np.array(rules.start, dtype=np.int64) + 1, size=(4 * n, len(rules.start)))
        draw = draw[rules.count_takes_of(draw).any(axis=1)] if isinstance(rules, TakeAway) else \
            draw[rules.legal_mask(draw).any(axis=1)]
        draw = draw[oracle.knows(draw)]
        draw = draw[oracle.wins(draw)]
        found.append(draw)
        kept += len(draw)
        tries += 1
        if tries > 100 and not kept:
            raise UserError(f"no winning position found on {rules.name} in {tries * 4 * n:,} draws")
    return np.concatenate(found)[:n]


def _game_won(rules: Game, player, opponent, seat: int, rng: np.random.Generator) -> bool | None:
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
