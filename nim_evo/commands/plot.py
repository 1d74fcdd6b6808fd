"""``python -m nim_evo.plot``: pictures of runs and strategies.

    python -m nim_evo.plot runs/1-3-5-7-9-seed1-table               # fitness.png, policy.png in the run
    python -m nim_evo.plot runs/a runs/b runs/c --x evaluations  # one figure comparing the three
    python -m nim_evo.plot genomes/wincount-21-cap3-seed0.json   # a strategy file's moves

Several runs of one setting (differing in their seed alone) are drawn as their median and
interquartile band. One run directory gets ``fitness.<format>`` (best, mean and worst fitness, the best
individual's win rate per opponent and its accuracy, per generation) and ``policy.<format>``
(its champion's move in every position against the solver's verdict; stacked bars of each
take per heap size on one-heap games). Several runs get one comparison figure, written beside
the first (``compare-<run ids>.<format>``), and with ``--each`` their own pictures too; runs
whose fitness measures different things (other boards, another panel of opponents, other
starts) are refused, not drawn on one axis. A
strategy file (an exported genome or a trained learner) gets its policy picture,
``runs/policy-<name>.<format>``. Pictures nim_evo names are outputs, redrawn in place;
``--out`` never replaces a file without ``--force``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from nim_evo.cli.args import Parser, UsageError, check_folder, command, printable, prog, refuse_overwrite
from nim_evo.plots import FORMATS, X_AXES, save_figure


def build_parser() -> Parser:
    """The command's argument parser (its flags, their defaults and help)."""
    p = Parser(prog=prog("plot"), description=__doc__.splitlines()[0])
    p.add_argument("paths", nargs="+", metavar="RUN_DIR_OR_STRATEGY",
                   help="run directories (runs/<run-id>) or strategy files (genomes/*.json)")
    p.add_argument("--x", choices=list(X_AXES), default="generations",
                   help="the fitness history's x axis (default generations; with one run, cumulative evaluations "
                        "or games read on a second axis on top)")
    p.add_argument("--format", choices=FORMATS, help="picture format (default png, or --out's suffix)")
    p.add_argument("--out", help="a file for the one main picture instead: the comparison of several runs, "
                                 "the fitness history of one run, or the policy picture of one strategy file")
    p.add_argument("--each", action="store_true", help="with several runs, also draw each run's own pictures")
    p.add_argument("--no-policy", action="store_true", help="draw no policy pictures")
    p.add_argument("--greedy", action="store_true",
                   help="draw a learner file's greedy moves instead of its own sampling rule")
    p.add_argument("--force", action="store_true", help="allow --out to replace an existing file")
    return p


@command()
def main(argv) -> int:
    """The command on ``argv`` (the process's arguments by default); returns its exit status."""
    args = build_parser().parse_args(argv)
    from nim_evo.evaluation.strategy import load_strategy  # after parsing: --help answers at once
    # after parsing: --help answers at once
    from nim_evo.plots.history import check_comparable, draw_comparison, load_history
    from nim_evo.plots.policy import draw_strategy  # after parsing: --help answers at once
    from nim_evo.plots.run import draw_run  # after parsing: --help answers at once

    fmt, out = _format_and_out(args)
    runs, files = _sort_paths(args.paths)
    if out is not None and (len(files) > 1 or (files and runs) or (args.each and len(runs) > 1)):
        raise UsageError("--out names one picture: give it with one strategy file, one run, or several runs "
                         "without --each")
    histories = [load_history(run) for run in runs]  # every input checked before anything is drawn
    for history in histories:
        history.x(args.x)
    if len(histories) > 1:
        check_comparable(histories)
    strategies = [load_strategy(path, stochastic=not args.greedy) for path in files]
    if files and out is None:
        check_folder(Path("runs"), "plot draws a strategy file's picture in runs (or name a picture with --out)",
                     itself=True)
    written = []
    if len(runs) == 1 or args.each:
        for run, history in zip(runs, histories):
            written += draw_run(run, fmt, args.x, history=history, out=out if len(runs) == 1 else None,
                                policy=not args.no_policy)
    if len(runs) > 1:
        written.append(save_figure(draw_comparison(histories, args.x), out or _comparison_path(runs, histories, fmt)))
    for path, agent in zip(files, strategies):
        written.append(save_figure(draw_strategy(agent, path.name), out or Path("runs") / f"policy-{path.stem}.{fmt}"))
    for path in written:
        print(printable(path))
    return 0


def _format_and_out(args) -> tuple[str, Path | None]:
    if args.out is None:
        return args.format or "png", None
    out = Path(args.out)
    if args.out.endswith(("/", os.sep)) or out.is_dir():
        raise UsageError(f"--out {args.out} is a directory; --out names a picture file")
    suffix = out.suffix.lstrip(".").lower()
    if suffix and suffix not in FORMATS:
        raise UsageError(f"--out {out}: nim_evo draws " + ", ".join(f".{f}" for f in FORMATS) + " pictures")
    if suffix and args.format and args.format != suffix:
        raise UsageError(f"--out {out} is a .{suffix} file but --format says {args.format}")
    fmt = suffix or args.format or "png"
    out = out if suffix else out.with_name(out.name + f".{fmt}")
    check_folder(out, "--out must name a picture in a folder")
    refuse_overwrite(out, args.force)
    return fmt, out


def _sort_paths(paths) -> tuple[list[Path], list[Path]]:
    runs, files = [], []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            runs.append(path)
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(f"no run directory or strategy file at {path}")
    if len({p.resolve() for p in runs}) != len(runs):
        raise UsageError("a run directory is named twice")
    stems = [p.stem for p in files]
    twice = next((stem for stem in stems if stems.count(stem) > 1), None)
    if twice:
        raise UsageError(f"two strategy files are named {twice}; draw them one at a time with --out")
    return runs, files


def _comparison_path(runs, histories, fmt: str) -> Path:
    """``compare-<id>+<id>.<fmt>`` beside the first run; past three runs or 100 characters,
    ``compare-<first id>-and-<n>-more-<hash of all ids>.<fmt>``."""
    ids = [h.run_id for h in histories]
    name = "+".join(ids)
    if len(ids) > 3 or len(name) > 100:
        digest = hashlib.sha256("\0".join(ids).encode()).hexdigest()[:8]
        name = f"{ids[0][:60]}-and-{len(ids) - 1}-more-{digest}"
    return runs[0].resolve().parent / f"compare-{name}.{fmt}"
