"""``nim-evo`` (the console script) and ``python -m nim_evo``: one command, a subcommand per job.

    nim-evo run|learn|plot|play|arena|export|grade|sweep|referee [OPTIONS]
    nim-evo --version

The commands and their table are :mod:`nim_evo.commands`'; each is also ``python -m
nim_evo.<command>`` (sweep: ``python -m nim_evo.sweeps``).

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

from nim_evo import __version__  # noqa: E402
from nim_evo.commands import COMMANDS, command  # noqa: E402

USAGE = f"usage: nim-evo {{{','.join(COMMANDS)}}} [OPTIONS]   (nim-evo SUBCOMMAND --help for its options)"


def main(argv=None) -> int:
    """Run the subcommand ``argv[0]`` on the rest; returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        width = max(map(len, COMMANDS))
        lines = [USAGE, "", f"nim-evo {__version__}: evolve, measure, compare and play strategies for Nim-family games.",
                 "", "subcommands:", *(f"  {name:<{width}}  {what}" for name, what in COMMANDS.items())]
        print("\n".join(lines), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] == "--version":
        print(f"nim-evo {__version__}")
        return 0
    if argv[0] in COMMANDS:
        return command(argv[0]).main(argv[1:])
    if argv[0].startswith("-"):  # the old spelling: python -m nim_evo OPTIONS was run
        print("nim_evo: note: `python -m nim_evo OPTIONS` is `nim-evo run OPTIONS`, which it will have to be "
              "spelled from the next release", file=sys.stderr)
        return command("run").main(argv)
    print(f"nim_evo: error: no subcommand {argv[0]!r}; {USAGE[len('usage: '):]}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
