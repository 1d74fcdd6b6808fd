"""``python -m nim_evo.run``: evolve a strategy genome with DEAP and export its champion.

    python -m nim_evo.run --genome table --generations 200
    python -m nim_evo.run --genome rules --game 7-5-3 --opponents random,nimsum,fixed-rules
    python -m nim_evo.run --resume runs/1-3-5-7-9-seed0-table

Writes ``runs/<run-id>/`` (config, logbook, checkpoint each generation, hall of fame,
champion) and exports the champion to ``genomes/<run-id>-<kind>.json``, a playable strategy.
"""

from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from nim_evo.cli import runflags
from nim_evo.cli.args import (UsageError, cap_jobs, check_flags, check_folder, list_games, out_of_memory, printable,
                              report_error)
from nim_evo.cli.interrupt import at_main, terminate_as_interrupt
from nim_evo.cli.runflags import build_parser, config_from_args  # (this command's parser and flags)
from nim_evo.evolution import cluster
from nim_evo.engine.rules import Rules
from nim_evo.validation import JOBS, AgentError, UserError

if TYPE_CHECKING:
    from nim_evo.evolution.rundir import RunDir
    from nim_evo.orchestration import Evolution

# The rest (numpy, DEAP, joblib) is imported where it is used, after the arguments are
# parsed: --help and a usage error answer at once (benchmarks/startup.py). The genome kind
# and the space are checked by Config, which lists what they may be.


def main(argv=None) -> int:
    """The command on ``argv`` (the process's arguments by default); returns its exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    at_main()
    with terminate_as_interrupt():
        return _main(argv)


def _main(argv: list) -> int:
    began = time.perf_counter()
    where: dict[str, Any] = {}  # the run directory, as soon as it is known (an interrupt may come at any moment)
    try:
        args = build_parser().parse_args(argv)
        args.command = "python -m nim_evo.run " + shlex.join(argv)
        if args.list_games:
            return list_games()
        check_flags(args, {"jobs": [JOBS]})
        cluster.check_backend(args.backend, args.scheduler, args.jobs)
        cap_jobs(args)
        with cluster.evaluation_backend(args.backend, args.jobs, args.scheduler) as jobs:
            return _evolve(args, _prepare(args, jobs, where), began)
    except cluster.ClusterError as error:
        run_dir = where.get("run_dir")
        saved = f"; the run is saved at its last generation: continue with {_resume(where)}" if run_dir else ""
        print(f"nim_evo: error: {printable(f'{error}{saved}')}", file=sys.stderr)  # the bar closed: a fresh line
        return 1
    except (UserError, AgentError) as error:  # a person's mistake, or a player's fault: one line
        return report_error(error)
    except OSError as error:  # a disk or file-system problem (a full disk): the last checkpoint stands
        saved = _saved_words(where)
        if saved and not isinstance(error, BrokenPipeError):
            named = f" ({error.filename})" if error.filename else ""
            return report_error(UserError(f"{error.strerror or error}{named}{saved}"))
        return report_error(error)
    except MemoryError as error:
        return report_error(out_of_memory(error, _saved_words(where)))
    except KeyboardInterrupt:
        run_dir = where.get("run_dir")
        hint = f"; continue with {_resume(where)}" if run_dir and _saved(run_dir) else ""
        print(f"\nnim_evo: interrupted{printable(hint)}", file=sys.stderr)
        return 130


def _saved_words(where: dict) -> str:
    """How to continue a run that failed, where its directory holds a checkpoint; else ""."""
    run_dir = where.get("run_dir")
    if run_dir is None or not _saved(run_dir):
        return ""
    return f"; the run is saved at its last generation: continue with {_resume(where)}"


def _saved(run_dir) -> bool:
    """Whether the run directory holds a checkpoint (a name too long to look up holds none)."""
    try:
        return run_dir.checkpoint_path.exists()
    except OSError:
        return False


def _resume(where: dict) -> str:
    """The command line that continues the run: with its ``--genomes-dir`` when that is not
    the default folder (a checkpoint does not choose where a resume writes)."""
    command = ["--resume", str(where["run_dir"].path)]
    genomes_dir = where.get("genomes_dir")
    if genomes_dir is not None and Path(genomes_dir).resolve() != Path("genomes").resolve():
        command += ["--genomes-dir", str(genomes_dir)]
    return shlex.join(command)


def _prepare(args, jobs: int, where: dict) -> Evolution:
    """The run to evolve, new or resumed; ``where["run_dir"]`` is set before anything is written."""
    from nim_evo.evolution.rundir import RunDir, export_path  # after parsing: --help answers at once
    from nim_evo.orchestration import Evolution  # after parsing: --help answers at once

    where["genomes_dir"] = args.genomes_dir
    if args.resume:
        given = [name for name in ("genome", "population", "offspring", "seed", "game", "piles", "max_take",
                                   "fitness", "games", "starts", "space", "train_boards", "selection",
                                   "restart", "out", "families")
                 if getattr(args, name) not in (None, False)] + (["misere"] if args.misere else [])
        if given:
            raise UsageError(f"--resume continues a run as it was configured; drop --{given[0].replace('_', '-')}")
        if args.genomes_dir:
            check_folder(args.genomes_dir, "--genomes-dir names the folder the champion is exported to", itself=True)
        where["run_dir"] = RunDir(args.resume)
        trusted = None if args.opponents is None else args.opponents.split(",")  # code the run plays, named again
        return Evolution.resume(args.resume, args.generations, genomes_dir=args.genomes_dir, force=args.force,
                                jobs=jobs, command=args.command, quiet=args.quiet, trusted=trusted,
                                until=runflags.until(args.until, resume=True))
    config = config_from_args(args)
    genomes_dir = Path(args.genomes_dir or "genomes")
    check_folder(genomes_dir, "--genomes-dir names the folder the champion is exported to" if args.genomes_dir else
                 "run exports the champion to the folder genomes (or name another with --genomes-dir)", itself=True)
    check_folder(args.out or "runs", "--out names the run's folder" if args.out else
                 "run writes its run folder in the folder runs (or name one with --out)", itself=True)
    run_dir = where["run_dir"] = RunDir(args.out) if args.out else _fresh_run_dir(genomes_dir, config)
    export = export_path(genomes_dir, run_dir, config)
    return Evolution.begin(config, out=run_dir.path, export=export, force=args.force, jobs=jobs,
                           command=args.command, quiet=args.quiet)


def _fresh_run_dir(genomes_dir: Path, config) -> RunDir:
    """``runs/<board>-seed<seed>-<kind>``, with ``-run2``, ``-run3``, ... after the seed while
    that run or its export exists (``seed0-2`` would read like seeds 0 to 2): runs of different
    kinds never share a name (a run of several families:
    ``<piles>-<family>+<family>...-seed<seed>-<kind>``)."""
    from nim_evo.evolution.rundir import RunDir, export_path  # after parsing: --help answers at once

    board = config.rules.file_stem if config.families is None else \
        f"{Rules(config.rules.piles).file_stem}-{'+'.join(config.families)}"
    base, n = f"{board}-seed{config.seed}", 1
    while True:
        run_dir = RunDir(Path("runs") / f"{base if n == 1 else f'{base}-run{n}'}-{config.genome}")
        if not run_dir.path.exists() and not export_path(genomes_dir, run_dir, config).exists():
            return run_dir
        n += 1


def _evolve(args, evolution: Evolution, began: float) -> int:
    from nim_evo.api import Run  # after parsing: --help answers at once

    first, started = evolution.state.generation, time.perf_counter()
    run = Run.evolved(evolution, progress=not args.quiet, force=args.force)
    assert run.directory is not None  # the command's runs are written to a run directory
    if not args.quiet:
        from nim_evo.console.summary import print_summary, times_text  # after parsing: --help answers at once
        from nim_evo.console.text import wrapped  # after parsing: --help answers at once
        from nim_evo.evolution.loop import home_panel  # after parsing: --help answers at once

        evolved = time.perf_counter()
        print_summary(run, home_panel(evolution.toolbox, run.config), evolution.jobs)
        print(wrapped(times_text(started - began, evolved - started, time.perf_counter() - evolved, run.state,
                                 first)))
        print(f"run files: {printable(run.directory.path)}/\n  config.json, logbook.csv, checkpoint.npz, hall_of_fame.json, "
              "champion.json")
        print(f"champion exported to {printable(run.exported)}\n  a strategy file: nim_evo.load_strategy(path), "
              "nim-evo play and nim-evo arena play it")
    if args.quiet:
        print(printable(run.exported))
    if args.plot:
        _plot(run.directory, args.plot, args.quiet)
    return 0


def _plot(run_dir: RunDir, fmt: str, quiet: bool) -> None:
    """Draw the run's pictures; a failure is a warning: the run and its export are done."""
    from nim_evo.plots.run import draw_run  # matplotlib only when drawing

    try:
        pictures = draw_run(run_dir.path, fmt)
    except (ValueError, OSError) as error:
        print(printable(f"nim_evo: warning: no pictures drawn ({error}); python -m nim_evo.plot {run_dir.path} "
                        "tries again"), file=sys.stderr)
        return
    if not quiet:
        print("pictures: " + ", ".join(map(printable, pictures)))
