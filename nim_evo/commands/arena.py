"""``python -m nim_evo.arena``: a round robin between agents and strategy files on one board.

    python -m nim_evo.arena nimsum minimax random genomes/7-5-3-seed1-rules.json
    python -m nim_evo.arena nimsum random qlearning --game 2-3-4-5-misere --games 5000 --jobs 2
    python -m nim_evo.arena random take-3 genomes/wincount-21-cap3-seed0.json --exact

Every pair plays ``--games`` games with each moving first (or, with ``--exact``, the exact
win probabilities from the start). Prints the win-rate matrix (row against column, both seats)
with 95% Wilson intervals and a ranking, and writes ``arena.csv`` and ``arena.png`` (a heat
map) to ``runs/arena-<game>-seed<seed>/`` or ``--out``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from nim_evo.cli.args import (Parser, UsageError, add_game_arguments, cap_jobs, check_flags, check_folder,
                              check_writable, command, list_games, printable, prog, refuse_overwrite, rules_from_args)
from nim_evo.console.opponents import resolve_saying
from nim_evo.console.text import middle, wrapped
from nim_evo.engine.space import DEFAULT_MAX_POSITIONS, MAX_TABLE_CELLS, space_size, tabulable
from nim_evo.evaluation import opponents
from nim_evo.evaluation.roundrobin import round_robin
from nim_evo.evaluation.strategy import load_strategy
from nim_evo.io import new_folders, remove_empty
from nim_evo.atomic import atomic_write_text
from nim_evo.evaluation.specs import is_file, is_learner, label
from nim_evo.validation import GAMES, JOBS, SEED

OUTPUTS = ("arena.csv", "arena.png")
NAME_WIDTH = 24  # the longest player name in the text matrix; arena.csv keeps every name whole


def build_parser() -> Parser:
    """The command's argument parser (its flags, their defaults and help)."""
    p = Parser(prog=prog("arena"), description=__doc__.splitlines()[0])
    p.add_argument("players", nargs="*", metavar="AGENT_OR_FILE",
                   help="named agents (random, nimsum, minimax, take-3, ...), learners (qlearning, td, ...: "
                        "trained on first use and cached) or strategy files (genomes/*.json); two or more")
    add_game_arguments(p)
    p.add_argument("--games", type=int, default=1000, help="games per pair and seat (default 1000; at most 1,000,000)")
    p.add_argument("--exact", action="store_true", help="exact win probabilities from the start instead of games")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="parallel workers, at most the machine's cores; results do not depend on it (default 1)")
    p.add_argument("--out", help="the output directory (default runs/arena-<game>-seed<seed>)")
    p.add_argument("--force", action="store_true", help="allow replacing arena.csv and arena.png in --out")
    p.add_argument("--quiet", action="store_true", help="print only the files written")
    return p


@command()
def main(argv) -> int:
    """The command on ``argv`` (the process's arguments by default); returns its exit status."""
    args = build_parser().parse_args(argv)
    if args.list_games:
        return list_games()
    rules = _rules(args)
    out = _out_dir(args, rules)
    players = _players(args.players, rules, args.seed, args.quiet)
    created = new_folders(out)
    check_writable(out)
    try:
        result = round_robin(rules, players, games=args.games, seed=args.seed, exact=args.exact, jobs=args.jobs)
        from nim_evo.plots import save_figure  # after parsing: --help answers at once
        from nim_evo.plots.matrix import draw_arena  # after parsing: --help answers at once

        atomic_write_text(out / "arena.csv", result.to_csv())
        save_figure(draw_arena(result), out / "arena.png")
    except BaseException:  # a player failing in the games, Ctrl-C: no empty folder left behind
        remove_empty(created)
        raise
    if not args.quiet:
        print(format_table(result))
    print(printable(out / "arena.csv"))
    print(printable(out / "arena.png"))
    return 0


def format_table(result) -> str:
    """The matrix as text within 100 columns for up to 11 players (its notes wrapped to the terminal):
    a numbered row per player (names printable and cut in the middle past 24 characters), the columns by
    number, each cell its row's win rate; the widest 95% interval is stated once (every cell's
    is in arena.csv)."""
    n = len(result.names)
    names = [f"{i + 1:>2} {middle(name, NAME_WIDTH)}" for i, name in enumerate(result.names)]
    width = max(len(name) for name in names) + 1
    cell = 7 if n <= 9 else 6
    last = cell + 1 if n <= 9 else cell  # the mean column
    if result.exact:
        how = "exact win probabilities from the start"
    else:
        off = ~np.eye(n, dtype=bool)
        margin = float(np.max(np.maximum(result.rate - result.low, result.high - result.rate)[off]))
        how = (f"{result.games:,} games per pair and seat, seed {result.seed}; each rate within ±{margin:.3f} "
               "(95% Wilson interval; every interval in arena.csv)")
    lines = [wrapped(f"arena on {result.rules.name}: {how}"), "row's win rate against column, both seats",
             " " * width + "".join(f"{j + 1:>{cell}}" for j in range(n)) + f"{'mean':>{last}}"]
    means = result.mean_rates()
    for i, name in enumerate(names):
        cells = "".join(("-" if i == j else f"{result.rate[i, j]:.3f}").rjust(cell) for j in range(n))
        lines.append(f"{name:<{width}}{cells}{means[i]:>{last}.3f}")
    lines.append(wrapped("ranking: " + ", ".join(f"{middle(name, NAME_WIDTH)} {mean:.3f}" for name, mean in result.ranking())))
    return "\n".join(lines)


def _rules(args):
    """The board: --game/--piles, else the first strategy file's, else the default game."""
    if len(args.players) < 2:
        raise UsageError(f"name two or more agents or strategy files (got {len(args.players)})")
    check_flags(args, {"games": [GAMES], "jobs": [JOBS], "seed": [SEED]})
    cap_jobs(args)
    given = args.game is not None or args.piles is not None
    files = [spec for spec in args.players if is_file(spec)]
    rules = rules_from_args(args) if given or not files else load_strategy(files[0]).rules
    if not tabulable(rules, multiset=True):
        raise UsageError(f"the board {rules.name} has {space_size(rules, True):,} multisets of piles with "
                         f"{rules.n_moves:,} moves each; the arena plays on boards of at most "
                         f"{DEFAULT_MAX_POSITIONS:,} multisets and {MAX_TABLE_CELLS:,} position-move pairs")
    return rules


def _out_dir(args, rules) -> Path:
    if args.out:
        out = Path(args.out)
        check_folder(out, "--out names the folder for arena.csv and arena.png", itself=True)
        for name in OUTPUTS:
            refuse_overwrite(out / name, args.force)
        return out
    check_folder(Path("runs"), "the arena writes to a folder in runs (or name one with --out)", itself=True)
    base = f"arena-{rules.file_stem}-" + ("exact" if args.exact else f"seed{args.seed}")
    n = 1
    while any((Path("runs") / (base if n == 1 else f"{base}-{n}") / name).exists() for name in OUTPUTS):
        n += 1
    return Path("runs") / (base if n == 1 else f"{base}-{n}")


def _players(specs, rules, seed: int, quiet: bool) -> dict:
    """Name -> agent; a file is named by its stem. Learners are trained (or loaded) with ``seed``."""
    names = [label(spec) for spec in specs]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice:
        raise UsageError(f"{twice} takes part twice; name each participant once")
    players = {name: None if is_learner(spec) else opponents.resolve(spec, rules, seed)  # cheap ones first
               for name, spec in zip(names, specs)}
    for name, spec in zip(names, specs):
        if is_learner(spec):
            players[name] = resolve_saying(spec, rules, seed, "participant", quiet)
    return players
