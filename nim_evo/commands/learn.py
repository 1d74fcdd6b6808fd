"""``python -m nim_evo.learn``: train a learned agent and save it as a playable strategy.

    python -m nim_evo.learn --learner qlearning --game 2-3-4-5-misere --games 30000 --seed 1
    python -m nim_evo.learn --learner wincount --game 21-cap3 --opponents nimsum --seat loser
    python -m nim_evo.learn --learner td --param alpha=0.5 --param gamma=0.95

Trains by self-play (or against ``--opponents``, one opponent), then reports the share of winning
positions where the learner plays a winning move (by the solver) and its exact win
probabilities against random and nim-sum play, and writes
``genomes/<learner>-<game>-seed<seed>.json`` (``-2``, ``-3``, ... if that file exists), which
``nim_evo.load_strategy`` plays.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from pathlib import Path

from nim_evo.cli.args import (Parser, UsageError, add_game_arguments, check_flags, check_folder, check_writable,
                              command, list_games, printable, prog, refuse_overwrite, rules_from_args)
from nim_evo.learners import LEARNERS, SEATS
from nim_evo.learners.files import save_learner
from nim_evo.io import bounded_int
from nim_evo.validation import EPISODES, SEED, UserError

REPORT_OPPONENTS = ("random", "nimsum")


def build_parser() -> Parser:
    """The command's argument parser (its flags, their defaults and help)."""
    p = Parser(prog=prog("learn"), description=__doc__.splitlines()[0],
               renamed={"--agent": "--learner", "--episodes": "--games", "--opponent": "--opponents"})
    p.add_argument("--learner", choices=list(LEARNERS), required=True, help="the learner (" + ", ".join(
        f"{name}: from {cls.source}" for name, cls in LEARNERS.items()) + ")")
    add_game_arguments(p)
    train = p.add_argument_group("training")
    train.add_argument("--games", type=int, help="training games in all (default: the source write-up's budget "
                                                 "for the learner; at most 100,000,000)")
    train.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    train.add_argument("--opponents", metavar="OPPONENT", help="train against this one agent, learner or strategy "
                                                                "file instead of by self-play")
    train.add_argument("--seat", choices=SEATS, default="alternate",
                       help="the learner's seat against --opponents: alternate (first in every other game; "
                            "the default), first, second, or loser (the last game's loser starts the next, "
                            "as the source write-ups' training loops did)")
    train.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                       help="a learner parameter, VALUE in JSON (repeatable), e.g. alpha=0.5")
    train.add_argument("--symmetry", action=argparse.BooleanOptionalAction,
                       help="learn over multisets of pile sizes, one entry for every arrangement of the same "
                            "piles (default: as the source write-ups did, on for qlearning, off for the others)")
    out = p.add_argument_group("output")
    out.add_argument("--out", help="the learner file it makes (default genomes/<learner>-<game>-seed<seed>.json)")
    out.add_argument("--force", action="store_true", help="allow overwriting an existing --out")
    out.add_argument("--report", action="store_true", help="print the learned move at every position "
                                                           "(the OK!/NO! report of Moore's NIM Rules)")
    out.add_argument("--quiet", action="store_true", help="no progress bar or report, just the file written")
    return p


@command(interrupted="interrupted; nothing was written")
def main(argv) -> int:
    """The command on ``argv`` (the process's arguments by default); returns its exit status."""
    if "--list-games" in argv:  # needs no --learner
        return list_games()
    args = build_parser().parse_args(argv)
    return _learn(args, "python -m nim_evo.learn " + shlex.join(argv))


def parse_params(items) -> dict:
    """``--param KEY=VALUE`` items as a dict of numbers; a one-line ``UserError`` for an item of
    another form."""
    params = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--param takes KEY=VALUE, got {item!r}")
        try:
            params[key.strip()] = json.loads(text, parse_int=bounded_int)
        except (json.JSONDecodeError, RecursionError):
            raise UsageError(f"--param {key}: {text!r} is not a JSON value (numbers as 0.5, true/false)") from None
        except UserError as error:  # an integer of hundreds of digits
            raise UsageError(f"--param {key} {error}") from None
    return params


def _learn(args, command: str) -> int:
    from nim_evo import api  # (after parsing: --help answers at once, without the evolution's DEAP and joblib)
    from nim_evo.engine.solver import solve  # (likewise)
    from nim_evo.evaluation.tournament import tournament  # (likewise)

    rules = rules_from_args(args)
    params = parse_params(args.param)
    if args.symmetry is not None:
        params["symmetry"] = args.symmetry
    check_flags(args, {"seed": [SEED], "games": [EPISODES]})
    training = api.Training.begin(args.learner, rules, args.games, args.seed, args.opponents, args.seat, params)
    learner, episodes, opponent = training.learner, training.games, training.opponent
    out = _out_path(args, rules)  # before training, not after

    against = "self-play" if opponent is None else f"against {printable(args.opponents)} ({args.seat} seat)"
    if not args.quiet:
        print(f"training {args.learner} on {rules.name}: {episodes:,} games, {against}, seed {args.seed}",
              file=sys.stderr)
    began = time.perf_counter()
    won = training.run(progress=not args.quiet)
    seconds = time.perf_counter() - began
    solution = solve(learner.space)
    accuracy = solution.accuracy(learner.policy(learner.space))
    opponents = REPORT_OPPONENTS if rules.family == "nim" else ("random", "perfect")  # perfect play, Nim's name or not
    results = tournament(rules, learner, list(opponents), exact=True, multiset=learner.symmetry)
    save_learner(learner, out, replace=args.force, command=command, accuracy=accuracy, seconds=round(seconds, 3),
                 win_rates={r.opponent: [r.first_rate, r.second_rate] for r in results})
    if args.quiet:
        print(printable(out))
        return 0
    rate = f" ({episodes / seconds:,.0f} games/s)" if seconds > 0 and episodes else ""
    print(f"\n{args.learner} on {rules.name}: {episodes:,} games in {seconds:.1f} s{rate}")
    if opponent is not None and episodes:
        tail = won[-max(1, episodes // 10):]
        print(f"  won {won.mean():.3f} of its training games against {printable(args.opponents)}, "
              f"{tail.mean():.3f} of the last {len(tail):,}")
    print(f"  plays a winning move in {100 * accuracy:.2f}% of winning positions (greedy; the solver's verdict)")
    learner.stochastic = True
    print(f"  {100 * solution.accuracy(learner.policy(learner.space)):.2f}% with its own stochastic rule "
          "(the mean probability of a winning move)")
    learner.stochastic = False
    print("  exact win probability from the start, first seat / second seat:")
    for r in results:
        print(f"    {r.opponent:<8} {r.first_rate:.3f} / {r.second_rate:.3f}")
    if args.report:
        for line in learner.report(solution):
            print("  " + line)
    print(f"saved to {printable(out)}\n  a strategy file: nim_evo.load_strategy(path), nim-evo play and nim-evo arena play it")
    return 0


def _out_path(args, rules) -> Path:
    """The file ``--out`` names (the default name where it names none, or a folder), checked
    to be new (unless ``--force``) in a folder that can be written to."""
    if args.out is None or args.out.endswith(("/", os.sep)):  # the default name (in the directory meant)
        out = _fresh_name(Path(args.out or "genomes"), f"{args.learner}-{rules.file_stem}-seed{args.seed}")
    else:
        out = Path(args.out)
    check_folder(out, "--out must name a file in a folder" if args.out else
                 "learn saves to the folder genomes (or name a file with --out)")
    if out.is_dir():
        raise UsageError(f"{out} is a directory; name a file, or end it with / to write the default name in it")
    refuse_overwrite(out, args.force)
    check_writable(out.parent)
    return out


def _fresh_name(folder: Path, base: str) -> Path:
    """``<folder>/<base>.json``, or ``-2``, ``-3``, ... while that file exists (as run ids do):
    a default name never meets a file already there, a shipped one included."""
    n = 1
    while (path := folder / (f"{base}.json" if n == 1 else f"{base}-{n}.json")).exists():
        n += 1
    return path
