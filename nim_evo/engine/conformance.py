"""The game conformance suite: every view of a game gives its one rule's answer, at every position.

In the spirit of OpenSpiel's ``games_sim_test`` (every registered game through one test) and
of :func:`~nim_evo.agents.conformance.check_player`: :func:`check_game` puts any game, a
built-in family's board or a package's, through the same checks at EVERY position its start
reaches (found by search, by the rule alone):

==================  ===========================================================================
``name``            the name parses back to an equal game; the JSON form (a ``"game"`` key)
                    reads back to it; a pickled copy is equal, with the same hash
``alphabet``        at least one action; labels distinct, each read back to its action; each
                    action's move read back to it
``views``           legal actions, the position an action leads to, an illegal action refused,
                    the game over exactly where no action is legal, a random action drawn
                    as ``legal_actions[rng.integers(count)]``, the games over in arrays
                    (``over_mask``), one action per position in arrays (``step``); the same
                    in the family's own words (``move_of``)
``order``           every legal action lowers the retrograde order
``box``             a family that says its board is a box reaches exactly the box
``interchangeable`` positions of one multiset of heaps lead to the same multisets
``solver``          the solver over multisets agrees with the ordered one; the family's theory
                    (where it has one) agrees with the solver
``fast paths``      the space the engine builds for the game (a take-away box's, counted)
                    holds the same positions, moves, transitions and weights as the search
==================  ===========================================================================

A failed check raises :class:`ConformanceError` (an ``AssertionError``) listing what failed
where; otherwise a :class:`GameReport` says what was checked.
"""

from __future__ import annotations

import itertools
import json
import pickle
from dataclasses import dataclass, field

import numpy as np

from nim_evo.engine.search import SearchedSpace
from nim_evo.engine.sizes import SpaceTooLarge
from nim_evo.engine.solver import solve
from nim_evo.engine.space import space_for
from nim_evo.games.base import Game
from nim_evo.games.registry import GAME, game as game_named, game_from_json
from nim_evo.validation import SEED, UserError, validate

MAX_POSITIONS = 20_000  # every position is asked on its own: boards of up to this many positions


class ConformanceError(AssertionError):
    """A game whose views do not give its rule's answer: every failed check, one line each."""


@dataclass
class GameReport:
    """What :func:`check_game` checked: positions per check, and what it noted."""

    game: Game
    positions: int
    checks: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        checks = ", ".join(f"{name} {count}" for name, count in self.checks.items())
        notes = "".join(f"\n  note: {note}" for note in self.notes)
        return f"{self.game.name}: {self.positions} positions; checked {checks}{notes}"


def check_game(game: Game, *, seed: int = 0) -> GameReport:
    """Check every view of ``game`` against its rule at every position its start reaches (see
    the module). Returns a :class:`GameReport`; raises :class:`ConformanceError` listing the
    failures, or a one-line :class:`UserError` for a board too big to check position by position."""
    validate({"game": [GAME], "seed": [SEED]}, {"game": game, "seed": seed})
    try:
        space = SearchedSpace(game, MAX_POSITIONS)
    except SpaceTooLarge:
        raise UserError(f"{game.name} has more than {MAX_POSITIONS:,} positions; check_game asks each on its own, "
                        "on boards of at most that many") from None
    checker = _Checker(game, space, np.random.default_rng(seed))
    checker.run()
    if checker.failures:
        shown = checker.failures[:20]
        more = len(checker.failures) - len(shown)
        raise ConformanceError(f"{game.name}: {len(checker.failures)} failed checks\n  " + "\n  ".join(shown)
                               + (f"\n  ... and {more} more" if more else ""))
    return checker.report


class _Checker:
    def __init__(self, game: Game, space: SearchedSpace, rng: np.random.Generator):
        self.game, self.space, self.rng = game, space, rng
        self.children, self.legal = game.successors(space.positions)
        self.failures: list[str] = []
        self.report = GameReport(game, space.n_positions)

    def fail(self, check: str, message: str) -> None:
        self.failures.append(f"{check}: {message}")

    def run(self) -> None:
        checks = [self.check_name, self.check_alphabet, self.check_views, self.check_order, self.check_box]
        if self.game.interchangeable:
            checks.append(self.check_interchangeable)
        checks += [self.check_solver, self.check_fast_paths]
        for check in checks:
            name = check.__name__.removeprefix("check_").replace("_", " ")
            before = len(self.failures)
            try:
                counted = check()
            except Exception as error:  # a check that cannot run is a failure of it, named
                self.fail(name, f"{type(error).__name__}: {error}")
                continue
            if len(self.failures) == before:
                self.report.checks[name] = self.space.n_positions if counted is None else counted

    # -- the checks -------------------------------------------------------------------------

    def check_name(self) -> int:
        game = self.game
        if game_named(game.name) != game:
            self.fail("name", f"{game.name!r} parses to {game_named(game.name)!r}, not to the game")
        data = json.loads(json.dumps(game.to_json()))
        if data.get("game") != game.name:
            self.fail("name", f"the JSON form {data} has no \"game\" key holding the name")
        elif game_from_json(data) != game:
            self.fail("name", f"the JSON form {data} reads back as {game_from_json(data)!r}")
        copy = pickle.loads(pickle.dumps(game))
        if copy != game or hash(copy) != hash(game):
            self.fail("name", "a pickled copy is not equal to the game, or hashes otherwise")
        return 1

    def check_alphabet(self) -> int:
        game = self.game
        for action in range(game.n_actions):
            if game.action_of(game.move_of(action)) != action:
                self.fail("alphabet", f"action {action}'s move {game.move_of(action)!r} reads back as another action")
        if game.n_actions < 1:
            self.fail("alphabet", "the board has no action")
        labels = [game.action_label(a) for a in range(game.n_actions)]
        if len(set(labels)) != len(labels):
            self.fail("alphabet", f"two actions share a label: {sorted(label for label in labels if labels.count(label) > 1)[:2]}")
        for action, label in enumerate(labels):
            if game.parse_action(label) != action:
                self.fail("alphabet", f"the label {label!r} of action {action} reads back as {game.parse_action(label)}")
        return game.n_actions

    def check_views(self) -> None:
        game, space = self.game, self.space
        over = np.asarray(game.over_mask(space.positions.astype(np.int64)))
        for index in np.flatnonzero(over != ~self.legal.any(axis=1))[:3]:
            self.fail("views", f"over_mask at {tuple(space.positions[index].tolist())} is {bool(over[index])}, "
                               f"the rule has {int(self.legal[index].sum())} legal actions")
        self._check_step()
        for index, position in enumerate(map(tuple, space.positions.tolist())):
            legal = [int(a) for a in np.flatnonzero(self.legal[index])]
            where = f"at {position}"
            if game.legal_actions(position) != legal:
                self.fail("views", f"legal_actions {where} is {game.legal_actions(position)}, the rule says {legal}")
            if game.is_over(position) != (not legal):
                self.fail("views", f"is_over {where} is {game.is_over(position)}, the rule has {len(legal)} legal actions")
            for action in legal:
                child = tuple(int(v) for v in self.children[index, action])
                if game.apply_action(position, action) != child:
                    self.fail("views", f"action {action} {where} leads to {game.apply_action(position, action)}, "
                                       f"the rule says {child}")
                if game.apply(position, game.move_of(action)) != child:
                    self.fail("views", f"move {game.move_of(action)} {where} leads to "
                                       f"{game.apply(position, game.move_of(action))}, the rule says {child}")
            illegal = next((a for a in range(game.n_actions) if not self.legal[index, a]), None)
            if illegal is not None and game.is_legal_action(position, illegal):
                self.fail("views", f"is_legal_action {where} accepts action {illegal}, which the rule refuses")
            self._check_draw("random_action", game.random_action, position, legal)
            self._check_moves(position, legal)

    def _check_step(self) -> None:
        """``step`` at every position under every action (and two outside the alphabet) is the rule's."""
        game, positions = self.game, self.space.positions.astype(np.int64)
        k, n = len(positions), game.n_actions
        actions = np.concatenate([np.repeat(np.arange(-1, n + 1), k)])
        rows = np.tile(np.arange(k), n + 2)
        children, legal = game.step(positions[rows], actions)
        inside = (actions >= 0) & (actions < n)
        want_legal = np.zeros(len(rows), dtype=bool)
        want_legal[inside] = self.legal[rows[inside], actions[inside]]
        want = positions[rows].copy()
        want[want_legal] = self.children[rows[want_legal], actions[want_legal]]
        for index in np.flatnonzero((legal != want_legal) | (children != want).any(axis=1))[:3]:
            self.fail("views", f"step at {tuple(positions[rows[index]].tolist())} under action {int(actions[index])} "
                               f"gives {tuple(children[index].tolist())} ({'legal' if legal[index] else 'illegal'}); "
                               f"the rule says {tuple(want[index].tolist())} "
                               f"({'legal' if want_legal[index] else 'illegal'})")

    def _check_draw(self, name: str, draw, position, listed: list) -> None:
        """``draw(position, rng)`` is ``listed[rng.integers(len(listed))]`` with the same seed."""
        if not listed:
            return
        seed = int(self.rng.integers(2**32))
        drawn = draw(position, np.random.default_rng(seed))
        if drawn != listed[int(np.random.default_rng(seed).integers(len(listed)))]:
            self.fail("views", f"{name} at {position} drew {drawn}, not the listed one rng.integers(count) picks")

    def _check_moves(self, position, legal: list[int]) -> None:
        game = self.game
        move_of = game.move_of
        moves = [move_of(a) for a in legal]
        if game.legal_moves(position) != moves:
            self.fail("views", f"legal_moves at {position} is {game.legal_moves(position)}, the rule says {moves}")
        if game.count_moves(position) != len(moves):
            self.fail("views", f"count_moves at {position} is {game.count_moves(position)}, the rule says {len(moves)}")
        self._check_draw("random_move", game.random_move, position, moves)
        for action in range(game.n_actions):
            if game.is_legal(position, move_of(action)) != (action in legal):
                self.fail("views", f"is_legal at {position} says {not action in legal} of {move_of(action)}")

    def check_order(self) -> None:
        space = self.space
        rows, actions = np.nonzero(self.legal)
        before = self.game.order(space.positions)[rows]
        after = self.game.order(self.children[rows, actions])
        for k in np.flatnonzero(after >= before)[:3]:
            self.fail("order", f"action {actions[k]} at {tuple(space.positions[rows[k]].tolist())} leads to "
                               f"{tuple(self.children[rows[k], actions[k]].tolist())}, whose order is not lower")

    def check_box(self) -> int:
        if not self.game.box:
            return 0
        box = np.array(list(itertools.product(*(range(n + 1) for n in self.game.start))), dtype=np.int64)
        outside = self.space.indices(box) < 0
        if outside.any() or len(box) != self.space.n_positions:
            self.fail("box", f"the board says it is a box of {len(box):,} positions; the search reaches "
                             f"{self.space.n_positions:,}" + (f", not {tuple(box[outside][0])}" if outside.any() else ""))
        return len(box)

    def check_interchangeable(self) -> None:
        game, space = self.game, self.space
        multisets = SearchedSpace(game, MAX_POSITIONS, multiset=True)
        group = multisets.indices(space.positions)
        reached = np.where(self.legal, multisets.indices(self.children.reshape(-1, game.width)).reshape(self.legal.shape),
                           -1)
        reached.sort(axis=1)
        first: dict[int, int] = {}
        for index, (g, row) in enumerate(zip(group.tolist(), reached)):
            known = first.setdefault(g, index)
            if known != index and not np.array_equal(reached[known], row):
                self.fail("interchangeable", f"{tuple(space.positions[known])} and {tuple(space.positions[index])} "
                                             "hold the same heaps but lead to different multisets")

    def check_solver(self) -> None:
        game, space = self.game, self.space
        ordered = solve(space)
        if game.interchangeable:
            multisets = SearchedSpace(game, MAX_POSITIONS, multiset=True)
            verdict = solve(multisets).win[multisets.indices(space.positions)]
            for index in np.flatnonzero(verdict != ordered.win)[:3]:
                self.fail("solver", f"at {tuple(space.positions[index])} the multiset space says win {verdict[index]}, "
                                    f"the ordered one {ordered.win[index]}")
        theory = game.theory_wins(space.positions)
        if theory is None:
            self.report.notes.append(f"{game.name} has no theory here: the solved space is the truth")
            return
        for index in np.flatnonzero(np.asarray(theory) != ordered.win)[:3]:
            self.fail("solver", f"at {tuple(space.positions[index])} the theory says win {bool(theory[index])}, "
                                f"the solver {ordered.win[index]}")

    def check_fast_paths(self) -> int:
        checked = 0
        for multiset in (False, True) if self.game.interchangeable else (False,):
            built = space_for(self.game, multiset=multiset)
            if isinstance(built, SearchedSpace):
                continue  # the engine searches this game: nothing kept apart to hold
            searched = SearchedSpace(self.game, MAX_POSITIONS, multiset=multiset)
            self._same_space(built, searched, "multisets" if multiset else "positions")
            checked += built.n_positions
        return checked

    def _same_space(self, built, searched: SearchedSpace, what: str) -> None:
        where = searched.indices(built.positions)
        if built.n_positions != searched.n_positions or (where < 0).any():
            self.fail("fast paths", f"the engine's space holds {built.n_positions:,} {what}, the search "
                                    f"{searched.n_positions:,}")
            return
        reached = np.where(built.next >= 0, where[np.maximum(built.next, 0)], -1)
        for name, mine, theirs in [("legal", built.legal, searched.legal[where]),
                                   ("next", reached, searched.next[where]),
                                   ("multiplicity", built.multiplicity, searched.multiplicity[where]),
                                   ("columns", built.columns, searched.columns[where]),
                                   ("weights", built.weights, searched.weights[where]),
                                   ("win", solve(built).win, solve(searched).win[where])]:
            if not np.array_equal(mine, theirs):
                self.fail("fast paths", f"the engine's {what} differ from the search's in {name}")
