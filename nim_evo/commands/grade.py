"""``nim-evo grade``: the exact report of any player on a board.

    nim-evo grade nimsum --game 2-3-4-5-misere
    nim-evo grade genomes/7-5-3-seed1-rules.json --json
    nim-evo grade my_course.py:ai --piles 1 3 5 7 --misere --picture ai.png

SPEC is any player ``--opponents`` takes: an agent's name, a learner's (trained on first
use), a strategy file, or ``module:NAME`` / ``path/to/file.py:NAME`` (an agent object, class
or factory, or a course-style player: an object with ``choose_action(piles, epsilon=False)``,
a function of a state with ``rows`` and ``k``). A course-style player plays the board's rule.

Prints its accuracy (the share of the board's winning positions where it plays a winning
move), its exact win rates from both seats against random and nimsum, and the first
positions it gets wrong with a winning move for each; ``--json`` prints the same as one JSON
object. On a board too big to enumerate, or for a player too slow to ask at every position
within ``--budget`` seconds, the report samples (``--positions``, ``--games``) and says so,
with margins. The budget bounds the time the player is asked, in all: a sample it cuts short
says what it left, and a player that answers no position within it is stopped there.
"""

from __future__ import annotations

import contextlib
import json
import sys
from numbers import Integral, Real
from pathlib import Path

from nim_evo.cli.args import (PICTURES, Parser, UsageError, add_game_arguments, check_flags, command, list_games,
                              picture_path, printable, prog, rules_from_args)
from nim_evo.validation import SEED, Interval

MAX_SAMPLE = 1_000_000  # as nim_evo.evaluation.grading says (not imported: --help answers at once)
MIN_BUDGET = 0.001  # the same


def build_parser() -> Parser:
    """The command's argument parser (its flags, their defaults and help)."""
    p = Parser(prog=prog("grade"), description=__doc__.splitlines()[0])
    p.add_argument("player", nargs="?", metavar="SPEC",
                   help="an agent (nimsum, random, ...), a learner (qlearning, ...), a strategy file, or "
                        "module:NAME / path/to/file.py:NAME")
    add_game_arguments(p)
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--picture", metavar="FILE", help="also draw its policy picture (.png, .svg or .pdf)")
    p.add_argument("--force", action="store_true", help="allow --picture to replace an existing file")
    p.add_argument("--budget", type=float, default=60.0,
                   help="seconds of asking the player, at most, in all: a player too slow to ask at every "
                        "position within it is sampled, a sample cut where it runs out (default 60)")
    p.add_argument("--positions", type=int, default=2000, help="winning positions a sampled report asks (default 2000)")
    p.add_argument("--games", type=int, default=200, help="games per opponent and seat in a sampled report (default 200)")
    p.add_argument("--seed", type=int, default=0,
                   help="the sample's and the games' seed, and a learner's training seed (default 0)")
    return p


@command()
def main(argv) -> int:
    """The command on ``argv`` (the process's arguments by default); returns its exit status."""
    args = build_parser().parse_args(argv)
    if args.list_games:
        return list_games()
    if args.player is None:
        raise UsageError("name the player to grade (nim-evo grade SPEC --game NAME)")
    check_flags(args, {"budget": [Interval(Real, MIN_BUDGET, None)], "positions": [Interval(Integral, 1, MAX_SAMPLE)],
                       "games": [Interval(Integral, 1, MAX_SAMPLE)], "seed": [SEED]})
    from nim_evo.console.grading import format_report  # after parsing: --help answers at once
    from nim_evo.evaluation import opponents  # after parsing: --help answers at once
    from nim_evo.evaluation.specs import is_file  # after parsing: --help answers at once
    from nim_evo.evaluation.grading import grade_player  # after parsing: --help answers at once
    from nim_evo.evaluation.strategy import load_strategy  # after parsing: --help answers at once

    given = args.game is not None or args.piles is not None or args.max_take is not None or args.misere
    rules = load_strategy(args.player).rules if is_file(args.player) and not given else rules_from_args(args)
    picture = _picture_path(args.picture, args.force, rules) if args.picture else None
    # with --json, what the player's own code prints goes to stderr: stdout is the JSON alone
    players_prints = contextlib.redirect_stdout(sys.stderr) if args.json else contextlib.nullcontext()
    with players_prints:
        player = opponents.resolve(args.player, rules, args.seed)  # (its own code raising: one line, exit 2)
        report = grade_player(player, rules, budget=args.budget, positions=args.positions, games=args.games,
                              seed=args.seed)
    print(json.dumps(report.to_json(), indent=2) if args.json else format_report(report))
    if picture is not None:
        with players_prints:  # (both context managers may be entered again)
            _draw(player, report, picture)
    return 0


def _picture_path(name: str, force: bool, rules) -> Path:
    # after parsing: --help answers at once
    from nim_evo.engine.space import DEFAULT_MAX_POSITIONS, enumerable, space_size

    if Path(name).suffix.lstrip(".").lower() in PICTURES and not enumerable(rules):
        raise UsageError(f"--picture: the board {rules.name} has {space_size(rules):,} positions, too many to picture "
                         f"(limit {DEFAULT_MAX_POSITIONS:,})")
    return picture_path(name, force)


def _draw(player, report, path: Path) -> None:
    from nim_evo.evaluation.grading import GradedPolicy  # after parsing: --help answers at once
    from nim_evo.plots import save_figure  # after parsing: --help answers at once
    from nim_evo.plots.policy import draw_policy  # matplotlib only when drawing

    if not report.exact:
        print(f"nim_evo: note: no picture: the report is sampled ({report.sampled_because})", file=sys.stderr)
        return
    title = f"{report.player} on {report.rules.name} ({report.convention})"
    print(printable(save_figure(draw_policy(GradedPolicy(player, report), title), path)), file=sys.stderr)
