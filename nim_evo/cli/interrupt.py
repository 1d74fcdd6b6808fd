"""Ctrl-C while a command starts: one line, never a traceback of the imports it was in.

A command calls :func:`quiet_until_main` before its modules import (``nim-evo`` in
:mod:`nim_evo.__main__`, ``python -m nim_evo.<command>`` in :func:`nim_evo.commands.launch`):
numpy, DEAP and the rest take a few tenths of a second, when a person may already press Ctrl-C;
its ``main`` calls :func:`at_main`, from where Ctrl-C is Python's ``KeyboardInterrupt`` again,
which the command reports itself (and a run answers with its checkpoint). Only the
interpreter's own start, before the command module's first line, is left to Python: its
first 20 ms or so (the interpreter, ``site``, ``runpy`` finding the module), where Ctrl-C
shows Python's own ``KeyboardInterrupt`` traceback; no line of nim_evo has run then, and
nothing has been read or written.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

STATUS = 130  # the shell's status for a process ended by SIGINT


def _before_main(signum, frame):
    # Exit at once: an exception raised in the middle of an import may be caught and turned
    # into another (numpy's C modules answer with a page of ImportError), and nothing has
    # been written yet that would need finishing.
    try:
        sys.stderr.write("\nnim_evo: interrupted\n")
        sys.stderr.flush()
    finally:
        os._exit(STATUS)


def quiet_until_main() -> None:
    """Until :func:`at_main`: Ctrl-C ends the process in one line, status 130."""
    signal.signal(signal.SIGINT, _before_main)


def at_main() -> None:
    """Ctrl-C raises ``KeyboardInterrupt`` again (if :func:`quiet_until_main` changed it)."""
    if signal.getsignal(signal.SIGINT) is _before_main:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@contextlib.contextmanager
def terminate_as_interrupt():
    """SIGTERM (``kill``, a batch system's time limit) ends a command as Ctrl-C does within the
    block: a run keeps its last checkpoint, a sweep its finished runs, each says in one line how
    to go on, and the worker processes end with it (status 130, where SIGTERM's own 143 said
    nothing and left a sweep's workers writing runs)."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt
    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
