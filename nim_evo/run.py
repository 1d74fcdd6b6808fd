"""``python -m nim_evo.run``: solve a game and play the fixed agents against a panel.

Until evolution lands this is the engine's demonstration: it solves the chosen board,
says who wins and how, and plays a tournament between the fixed agents.
"""

from __future__ import annotations

import argparse
import sys
import time

from nim_evo.agents import make_agent
from nim_evo.rules import DEFAULT_GAME, PRESETS, Rules
from nim_evo.solver import solve
from nim_evo.space import DEFAULT_MAX_POSITIONS, space_size
from nim_evo.tournament import tournament

DEFAULT_PLAYERS = "nimsum,minimax,fixed-rules,aggressive,random"
DEFAULT_OPPONENTS = "random,nimsum,minimax"


class UsageError(Exception):
    """Bad input from the command line: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m nim_evo.run", description=__doc__.splitlines()[0])
    game = parser.add_argument_group("the game")
    game.add_argument("--game", help=f"a preset or any name like 4-4-cap2-misere (default {DEFAULT_GAME})")
    game.add_argument("--piles", type=int, nargs="+", metavar="N", help="pile sizes, instead of --game")
    game.add_argument("--max-take", type=int, metavar="K", help="the most one move may take (with --piles)")
    game.add_argument("--misere", action="store_true", help="last take loses (with --piles)")
    game.add_argument("--list-games", action="store_true", help="list the preset games and exit")
    parser.add_argument("--players", default=DEFAULT_PLAYERS, help=f"agents to rate (default {DEFAULT_PLAYERS})")
    parser.add_argument("--opponents", default=DEFAULT_OPPONENTS, help=f"the panel (default {DEFAULT_OPPONENTS})")
    parser.add_argument("--games", type=int, default=1000, help="games per opponent and seat (default 1000)")
    parser.add_argument("--exact", action="store_true", help="exact win probabilities instead of games")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel workers (default 1)")
    return parser


def rules_from_args(args) -> Rules:
    """The game the arguments name; raises ``UsageError`` for bad or conflicting input."""
    if args.piles is not None:
        if args.game is not None:
            raise UsageError("give either --game or --piles, not both")
        try:
            return Rules(tuple(args.piles), args.max_take, args.misere)
        except ValueError as error:
            raise UsageError(str(error)) from None
    if args.max_take is not None or args.misere:
        raise UsageError("--max-take and --misere go with --piles (or name them in --game, e.g. 5-5-cap2-misere)")
    name = args.game or DEFAULT_GAME
    try:
        return Rules.preset(name) if name in PRESETS else Rules.parse(name)
    except ValueError as error:
        raise UsageError(f"{error}; see --list-games") from None


def main(argv=None) -> int:
    try:
        return _main(build_parser().parse_args(argv))
    except UsageError as error:
        print(f"nim_evo: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("nim_evo: interrupted", file=sys.stderr)
        return 130


def _main(args) -> int:
    if args.list_games:
        for name, description in PRESETS.items():
            print(f"{name:16} {description}")
        return 0
    rules = rules_from_args(args)
    if args.games < 1:
        raise UsageError(f"--games must be >= 1, got {args.games}")
    if args.jobs < 1:
        raise UsageError(f"--jobs must be >= 1, got {args.jobs}")
    size = space_size(rules)
    if size > DEFAULT_MAX_POSITIONS:
        raise UsageError(f"the board {rules.name} has {size:,} positions, more than the "
                         f"{DEFAULT_MAX_POSITIONS:,} the solver enumerates")
    try:
        players = [make_agent(name, rules) for name in _names(args.players)]
        opponents = [make_agent(name, rules) for name in _names(args.opponents)]
    except ValueError as error:
        raise UsageError(str(error)) from None

    began = time.perf_counter()
    solution = solve(rules)
    ending = "last take loses" if rules.misere else "last take wins"
    cap = f", take at most {rules.max_take}" if rules.max_take else ""
    print(f"game {rules.name}: piles {'-'.join(map(str, rules.piles))}{cap}, {ending}; "
          f"{size:,} positions solved in {time.perf_counter() - began:.2f} s")
    moves = solution.winning_moves(rules.start)
    if moves:
        shown = ", ".join(f"take {c} from pile {p + 1}" for p, c in moves)
        print(f"the first player wins with perfect play: {shown}")
    else:
        print("the second player wins with perfect play: every first move loses")

    mode = "exact win probabilities" if args.exact else f"{args.games:,} games per opponent and seat"
    print(f"\ntournament from the start position, both seats, {mode}")
    print(f"{'player':<14}{'opponent':<14}{'win rate':>9}  {'95% CI':<17}{'first':>7}{'second':>8}")
    for i, player in enumerate(players):
        results = tournament(rules, player, opponents, games=args.games, seed=[args.seed, i],
                             exact=args.exact, jobs=args.jobs)
        for result in results:
            ci = "exact" if result.exact else f"[{result.ci_low:.3f}, {result.ci_high:.3f}]"
            print(f"{player.name:<14}{result.opponent:<14}{result.win_rate:>9.3f}  {ci:<17}"
                  f"{result.first_rate:>7.3f}{result.second_rate:>8.3f}")
    print(f"\ndone in {time.perf_counter() - began:.1f} s")
    return 0


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise UsageError("an agent list must name at least one agent")
    return names


if __name__ == "__main__":
    sys.exit(main())
