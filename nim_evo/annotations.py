"""The type aliases of the public API's signatures: what a parameter accepts, named.

nim_evo accepts players and files in several shapes and checks them when it is called (a
wrong one is a one-line :class:`~nim_evo.validation.UserError`), so these aliases document
more than a type checker can hold: a function that takes an :data:`AgentObject` accepts any
object, and says which.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, Union

if TYPE_CHECKING:
    import numpy as np

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

PolicyLike: TypeAlias = object
"""What plays on an enumerated space: a player (an :data:`AgentObject`), a policy table
``(n_positions, n_moves)`` or its :class:`~nim_evo.engine.policy.AliasSampler`, or a move per
position ``(n_positions,)``."""

SeedLike: TypeAlias = Union[int, Sequence[int], "np.random.SeedSequence", "np.random.Generator"]
"""A seed: an int (the same int, the same result), ints, a ``numpy.random.SeedSequence`` or a
``numpy.random.Generator`` (:func:`nim_evo.engine.seeds.seed_sequence`)."""

Starts: TypeAlias = Union[str, Sequence[int], "np.ndarray"]
"""Where games start: ``"start"``, ``"all"`` (every non-empty position) or position indices."""

OnGeneration: TypeAlias = Callable[[dict[str, Any]], object]
"""Called after each generation with its logbook record; a true answer stops the run."""
