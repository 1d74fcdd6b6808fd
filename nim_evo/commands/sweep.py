"""``nim-evo sweep`` (``python -m nim_evo.sweeps``): runs over seeds and a grid of settings.

    nim-evo sweep --genome table --game 7-5-3 --seeds 0-5 --grid population=20,40 --until accuracy=1 \\
        --generations 80 --jobs 2 --out runs/sweep-753
    nim-evo sweep --resume runs/sweep-753
    nim-evo sweep --genome program --seeds 0-9 --grid game=1-3-5-7-9,1-3-5-7-9-misere --until accuracy=1 \\
        --backend dask --scheduler tcp://10.0.0.5:8786

Every ``run`` flag (``--genome``, ``--game``, ``--generations``, ``--population``,
``--opponents``, ...) is the default of each run. ``--grid KEY=V1,V2,...`` (repeatable; a full
product) varies one of them: ``genome``, ``game``, ``families``, ``opponents``, ``population``,
``offspring``, ``generations``, ``selection``, ``restart``, ``fitness``, ``games``, ``starts``,
``space``, ``train-boards`` or ``until``; in a value, ``+`` stands for the comma of a list
(``--grid opponents=nimsum,random+nimsum``). Each run is one task, single-process, on
``--jobs`` local workers or a Dask cluster; the rows do not depend on how many.
``--minutes M`` stops each run after M minutes of evolving (then they depend on the
machine's speed): a success rate within a time bound.

Writes ``runs/sweep-<name>/`` (or ``--out``): each run's directory, ``runs.csv``,
``curves.csv``, ``summary.csv`` (success rates with Wilson's 95% interval, median and
interquartile range of generations and seconds to success, Koza's computational effort) and
``sweep.png``. Killed, it goes on with ``--resume``: finished runs kept, unfinished ones
resumed from their checkpoints.
"""

from __future__ import annotations

import itertools
import re
import shlex
import sys
from pathlib import Path

from nim_evo.cli.args import Parser, UsageError, cap_jobs, check_flags, check_folder, command, printable, prog
from nim_evo.cli.interrupt import terminate_as_interrupt
from nim_evo.evolution import cluster
from nim_evo.validation import JOBS, MINUTES, UserError

GRID_KEYS = ("genome", "game", "families", "opponents", "population", "offspring", "generations", "selection",
             "restart", "fitness", "games", "starts", "space", "train-boards", "until")
LISTS = ("families", "opponents", "train-boards")  # their values are lists: + joins the items of one
NOT_HERE = {"out": "--out names the sweep's folder here", "resume": "--resume names a sweep folder here",
            "genomes_dir": "a sweep exports no champions (each is in its run's folder)",
            "seed": "a sweep's seeds are --seeds", "plot": "a sweep draws sweep.png",
            "backend": None, "scheduler": None, "jobs": None, "quiet": None, "force": "a sweep replaces nothing",
            "list_games": "nim-evo run --list-games lists them"}


def build_parser() -> Parser:
    """The command's argument parser (its flags, their defaults and help)."""
    p = Parser(prog=prog("sweep").replace("nim_evo.sweep", "nim_evo.sweeps"), allow_abbrev=False,  # (--seed is run's)
               description="runs over seeds and a grid of settings, on the local pool or a Dask cluster",
               epilog="every flag of nim-evo run (nim-evo run --help) is the default of each run")
    p.add_argument("--seeds", help="the seeds: a range, a list or both, e.g. 0-29 or 0,3,5 or 0-4,10")
    p.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...",
                   help=f"a setting to vary (repeatable: every combination runs): {', '.join(GRID_KEYS)}")
    p.add_argument("--name", help="the sweep's name: its folder is runs/sweep-<name> (default from the board, "
                                  "genome and grid)")
    p.add_argument("--out", help="the sweep's folder instead of runs/sweep-<name>")
    p.add_argument("--minutes", type=float, metavar="M",
                   help="stop each run after M minutes of evolving, its target not reached (a success rate within a "
                        "time bound; kept on --resume)")
    p.add_argument("--resume", metavar="SWEEP_DIR", help="continue a sweep: finished runs kept, the others resumed")
    p.add_argument("--jobs", type=int, help="runs at once on local workers (default 1), or the Dask workers of a "
                                            "local cluster (default one per core)")
    p.add_argument("--backend", choices=cluster.BACKENDS, default="local",
                   help=f"where the runs go: joblib's local process pool (default) or a Dask cluster "
                        f"(pip install '{cluster.EXTRA}')")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="with --backend dask, a running cluster's scheduler")
    p.add_argument("--quiet", action="store_true", help="print only the files written")
    return p


@command()
def main(argv) -> int:
    """The command on ``argv`` (the process's arguments by default); returns its exit status."""
    args, rest = build_parser().parse_known_args(argv)
    check_flags(args, {"jobs": [JOBS], "minutes": [MINUTES]})
    cluster.check_backend(args.backend, args.scheduler, args.jobs)
    if args.backend == "local":
        args.jobs = args.jobs or 1
        cap_jobs(args)
    from nim_evo.evolution.sweepdir import SweepFolder, parse_seeds  # after parsing: --help answers at once
    from nim_evo.experiments import run_sweep  # after parsing: --help answers at once

    grid = None
    if args.resume:
        given = [flag for flag in ("seeds", "name", "out", "minutes") if getattr(args, flag)]
        given += ["grid"] if args.grid else []
        trusted = _trusted(rest)
        if given or trusted is None:
            raise UsageError(f"--resume continues a sweep as it was begun; drop {(['--' + g for g in given] + rest)[0]}")
        folder = SweepFolder(Path(args.resume).absolute())
        settings, seeds, _, minutes = folder.load()
    else:
        if args.seeds is None:
            raise UsageError("name the sweep's seeds: --seeds 0-29 (ranges and lists)")
        seeds = parse_seeds(args.seeds)
        if args.name is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._+=-]{0,80}", args.name):
            raise UsageError(f"--name {printable(args.name)}: letters, digits and . _ + = - (a folder's name)")
        settings, grid = _settings(rest, args.grid, len(seeds))
        where = Path(args.out) if args.out else Path("runs") / f"sweep-{args.name or _name(settings)}"
        check_folder(where, "--out names the sweep's folder" if args.out else
                     "sweep writes its folder in the folder runs (or name one with --out)", itself=True)
        folder = SweepFolder(where.absolute())
        trusted = None  # the code among its opponents is the person's own, named just now
        minutes = args.minutes
    try:
        with terminate_as_interrupt():
            result = run_sweep(folder, settings, seeds, jobs=args.jobs, backend=args.backend,
                               scheduler=args.scheduler, progress=not args.quiet, trusted=trusted, grid=grid,
                               minutes=minutes)
    except cluster.ClusterError as error:
        raise UserError(f"{error}; the finished runs are kept: continue with {_resume(folder)}") from None
    except KeyboardInterrupt:
        if folder.record_path.exists():
            print(f"\nnim_evo: interrupted; continue with {printable(_resume(folder))}", file=sys.stderr)
            return 130
        raise
    if not args.quiet:
        from nim_evo.console.sweep import format_summary  # after parsing: --help answers at once

        print(format_summary(result))
    for name in ("runs.csv", "curves.csv", "summary.csv", "sweep.png"):
        print(printable(folder.path / name))
    return 0


def _resume(folder) -> str:
    return f"nim-evo sweep --resume {shlex.quote(str(folder.path))}"


def _trusted(rest: list) -> list | None:
    """``--opponents A,B`` given again on ``--resume``: the code among a sweep's opponents, let
    run; ``[]`` for nothing given, ``None`` for any other flag."""
    if len(rest) == 2 and rest[0] == "--opponents":
        return rest[1].split(",")
    return None if rest else []


def _settings(rest: list, grid_flags: list, seeds: int) -> tuple[list, dict]:
    """Each setting of the grid as a run's configuration, parsed and checked by ``run``'s own
    parser from the run flags and the setting's values (errors name the flag); a grid of more
    runs (with ``seeds`` seeds) than a sweep has is refused before any setting is made."""
    from nim_evo.cli import runflags  # after parsing: --help answers at once
    from nim_evo.evolution.sweepdir import Setting, check_runs  # after parsing: --help answers at once

    parser = runflags.build_parser()
    base = parser.parse_args(rest)
    for name, why in NOT_HERE.items():
        value = getattr(base, name, None)
        if value is not None and value is not False and not (name == "backend" and value == "local"):
            raise UsageError(f"--{name.replace('_', '-')} is not a run flag in a sweep" + (f": {why}" if why else ""))
    grid = {}
    values: list[str] | tuple[str, ...]  # a flag's values, then a setting's
    for text in grid_flags:
        match = re.fullmatch(r"([a-z_-]+)=(.+)", text.strip())
        key = match[1].replace("_", "-") if match else None
        if key not in GRID_KEYS:
            raise UsageError(f"--grid {printable(text)}: KEY=V1,V2,... with KEY one of {', '.join(GRID_KEYS)}")
        assert match is not None  # without one, key is None: no grid key
        if key in grid:
            raise UsageError(f"--grid names {key} twice")
        values = [value.strip().replace("+", ",") if key in LISTS else value.strip() for value in match[2].split(",")]
        if "" in values or len(set(values)) != len(values):
            raise UsageError(f"--grid {key}= has an empty or repeated value: {printable(match[2])}")
        grid[key] = values
    check_runs([len(values) for values in grid.values()], seeds)
    settings = []
    for values in itertools.product(*grid.values()):
        label = dict(zip(grid, values))
        argv = list(rest)
        for key, value in label.items():
            argv += [f"--{key}", value]
        try:
            config = runflags.config_from_args(parser.parse_args(argv))
        except UserError as error:  # (a Config's refusal names the flag)
            setting = " ".join(f"{k}={v}" for k, v in label.items())
            raise UsageError(f"--grid {setting}: {error}") from None
        settings.append(Setting({key: value.replace(",", "+") for key, value in label.items()}, config))
    return settings, {key: [v.replace(",", "+") for v in values] for key, values in grid.items()}


def _name(settings) -> str:
    config = settings[0].config
    keys = "-".join(settings[0].label) or "seeds"
    return f"{config.rules.file_stem}-{config.genome}-{keys}"
