"""A learner's parameters, declared: a frozen dataclass per learner, checked when it is built.

Each learner names its :class:`LearnerParameters` subclass (its ``Parameters``); every field
has a type, a default (the source write-up's value) and a line in the class docstring::

    @dataclass(frozen=True)
    class WinCountParameters(LearnerParameters):
        \"\"\"Attributes:
            cutoff: a position's counts are lowered once they sum to more than this.\"\"\"

        cutoff: int = 1000

        def check(self) -> None:
            if self.cutoff < 1:
                raise UserError(f"cutoff must be >= 1, got {self.cutoff}")

Building one checks each value against its field's type (a bool, an integer, a finite
number, a string, a schedule of ``(games, value)`` pairs: :func:`coerce`), then the
learner's ranges (:meth:`LearnerParameters.check`); every mistake is one line naming the
parameter. Values arrive from the Python API, from ``learn --param key=value`` (JSON) and
from learner files, so a JSON list of pairs becomes a tuple of tuples and an integer stands
for a float.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import numpy as np

from nim_evo.validation import UserError, shown

Schedule = tuple[tuple[int, float], ...]  # (games, value) steps: a rate that changes with the games played
P = TypeVar("P", bound="LearnerParameters")


@dataclass(frozen=True)
class LearnerParameters:
    """What every learner takes; a learner's own subclass adds its fields.

    Attributes:
        symmetry: learn over multisets of pile sizes (:mod:`nim_evo.engine.multiset`), one
            entry for every arrangement of the same piles; a subclass sets its default (True
            where the source write-up did it).
    """

    symmetry: bool = False

    def __post_init__(self) -> None:
        for name, kind in _types(type(self)).items():
            object.__setattr__(self, name, coerce(name, getattr(self, name), kind))
        self.check()

    def check(self) -> None:
        """Raise a one-line :class:`~nim_evo.validation.UserError` for values out of range
        (each value already has its field's type)."""

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The parameters' names: the learner's own, then ``symmetry``."""
        own = [f.name for f in dataclasses.fields(cls) if f.name != "symmetry"]
        return (*own, "symmetry")

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        """Every parameter with its default (in the order of :meth:`names`)."""
        return cls().as_dict()

    @classmethod
    def of(cls: type[P], learner: str, values: Mapping[str, Any]) -> P:
        """The parameters of ``values`` (the others at their defaults); a name this learner
        does not take is refused in one line naming ``learner`` and its parameters."""
        unknown = sorted(set(values) - set(cls.names()))
        if unknown:
            raise UserError(f"{learner} has no parameter {unknown[0]!r} (its parameters: {', '.join(cls.names())})")
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        """The values by name, in the order of :meth:`names`."""
        return {name: getattr(self, name) for name in self.names()}

    def as_json(self) -> dict[str, Any]:
        """The values as JSON values (a schedule as a list of pairs)."""
        return {name: ([list(step) for step in value] if isinstance(value, tuple) else value)
                for name, value in self.as_dict().items()}


def coerce(key: str, value, kind):
    """``value`` as a value of type ``kind`` (a field's type), or a one-line ``UserError``
    naming the parameter ``key``."""
    if kind is bool:
        if not isinstance(value, bool):
            raise UserError(f"parameter {key} must be true or false, got {shown(value)}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise UserError(f"parameter {key} must be an integer, got {shown(value)}")
        if abs(int(value)) >= 2**62:  # the arrays that use it hold 64-bit integers
            raise UserError(f"parameter {key} must be an integer below 2**62, got {shown(value)}")
        return int(value)
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise UserError(f"parameter {key} must be a number, got {shown(value)}")
        try:
            number = float(value)
        except OverflowError:  # an integer beyond any float (10**400)
            number = math.inf
        if not math.isfinite(number):
            raise UserError(f"parameter {key} must be a finite number, got {shown(value)}")
        return number
    if kind is str or typing.get_origin(kind) is Literal:  # a Literal's choices: the learner's check says them
        if not isinstance(value, str):
            raise UserError(f"parameter {key} must be a string, got {shown(value)}")
        return value
    if kind == Schedule:
        try:
            pairs = tuple((coerce(key, games, int), coerce(key, x, float)) for games, x in value)
        except (TypeError, ValueError):
            raise UserError(f"parameter {key} must be a list of [games, value] pairs, got {shown(value)}") from None
        return pairs
    raise TypeError(f"no coercion for parameter {key} of type {kind!r}")


def _types(cls: type) -> dict[str, Any]:
    """Each field of the dataclass ``cls`` with its type (the annotations resolved once)."""
    if cls not in _TYPES:
        hints = typing.get_type_hints(cls)
        _TYPES[cls] = {f.name: hints[f.name] for f in dataclasses.fields(cls)}
    return _TYPES[cls]


_TYPES: dict[type, dict[str, Any]] = {}
