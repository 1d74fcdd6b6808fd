"""What the command-line tools share: one-line usage errors, the game options, output checks."""

from __future__ import annotations

import argparse
import functools
import os
import re
import sys
from pathlib import Path

from nim_evo import io
from nim_evo.cli.interrupt import at_main
from nim_evo.engine.rules import DEFAULT_GAME, PRESETS, Rules
from nim_evo.games.base import Game
from nim_evo.games.registry import FAMILIES, game
from nim_evo.games.registry import PRESETS as GAME_PRESETS
from nim_evo.engine.sizes import DEFAULT_MAX_POSITIONS, MAX_TABLE_CELLS
from nim_evo.io import check_writable  # noqa: F401 (the commands' file check is the library's)
from nim_evo.validation import (RENAMED_UNTIL, AgentError, KeywordError, ParameterError, UserError, check, printable,
                                usable_jobs)


class UsageError(UserError):
    """Bad input from the command line: reported in one line, exit status 2."""


def prog(command: str) -> str:
    """The command as the person typed it, for its usage line: ``nim-evo run`` through the
    console script or ``python -m nim_evo``, else ``python -m nim_evo.run``."""
    return f"nim-evo {command}" if Path(sys.argv[0]).name in ("nim-evo", "__main__.py") else f"python -m nim_evo.{command}"


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`UsageError` (one line, status 2), and
    whose description is plain text (a module docstring's first line, its reST quotes and the
    command's name, which the usage line above it gives, left out)."""

    def __init__(self, *args, description: str | None = None, renamed: dict | None = None, **kwargs):
        if description:
            description = re.sub(r"^``[^`]*``:\s*", "", description).replace("``", "")
            description = description[:1].upper() + description[1:]
        kwargs["description"] = description
        super().__init__(*args, **kwargs)
        self.renamed = renamed or {}

    def error(self, message):
        missing = re.fullmatch(r"the following arguments are required: (.*)", message)
        if missing:  # "--agent is required; choose from ...", not argparse's list
            said = []
            for flag in missing.group(1).split(", "):
                action = next((a for a in self._actions if flag in a.option_strings), None)
                choices = f"; choose from {', '.join(map(str, action.choices))}" if action and action.choices else ""
                said.append(f"{flag} is required{choices}")
            message = "; ".join(said)
        raise UsageError(message)

    def parse_args(self, args=None, namespace=None):
        """Parsed arguments; an empty value (``--resume ""``, an unset shell variable) is an
        error, never taken as "not given". A flag's old name (:attr:`renamed`, old -> new) is
        read as the new one, with a one-line note on stderr: old spellings work for one release
        (:data:`RENAMED_UNTIL`)."""
        args = self._renamed(sys.argv[1:] if args is None else list(args))
        parsed = super().parse_args(args, namespace)
        for action in self._actions:
            value = getattr(parsed, action.dest, None)
            if "" in (value if isinstance(value, list) else [value]):
                self.error(f"argument {'/'.join(action.option_strings) or action.metavar or action.dest}: "
                           "must not be empty")
        return parsed


    def _renamed(self, argv: list) -> list:
        told = set()
        for i, token in enumerate(argv):
            if token == "--":
                break
            flag, sep, value = token.partition("=")
            if flag in self.renamed:
                argv[i] = self.renamed[flag] + sep + value
                if flag not in told:
                    told.add(flag)
                    print(f"nim_evo: note: {flag} is now {self.renamed[flag]}; the old name works until nim_evo "
                          f"{RENAMED_UNTIL}", file=sys.stderr)
        return argv


def command(interrupted: str = "interrupted"):
    """Make a command's ``main(argv=None) -> status`` from its body ``body(argv) -> status``:
    a person's errors (:class:`~nim_evo.validation.UserError`), a player's
    (:class:`~nim_evo.validation.AgentError`: an illegal move, or an exception in its own code,
    named with the player and the position), file-system errors and running out of memory
    in one line (status 2), Ctrl-C as ``interrupted`` (status 130). Any other exception is a
    bug: it keeps its traceback (status 1)."""
    def wrap(body):
        @functools.wraps(body)
        def main(argv=None) -> int:
            at_main()
            try:
                return body(sys.argv[1:] if argv is None else list(argv))
            except (UserError, AgentError, OSError) as error:
                return report_error(error)
            except MemoryError as error:
                return report_error(out_of_memory(error))
            except KeyboardInterrupt:
                print(f"\nnim_evo: {interrupted}", file=sys.stderr)
                return 130
        return main
    return wrap


def check_flags(args, constraints: dict) -> None:
    """Check the flags ``args`` holds (those not ``None``) against ``constraints`` (see
    :mod:`nim_evo.validation`): a :class:`UsageError` naming the flag otherwise."""
    for name, allowed in constraints.items():
        value = getattr(args, name, None)
        if value is not None:
            try:
                check(name, value, allowed)
            except ParameterError as error:
                raise error.as_flag() from None


def cap_jobs(args) -> None:
    """Lower ``args.jobs`` to the machine's cores, with a one-line note on stderr (local
    work only: a Dask ``--scheduler``'s workers are its own)."""
    if getattr(args, "jobs", None) is None or getattr(args, "scheduler", None) is not None:
        return
    args.jobs, note = usable_jobs(args.jobs)
    if note:
        print(f"nim_evo: note: {note}", file=sys.stderr)


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that choose a board (``--game``, or ``--piles`` with ``--max-take`` and
    ``--misere``, and ``--list-games``)."""
    game = parser.add_argument_group("the game")
    game.add_argument("--game", help=f"a preset (see --list-games) or a board's name in any family's grammar: "
                                     f"Nim's 4-4-cap2-misere, a subtraction game's 20-sub1.3.4 (default {DEFAULT_GAME})")
    game.add_argument("--piles", type=int, nargs="+", metavar="N",
                      help=f"pile sizes, instead of --game (each at most 10^15; tables, the solver and exact "
                           f"fitness need at most {DEFAULT_MAX_POSITIONS:,} multisets of piles and "
                           f"{MAX_TABLE_CELLS:,} position-move pairs)")
    game.add_argument("--max-take", type=int, metavar="K", help="the most one move may take (with --piles)")
    game.add_argument("--misere", action="store_true", help="last take loses (with --piles)")
    game.add_argument("--list-games", action="store_true", help="list the preset games and the game families, and exit")


def list_games() -> int:
    """Print the named boards and the games' name forms; exit status 0."""
    for name, description in {**PRESETS, **GAME_PRESETS}.items():
        print(f"{name:16} {description}")
    print("\ngame families (--game takes a board's name in any of these grammars):")
    for name, family in FAMILIES.items():
        print(f"{name:16} {family.grammar}; e.g. {family.example}")
    return 0


def rules_from_args(args) -> Game:
    """The game the arguments name; raises ``UsageError`` for bad or conflicting input."""
    if args.piles is not None:
        if args.game is not None:
            raise UsageError("give either --game or --piles, not both")
        try:
            return Rules(tuple(args.piles), args.max_take, args.misere)
        except UserError as error:
            raise UsageError(str(error)) from None
    if args.max_take is not None or args.misere:
        raise UsageError("--max-take and --misere go with --piles (or name them in --game, e.g. 5-5-cap2-misere)")
    name = args.game or DEFAULT_GAME
    try:
        return Rules.preset(name) if name in PRESETS else game(name)
    except UserError as error:
        raise UsageError(f"{error}; see --list-games") from None


def refuse_overwrite(path: Path, force: bool, flag: str = "--out") -> None:
    """``UsageError`` if ``path`` exists and ``--force`` was not given: a user's file is never
    replaced (:func:`nim_evo.io.refuse_overwrite`, said with the command's flags: ``flag``
    named the path)."""
    try:
        io.refuse_overwrite(path, force, flag=flag)
    except KeywordError as error:
        raise UsageError(error.command) from None


PICTURES = ("png", "svg", "pdf")  # the pictures the commands draw (as nim_evo.plots says: not imported here)


def picture_path(name: str, force: bool, flag: str = "--picture") -> Path:
    """The path a picture flag names, or a one-line :class:`UsageError`: a known picture suffix,
    in a folder, not a folder itself, and no file replaced without ``--force``."""
    path = Path(name)
    if path.suffix.lstrip(".").lower() not in PICTURES:
        raise UsageError(f"{flag} {name}: nim_evo draws " + ", ".join(f".{f}" for f in PICTURES) + " pictures")
    check_folder(path, f"{flag} must name a picture in a folder")
    if path.is_dir():
        raise UsageError(f"{flag} {name} is a folder: name the picture's file in it")
    refuse_overwrite(path, force, flag)
    return path


def check_folder(path, need: str, itself: bool = False) -> None:
    """A one-line :class:`UsageError` if a file (or anything else that is no folder) stands where
    ``path`` needs a folder: at the nearest of its parent folders that exists, and with ``itself``
    (``path`` names a folder to write in) at ``path``. ``need`` says what the path is for::

        check_folder("f.txt/page.html", "--html must name a page in a folder")
        # UsageError: f.txt is not a folder: --html must name a page in a folder

    (Python's own words would be ``File exists (f.txt)`` or ``Not a directory``.)"""
    path = Path(path)
    for folder in ([path] if itself else []) + list(path.parents):
        if folder.is_dir():
            return
        if folder.exists() or folder.is_symlink():  # a file, a dangling link, a device
            raise UsageError(f"{folder} is not a folder: {need}")


def report_error(error: BaseException) -> int:
    """Print a usage, value or file-system error in one line; return exit status 2.

    A reader that closed the pipe (``... | head``) is no error: nothing is printed, and the
    status is the shell's for a process ended by SIGPIPE, 141."""
    if isinstance(error, BrokenPipeError):
        try:  # the interpreter's last flush of stdout must not fail again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141
    if isinstance(error, OSError):
        where = f" ({error.filename})" if error.filename else ""
        message = f"{error.strerror or error}{where}"
    elif isinstance(error, KeywordError):  # said with the command's flags, not the library's keywords
        message = error.command
    else:
        message = str(error)
    print(f"nim_evo: error: {shortened(printable(message))}", file=sys.stderr)
    return 2


def out_of_memory(error: MemoryError, after: str = "") -> UserError:
    """Running out of memory as one line (a process's limit, ``ulimit -v``: the machine's own
    ends it before Python hears of it), ``after`` added (what is kept)."""
    said = f" ({error})" if str(error) else ""
    return UserError(f"not enough memory{said}: this machine, or this process's limit, has too little for it{after}")


def shortened(line: str, limit: int = 400) -> str:
    """``line`` cut in the middle to about ``limit`` characters, saying how much was left out:
    an error that quotes a value (a pile of 5,000 digits, a 10,000-character expression)
    stays a line a person reads."""
    if len(line) <= limit:
        return line
    head, tail = limit * 2 // 3, limit // 3
    return f"{line[:head]} ... ({len(line) - head - tail:,} characters) ... {line[-tail:]}"

