"""``nim-evo``'s commands: a module each, with ``build_parser()`` and ``main(argv) -> int``,
and :data:`COMMANDS`, the one table that names them.

    nim-evo NAME ...             nim_evo.__main__ reads COMMANDS
    python -m nim_evo NAME ...   the same
    python -m nim_evo.NAME ...   a module of two lines at the package's root calls launch(NAME)
                                 (sweep's is nim_evo.sweeps: nim_evo.sweep is the library's function)

A new command is its module here, its row in :data:`COMMANDS` and, for the ``python -m``
spelling, its module at the root.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType

#: each command's name and what it does, in the order ``nim-evo --help`` lists them
COMMANDS = {
    "run": "evolve a strategy genome with DEAP and export its champion",
    "learn": "train a learner (Q-learning, TD, Monte Carlo, ...) and save it",
    "plot": "draw a run's fitness history and policy, or a strategy file's moves",
    "play": "play Nim in the terminal, against a strategy or between two",
    "arena": "a round robin between agents and strategy files",
    "export": "a champion as a web page that plays it in any browser",
    "grade": "the exact report of any player: its accuracy, win rates and the positions it gets wrong",
    "sweep": "runs over seeds and a grid of settings, locally or on Dask, with the statistics the field reports",
    "referee": "other harnesses' transcripts graded move by move: winning, blunder, forced, illegal",
}


def command(name: str) -> ModuleType:
    """The module of the command ``name`` (one of :data:`COMMANDS`), imported now: a command
    imports what it needs, so ``nim-evo --help`` imports none of them."""
    if name not in COMMANDS:
        raise KeyError(name)
    return import_module(f"{__name__}.{name}")


def launch(name: str) -> None:
    """``python -m nim_evo.<name>``: the command ``name`` on the process's arguments, its
    status the process's (Ctrl-C while its modules import is one line, not a traceback)."""
    from nim_evo.cli.interrupt import quiet_until_main  # before the command's own imports, which are the slow part

    quiet_until_main()
    sys.exit(command(name).main(sys.argv[1:]))
