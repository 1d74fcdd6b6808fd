"""The conformance suite: every face of a player gives its one answer, at every position.

In the spirit of OpenSpiel's ``games_sim_test`` and scikit-learn's ``check_estimator``:
:func:`check_player` puts any player (a built-in agent, a learner, a genome, a strategy file
read back, a person's own duck-typed agent) through the same checks at EVERY non-empty
position of a board's ordered space:

=================  ============================================================================
``rows``           ``move_probabilities`` over all positions at once: the shape of the board's
                   move list, legal moves only, each row summing to 1
``one at a time``  the same rows asked one position at a time
``distribution``   legal moves, probabilities summing to 1, equal to the row
``policy``         ``policy(ordered space)`` equal to the rows
``move``           a drawn move lies in the row's support; at a few positions where the player
                   is random, 1,000 draws match the probabilities (within 5 sigma)
``choose``         the batched draw (games on pile arrays) likewise
``multisets``      for an order-blind player, ``policy(multiset space)`` at the multiset of every
                   position equals that position's row with equal piles' moves added up
``pickle``         a pickled copy (what a joblib worker receives) answers the same rows
=================  ============================================================================

A person's agent is checked through its own methods where it has them (its own ``move``
against its own ``distribution``, say). A failed check raises :class:`ConformanceError` (an
``AssertionError``) listing what failed where; otherwise a :class:`Report` says what was
checked, and notes what it saw (an undeclared player that chooses by pile sizes alone may
declare ``order_blind = True``).
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field

import numpy as np

from nim_evo.games.base import Game
from nim_evo.agents.player import is_order_blind, name_of
from nim_evo.annotations import AgentObject
from nim_evo.agents.protocol import AGENT, as_player
from nim_evo.games.registry import GAME
from nim_evo.engine.space import space_for, space_size
from nim_evo.validation import SEED, UserError, validate

MAX_POSITIONS = 20_000  # every position is asked on its own: boards of up to this many positions
TOLERANCE = 1e-9
DRAWS, SAMPLED_POSITIONS, SIGMAS = 1000, 3, 5.0


class ConformanceError(AssertionError):
    """A player whose faces do not give one answer: every failed check, one line each."""


@dataclass
class Report:
    """What :func:`check_player` checked: positions per check, and what it noted."""

    player: str
    rules: Game
    positions: int
    order_blind: bool
    checks: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        checks = ", ".join(f"{name} {count}" for name, count in self.checks.items())
        notes = "".join(f"\n  note: {note}" for note in self.notes)
        return f"{self.player} on {self.rules.name}: {self.positions} positions; checked {checks}{notes}"


def check_player(player: AgentObject, rules: Game | None = None, *, seed: int = 0) -> Report:
    """Check that every face of ``player`` gives its one answer at every position of ``rules``
    (the player's own rules by default); see the module. Returns a :class:`Report`; raises
    :class:`ConformanceError` listing the failures, or a one-line ``UserError`` for a board too
    big to check position by position."""
    validate({"player": [AGENT], "rules": [None, GAME], "seed": [SEED]},
             {"player": player, "rules": rules, "seed": seed})
    wrapped = as_player(player, rules)
    rules = rules or wrapped.rules
    if space_size(rules) > MAX_POSITIONS:
        raise UserError(f"{rules.name} has {space_size(rules):,} positions; check_player asks each on its own, "
                        f"on boards of at most {MAX_POSITIONS:,}")
    checker = _Checker(player, wrapped, rules, np.random.default_rng(seed))
    checker.run()
    if checker.failures:
        shown = checker.failures[:20]
        more = len(checker.failures) - len(shown)
        raise ConformanceError(f"{name_of(wrapped)} on {rules.name}: {len(checker.failures)} failed checks\n  "
                               + "\n  ".join(shown) + (f"\n  ... and {more} more" if more else ""))
    return checker.report


class _Checker:
    def __init__(self, raw, player, rules: Game, rng: np.random.Generator):
        self.raw, self.player, self.rules, self.rng = raw, player, rules, rng
        self.space = space_for(rules)
        self.moves = self.space.moves
        self.failures: list[str] = []
        self.playing = [int(i) for i in np.flatnonzero(~self.space.terminal)]  # positions with a move
        self.report = Report(name_of(player), rules, len(self.playing), is_order_blind(player))

    def face(self, name: str):
        """The raw agent's own method where it has one, else the player's (derived) one."""
        own = getattr(self.raw, name, None)
        return own if callable(own) else getattr(self.player, name)

    def fail(self, check: str, message: str) -> None:
        self.failures.append(f"{check}: {message}")

    def run(self) -> None:
        rows = self.attempt("rows", self.check_rows)
        if rows is None:
            return
        for check in (self.check_one_at_a_time, self.check_distribution, self.check_policy, self.check_move,
                      self.check_choose, self.check_frequencies, self.check_multisets, self.check_pickle):
            self.attempt(check.__name__.removeprefix("check_").replace("_", " "), check, rows)
        if not self.report.order_blind:  # (only asked whether it could declare itself)
            self.report.checks.pop("multisets", None)

    def attempt(self, check: str, function, *args):
        before = len(self.failures)
        try:
            result = function(*args)
        except Exception as error:  # a check that cannot run is a failure of it, named
            self.fail(check, f"{type(error).__name__}: {error}")
            return None
        if len(self.failures) == before and check not in self.report.checks:
            self.report.checks[check] = self.report.positions
        return result

    # -- the checks -----------------------------------------------------------------------

    def check_rows(self) -> np.ndarray | None:
        space = self.space
        rows = np.asarray(self.player.move_probabilities(space.positions), dtype=float)
        if rows.shape != (space.n_positions, space.n_moves):
            self.fail("rows", f"shape {rows.shape}, expected {(space.n_positions, space.n_moves)}")
            return None
        for index in range(space.n_positions):
            row, position = rows[index], space.position(index)
            if space.terminal[index]:
                if np.any(row != 0):
                    self.fail("rows", f"{position}: the row of a position without a move is not zero")
            elif np.any(row < -TOLERANCE) or np.any(row[~space.legal[index]] > TOLERANCE):
                self.fail("rows", f"{position}: probability on an illegal move or below 0")
            elif abs(row.sum() - 1) > TOLERANCE:
                self.fail("rows", f"{position}: the row sums to {row.sum():.12g}")
        return rows

    def check_one_at_a_time(self, rows: np.ndarray) -> None:
        for index in self.playing:
            one = self.player.move_probabilities(self.space.positions[index:index + 1])[0]
            if not np.allclose(one, rows[index], atol=TOLERANCE):
                self.fail("one at a time", f"{self.space.position(index)}: {self._moves(one)} alone, "
                                           f"{self._moves(rows[index])} in the batch")

    def check_distribution(self, rows: np.ndarray) -> None:
        distribution = self.face("distribution")
        for index in self.playing:
            position = self.space.position(index)
            got = np.zeros(self.space.n_moves)
            for move, p in distribution(position):
                if not self.rules.is_legal(position, _word(move)):
                    self.fail("distribution", f"{position}: the illegal move {_word(move)}")
                    break
                got[self.rules.action_of(_word(move))] += p
            else:
                if not np.allclose(got, rows[index], atol=TOLERANCE):
                    self.fail("distribution", f"{position}: {self._moves(got)}, the row {self._moves(rows[index])}")

    def check_policy(self, rows: np.ndarray) -> None:
        table = self._table(self.space)
        bad = np.flatnonzero(~np.isclose(table, rows, atol=TOLERANCE).all(axis=1))
        for index in bad[:5]:
            self.fail("policy", f"{self.space.position(int(index))}: {self._moves(table[index])}, the row "
                                f"{self._moves(rows[index])}")

    def check_move(self, rows: np.ndarray) -> None:
        move = self.face("move")
        for index in self.playing:
            position = self.space.position(index)
            played = _word(move(position, self.rng))
            k = self._index(played)
            if k is None or rows[index, k] <= 0:
                self.fail("move", f"{position}: played {played}, outside the row {self._moves(rows[index])}")

    def check_choose(self, rows: np.ndarray) -> None:
        playing = np.array(self.playing, dtype=np.int64)
        chosen = np.asarray(self.player.choose(self.space.positions[playing], self.rng))
        outside = np.flatnonzero(rows[playing, chosen] <= 0)
        for i in outside[:5]:
            self.fail("choose", f"{self.space.position(int(playing[i]))}: chose {self._move(chosen[i])}, outside the "
                                f"row {self._moves(rows[playing[i]])}")

    def check_frequencies(self, rows: np.ndarray) -> None:
        """Where the player is random, its draws (``move`` one at a time, ``choose`` in a batch)
        follow the row: each move's count within 5 sigma of its expectation."""
        random_at = np.flatnonzero((rows > TOLERANCE).sum(axis=1) > 1)[:SAMPLED_POSITIONS]
        move = self.face("move")
        for index in random_at:
            position = self.space.position(int(index))
            # None where the answer is no move: bincount's TypeError is then the check's failure
            drawn: list = [self._index(_word(move(position, self.rng))) for _ in range(DRAWS)]
            self._compare("frequencies of move", position, np.bincount(drawn, minlength=self.space.n_moves), rows[index])
            batch = np.repeat(self.space.positions[index:index + 1], DRAWS, axis=0)
            chosen = np.asarray(self.player.choose(batch, self.rng))
            self._compare("frequencies of choose", position, np.bincount(chosen, minlength=self.space.n_moves),
                          rows[index])

    def check_multisets(self, rows: np.ndarray) -> None:
        """An order-blind player's table over multisets is every arrangement's row, equal piles
        merged; an undeclared one is told if it could declare itself."""
        multisets = space_for(self.rules, multiset=True)
        merged = np.zeros((self.space.n_positions, multisets.n_moves))
        index = multisets.indices(self.space.positions)
        for i in self.playing:
            position = self.space.position(i)
            for k in np.flatnonzero(rows[i] > 0):
                merged[i, multisets.move_index_at(position, self._move(k))] += rows[i, k]
        if not self.report.order_blind:
            first: dict[int, int] = {}
            blind = all(np.allclose(merged[i], merged[first.setdefault(index[i], i)], atol=TOLERANCE)
                        for i in self.playing)
            if blind:
                self.report.notes.append(f"it chooses by pile sizes alone at every position of {self.rules.name}: it "
                                         "may declare order_blind = True, and be judged over multisets")
            return
        table = self._table(multisets)
        bad = np.flatnonzero(~np.isclose(table[index], merged, atol=TOLERANCE).all(axis=1))
        for i in bad[:5]:
            self.fail("multisets", f"{self.space.position(int(i))}: merged {self._moves(merged[i], multisets)}, over "
                                   f"multisets {self._moves(table[index[i]], multisets)}")

    def check_pickle(self, rows: np.ndarray) -> None:
        try:
            copy = pickle.loads(pickle.dumps(self.raw))
        except Exception as error:  # not a failure: it plays, but only in this process
            self.report.notes.append(f"it does not pickle ({type(error).__name__}): it cannot play in worker processes")
            return
        again = as_player(copy, self.rules).move_probabilities(self.space.positions)
        if not np.allclose(again, rows, atol=TOLERANCE):
            self.fail("pickle", "a pickled copy answers other rows")

    # -- helpers --------------------------------------------------------------------------

    def _compare(self, check: str, position, counts: np.ndarray, row: np.ndarray) -> None:
        expected = DRAWS * row
        sigma = np.sqrt(DRAWS * row * (1 - row))
        off = np.flatnonzero(np.abs(counts - expected) > SIGMAS * sigma + 1)
        if len(off):
            k = int(off[0])
            self.fail(check, f"{position}: {self._move(k)} drawn {int(counts[k])} times of {DRAWS}, "
                             f"expected {expected[k]:.1f}")

    def _table(self, space) -> np.ndarray:
        """The policy face's table over ``space`` (a move array, one-hot)."""
        table = np.asarray(self.face("policy")(space), dtype=float)
        if table.ndim == 1:
            table = np.eye(space.n_moves)[table.astype(int)] * ~space.terminal[:, None]
        return table

    def _move(self, k):
        return self.rules.move_of(int(k))

    def _index(self, move) -> int | None:
        try:
            return self.rules.action_of(move)
        except (UserError, TypeError, ValueError):
            return None

    def _moves(self, row: np.ndarray, space=None) -> str:
        return "{" + ", ".join(f"{self.rules.move_of(int(k))}: {row[k]:.4g}" for k in np.flatnonzero(row > 1e-12)[:6]) \
            + "}"


def _word(move):
    """A move as the game reads it: a pair as a tuple (an agent may answer a list or an
    array), anything else as it is."""
    try:
        return tuple(move) if len(move) == 2 else move
    except TypeError:
        return move
