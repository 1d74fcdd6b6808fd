"""``python -m nim_evo.play``: play Nim in the terminal, against a strategy or between two.

    python -m nim_evo.play                                  # you against nimsum on 1-3-5-7-9
    python -m nim_evo.play minimax --game 7-5-3 --first you
    python -m nim_evo.play genomes/wincount-21-cap3-seed0.json   # a file brings its own game
    python -m nim_evo.play nimsum --opponents random --games 1000 --game 7-5-3 --seed 1
    python -m nim_evo.play genomes/7-5-3-seed1-rules.json --opponents nimsum --games 3 --watch

Moves are typed as the pile (counted from 1) and how many to take: ``2 3`` (or ``2,3``,
``2:3``) takes 3 from pile 2; on a single heap a bare count will do. ``hint`` asks the
solver, ``help`` explains, ``quit`` leaves (see :mod:`nim_evo.console.games`).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import sys

import numpy as np

from nim_evo.cli.args import (Parser, UsageError, add_game_arguments, check_flags, list_games, out_of_memory, prog,
                              report_error, rules_from_args)
from nim_evo.cli.interrupt import at_main
from nim_evo.console.session import Console, EndOfInput
from nim_evo.console.games import COMPUTER_FIRST, HUMAN_FIRST, play_computers, play_human
from nim_evo.console import bigplay
from nim_evo.console.opponents import resolve_saying
from nim_evo.evaluation.specs import Spec, is_file, label
from nim_evo.evaluation.strategy import load_strategy
from nim_evo.games import bigheaps
from nim_evo.genomes import GenomeAgent
from nim_evo.learners import LEARNERS
from nim_evo.learners.base import Learner
from nim_evo.validation import GAMES, SEED, AgentError, UserError, printable


def _prepare(args):
    """Check the options and build the players: ``(rules, agents, names)``; raises one-line errors."""
    if args.opponents is None and (args.games is not None or args.watch):
        raise UsageError(f"{'--games' if args.games is not None else '--watch'} goes with --opponents OTHER "
                         "(a match between two computers)")
    if args.opponents is None and args.first not in (None, *HUMAN_FIRST):
        raise UsageError(f"against you, --first is {', '.join(HUMAN_FIRST)}; got {args.first!r}")
    if args.opponents is not None and args.first not in (None, *COMPUTER_FIRST):
        raise UsageError(f"with --opponents, --first names STRATEGY's seat: {', '.join(COMPUTER_FIRST)}; "
                         f"got {args.first!r}")
    if args.opponents is not None and Spec.parse(args.opponents).several:
        raise UsageError(f"play is a match of two: --opponents {args.opponents!r} names several (the arena plays "
                         "many: nim-evo arena)")
    seed = args.seed
    if args.strategy is None:  # perfect play, by the name Nim's write-ups gave it on Nim
        args.strategy = "nimsum" if rules_from_args(args).family == "nim" else "perfect"
    if is_file(args.strategy):
        given = args.game is not None or args.piles is not None or args.max_take is not None or args.misere
        agent = load_strategy(args.strategy, rules_from_args(args) if given else None, stochastic=args.stochastic)
        rules = agent.rules  # a board-free genome plays the board asked for (of its family)
    else:
        rules = rules_from_args(args)
        agent = resolve_saying(args.strategy, rules, seed, "player")
        if args.stochastic and isinstance(agent, Learner):
            agent = copy.copy(agent)  # the trained learner is shared within the process
            agent.stochastic = True
    if args.stochastic and not isinstance(agent, Learner):
        raise UsageError(f"--stochastic is for learners (a learner file or name); {args.strategy} plays one way")
    agents, names = [agent], [label(args.strategy)]
    if args.opponents is not None:
        agents.append(resolve_saying(args.opponents, rules, seed, "player"))
        names.append(label(args.opponents))
        if names[0] == names[1]:
            names = [f"{names[0]} (1)", f"{names[1]} (2)"]
    return rules, agents, names


def _big_board(args):
    """The splitting game's board ``--game`` names where the engine refuses it as too big
    (twelve rows of Kayles of 100,000 pins), else ``None``."""
    if args.game is None or args.piles is not None or args.max_take is not None or args.misere:
        return None
    try:
        rules_from_args(args)
        return None
    except UsageError as refused:
        try:
            board = bigheaps.open_board(args.game)
        except UserError:
            board = None
        if board is not None and max(board.heaps) > bigheaps.MOST_OBJECTS:
            raise UsageError(f"{board.name} is too big for the engine's boards, and heaps past them hold at most "
                             f"{bigheaps.MOST_OBJECTS:,} objects here") from None
        if board is None or not bigheaps.has_move(board, board.heaps):
            raise refused from None
        return board


def _big_mover(args, board, console: Console):
    """The strategy that plays ``board`` (too big for the engine) against you: ``(mover, name)``."""
    if args.opponents is not None or args.games is not None or args.watch:
        raise UsageError(f"{board.name} is too big for a match between computers (a game lasts some "
                         f"{sum(board.heaps) // 2:,} moves): play it yourself, without --opponents")
    if args.first not in (None, *HUMAN_FIRST):
        raise UsageError(f"against you, --first is {', '.join(HUMAN_FIRST)}; got {args.first!r}")
    if args.stochastic:
        raise UsageError("--stochastic is for learners, and no learner plays a board this big")
    strategy = args.strategy or "perfect"
    if strategy in ("perfect", "random"):
        return (bigplay.perfect_mover(board) if strategy == "perfect" else bigplay.random_mover(board)), strategy
    agent = load_strategy(strategy) if is_file(strategy) else None
    if not (isinstance(agent, GenomeAgent) and agent.kind.plays_any_heaps(agent.genes, board)):
        raise UsageError(f"{board.name} is too big for the engine's boards: perfect, random or a program file with a "
                         f"heap part plays it, not {strategy}")
    if not bigheaps.same_rule(agent.rules, board):
        raise UsageError(f"{strategy} was evolved for {agent.rules.name} and plays any board of its family and rule, "
                         f"not {board.name}")
    name = label(strategy)
    console.say(printable(f"{name} plays the {agent.kind.name} {agent.kind.describe(agent.genes, agent.rules)}"))
    if board.grundy_words() is not None:
        console.say(f"(the game's Grundy values of one heap: {board.grundy_words()})")
    return bigplay.genome_mover(agent.kind, agent.genes, board), name


def build_parser() -> argparse.ArgumentParser:
    """The command's argument parser (its flags, their defaults and help)."""
    p = Parser(prog=prog("play"), description=__doc__.splitlines()[0], renamed={"--against": "--opponents"})
    p.add_argument("strategy", nargs="?", default=None, metavar="STRATEGY",
                   help="the computer's player: an agent (random, perfect, minimax; on Nim nimsum, take-3, dumb, "
                        f"aggressive, fixed-rules), a learner ({', '.join(LEARNERS)}: trained on first use and cached) "
                        "or a strategy file (an exported genome or learner file; it sets the game) (default perfect "
                        "play: nimsum on Nim)")
    add_game_arguments(p)
    play = p.add_argument_group("play")
    play.add_argument("--first", choices=sorted({*HUMAN_FIRST, *COMPUTER_FIRST}), metavar="WHO",
                      help="who moves first. Against you: you, computer, random (a coin each game) or alternate "
                           "(you in odd games); default: ask before each game. With --opponents, STRATEGY's seat: "
                           "strategy (always first), other (OTHER always first), random, or alternate (the "
                           "default: STRATEGY first in odd games)")
    play.add_argument("--seed", type=int, default=0, help="random seed of the computers' moves and coins, and the "
                                                          "training seed of learner names (default 0)")
    play.add_argument("--stochastic", action="store_true",
                      help="a learner STRATEGY samples moves by its own rule instead of playing its best move")
    match = p.add_argument_group("computer against computer")
    match.add_argument("--opponents", metavar="OTHER", help="STRATEGY plays this one opponent (an agent, learner or "
                                                            "file for the same game) instead of you")
    match.add_argument("--games", type=int, metavar="N", help="games in all, seats as --first says (default 1; at "
                                                              "most 1,000,000)")
    match.add_argument("--watch", action="store_true", help="print every game move by move, not just the tally")
    return p


def main(argv=None, stdin=None, stdout=None) -> int:
    """Run the command; ``stdin``/``stdout`` default to the process's streams. Returns the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    at_main()
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout
    if stdin is None or stdout is None:  # the shell closed them (<&- or >&-)
        if sys.stderr is not None:
            print(f"nim_evo: error: standard {'input' if stdin is None else 'output'} is closed; "
                  "play needs both", file=sys.stderr)
        return 2
    console = Console(stdin, stdout)
    try:
        args = build_parser().parse_args(argv)
        if args.list_games:
            with contextlib.redirect_stdout(console.stdout):
                return list_games()
        check_flags(args, {"games": [GAMES], "seed": [SEED]})
        rng = np.random.default_rng(args.seed)
        big = _big_board(args)
        if big is not None:
            mover, name = _big_mover(args, big, console)
            return bigplay.play_big(console, big, mover, name, args.first, rng)
        rules, agents, names = _prepare(args)
        for agent, name in zip(agents, names):  # an evolved program, as a person reads it
            described = agent.kind.describe(agent.genes, rules) if isinstance(agent, GenomeAgent) else None
            if described is not None:
                console.say(printable(f"{name} plays the {agent.kind.name} {described}"))
                if rules.grundy_words() is not None:
                    console.say(f"(the game's Grundy values of one heap: {rules.grundy_words()})")
        if args.opponents is None:
            return play_human(console, rules, agents[0], names[0], args.first, rng)
        return play_computers(console, rules, agents, names, args.games or 1, args.first or "alternate",
                              args.watch, rng)
    except (UserError, AgentError, OSError) as error:  # a player's fault too: one line
        return report_error(error)
    except MemoryError as error:
        return report_error(out_of_memory(error))
    except EndOfInput:
        console.say()
        console.say("Goodbye.")
        return 0
    except KeyboardInterrupt:
        console.say()
        console.say("Goodbye.")
        return 130
