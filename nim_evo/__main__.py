"""``nim-evo`` (the console script) and ``python -m nim_evo``: one command, a subcommand per job.

    nim-evo run|learn|plot|play|arena|export|grade|sweep|referee [OPTIONS]  the same as python -m nim_evo.<subcommand>
                                                                      (sweep: python -m nim_evo.sweeps)
    nim-evo --version

Before the subcommands, ``python -m nim_evo OPTIONS`` was ``run``; it still is, with a note,
for this release.
"""

import os
import sys

from nim_evo.cli.interrupt import quiet_until_main

# Ctrl-C during the imports below: one line, in the command (run as a module, or the console
# script); a program that imports this module (a test, a wrapper) keeps its own Ctrl-C
if __name__ == "__main__" or os.path.basename((sys.argv or [""])[0]).removesuffix(".exe") == "nim-evo":
    quiet_until_main()

from importlib import import_module  # noqa: E402

from nim_evo import __version__  # noqa: E402

SUBCOMMANDS = {
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
MODULES = {"sweep": "sweeps"}  # a subcommand whose module has another name (nim_evo.sweep is the library's function)

USAGE = "usage: nim-evo {run,learn,plot,play,arena,export,grade,sweep,referee} [OPTIONS]   (nim-evo SUBCOMMAND --help for its options)"


def main(argv=None) -> int:
    """Run the subcommand ``argv[0]`` on the rest; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        width = max(map(len, SUBCOMMANDS))
        lines = [USAGE, "", f"nim-evo {__version__}: evolve, measure, compare and play strategies for Nim-family games.",
                 "", "subcommands:", *(f"  {name:<{width}}  {what}" for name, what in SUBCOMMANDS.items())]
        print("\n".join(lines), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] == "--version":
        print(f"nim-evo {__version__}")
        return 0
    if argv[0] in SUBCOMMANDS:
        return import_module(f"nim_evo.{MODULES.get(argv[0], argv[0])}").main(argv[1:])
    if argv[0].startswith("-"):  # the old spelling: python -m nim_evo OPTIONS was run
        print("nim_evo: note: `python -m nim_evo OPTIONS` is `nim-evo run OPTIONS`, which it will have to be "
              "spelled from the next release", file=sys.stderr)
        return import_module("nim_evo.run").main(argv)
    print(f"nim_evo: error: no subcommand {argv[0]!r}; {USAGE[len('usage: '):]}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
