"""Program genomes on boards they never saw: 10 seeds of each Nim family, as sweeps.

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
bound (:data:`SECONDS`, of evolving).

    python benchmarks/program.py                                # the measurement (an hour or two)
    python benchmarks/program.py --seeds 3 --families misere    # part of it
    python benchmarks/program.py --families four --jobs 2       # one program for all four families
"""

import argparse
import json
import statistics
import tempfile
from pathlib import Path

import nim_evo
from nim_evo import Rules
from nim_evo.engine.rules import rules_from_json
from nim_evo.genomes.program import KIND

GAMES = {"normal": "1-3-5-7-9", "cap3": "1-3-5-7-9-cap3", "misere": "1-3-5-7-9-misere",
         "cap3-misere": "1-3-5-7-9-cap3-misere"}
FAMILIES = (*GAMES, "four")  # four: one program for all four families
TARGETS = {"normal": 10, "cap3": 9, "misere": 9, "cap3-misere": 7, "four": 7}  # successes of 10 (issue 29)
SECONDS = {"normal": 300, "cap3": 300, "misere": 300, "cap3-misere": 600, "four": 600}


def family_sweep(family: str, seeds: int, generations: int | None, jobs: int, tmp: Path):
    """The family's sweep of seeds 0 .. seeds-1."""
    settings = {"genome": "program", "until": "accuracy=1", **({"generations": generations} if generations else {})}
    if family == "four":
        settings.update(rules=Rules((1, 3, 5, 7, 9)), families=["normal", "misere", "cap3", "cap3-misere"])
    else:
        settings["rules"] = Rules.parse(GAMES[family])
    return nim_evo.sweep(range(seeds), out=tmp / family, jobs=jobs, progress=False, **settings)


def readable(champion: dict) -> str:
    """The champion's program, simplified (what the run's summary shows)."""
    genome = champion["genome"]
    return KIND.describe([genome["step"], genome["score"], genome.get("second", "0")], rules_from_json(champion["rules"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0 .. N-1 of each family (default 10)")
    parser.add_argument("--families", default=",".join(FAMILIES), help=f"comma-separated: {', '.join(FAMILIES)}")
    parser.add_argument("--generations", type=int, help="generations at most (default: the command's, 200)")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once (default 1)")
    args = parser.parse_args()
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        for family in args.families.split(","):
            print(f"\n== {family}, at most {SECONDS[family] // 60} minutes of evolving a run")
            print(f"{'seed':>4} {'gen':>4} {'evolving':>9} {'7 heaps':>8} {'random':>7}  expression (simplified)")
            result = family_sweep(family, args.seeds, args.generations, args.jobs, Path(tmp))
            wins, found = 0, []
            for row in result.runs:
                held = {key[len("heldout "):]: value for key, value in row.items() if key.startswith("heldout ")}
                seven = min(value for name, value in held.items() if name.startswith("1-3-5-7-9-11-13"))
                sampled = min(value for name, value in held.items() if name.startswith("random boards"))
                success = seven == 1.0 and sampled == 1.0 and row["seconds"] <= SECONDS[family]
                wins += success
                if row["success"]:
                    found.append(row["seconds"])
                champion = json.loads((result.folder / "runs" / row["run_id"] / "champion.json").read_text())
                print(f"{row['seed']:>4} {row['generation'] if row['success'] else '-':>4} {row['seconds']:>7.0f} s "
                      f"{100 * seven:>7.1f}% {100 * sampled:>6.1f}%  {readable(champion)}", flush=True)
            at = result.summary[0]
            median = f", median {statistics.median(found):.0f} s evolving to it" if found else ""
            effort = f"; effort {at['effort']:,} evaluations" if at["effort"] != "" else ""
            summary.append(f"{family}: {wins} of {args.seeds} seeds perfect on every held-out board{median} "
                           f"(target {TARGETS[family]} of 10) {'OK' if wins >= TARGETS[family] * args.seeds / 10 else 'MISSED'}"
                           f"; reached 1-3-5-7-9's perfect play in {at['successes']} of {at['runs']} (95% interval "
                           f"{100 * at['ci_low']:.0f}-{100 * at['ci_high']:.0f}%){effort}")
    print()
    print("\n".join(summary))


if __name__ == "__main__":
    main()
