"""One validation policy: user errors are :class:`UserError`, parameters are declared once.

Everything a person can get wrong (a parameter, a board, a file, an opponent's name) is
reported as a :class:`UserError`, a ``ValueError`` whose message is one line that says
what is wrong and, where it helps, what would be right. The commands print it as
``nim_evo: error: <message>`` with exit status 2, and so do they a player's fault
(:class:`AgentError`: an illegal move or an exception in an agent's own code, named with the
player and the position); any other exception is a bug and keeps its traceback (exit status 1).

Parameters are declared as scikit-learn declares an estimator's (its ``_param_validation``):
a name maps to the constraints its value may meet, any one of them::

    CONSTRAINTS = {"generations": [Interval(Integral, 1, None)],
                   "indpb": [None, Interval(Real, 0, 1)],
                   "fitness": [Options("exact", "sampled")]}
    validate(CONSTRAINTS, {"generations": 0, ...})   # ParameterError: generations must be ...

The library checks its own entry points with them (:class:`nim_evo.evolution.config.Config`,
:func:`nim_evo.evolve`, :func:`nim_evo.train`, ...), so a notebook gets the same errors a
command does; a command reuses them and names its flag instead (:meth:`ParameterError.as_flag`).
The bounds the commands share (:data:`SEED`, :data:`GAMES`, :data:`JOBS`, ...) are here, once.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable, Iterable
from numbers import Integral, Real

MAX_GAMES = 1_000_000          # sampled games per opponent and seat (run), per pair and seat (arena), in all (play)
MAX_EPISODES = 100_000_000     # a learner's training games
MAX_POPULATION = 10_000        # mu, and lambda: individuals kept, offspring per generation
MAX_GENERATIONS = 1_000_000


class UserError(ValueError):
    """A person's mistake (a parameter, a board, a file): one line, exit status 2."""


class KeywordError(UserError):
    """A mistake an argument mends, said in the words of whoever called: the message names
    the library's keyword arguments (``force=True``), :attr:`command` the command's flags
    (``--force``), which the commands print. Written once, as ``[[keyword words|flag words]]``
    wherever they differ: ``KeywordError("x.json exists; [[pass force=True|use --force]] ...")``."""

    def __init__(self, text: str):
        super().__init__(_WORDS.sub(r"\1", text))
        self.command = _WORDS.sub(r"\2", text)


_WORDS = re.compile(r"\[\[(.*?)\|(.*?)\]\]")


class AgentError(RuntimeError):
    """A player's fault, not the person's input: an illegal move, a malformed answer, a
    probability row that is no distribution, or an exception raised by the player's own code.
    A ``RuntimeError`` whose message names the player, the position and what it answered (the
    commands print it in one line, exit status 2; the player's own exception is its cause)."""


class IllegalMove(AgentError):
    """A player answered a move, two whole numbers, that is not legal where it was asked;
    :attr:`answer` is that move (an answer that is no move at all is an :class:`AgentError`)."""

    def __init__(self, message: str, answer=None):
        super().__init__(message)
        self.answer = answer


class OrderReading(UserError):
    """A player that reads the order of the piles asked to play over multisets of pile sizes,
    where an arrangement of each multiset would stand for all of them."""


class ParameterError(UserError):
    """A parameter outside its constraints; ``parameter`` names it, ``problem`` says why."""

    def __init__(self, parameter: str, problem: str):
        super().__init__(f"{parameter} {problem}")
        self.parameter = parameter
        self.problem = problem

    def as_flag(self, flag: str | None = None) -> UserError:
        """The same error naming a command's flag (default ``--<parameter>``)."""
        return UserError(f"{flag or '--' + self.parameter.replace('_', '-')} {self.problem}")


class Constraint:
    """What a value may be; ``str()`` says it in words (``an integer >= 1``)."""

    def __call__(self, value) -> bool:
        raise NotImplementedError


class Interval(Constraint):
    """A number of ``kind`` (``Integral`` or ``Real``) between ``low`` and ``high``, both
    included; ``None`` leaves a side open. Booleans are not numbers here."""

    def __init__(self, kind: type, low=None, high=None):
        self.kind, self.low, self.high = kind, low, high

    def __call__(self, value) -> bool:
        if isinstance(value, bool) or not isinstance(value, self.kind):
            return False
        if self.kind is Real and value != value:  # NaN
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def __str__(self) -> str:
        what = "an integer" if self.kind is Integral else "a number"
        if self.low is not None and self.high is not None:
            return f"{what} between {_number(self.low)} and {_number(self.high)}"
        if self.low is not None:
            return f"{what} >= {_number(self.low)}"
        if self.high is not None:
            return f"{what} <= {_number(self.high)}"
        return what


class Options(Constraint):
    """One of the given values, or of those a function gives when checked (for a registry
    that may grow, such as genome kinds)."""

    def __init__(self, *values, of: Callable[[], Iterable] | None = None):
        self.values, self.of = values, of

    def choices(self) -> tuple:
        """The values allowed, those of the registry where one is given (read when asked)."""
        return tuple(self.of()) if self.of is not None else self.values

    def __call__(self, value) -> bool:
        try:
            return value in self.choices()
        except (TypeError, ValueError):  # unhashable, or an array (whose == is no answer)
            return False

    def __str__(self) -> str:
        return "one of " + ", ".join(str(choice) for choice in self.choices())


class InstanceOf(Constraint):
    """An instance of one of ``types``; ``what`` names it in the message."""

    def __init__(self, *types: type, what: str | None = None):
        self.types, self.what = types, what

    def __call__(self, value) -> bool:
        return isinstance(value, self.types) and not (bool not in self.types and isinstance(value, bool))

    def __str__(self) -> str:
        return self.what or "a " + " or ".join(t.__name__ for t in self.types)


class Names(Constraint):
    """A non-empty sequence of distinct non-empty strings (opponents, participants)."""

    def __call__(self, value) -> bool:
        if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value:
            return False
        return all(isinstance(v, str) and v.strip() for v in value) and len(set(value)) == len(value)

    def __str__(self) -> str:
        return "a list of distinct non-empty names"


SEED = Interval(Integral, 0, None)
GAMES = Interval(Integral, 1, MAX_GAMES)
JOBS = Interval(Integral, 1, None)  # local work then uses at most the machine's cores (usable_jobs)
POPULATION = Interval(Integral, 2, MAX_POPULATION)
OFFSPRING = Interval(Integral, 1, MAX_POPULATION)
GENERATIONS = Interval(Integral, 1, MAX_GENERATIONS)
EPISODES = Interval(Integral, 0, MAX_EPISODES)
PROBABILITY = Interval(Real, 0, 1)
MINUTES = Interval(Real, 1 / 60, 1e6)  # a sweep's bound on each run's evolving time
PATH = InstanceOf(str, os.PathLike, what="a path (a str or os.PathLike)")  # a file or folder to read or write
BOOL = InstanceOf(bool, what="True or False")


def usable_jobs(jobs: int) -> tuple[int, str | None]:
    """The workers local work may use for ``jobs`` asked: at most the machine's cores (more
    only compete for them, each with its own memory); a note to show when it was lowered."""
    cores = os.cpu_count() or 1
    if jobs <= cores:
        return jobs, None
    return cores, f"{jobs:,} workers asked for, this machine has {cores} cores: using {cores}"


def check(name: str, value, constraints: list):
    """``value`` if it meets one of ``constraints`` (``None`` in the list allows ``None``);
    otherwise a :class:`ParameterError` saying what it must be."""
    if any(value is None if c is None else c(value) for c in constraints):
        return value
    described = [str(c) for c in constraints if c is not None]
    if None in constraints:
        described.append("None")
    raise ParameterError(name, f"must be {' or '.join(described)}, got {shown(value)}")


def shown(value) -> str:
    """``value`` as a message quotes it: an integer with thousands separators, or said by its
    length where it is too long to read (Python will not even write one of 4,300 digits),
    anything else as its ``repr``, cut to some 200 characters."""
    if isinstance(value, Integral) and not isinstance(value, bool):
        value = int(value)
        digits = len(str(abs(value))) if value.bit_length() < 1000 else int(value.bit_length() * 0.30103) + 1
        return f"{value:,}" if digits <= 30 else f"an integer of about {digits:,} digits"
    try:
        text = " ".join(repr(value).split())  # one line: an array's repr spans several
    except ValueError:  # it holds an integer Python will not write (4,300 digits and more)
        return f"a {type(value).__name__} holding an integer of thousands of digits"
    except Exception as error:  # (a person's object whose __repr__ raises)
        return f"a {type(value).__name__} whose repr raised {type(error).__name__}"
    return text if len(text) <= 200 else f"{text[:140]} ... {text[-40:]}"


def validate(constraints: dict, values: dict) -> None:
    """Check every value with a declared name against its constraints (see :func:`check`)."""
    for name, allowed in constraints.items():
        if name in values:
            check(name, values[name], allowed)


def _number(value) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


RENAMED_UNTIL = "0.2"  # the release that drops the old names of flags and keywords


def printable(text) -> str:
    """``text`` (any object, as ``str()``) as a person may be shown it: every character that is
    not printable escaped as Python writes it in a string literal (``\\x1b``, ``\\n``, ``\\u202e``).

    Everything shown that comes from a file or from input (a strategy file's ``name``, a file or
    folder name, a run's id, an opponent's name, a line typed or piped in) goes through this
    first: control characters (C0, DEL, C1), and with them every terminal escape sequence, cannot
    reach a terminal or split a line, and Unicode's format characters (the bidirectional overrides
    such as U+202E, zero-width characters), separators other than the space, surrogates (a file
    name that is not UTF-8) and unassigned code points cannot disguise what is shown. Printable
    text is unchanged, and ``printable(printable(x)) == printable(x)``. (The lowest layer's: the
    commands, the console summaries and the pictures' labels all use this one.)"""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in str(text))


def renamed_keyword(old: str, old_value, new: str, new_value):
    """A keyword's value under its new name or, with a ``DeprecationWarning``, under its old
    one (old names work until :data:`RENAMED_UNTIL`); both given is a :class:`UserError`."""
    if old_value is None:
        return new_value
    if new_value is not None:
        raise UserError(f"{old} is the old name of {new}: give one of them")
    warnings.warn(f"{old}= is now {new}=; the old name works until nim_evo {RENAMED_UNTIL}", DeprecationWarning,
                  stacklevel=3)
    return old_value
