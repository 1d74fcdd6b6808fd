"""The limits every enumerated space keeps to, and the error a board beyond them raises."""

from __future__ import annotations

from numbers import Integral

from nim_evo.validation import Interval, UserError

DEFAULT_MAX_POSITIONS = 2_000_000
MAX_CELLS = 100_000_000  # positions x moves: the transition table and each policy table
SPACE_LIMIT = Interval(Integral, 1, None)  # max_positions


class SpaceTooLarge(UserError):
    """The enumerated space of a board would exceed the configured limit."""
