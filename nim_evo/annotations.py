"""The type aliases of the public API's signatures: what a parameter accepts, named.

nim_evo accepts players and files in several shapes and checks them when it is called (a
wrong one is a one-line :class:`~nim_evo.validation.UserError`), so these aliases document
more than a type checker can hold: a function that takes an :data:`AgentObject` accepts any
object, and says which.
"""

from __future__ import annotations

import os
from typing import TypeAlias, Union

StrPath: TypeAlias = Union[str, "os.PathLike[str]"]
"""A file or folder: a ``str`` or a :class:`pathlib.Path` (any ``os.PathLike``)."""

AgentObject: TypeAlias = object
"""A player object: a :class:`~nim_evo.agents.player.Player`, or anything with
``move_probabilities(positions)``, ``distribution(piles)``, ``move(piles, rng)`` or
``choose_action(piles)``, or a course-style function of a state
(:mod:`nim_evo.agents.protocol`)."""

PlayerSpec: TypeAlias = object
"""An :data:`AgentObject`, or a player named as ``--opponents`` names one: an agent's or a
learner's name (``"nimsum"``, ``"qlearning"``), a strategy file, ``module:NAME`` or
``path/to/file.py:NAME``."""
