"""The flags of ``nim-evo run`` and the run configuration they make: shared by ``run`` and by
``sweep`` (whose runs take every run flag as their default)."""

from __future__ import annotations

import argparse
import dataclasses
import re
from typing import TYPE_CHECKING, Any

from nim_evo.cli.args import Parser, UsageError, add_game_arguments, printable, prog, rules_from_args
from nim_evo.evolution import cluster
from nim_evo.plots import FORMATS
from nim_evo.validation import ParameterError

if TYPE_CHECKING:
    from nim_evo.evolution.config import Config


DESCRIPTION = "evolve a strategy genome with DEAP and export its champion"


def build_parser() -> argparse.ArgumentParser:
    """The command's argument parser (its flags, their defaults and help)."""
    p = Parser(prog=prog("run"), description=DESCRIPTION)
    evo = p.add_argument_group("evolution")
    evo.add_argument("--genome", help="genome kind: table (default), rules, thresholds, program, or one a package registers")
    evo.add_argument("--generations", type=int, help="generations to evolve (default 200; at most 1,000,000)")
    evo.add_argument("--population", type=int, help="mu, the population kept (default 40, 500 for program genomes; 2 to 10,000)")
    evo.add_argument("--offspring", type=int, help="lambda, offspring per generation (default 80, 500 for program genomes; at most 10,000)")
    evo.add_argument("--seed", type=int, help="random seed (default 0)")
    evo.add_argument("--selection", choices=("tournament", "lexicase"),
                     help="survivors by tournament, or by lexicase over every sub-game (exact fitness; "
                          "default: tournament, lexicase for program genomes)")
    evo.add_argument("--restart", type=int, metavar="N",
                     help="a new random population after N generations without progress, the best kept "
                          "in the hall of fame (0: never; default 0, 10 for program genomes)")
    evo.add_argument("--until", metavar="TARGET",
                     help="stop at the first generation whose champion reaches TARGET: accuracy=X (a winning move "
                          "in that share of the board's winning positions; accuracy=1, perfect play) or ceiling "
                          "(the most the panel allows, exact fitness); on --resume a new target, or never")
    evo.add_argument("--families", metavar="F1,F2,...",
                     help="evolve one program for several families at once, e.g. normal,misere,cap3,cap3-misere "
                          "(the game's own among them; fitness on the training boards of each; program genomes)")
    add_game_arguments(p)
    fit = p.add_argument_group("fitness")
    fit.add_argument("--opponents", help="comma-separated panel of agents (random, nimsum, minimax, take-3, ...), "
                                         "learners (qlearning, td, ...: trained on first use and cached) or "
                                         "strategy files (default random,nimsum,minimax; nimsum for program genomes)")
    fit.add_argument("--fitness", choices=["exact", "sampled"],
                     help="exact win probabilities (default) or sampled games")
    fit.add_argument("--games", type=int, help="sampled games per opponent and seat (default 1000; at most 1,000,000)")
    fit.add_argument("--starts", choices=["start", "all"], help="games from the start (default) or every position")
    fit.add_argument("--space",
                     help="the enumerated space of fitness and table genes: multiset, multisets of pile sizes (default; "
                          "one entry for every arrangement of the same piles), or ordered, positions")
    fit.add_argument("--train-boards", metavar="BOARDS",
                     help="genomes that play any board: the boards fitness is the mean over, e.g. 2-3,1-4-6,3-5-7 "
                          "(each with the game's cap and misère rule; 1 to 12 boards of 1 to 6 piles of at most 15; "
                          "default: the program genome's own six boards of 2 to 4 piles up to 15, others the game)")
    fit.add_argument("--jobs", type=int, help="parallel workers, local (default 1) or of a local Dask cluster "
                                              "(default one per core; at most the machine's cores); results do not depend on it "
                                              "(a table run evaluates in its own process, in a thread beside its variation)")
    fit.add_argument("--backend", choices=cluster.BACKENDS, default="local",
                     help="where fitness tasks run: joblib's local process pool (default) or a Dask cluster "
                          f"(pip install '{cluster.EXTRA}'); the same seed gives the same result on either")
    fit.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                     help="with --backend dask, the scheduler of a running cluster (default: start a local one)")
    out = p.add_argument_group("output")
    out.add_argument("--out", help="the run directory (default runs/<run-id>)")
    out.add_argument("--genomes-dir", help="where the champion is exported (default genomes; on --resume, where "
                                           "the run exported before)")
    out.add_argument("--resume", metavar="RUN_DIR", help="continue a run from its last checkpoint")
    out.add_argument("--force", action="store_true", help="allow overwriting an existing run directory or export")
    out.add_argument("--plot", nargs="?", const="png", choices=FORMATS, metavar="FORMAT",
                     help="at the end, draw the fitness history and the champion's moves into the run "
                          "directory (png, or svg or pdf; see python -m nim_evo.plot)")
    out.add_argument("--quiet", action="store_true", help="no progress bar or summary, just the export path")
    return p


def train_boards(text: str) -> tuple:
    """``2-3,1-4-6-cap3-misere`` as ``((2, 3), "1-4-6-cap3-misere")``: pile sizes, or a game's
    full name (played in its own family alone); a one-line error otherwise."""
    boards: list[tuple[int, ...] | str] = []
    for board in text.split(","):
        if re.fullmatch(r"\d{1,20}(-\d{1,20})*", board.strip()):
            boards.append(tuple(int(n) for n in board.strip().split("-")))
        elif re.fullmatch(r"\d{1,20}(-\d{1,20})*(-cap\d{1,20})?(-misere)?", board.strip().lower()):
            boards.append(board.strip().lower())
        else:
            raise UsageError(f"--train-boards takes boards like 2-3,1-4-6 (pile sizes joined by -) or games' names "
                             f"like 2-3-cap3-misere, got {printable(repr(text[:80]))}")
    return tuple(boards)


def until(text: str | None, resume: bool = False) -> str | None:
    """``--until``'s target, checked (on ``--resume``, ``never`` drops the run's target)."""
    from nim_evo.evolution.target import NEVER, UNTIL  # (import time: --help needs no run settings)

    if text is None or UNTIL(text) or (resume and text == NEVER):
        return text
    never = ", or never on --resume" if resume else ""
    raise UsageError(f"--until takes accuracy=X (0 < X <= 1) or ceiling{never}, got {printable(repr(text))}")


def defaults() -> dict:
    """What a run's flags default to: :class:`~nim_evo.evolution.config.Config`'s defaults."""
    from nim_evo.evolution.config import Config  # (import time: --help loads no numpy)

    config: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Config)}
    return {"genome": "table", "opponents": ",".join(config["opponents"]),
            **{key: config[key] for key in ("generations", "population", "offspring", "games", "fitness",
                                            "starts", "seed", "space")}}


def config_from_args(args) -> Config:
    """The run's configuration from the arguments, checked by :class:`~nim_evo.evolution.config.Config` (its
    errors name the flags)."""
    from nim_evo.evolution.config import Config  # (import time: --help loads no numpy)

    from nim_evo.genomes import get_kind, kind_names  # (import time: --help loads no numpy)

    genome = args.genome if args.genome is not None else defaults()["genome"]
    rules = rules_from_args(args)
    own = get_kind(genome).settings_for(rules) if genome in kind_names() else {}  # (an unknown kind: Config says so)
    own = {key: ",".join(value) if key == "opponents" else value for key, value in own.items()}
    values = {key: getattr(args, key) if getattr(args, key) is not None else own.get(key, default)
              for key, default in defaults().items()}
    values.update(selection=args.selection, restart=args.restart, until=until(args.until),
                  families=None if args.families is None else tuple(name.strip() for name in args.families.split(",")))
    families = values["families"]
    opponents = tuple(name.strip() for name in values.pop("opponents").split(","))
    boards = None if args.train_boards is None else train_boards(args.train_boards)
    try:
        return Config(rules=rules, opponents=opponents, train_boards=boards, **values)
    except ParameterError as error:
        if error.parameter == "opponents":  # say which of the list's rules it breaks
            given = args.opponents or own.get("opponents", defaults()["opponents"])
            problem = "has an empty name" if "" in opponents else "names an opponent twice"
            raise UsageError(f"--opponents {problem}: {given!r}") from None
        if error.parameter == "families" and error.problem.startswith("must be a list"):
            problem = "has an empty name" if "" in families else "names a family twice"
            raise UsageError(f"--families {problem}: {printable(repr(args.families))}") from None
        raise error.as_flag() from None
