"""Scale: table genomes over multisets on 5 to 9 heaps of odd sizes (1-3-5-..., normal play).

For each board, in a fresh process (so that its peak memory is its own):

- the ordered and multiset position counts;
- the time to build the multiset space and solve it (retrograde analysis), and, in the same
  process, the time to build and solve the ordered space where it fits (the baseline: ratio);
- a table-genome run with the defaults of ``python -m nim_evo.run --genome table`` (panel
  random, nimsum, minimax; exact fitness; 40 + 80; seed 0), generation by generation
  through the library loop the command uses, until the champion plays a winning move in
  every winning position (or 200 generations): seconds per generation, the generation and
  wall time it reached 100% (or the accuracy after 200), and the process's peak memory.

Zhou & Riis ("Impartial games: a challenge for reinforcement learning", 2022) report an
AlphaZero-style policy that plays a winning move in 41.5% of the winning positions of 5
heaps after about 52 hours, and 8.6% on 7 heaps after about 212 hours (random play: 7.5%).

    python benchmarks/scale.py               # 5, 6, 7 and 8 heaps (about 3 minutes)
    python benchmarks/scale.py --heaps 5 6   # some of them
    python benchmarks/scale.py --jobs 2      # fitness on two workers
    python benchmarks/scale.py --heaps 9 --jobs 2   # nine heaps (about 4 minutes, 4 GB)
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

TARGETS = {7: (120.0, 1024), 8: (900.0, 4096), 9: (300.0, 4096)}  # heaps: (seconds to 100%, peak MiB)
GENERATIONS = 200


def measure(heaps: int, jobs: int) -> dict:
    """One board, in this process."""
    from nim_evo import Rules
    from nim_evo.engine.solver import solve
    from nim_evo.engine.space import enumerable, space_for, space_size
    from nim_evo.evolution.config import Config
    from nim_evo.evolution.loop import make_toolbox, start, step

    rules = Rules(tuple(range(1, 2 * heaps, 2)))
    began = time.perf_counter()
    space = space_for(rules, multiset=True)
    built = time.perf_counter() - began
    began = time.perf_counter()
    solve(space)
    solved = time.perf_counter() - began
    ordered_solve = None
    if enumerable(rules):
        began = time.perf_counter()
        solve(rules)  # builds the ordered space too
        ordered_solve = time.perf_counter() - began

    config = Config(genome="table", rules=rules, generations=GENERATIONS)
    began = time.perf_counter()
    toolbox = make_toolbox(config, jobs)
    state = start(config, toolbox)
    reached = None
    while state.generation < GENERATIONS:
        step(state, config, toolbox)
        if state.logbook[-1]["accuracy"] == 1.0:
            reached = state.generation
            break
    wall = time.perf_counter() - began
    seconds = [r["seconds"] for r in state.logbook[1:]]
    return {"heaps": heaps, "board": rules.name, "ordered": space_size(rules), "multisets": space.n_positions,
            "build": built, "solve": solved, "ordered_solve": ordered_solve,
            "per_generation": sum(seconds) / max(len(seconds), 1), "reached": reached,
            "accuracy": state.logbook[-1]["accuracy"], "wall": wall,
            "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heaps", type=int, nargs="+", default=[5, 6, 7, 8], choices=range(2, 10))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # internal: measure one board here
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one, args.jobs)))
        return 0
    print(f"table genome, default settings ({GENERATIONS} generations at most), --jobs {args.jobs}, one process per board")
    print(f"{'board':<24}{'ordered':>12}{'multisets':>11}{'space+solve':>13}{'ordered (ratio)':>17}"
          f"{'s/gen':>8}{'100% at':>9}{'wall':>9}{'peak':>10}")
    missed = []
    for heaps in args.heaps:
        out = subprocess.run([sys.executable, __file__, "--one", str(heaps), "--jobs", str(args.jobs)],
                             capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        ordered = "too big" if r["ordered_solve"] is None else f"{r['ordered_solve']:.2f} s"
        if r["ordered_solve"]:
            ordered += f" ({r['ordered_solve'] / (r['build'] + r['solve']):.0f}x)"
        reached = f"gen {r['reached']}" if r["reached"] else f"{100 * r['accuracy']:.2f}%"
        print(f"{r['board']:<24}{r['ordered']:>12,}{r['multisets']:>11,}"
              f"{r['build']:>6.2f}+{r['solve']:.3f} s{ordered:>17}{r['per_generation']:>8.2f}{reached:>9}"
              f"{r['wall']:>8.0f}s{r['peak_mib']:>7.0f} MiB")
        if heaps in TARGETS:
            limit, memory = TARGETS[heaps]
            ok = r["reached"] is not None and r["wall"] <= limit and r["peak_mib"] <= memory
            print(f"  target {heaps} heaps: 100% within {limit:.0f} s and {memory:,} MiB: {'OK' if ok else 'MISSED'}")
            missed += [] if ok else [heaps]
    print("Zhou & Riis (2022), AlphaZero-style: 41.5% of winning positions on 5 heaps after ~52 h, "
          "8.6% on 7 heaps after ~212 h (random play 7.5%)")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
