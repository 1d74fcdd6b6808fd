"""Course-style players as agents: the two shapes in which thousands of Nim players exist.

**A Q-learning project's player** (an AI course's Nim project): an object whose greedy move is
``choose_action(piles, epsilon=False)``, ``piles`` a list of pile sizes, returning ``(i, j)``:
take ``j`` objects from pile ``i``. That course plays piles 1-3-5-7 in misère play (whoever
takes the last object loses).

**A lab's strategy** (an evolutionary-computation course's Nim lab): a function of a game
state with ``rows`` (a tuple of pile sizes) and ``k`` (the cap, or ``None``), returning a
``(row, num_objects)`` pair (its ``Nimply`` named tuple). That lab plays piles 1-3-5-7-9 in
normal play. The state given here (:class:`CourseState`) also has the lab's ``num_rows``,
``nimming``/``nimming_remove`` (on a copy the strategy made with ``deepcopy``), truth (objects
left) and text, so strategies that look ahead on a copy run as they do in the lab.

Neither says which game it plays: a course player plays the board it is given (its misère
flag, its cap), and whatever reports on it says which rule that was. Both read the piles in
order (they are judged on the ordered board) and answer moves only, so each is a
:class:`~nim_evo.agents.adapted.MoveAgent`: compiled to a table when it is deterministic.
Their randomness comes from Python's ``random`` module (and numpy's global generator): for
each question it is seeded from the game's generator and put back as it was afterwards, so
the same seed plays the same games.
"""

from __future__ import annotations

import inspect
import random
from contextlib import contextmanager

import numpy as np

from nim_evo.games.base import Game
from nim_evo.agents.adapted import MoveAgent
from nim_evo.engine.rules import Position, Rules
from nim_evo.validation import AgentError, shown


class CourseState:
    """A Nim position as a lab's strategy reads it (see the module)."""

    def __init__(self, rows, k: int | None = None):
        self._rows = [int(n) for n in rows]
        self._k = k

    @property
    def rows(self) -> tuple:
        """The piles, as the course's ``rows`` attribute (a tuple: the caller cannot change them)."""
        return tuple(self._rows)

    @property
    def k(self) -> int | None:
        """The most a move may take (``None``: any number), as the course's ``k``."""
        return self._k

    @property
    def num_rows(self) -> int:
        """How many piles there are."""
        return len(self._rows)

    def nimming(self, ply) -> None:
        """Play ``ply`` = ``(row, num_objects)`` on this state."""
        row, num_objects = ply
        if not (0 <= row < len(self._rows) and 1 <= num_objects <= self._rows[row]
                and (self._k is None or num_objects <= self._k)):
            raise ValueError(f"illegal move {(row, num_objects)} in {self}")
        self._rows[row] -= num_objects

    def nimming_remove(self, row: int, num_objects: int) -> None:
        """Take ``num_objects`` from pile ``row``: the course's other spelling of :meth:`nimming`."""
        self.nimming((row, num_objects))

    def __bool__(self) -> bool:
        return sum(self._rows) > 0

    def __str__(self) -> str:
        return "<" + " ".join(map(str, self._rows)) + ">"

    __repr__ = __str__


@contextmanager
def seeded_random(rng: np.random.Generator):
    """Python's ``random`` and numpy's global generator seeded from ``rng`` for one question,
    and restored afterwards."""
    kept, kept_numpy = random.getstate(), np.random.get_state()
    seed = int(rng.integers(2**32))
    random.seed(seed)
    np.random.seed(seed)
    try:
        yield
    finally:
        random.setstate(kept)
        np.random.set_state(kept_numpy)


class _CourseAgent(MoveAgent):
    random_moves = ("its moves are random (Python's random module), so it plays games but has no table; give it a "
                    "deterministic greedy choice to be judged exactly")
    shape = "(pile, count)"  # what its answer should look like
    hint = ""

    def _answer(self, piles: Position, rng: np.random.Generator):
        with seeded_random(rng):
            answer = self._question(piles)
        try:
            is_pair = len(answer) == 2 and not isinstance(answer, (str, bytes))
        except TypeError:
            is_pair = False
        if not is_pair:
            raise AgentError(f"{self.name} answered {shown(answer)} at {tuple(piles)}; it should answer "
                             f"{self.shape}{self.hint}")
        return answer

    def _question(self, piles: Position):
        raise NotImplementedError


class ChooseActionAgent(_CourseAgent):
    """An object with ``choose_action(piles, epsilon=False) -> (i, j)`` (see the module)."""

    def __init__(self, agent, rules: Game):
        super().__init__(agent, rules)
        self.epsilon = _takes_keyword(agent.choose_action, "epsilon")

    shape = "(i, j): take j objects from pile i"

    def _question(self, piles: Position):
        options = {"epsilon": False} if self.epsilon else {}
        return self._ask("choose_action", list(piles), piles=piles, **options)


class StateFunctionAgent(_CourseAgent):
    """A function of a state with ``rows`` and ``k`` returning ``(row, num_objects)`` (see the module)."""

    shape = "(row, num_objects)"
    hint = " (a function of one parameter is taken for a strategy; an agent's factory names its parameter rules)"

    def _question(self, piles: Position):
        return self._ask("__call__", CourseState(piles, self.rules.max_take), piles=piles)


def is_strategy_function(thing) -> bool:
    """Whether ``thing`` is a function (or method) of one argument other than the rules: a
    lab's strategy, not an agent's factory (which takes ``rules`` or nothing)."""
    if not (inspect.isfunction(thing) or inspect.ismethod(thing)):
        return False
    wanted = required_parameters(thing)
    return len(wanted) == 1 and wanted[0].name != "rules" and wanted[0].annotation not in (Rules, "Rules")


def required_parameters(thing) -> list[inspect.Parameter]:
    """The positional parameters ``thing`` must be called with (none where it has no signature)."""
    try:
        parameters = inspect.signature(thing).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]


def _takes_keyword(method, name: str) -> bool:
    try:
        parameters = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return True
    return name in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())
