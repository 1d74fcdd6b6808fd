"""The learner base and its training loop: what every learner shares but its play and its report.

A learner keeps its state as arrays over the enumerated space of its rules (position x
move, the engine's stable move order). :meth:`Learner.train` plays ``episodes`` games by
self-play, or against an opponent from a chosen seat, with an explicit
``numpy.random.Generator``; after each game the learner's :meth:`~Learner.update` sees the
whole record. For the per-move (TD) learner this is the same as updating after each move:
positions strictly shrink, so no position recurs within a game and an update made during
the game could not change any later choice or target of that game.

Once trained a learner plays by its rows (:mod:`nim_evo.learners.policy`) and reports its
answers against the solver (:mod:`nim_evo.learners.report`); its parameters are a frozen
dataclass checked when it is built (:mod:`nim_evo.learners.parameters`).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from nim_evo.agents.player import is_order_blind, name_of
from nim_evo.agents.protocol import compiled
from nim_evo.agents.registry import make_agent
from nim_evo.engine.game import GameRecord
from nim_evo.engine.policy import as_table
from nim_evo.games.base import Game
from nim_evo.engine.space import Space, enumerable, space_for, space_size
from nim_evo.learners.parameters import LearnerParameters
from nim_evo.learners.policy import LearnedPolicy
from nim_evo.learners.report import report
from nim_evo.validation import EPISODES, KeywordError, UserError, check

SEATS = ("alternate", "first", "second", "loser")
MAX_LEARNER_CELLS = 2_000_000  # positions x moves: a learner's table (and its JSON file) stays in the megabytes


class Learner(LearnedPolicy):
    """Base of the learners. Subclasses set ``name``, ``Parameters`` (a
    :class:`~nim_evo.learners.parameters.LearnerParameters` dataclass: each parameter with its
    type and the source write-up's value, and its ``check`` of ranges), ``episodes`` (its
    training budget) and ``state_names``, and define :meth:`explore` (its move while
    training), :meth:`update` and :meth:`values`.

    Every learner also takes ``symmetry``: learn over multisets of pile sizes
    (:mod:`nim_evo.engine.multiset`), one entry for every arrangement of the same piles, as
    Kintner-Meyer's Q-learning report did by sorting the piles after each move. Its default is
    the ``Parameters``' (True where the source write-up did it); a symmetric learner plays a
    concrete position by the multiset's move on the first pile of the size it takes from."""

    name = "learner"
    source = ""  # the write-up it comes from, by its short name (docs/explanation/references.md)
    algorithm = 1  # bump when an update or choice rule changes: cached learners are then retrained
    Parameters: ClassVar[type[LearnerParameters]] = LearnerParameters
    params: LearnerParameters
    episodes = 1000
    state_names: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        former = [name for name in ("defaults", "symmetric", "check_params") if name in vars(cls)]
        if former:  # how learners declared (and checked) parameters before
            raise TypeError(f"{cls.__name__}: declare its parameters as a LearnerParameters dataclass "
                            f"(Parameters = ...; symmetry's default and the checks in its check()), not as "
                            f"{' or '.join(former)}")

    @classmethod
    def parameters(cls) -> dict:
        """Every parameter with its default: the learner's own, then ``symmetry``."""
        return cls.Parameters.defaults()

    def __init__(self, rules: Game, stochastic: bool = False, **params):
        super().__init__(rules)
        self.params = self.Parameters.of(self.name, params)
        self.stochastic = bool(stochastic)
        _check_board(rules, self.params.symmetry)
        self.space = space_for(rules, multiset=self.params.symmetry)
        self.games_played = 0
        self.training: list[dict] = []  # one entry per train() call: episodes, opponent, seat
        self.reset()

    # -- to define ---------------------------------------------------------------------

    def check_state(self) -> None:
        """Raise ``ValueError`` (one line) for state values out of range (a loaded file)."""

    def reset(self) -> None:
        """Create the untrained state arrays (deterministic; see :meth:`initialise`)."""

    def initialise(self, rng: np.random.Generator) -> None:
        """Draw random initial values, if the learner has any (before its first game)."""

    def begin_episode(self) -> None:
        """Set per-game values (an epsilon from a schedule) before a training game."""

    def end_episode(self) -> None:
        """Decay rates after a training game."""

    def explore(self, position: int, legal: np.ndarray, uniforms: Uniforms) -> int:
        """The move index to play at ``position`` while training (``legal``: its legal
        moves), drawing from ``uniforms.random()``."""
        raise NotImplementedError

    def update(self, positions: np.ndarray, moves: np.ndarray, winner: int, seats: tuple[int, ...]) -> None:
        """Learn from one game: position and move indices in order (seat 0 moved first),
        the winning seat, and the seats this learner played."""
        raise NotImplementedError

    # -- training ----------------------------------------------------------------------

    def train(self, episodes: int, rng: np.random.Generator, opponent=None, seat: str = "alternate",
              progress=None) -> np.ndarray:
        """Play ``episodes`` training games and learn from each.

        Args:
            rng: the only source of randomness (the learner's and the opponent's).
            opponent: None for self-play (both seats learn), else an agent, an agent name
                or a policy table; only the learner's seat learns (except where a learner
                learns from the whole record, as that of Moore's NIM Rules does).
            seat: against an opponent, where the learner sits: ``alternate`` (first in even
                games), ``first``, ``second``, or ``loser`` (the previous game's loser
                starts, as the seeds' training loops did by not resetting the turn).
            progress: called with the number of games played so far, every 1% or so.
        Returns:
            ``bool[episodes]``: whether the learner won each game (self-play: the first seat).
        """
        check("episodes", episodes, [EPISODES])
        if seat not in SEATS:
            raise UserError(f"unknown seat {seat!r}; choose from {', '.join(SEATS)}")
        if episodes == 0:
            return np.zeros(0, dtype=bool)
        space = self.space
        legal_of = _legal_lists(space)
        cumulative = None if opponent is None else _cumulative(opponent, self.rules, space)
        last = None if cumulative is None else (cumulative < cumulative[:, -1:]).sum(axis=1)  # last move of mass
        if self.games_played == 0:
            self.initialise(rng)
        uniforms = Uniforms(rng)
        won = np.zeros(episodes, dtype=bool)
        first = seat != "second"
        every = max(1, episodes // 100)
        seats: tuple[int, ...]
        for episode in range(episodes):
            if opponent is None:
                seats = (0, 1)
            else:
                if seat == "alternate":
                    first = episode % 2 == 0
                seats = (0,) if first else (1,)
            self.begin_episode()
            positions, moves, winner = self._game(seats, legal_of, cumulative, last, uniforms)
            self.update(positions, moves, winner, seats)
            self.games_played += 1
            self.end_episode()
            won[episode] = winner == seats[0]
            if seat == "loser" and opponent is not None:
                first = not won[episode]
            if progress is not None and ((episode + 1) % every == 0 or episode + 1 == episodes):
                progress(episode + 1)
        self.training.append({"episodes": int(episodes), "opponent": _describe(opponent),
                              "seat": "self-play" if opponent is None else seat})
        return won

    def _game(self, seats: tuple[int, ...], legal_of: list[np.ndarray], cumulative: np.ndarray | None,
              last: np.ndarray | None, uniforms: Uniforms) -> tuple[np.ndarray, np.ndarray, int]:
        """One training game: the learner explores at ``seats``, the opponent (``cumulative``,
        its rows of cumulative move probabilities) plays the other; position and move
        indices in order, and the winning seat."""
        space = self.space
        positions, moves = [], []
        position, seat = space.start, 0
        terminal = space.terminal
        while not terminal[position]:
            legal = legal_of[position]
            if seat in seats:
                move = self.explore(position, legal, uniforms)
            else:
                assert cumulative is not None and last is not None  # an opponent plays this seat
                row = cumulative[position]
                move = min(int(np.searchsorted(row, uniforms.random() * row[-1], side="right")), last[position])
            positions.append(position)
            moves.append(move)
            position = space.next[position, move]
            seat ^= 1
        return np.array(positions), np.array(moves), self.rules.winner(seat ^ 1)

    def learn_record(self, record: GameRecord, seats: tuple[int, ...] = (0, 1)) -> None:
        """Learn from a game record of the scalar path (``seats``: the seats it played)."""
        positions = record.positions(self.rules)[:-1]
        self.update(np.array([self.space.index(p) for p in positions], dtype=np.int64),
                    np.array([self.space.move_index_at(p, m) for p, m in zip(positions, record.moves)], dtype=np.int64),
                    record.winner, tuple(seats))
        self.games_played += 1

    # -- reporting ---------------------------------------------------------------------

    def report(self, solution) -> list[str]:
        """The report of Moore's NIM Rules against ``solution`` (:func:`nim_evo.learners.report.report`)."""
        return report(self, solution)

    def __repr__(self) -> str:
        mode = "stochastic" if self.stochastic else "greedy"
        return f"<{self.name} learner for {self.rules.name}, {self.games_played:,} games, {mode}>"

    def __getstate__(self):
        return {**self.__dict__, "space": None}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.space = space_for(self.rules, multiset=self.params.symmetry)


class Uniforms:
    """Uniform draws in [0, 1) from ``rng``, a block at a time (a numpy call per draw
    would cost more than the rest of a training move)."""

    buffer: list[float]

    def __init__(self, rng: np.random.Generator, block: int = 4096):
        self.rng, self.block, self.buffer = rng, block, []

    def random(self) -> float:
        """The next uniform number in [0, 1), drawn from the generator a block at a time."""
        if not self.buffer:
            self.buffer = self.rng.random(self.block).tolist()
            self.buffer.reverse()
        return self.buffer.pop()

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        return min(int(self.random() * n), n - 1)

    def proportional(self, weights: np.ndarray) -> int:
        """An index drawn in proportion to positive ``weights``."""
        cumulative = np.cumsum(weights)
        index = int(np.searchsorted(cumulative, self.random() * cumulative[-1], side="right"))
        return min(index, len(weights) - 1)


def _legal_lists(space: Space) -> list[np.ndarray]:
    return [np.flatnonzero(row) for row in space.legal]


def _cumulative(opponent, rules: Game, space: Space) -> np.ndarray:
    """Row-wise cumulative move probabilities of a fixed opponent (over a learner's multisets,
    an order-blind one: the others are refused in one line)."""
    agent = compiled(make_agent(opponent, rules) if isinstance(opponent, str) else opponent, rules)
    if not isinstance(agent, (np.ndarray, list, tuple)):
        check_opponent(space.multiset, agent)
    return np.cumsum(as_table(agent, space), axis=1)


def check_opponent(symmetry: bool, opponent) -> None:
    """Refuse, in one line, an order-reading opponent for a learner with ``symmetry``."""
    if symmetry and not is_order_blind(opponent):
        raise KeywordError(f"{name_of(opponent)} reads the order of the piles; a learner with symmetry trains over "
                           "multisets of pile sizes, where one arrangement stands for all: train it with "
                           "[[symmetry=False|--no-symmetry]]")


def _describe(opponent) -> str | None:
    if opponent is None:
        return None
    if isinstance(opponent, str):
        return opponent
    return "table" if isinstance(opponent, (np.ndarray, list, tuple)) else name_of(opponent)


def _check_board(rules: Game, symmetry: bool) -> None:
    """Refuse, in one line, a board whose table a learner could not keep."""
    what = "multisets of piles" if symmetry else "positions"
    if not enumerable(rules, multiset=symmetry):
        raise UserError(f"the board {rules.name} has {space_size(rules, symmetry):,} {what}; learners keep a "
                        f"table over every one of them, so they need a board that can be enumerated")
    cells = space_size(rules, symmetry) * rules.n_actions
    if cells > MAX_LEARNER_CELLS:
        raise UserError(f"a learner on {rules.name} would keep {cells:,} values of {what} and moves (limit "
                        f"{MAX_LEARNER_CELLS:,}); learners are for boards of up to about 50,000 {what}")
