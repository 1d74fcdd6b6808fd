"""Program genomes on boards they never saw: 10 seeds of each Nim family and heap game, as sweeps.

Each family is one sweep (``nim_evo.sweep``, the library of ``nim-evo sweep``) of seeds 0 to
N-1, each run ``--genome program --game 1-3-5-7-9<family> --until accuracy=1`` with the
command's defaults otherwise (at most 200 generations of a population of 500; fitness the
exact win probabilities of every sub-game against a perfect player, nimsum, on the program
kind's six training boards of 2 to 4 piles up to 15; misère play in two stages, normal play
first), stopped at the first generation whose champion plays 1-3-5-7-9 of its family
perfectly; each run is one task, single-process, ``--jobs`` of them at once. Per run it
prints the generation at which it stopped (``-``: it never got there), its evolving seconds,
the champion's held-out accuracies (every winning position of 1-3-5-7-9-11-13, and winning
positions sampled from random boards of 8-16 piles up to 1,000, judged by theory) and its
expression; per family, the sweep's success rate with Wilson's 95% interval and Koza's
computational effort.

A run counts as a success when both held-out accuracies are 100% within the family's time
bound (:data:`SECONDS`, of evolving); the sweep stops each run at that bound
(``minutes``).

The heap games (:data:`HEAP_GAMES`: subtraction sets, Lasker's Nim, Kayles, Dawson's Kayles,
Grundy's game, Subtract-a-Square) run the same way on a board of each, in two stages (Nim's
fold on Nim's boards, then the heap part in the game); their held-out sets are every position
of the family's held-out board (1-3-5-7-9-11-13, or a single heap of 20 to 40 where a move
splits) and random boards of 3 to 12 heaps up to a million objects (to the largest the
engine builds a board of where a move splits), judged by the family's Grundy values. Per
family it also prints the largest heap up to which the champion's values xor as the
family's Grundy values do (``right up to``). Misère play of a subtraction game (judged on random
boards the solver solves), Wythoff's game and Moore's Nim_2 (no heap part: the program folds over
the heap sizes) are measured and reported, with no target.

    python benchmarks/program.py                                # the measurement (an hour or two)
    python benchmarks/program.py --seeds 3 --families misere    # part of it
    python benchmarks/program.py --families four --jobs 2       # one program for all four families
    python benchmarks/program.py --families kayles --first 9 --seeds 1   # one seed again
"""

import argparse
import json
import statistics
import tempfile
from pathlib import Path

import numpy as np

import nim_evo
from nim_evo import Rules
from nim_evo.games import game, game_from_json
from nim_evo.games.squares import Squares, square_grundy
from nim_evo.games.subtraction import grundy_sequence
from nim_evo.genomes import heaps
from nim_evo.genomes.program import KIND

GAMES = {"normal": "1-3-5-7-9", "cap3": "1-3-5-7-9-cap3", "misere": "1-3-5-7-9-misere",
         "cap3-misere": "1-3-5-7-9-cap3-misere"}
HEAP_GAMES = {"sub1.3.4": "20-sub1.3.4", "sub2.3": "20-sub2.3", "sub1.2.4.8": "20-sub1.2.4.8", "lasker": "3-5-7-lasker",
              "kayles": "10-kayles", "dawson": "12-dawson", "grundy": "11-grundy", "squares": "13-squares",
              "sub1.3.4-misere": "20-sub1.3.4-misere", "wythoff": "5-6-wythoff", "moore2": "1-3-5-7-9-moore2"}
FAMILIES = (*GAMES, "four", *HEAP_GAMES)  # four: one program for all four families
TARGETS = {"normal": 10, "cap3": 9, "misere": 9, "cap3-misere": 7, "four": 7,  # successes of 10 (issue 29)
           "sub1.3.4": 9, "sub2.3": 9, "sub1.2.4.8": 9, "lasker": 9, "kayles": 8, "dawson": 8,  # (issue 43)
           "grundy": 0, "squares": 0,  # (not known to be periodic: measured and reported)
           "sub1.3.4-misere": 0, "wythoff": 0, "moore2": 0}  # (measured and reported, whatever they give)
SECONDS = {"normal": 300, "cap3": 300, "misere": 300, "cap3-misere": 600, "four": 600, "sub1.3.4": 300, "sub2.3": 300,
           "sub1.2.4.8": 300, "lasker": 300, "kayles": 600, "dawson": 600,
           # (the families measured and reported, whatever they give: 5 minutes, as the periodic targets)
           "grundy": 300, "squares": 300, "sub1.3.4-misere": 300, "wythoff": 300, "moore2": 300}


def family_sweep(family: str, seeds: range, generations: int | None, jobs: int, tmp: Path):
    """The family's sweep of the seeds."""
    settings = {"genome": "program", "until": "accuracy=1", **({"generations": generations} if generations else {})}
    if family == "four":
        settings.update(rules=Rules((1, 3, 5, 7, 9)), families=["normal", "misere", "cap3", "cap3-misere"])
    elif family in HEAP_GAMES:
        settings["rules"] = game(HEAP_GAMES[family])
    else:
        settings["rules"] = Rules.parse(GAMES[family])
    return nim_evo.sweep(seeds, out=tmp / family, jobs=jobs, progress=False, minutes=SECONDS[family] / 60,
                         **settings)


def readable(champion: dict) -> str:
    """The champion's program, simplified (what the run's summary shows)."""
    genome = champion["genome"]
    genes = [genome["step"], genome["score"], genome.get("second", "0"), *([genome["heap"]] if "heap" in genome else [])]
    return KIND.describe(genes, game_from_json(champion["rules"]))


def right_up_to(champion: dict, most: int = 1024) -> int | str:
    """The largest heap ``n`` (up to ``most``, and the family's computed values) such that the
    champion's heap values of ``0 .. n`` xor to 0 exactly where the family's Grundy values do
    (every pair of heaps, and every heap with a pair: what boards of up to three heaps of
    those sizes ask); ``""`` for a program of Nim."""
    genome, board = champion["genome"], game_from_json(champion["rules"])
    if "heap" not in genome or board.misere or not (
            isinstance(board, Squares) or hasattr(board, "subtraction") or hasattr(board, "heap_values")):
        return ""
    sizes = np.arange(most + 1)
    truth = (square_grundy(most + 1) if isinstance(board, Squares) else
             grundy_sequence(board.subtraction)(sizes) if hasattr(board, "subtraction") else
             board.heap_values(most + 1)(sizes))
    mine = heaps.parse(genome["heap"], "the champion's heap part")(sizes)
    for n in range(1, most + 1):  # heap n with each heap up to it, and with each pair of them, lost alike
        if not np.array_equal(truth[:n + 1] == truth[n], mine[:n + 1] == mine[n]) or not np.array_equal(
                (truth[:n + 1, None] ^ truth[None, :n + 1]) == truth[n], (mine[:n + 1, None] ^ mine[None, :n + 1]) == mine[n]):
            return n - 1
    return most


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="how many seeds of each family (default 10), from --first")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0): seeds FIRST .. FIRST+N-1")
    parser.add_argument("--families", default=",".join(FAMILIES), help=f"comma-separated: {', '.join(FAMILIES)}")
    parser.add_argument("--generations", type=int, help="generations at most (default: the command's, 200)")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once (default 1)")
    args = parser.parse_args()
    if args.seeds < 1 or args.first < 0:
        parser.error("--seeds must be at least 1 and --first at least 0")
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        for family in args.families.split(","):
            print(f"\n== {family}, at most {SECONDS[family] // 60} minutes of evolving a run")
            print(f"{'seed':>4} {'gen':>4} {'evolving':>9} {'held-out':>8} {'random':>7} {'right to':>8}  "
                  "expression (simplified)")
            result = family_sweep(family, range(args.first, args.first + args.seeds), args.generations, args.jobs, Path(tmp))
            wins, found = 0, []
            for row in result.runs:
                held = {key[len("heldout "):]: value for key, value in row.items() if key.startswith("heldout ")}
                seven = min(value for name, value in held.items() if not name.startswith("random boards"))
                sampled = min(value for name, value in held.items() if name.startswith("random boards"))
                success = seven == 1.0 and sampled == 1.0 and row["seconds"] <= SECONDS[family]
                wins += success
                if row["success"]:
                    found.append(row["seconds"])
                champion = json.loads((result.folder / "runs" / row["run_id"] / "champion.json").read_text())
                print(f"{row['seed']:>4} {row['generation'] if row['success'] else '-':>4} {row['seconds']:>7.0f} s "
                      f"{100 * seven:>7.1f}% {100 * sampled:>6.1f}% {right_up_to(champion):>8}  {readable(champion)}",
                      flush=True)
            at = result.summary[0]
            median = f", median {statistics.median(found):.0f} s evolving to it" if found else ""
            effort = f"; effort {at['effort']:,} evaluations" if at["effort"] != "" else ""
            summary.append(f"{family}: {wins} of {args.seeds} seeds perfect on every held-out board{median} "
                           f"(target {TARGETS[family]} of 10) {'OK' if wins >= TARGETS[family] * args.seeds / 10 else 'MISSED'}"
                           f"; reached its board's perfect play in {at['successes']} of {at['runs']} (95% interval "
                           f"{100 * at['ci_low']:.0f}-{100 * at['ci_high']:.0f}%){effort}")
    print()
    print("\n".join(summary))


if __name__ == "__main__":
    main()
