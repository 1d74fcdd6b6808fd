"""Evolution on 1-3-5-7-9: every genome kind with the defaults of ``python -m nim_evo.run``.

Each kind (table, rules, thresholds) runs 200 generations on seeds 0, 1 and 2: one sweep
(``nim_evo.sweep``, the library of ``nim-evo sweep``) of the grid genome = table, rules,
thresholds, each run one task. Per run: the champion's accuracy (share of the winning
positions where it plays a winning move), its win rates against each opponent of the default
panel (random, nimsum, minimax) as first and as second player (the exact win probabilities
from the start that the run records in champion.json), and its evolving seconds. Targets
(issue 4):

- table: accuracy >= 99% in <= 60 s per run;
- rules and thresholds: >= 95% wins against random as first player from the start.

Baseline in the same process: a plain GA, the table genome with operators blind to the
per-position credit (``credit=False``: uniform mutation and uniform crossover, everything
else default), 200 generations on seed 0, through the Python API (the command line has no
flag for it); its accuracy is printed beside the default's.

    python benchmarks/evolution.py            # the measurement (about 5-10 minutes)
    python benchmarks/evolution.py --quick    # a fast check: seed 0, 20 generations
    python benchmarks/evolution.py --jobs 2   # two runs at once (the figures do not change)
"""

import argparse
import json
import tempfile
import time
from pathlib import Path

import nim_evo
from nim_evo import Rules
from nim_evo.evolution import loop as evolve
from nim_evo.evolution.config import Config
from nim_evo.evolution.fitness import accuracy

GAME = "1-3-5-7-9"
KINDS = ("table", "rules", "thresholds")
SEEDS = (0, 1, 2)
GENERATIONS = 200
OPPONENTS = ("random", "nimsum", "minimax")
TABLE_ACCURACY = 0.99
TABLE_SECONDS = 60.0
FIRST_VS_RANDOM = 0.95


def verdict(ok: bool) -> str:
    return "OK" if ok else "MISSED"


def sweep(seeds, generations: int, jobs: int, tmp: Path) -> dict:
    """Every kind on every seed, one sweep: ``(kind, seed) -> (champion.json, evolving seconds)``."""
    result = nim_evo.sweep(seeds, {"genome": list(KINDS)}, rules=Rules.parse(GAME), generations=generations,
                           out=tmp / "sweep", jobs=jobs, progress=False)
    return {(row["genome"], row["seed"]): (json.loads((tmp / "sweep" / "runs" / row["run_id"] / "champion.json")
                                                      .read_text()), row["seconds"]) for row in result.runs}


def plain_ga(generations: int) -> tuple[float, float]:
    """The table genome with ``credit=False`` on seed 0; its champion's accuracy and seconds."""
    rules = Rules((1, 3, 5, 7, 9))
    config = Config(genome="table", rules=rules, generations=generations, seed=0, credit=False)
    began = time.perf_counter()
    toolbox = evolve.make_toolbox(config)
    state = evolve.start(config, toolbox)
    while state.generation < config.generations:
        evolve.step(state, config, toolbox)
    champion_accuracy = accuracy(config.kind, state.halloffame[0], rules)
    return champion_accuracy, time.perf_counter() - began


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="seed 0 only, 20 generations: checks the script")
    parser.add_argument("--jobs", type=int, default=1, help="runs at once (default 1)")
    args = parser.parse_args()
    seeds, generations = ((0,), 20) if args.quick else (SEEDS, GENERATIONS)
    if args.quick:
        print(f"--quick: seed 0, {generations} generations; a check of the script, not the measurement")

    with tempfile.TemporaryDirectory(prefix="nim_evo-bench-") as tmp:
        results = sweep(seeds, generations, args.jobs, Path(tmp))
    for kind in KINDS:
        print(f"\n{kind} genome on {GAME}, {generations} generations, default options "
              f"(win rates first/second from the start):")
        for seed in seeds:
            champion, seconds = results[kind, seed]
            rates = "  ".join(f"{name} {champion['win_rates'][name]['first']:.3f}/"
                              f"{champion['win_rates'][name]['second']:.3f}" for name in OPPONENTS)
            print(f"  seed {seed}: accuracy {100 * champion['accuracy']:6.2f}%  {rates}  "
                  f"evolving {seconds:5.1f} s")

    print("\ntargets:")
    for seed in seeds:
        champion, seconds = results["table", seed]
        ok = champion["accuracy"] >= TABLE_ACCURACY and seconds <= TABLE_SECONDS
        print(f"  table seed {seed}: accuracy {100 * champion['accuracy']:.2f}% in {seconds:.1f} s "
              f"(target >= {100 * TABLE_ACCURACY:.0f}% in <= {TABLE_SECONDS:.0f} s: {verdict(ok)})")
    for kind in ("rules", "thresholds"):
        for seed in seeds:
            first = results[kind, seed][0]["win_rates"]["random"]["first"]
            print(f"  {kind} seed {seed}: {100 * first:.1f}% wins against random as first player "
                  f"(target >= {100 * FIRST_VS_RANDOM:.0f}%: {verdict(first >= FIRST_VS_RANDOM)})")

    plain, plain_s = plain_ga(generations)
    default = results["table", 0][0]["accuracy"]
    print(f"\nbaseline, table genome seed 0, {generations} generations: plain GA (credit=False) accuracy "
          f"{100 * plain:.2f}% ({plain_s:.1f} s in process), default (credit-guided operators) "
          f"{100 * default:.2f}%")


if __name__ == "__main__":
    main()
