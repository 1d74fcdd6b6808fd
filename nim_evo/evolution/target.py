"""When a run stops before its last generation: its target (``until``).

A target is a string, kept in the run's :class:`~nim_evo.evolution.config.Config`:

- ``"accuracy=X"`` (``0 < X <= 1``): the champion plays a winning move in at least that share
  of the winning positions of the run's board (the logbook's ``accuracy``, the solver's
  verdict); ``accuracy=1`` is perfect play on the board;
- ``"ceiling"``: the champion's fitness reaches the most the panel allows
  (:attr:`~nim_evo.evolution.fitness.Panel.ceiling`: perfect play against a panel of
  perfect players), with exact fitness only (a sampled figure may read above it by chance).

The run stops at the first generation whose champion reaches it, generation 0 included; in
a run of several stages (:meth:`~nim_evo.genomes.protocol.GenomeKind.stages`) only the last
stage's champion counts, and perfection (``accuracy=1``, ``ceiling``) of a genome that plays
any board counts only if it also plays a validation sample of bigger boards right
(:func:`~nim_evo.evaluation.heldout.validates`: a program can play a small board perfectly by
a trick of few piles).
"""

from __future__ import annotations

import re

from nim_evo.validation import Constraint, UserError, shown

CEILING = "ceiling"
NEVER = "never"  # on a resume: drop the run's target
TOLERANCE = 1e-9  # exact fitness adds up floats: a perfect champion may read the ceiling less a rounding


class Target(Constraint):
    """``None``, ``"ceiling"`` or ``"accuracy=X"`` with ``0 < X <= 1``."""

    def __call__(self, value) -> bool:
        return _read(value) is not None

    def __str__(self) -> str:
        return "'accuracy=X' (0 < X <= 1) or 'ceiling'"


UNTIL = Target()
_ACCURACY = re.compile(r"accuracy=(?P<value>[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)")


def parse(text) -> tuple[str, float | None]:
    """``("accuracy", X)`` or ``("ceiling", None)``; a :class:`UserError` for anything else."""
    read = _read(text)
    if read is None:
        raise UserError(f"until must be {UNTIL}, got {shown(text)}")
    return read


def _read(text) -> tuple[str, float | None] | None:
    if text == CEILING:
        return CEILING, None
    match = _ACCURACY.fullmatch(text) if isinstance(text, str) and len(text) <= 40 else None
    if match is not None and 0 < float(match["value"]) <= 1:
        return "accuracy", float(match["value"])
    return None


def reached(until: str | None, record: dict, fitness: float, ceiling: float | None) -> bool:
    """Whether the champion of the generation ``record`` describes (the logbook's row; its
    fitness ``fitness``) reaches ``until``, given the panel's ``ceiling`` (None: never)."""
    if until is None:
        return False
    what, value = parse(until)
    if what == CEILING:
        return ceiling is not None and fitness >= ceiling - TOLERANCE
    assert value is not None  # parse gives a number with every target but the ceiling
    accuracy = record.get("accuracy")
    return accuracy is not None and accuracy == accuracy and accuracy >= value - TOLERANCE


def said(until: str) -> str:
    """The target in words: ``perfect play on its board`` or ``the panel's ceiling``."""
    what, value = parse(until)
    if what == CEILING:
        return "the most the panel allows (its ceiling)"
    assert value is not None  # parse gives a number with every target but the ceiling
    return "perfect play on its board" if value == 1 else f"an accuracy of {100 * value:g}% on its board"
