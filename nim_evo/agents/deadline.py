"""A bound on the time a player is asked for (``grade --budget``): :class:`Deadline`.

A player's calls go through :meth:`Deadline.ask`: once the deadline has passed, no call
starts, and in the main thread (where the platform has ``setitimer``) a call still running at
the deadline is stopped there, by a real-time alarm that rings again every
:data:`RING_AGAIN` seconds after (a player that sleeps, or loops, forever
included, and one that catches an interruption and goes on: it is interrupted again; one
that catches every one, forever, cannot be stopped in its own process). Both raise
:class:`OutOfTime`, which the asker catches and reports. Only the player's calls are bounded:
the asker's own work between them is not.
"""

from __future__ import annotations

import math
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

RING_AGAIN = 0.1  # seconds between the alarm's rings once the deadline has passed
MAX_ALARM = 10**6  # seconds: a deadline further off (setitimer refuses some) is checked as calls start only


class OutOfTime(BaseException):
    """The deadline passed while a player was asked. (A ``BaseException``, as
    ``KeyboardInterrupt`` is: a player's own ``except Exception`` does not take it for one of its
    errors, and :mod:`~nim_evo.agents.adapted` does not take it for the player's fault.)"""


class Deadline:
    """``seconds`` from now (``inf``: none)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self._asking = False
        self._rang = False

    def left(self) -> float:
        """Seconds until the deadline (0 once it has passed)."""
        return 0.0 if self._rang else max(0.0, self.at - time.monotonic())

    def passed(self) -> bool:
        """Whether the deadline has passed (or its alarm rang)."""
        return self.left() == 0.0

    def ask(self, question, *args):
        """``question(*args)``, a call into a player's code; :class:`OutOfTime` once the deadline
        has passed, or when it passes during the call (under :meth:`armed`)."""
        self._asking = True  # (first: an alarm that rings from here on interrupts the call)
        try:
            if self.passed():
                raise OutOfTime
            return question(*args)
        finally:
            self._asking = False

    @contextmanager
    def armed(self) -> Iterator[None]:
        """The body under an alarm at the deadline, which stops the player's call it falls in.
        Only in the main thread of a platform with ``setitimer``; elsewhere the deadline is
        checked as each call starts. A timer of the process set before (``pytest-timeout``'s,
        say) is set again after, for what is left of it (it cannot ring meanwhile)."""
        if math.isinf(self.at) or self.left() > MAX_ALARM or not hasattr(signal, "setitimer") \
                or threading.current_thread() is not threading.main_thread():
            yield
            return
        began = time.monotonic()
        handler = signal.signal(signal.SIGALRM, self._ring)
        delay, interval = signal.setitimer(signal.ITIMER_REAL, max(self.left(), 1e-6), RING_AGAIN)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL if handler is None else handler)
            if delay > 0:
                signal.setitimer(signal.ITIMER_REAL, max(delay - (time.monotonic() - began), 1e-6), interval)

    def _ring(self, signum, frame) -> None:
        self._rang = True
        if self._asking:
            raise OutOfTime


class Timed:
    """``player`` asked under ``deadline``: its ``move`` and ``move_probabilities`` through
    :meth:`Deadline.ask`; the rest of it as it is."""

    def __init__(self, player, deadline: Deadline):
        self.player, self.deadline = player, deadline

    def __getattr__(self, name: str):
        return getattr(self.player, name)

    def move(self, piles, rng):
        """The player's ``move``, asked under the deadline."""
        return self.deadline.ask(self.player.move, piles, rng)

    def move_probabilities(self, positions):
        """The player's ``move_probabilities``, asked under the deadline."""
        return self.deadline.ask(self.player.move_probabilities, positions)
