"""What every learner shares: parameters, the training loop, greedy and stochastic play.

A learner keeps its state as arrays over the enumerated space of its rules (position x
move, the engine's stable move order). :meth:`Learner.train` plays ``episodes`` games by
self-play, or against an opponent from a chosen seat, with an explicit
``numpy.random.Generator``; after each game the learner's :meth:`~Learner.update` sees the
whole record. For the per-move (TD) learner this is the same as updating after each move:
positions strictly shrink, so no position recurs within a game and an update made during
the game could not change any later choice or target of that game.

Once trained a learner is a player (:class:`~nim_evo.agents.Player`): greedy by default
(uniform among the legal moves of highest value), or, with ``stochastic=True``, by its own
sampling rule (counts in proportion, an exploration window, epsilon-greedy). Its one answer
is its rows over its own space, read at the actual positions (:meth:`Learner.move_probabilities`):
a learner with ``symmetry`` plays the move its multiset's row gives on the first pile of the
size it takes from, and is order-blind; one without reads the order of the piles.
"""

from __future__ import annotations

import math

import numpy as np

from nim_evo.agents.player import Player, check_space, is_order_blind, name_of
from nim_evo.agents.registry import make_agent
from nim_evo.engine.boards import uniform_rows
from nim_evo.engine.game import GameRecord
from nim_evo.engine.rules import Rules
from nim_evo.engine.space import Space, space_for, space_size
from nim_evo.validation import EPISODES, KeywordError, UserError, check, shown

SEATS = ("alternate", "first", "second", "loser")
MAX_LEARNER_CELLS = 2_000_000  # positions x moves: a learner's table (and its JSON file) stays in the megabytes


class Learner(Player):
    """Base of the learners. Subclasses set ``name``, ``defaults`` (parameter -> the source
    write-up's value), ``episodes`` (its training budget) and ``state_names``, and define
    :meth:`explore` (its move while training), :meth:`update` and :meth:`values`.

    Every learner also takes ``symmetry``: learn over multisets of pile sizes
    (:mod:`nim_evo.engine.multiset`), one entry for every arrangement of the same piles, as
    Kintner-Meyer's Q-learning report did by sorting the piles after each move. Its default is
    ``symmetric`` (True where the source write-up did it); a symmetric learner plays a concrete
    position by the multiset's move on the first pile of the size it takes from."""

    name = "learner"
    source = ""  # the write-up it comes from, by its short name (README.md, "References")
    algorithm = 1  # bump when an update or choice rule changes: cached learners are then retrained
    defaults: dict = {}
    episodes = 1000
    symmetric = False  # the default of the symmetry parameter
    state_names: tuple[str, ...] = ()

    @classmethod
    def parameters(cls) -> dict:
        """Every parameter with its default: the learner's own, then ``symmetry``."""
        return {**cls.defaults, "symmetry": cls.symmetric}

    def __init__(self, rules: Rules, stochastic: bool = False, **params):
        super().__init__(rules)
        defaults = self.parameters()
        unknown = sorted(set(params) - set(defaults))
        if unknown:
            known = ", ".join(defaults)
            raise UserError(f"{self.name} has no parameter {unknown[0]!r} (its parameters: {known})")
        self.params = {key: _coerce(key, params.get(key, default), default) for key, default in defaults.items()}
        self.check_params()
        self.stochastic = bool(stochastic)
        cells = space_size(rules, self.symmetry) * rules.n_moves
        if cells > MAX_LEARNER_CELLS:
            what = "multisets of piles" if self.symmetry else "positions"
            raise UserError(f"a learner on {rules.name} would keep {cells:,} values of {what} and moves (limit "
                             f"{MAX_LEARNER_CELLS:,}); learners are for boards of up to about 50,000 {what}")
        self.space = space_for(rules, multiset=self.symmetry)
        self.games_played = 0
        self.training: list[dict] = []  # one entry per train() call: episodes, opponent, seat
        self.reset()

    def __getattr__(self, key):
        params = self.__dict__.get("params")
        if params is not None and key in params:
            return params[key]
        raise AttributeError(f"{type(self).__name__!s} has no attribute {key!r}")

    # -- to define ---------------------------------------------------------------------

    def check_params(self) -> None:
        """Raise ``ValueError`` (one line) for parameter values out of range."""

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

    def values(self) -> np.ndarray:
        """``(n_positions, n_moves)``: what greedy play maximises (legal entries matter)."""
        raise NotImplementedError

    def row_values(self, rows) -> np.ndarray:
        """:meth:`values` at positions ``rows`` (override where that is cheaper than all)."""
        return self.values()[rows]

    def stochastic_rows(self, rows: np.ndarray) -> np.ndarray:
        """The learner's own sampling rule at positions ``rows``: ``(len(rows), n_moves)``."""
        return self.greedy_rows(rows)

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
        while position:
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

    # -- playing -----------------------------------------------------------------------

    def greedy_rows(self, rows: np.ndarray) -> np.ndarray:
        legal = self.space.legal[rows]
        values = np.where(legal, self.row_values(rows), -np.inf)
        return uniform_rows(legal & (values == values.max(axis=1, keepdims=True)))

    def proportional_rows(self, weights: np.ndarray, rows) -> np.ndarray:
        """Rows of probabilities in proportion to ``weights`` over the legal moves."""
        weights = np.where(self.space.legal[rows], weights, 0.0)
        totals = weights.sum(axis=1, keepdims=True)
        return np.divide(weights, totals, out=np.zeros_like(weights), where=totals > 0)

    def epsilon_rows(self, epsilon, rows) -> np.ndarray:
        """A uniformly random legal move with probability ``epsilon`` (a number or a column),
        else the greedy move."""
        legal = self.space.legal[rows]
        explore = legal / legal.sum(axis=1, keepdims=True).clip(min=1)
        return epsilon * explore + (1 - epsilon) * self.greedy_rows(rows)

    def policy_rows(self, rows: np.ndarray) -> np.ndarray:
        return self.stochastic_rows(rows) if self.stochastic else self.greedy_rows(rows)

    @property
    def order_blind(self) -> bool:  # type: ignore[override]  # read-only: it follows the learner's symmetry
        """A learner over multisets (``symmetry``) chooses by the multiset alone."""
        return bool(self.symmetry)

    def move_probabilities(self, positions: np.ndarray) -> np.ndarray:
        """Its rows over its own space at the multisets (or positions) of ``positions``, read
        back on their piles (a multiset's column on the first pile of the size it takes from)."""
        positions = np.asarray(positions, dtype=np.int64)
        start = np.array(self.rules.piles)
        beyond = np.sort(positions, axis=1) > np.sort(start) if self.symmetry else positions > start
        if np.any(beyond):
            raise UserError(f"positions beyond the start {self.rules.piles} are not on this learner's board")
        return self.space.unfold(positions, self.policy_rows(self.space.indices(positions)))

    def policy(self, space: Space) -> np.ndarray:
        """The learner's table over ``space``: its own rows on its own space (the fast path),
        else :meth:`move_probabilities` at the space's positions."""
        if space.rules != self.rules:
            raise UserError(f"this {self.name} learner was trained for {self.rules.name}, not {space.rules.name}")
        check_space(self, space)
        if space.multiset == self.space.multiset and space.n_positions == self.space.n_positions:
            return self.policy_rows(np.arange(space.n_positions))
        return super().policy(space)

    # -- reporting ---------------------------------------------------------------------

    def detail(self, index: int, move: int, values: np.ndarray) -> str:
        """What the report shows beside a move's probability (``values``: :meth:`values`)."""
        return f"(value {values[index, move]:.4g})"

    def report(self, solution) -> list[str]:
        """The report of Moore's NIM Rules, one line per non-empty position: ``OK!`` where greedy play
        only plays winning moves, ``NO!`` where it may not, ``---`` at lost positions; then
        the position, its winning moves, and each legal move with its probability under the
        learner's stochastic rule (most probable first) and :meth:`detail`."""
        space = self.space
        rows = np.arange(space.n_positions)
        greedy, probabilities = self.greedy_rows(rows), self.stochastic_rows(rows)
        values = self.values()
        one_heap = len(self.rules.piles) == 1
        label = (lambda m: str(space.move(m)[1])) if one_heap else (lambda m: str(space.move(m)))
        lines = []
        for index in range(1, space.n_positions):
            legal = np.flatnonzero(space.legal[index])
            order = legal[np.argsort(-probabilities[index, legal], kind="stable")]
            winning = np.flatnonzero(solution.winning[index])
            right = np.isclose((greedy[index] * solution.winning[index]).sum(), 1.0)
            tag = "---" if not len(winning) else "OK!" if right else "NO!"
            where = f"{space.position(index)[0]} balls" if one_heap else str(space.position(index))
            moves = ", ".join(f"{label(m)} with p={probabilities[index, m]:.3f} {self.detail(index, m, values)}" for m in order)
            lines.append(f"{tag} {where}, best {', '.join(label(m) for m in winning) or '0'} probs: {moves}")
        return lines

    def __repr__(self) -> str:
        mode = "stochastic" if self.stochastic else "greedy"
        return f"<{self.name} learner for {self.rules.name}, {self.games_played:,} games, {mode}>"

    def __getstate__(self):
        return {**self.__dict__, "space": None}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.space = space_for(self.rules, multiset=self.symmetry)


class Uniforms:
    """Uniform draws in [0, 1) from ``rng``, a block at a time (a numpy call per draw
    would cost more than the rest of a training move)."""

    buffer: list[float]

    def __init__(self, rng: np.random.Generator, block: int = 4096):
        self.rng, self.block, self.buffer = rng, block, []

    def random(self) -> float:
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


def _coerce(key: str, value, default):
    """A parameter value of the default's type, or a one-line ``ValueError``."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise UserError(f"parameter {key} must be true or false, got {shown(value)}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise UserError(f"parameter {key} must be an integer, got {shown(value)}")
        if abs(int(value)) >= 2**62:  # the arrays that use it hold 64-bit integers
            raise UserError(f"parameter {key} must be an integer below 2**62, got {shown(value)}")
        return int(value)
    if isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise UserError(f"parameter {key} must be a number, got {shown(value)}")
        try:
            number = float(value)
        except OverflowError:  # an integer beyond any float (10**400)
            number = math.inf
        if not math.isfinite(number):
            raise UserError(f"parameter {key} must be a finite number, got {shown(value)}")
        return number
    if isinstance(default, str):
        if not isinstance(value, str):
            raise UserError(f"parameter {key} must be a string, got {shown(value)}")
        return value
    if isinstance(default, tuple):  # a schedule: pairs (games, value)
        try:
            pairs = tuple((_coerce(key, int_, 0), _coerce(key, x, 0.0)) for int_, x in value)
        except (TypeError, ValueError):
            raise UserError(f"parameter {key} must be a list of [games, value] pairs, got {shown(value)}") from None
        return pairs
    raise TypeError(f"no coercion for parameter {key} of type {type(default).__name__}")


def _legal_lists(space: Space) -> list[np.ndarray]:
    return [np.flatnonzero(row) for row in space.legal]


def _cumulative(opponent, rules: Rules, space: Space) -> np.ndarray:
    """Row-wise cumulative move probabilities of a fixed opponent (over a learner's multisets,
    an order-blind one: the others are refused in one line)."""
    from nim_evo.agents.protocol import compiled
    from nim_evo.engine.policy import as_table

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
