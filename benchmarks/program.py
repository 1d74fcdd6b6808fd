"""Program genomes on boards they never saw: 10 seeds for each family (normal play, a cap of
3, misère), through the real command line.

Each run is ``python -m nim_evo.run --genome program --seed S --jobs 2`` with the defaults
(200 generations of a population of 500; fitness the exact win probabilities of every
sub-game against the program kind's panel, a perfect player (nimsum), averaged over its six
training boards of 2 to 4 piles up to 15), one subprocess per run. Per run it prints the
generation and the evolving seconds at which the champion first played a winning move in
every winning position of 1-3-5-7-9-11-13 (the logbook's ``heldout`` column; ``-`` if
never), the wall time, the champion's held-out accuracies at the end (every winning position
of 1-3-5-7-9-11-13, and winning positions sampled from random boards of 8-16 piles up to
1,000, judged by theory) and its expression.
A run counts as a success when both held-out accuracies are 100% and it took at most 5
minutes.

Beside them, for comparison, the rules and thresholds genomes (their defaults, evolved on
1-3-5-7-9 of the family) on the same held-out boards, and the rule dictionary's exact
ceiling: accuracy adds up over its six situations, so trying every one of its 810 rules in
every situation gives the best any rule dictionary can do (on 1-3-5-7-9 in normal play the
issue measured 38.3%).

Targets (issue 14): normal play 9 of 10 seeds, cap 3 7 of 10, misère 5 of 10, each run at
most 5 minutes.

    python benchmarks/program.py                    # the measurement (an hour or two)
    python benchmarks/program.py --seeds 3 --families normal   # part of it
"""

import argparse
import csv
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from nim_evo import Rules
from nim_evo.engine import boards
from nim_evo.engine.space import space_for
from nim_evo.engine.theory import known_wins
from nim_evo.genomes import ruleset

FAMILIES = {"normal": ["--game", "1-3-5-7-9"], "cap3": ["--game", "1-3-5-7-9-cap3"],
            "misere": ["--game", "1-3-5-7-9-misere"]}
FAMILY_RULES = {"normal": (None, False), "cap3": (3, False), "misere": (None, True)}
TARGETS = {"normal": 9, "cap3": 7, "misere": 5}
SECONDS = 300
SEVEN = (1, 3, 5, 7, 9, 11, 13)
COMPARED = ("rules", "thresholds")


def cli_run(kind: str, family: str, seed: int, tmp: Path, generations: int | None, jobs: int = 2
            ) -> tuple[dict, dict, float]:
    """One run in a subprocess: its champion.json, its logbook's columns and its wall seconds."""
    out = tmp / f"{kind}-{family}-{seed}"
    command = [sys.executable, "-m", "nim_evo.run", "--genome", kind, "--seed", str(seed), *FAMILIES[family],
               "--out", str(out), "--genomes-dir", str(tmp / "genomes"), "--quiet", "--jobs", str(jobs)]
    if generations is not None:
        command += ["--generations", str(generations)]
    began = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=tmp)
    seconds = time.perf_counter() - began
    with open(out / "logbook.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return json.loads((out / "champion.json").read_text()), rows, seconds


def first_perfect(rows: list[dict]) -> tuple[int | None, float | None]:
    """The first generation whose champion is perfect on 1-3-5-7-9-11-13, and the evolving
    seconds up to it."""
    spent = 0.0
    for row in rows:
        spent += float(row["seconds"])
        if float(row["heldout"]) == 1.0:
            return int(row["gen"]), spent
    return None, None


def rules_ceiling(rules: Rules) -> float:
    """The best accuracy any rule dictionary reaches on ``rules``: in each situation the rule
    that plays a winning move in the most winning positions (each multiset of piles counted
    for the positions it stands for), tried over all 810 rules; judged by theory."""
    space = space_for(rules, multiset=True)
    winning = known_wins(rules, space.positions)[0]
    positions, weights = space.positions[winning], space.weights[winning]
    features = ruleset.board_features(rules, positions)
    move_list = boards.move_list(rules)
    every = np.array(np.meshgrid(*[np.arange(n) for n in ruleset.FIELDS], indexing="ij")).reshape(4, -1).T
    best = 0.0
    for situation in range(len(ruleset.SITUATIONS)):
        rows = np.flatnonzero(features["situation"] == situation)
        if not len(rows):
            continue
        part = {name: value[..., rows] for name, value in features.items()}
        scores = []
        for rule in every:
            chosen = move_list[ruleset.moves(np.tile(rule, (len(ruleset.SITUATIONS), 1)), rules, positions[rows], part)]
            after = positions[rows].copy()
            after[np.arange(len(rows)), chosen[:, 0]] -= chosen[:, 1]
            scores.append(float(weights[rows][~known_wins(rules, after)[0]].sum()))
        best += max(scores)
    return best / float(weights.sum())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=10, help="seeds 0 .. N-1 of each family (default 10)")
    parser.add_argument("--families", default="normal,cap3,misere", help="comma-separated: normal, cap3, misere")
    parser.add_argument("--generations", type=int, help="generations per run (default: the command's, 200)")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of each run (default 2)")
    args = parser.parse_args()
    families = args.families.split(",")
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for family in families:
            cap, misere = FAMILY_RULES[family]
            print(f"\n== {family}: the rule dictionary's ceiling on 1-3-5-7-9-11-13 "
                  f"{100 * rules_ceiling(Rules(SEVEN, cap, misere)):.1f}%"
                  + (f", on 1-3-5-7-9 {100 * rules_ceiling(Rules((1, 3, 5, 7, 9))):.1f}%" if family == "normal" else ""))
            print(f"{'seed':>4} {'gen':>4} {'to it':>7} {'wall':>6} {'7 heaps':>8} {'random':>7}  "
                  f"{'rules 7h/rnd':>13} {'thresholds 7h/rnd':>18}  expression")
            wins = 0
            for seed in range(args.seeds):
                champion, rows, wall = cli_run("program", family, seed, tmp, args.generations, args.jobs)
                held = champion["held_out_accuracy"]
                seven, sampled = held[Rules(SEVEN, cap, misere).name], held.get("random boards")
                generation, spent = first_perfect(rows)
                success = seven == 1.0 and sampled in (1.0, None) and wall <= SECONDS
                wins += success
                compared = []
                for kind in COMPARED:
                    other = cli_run(kind, family, seed, tmp, args.generations, args.jobs)[0]["held_out_accuracy"]
                    compared.append(f"{100 * other[Rules(SEVEN, cap, misere).name]:.1f}/"
                                    f"{100 * other.get('random boards', float('nan')):.1f}")
                print(f"{seed:>4} {generation if generation is not None else '-':>4} "
                      f"{'-' if spent is None else f'{spent:.0f} s':>7} {wall:>5.0f}s {100 * seven:>7.1f}% "
                      f"{'n/a' if sampled is None else f'{100 * sampled:.1f}%':>7}  {compared[0]:>13} "
                      f"{compared[1]:>18}  {champion['genome']['expression']}", flush=True)
            summary.append(f"{family}: {wins} of {args.seeds} seeds perfect on every held-out board "
                           f"(target {TARGETS[family]} of 10) {'OK' if wins >= TARGETS[family] * args.seeds / 10 else 'MISSED'}")
    print()
    print("\n".join(summary))


if __name__ == "__main__":
    main()
