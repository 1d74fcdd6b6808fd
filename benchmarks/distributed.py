"""Fitness on Dask: a rules-genome run on a big board with 1 and 2 local Dask workers.

The board is 10 piles of 5 to 30 (about 2.6e13 positions, far past enumeration), so the run
evolves with sampled tournaments on pile arrays against random and nim-sum play: the work
issue 7 hands to a cluster. Each configuration starts its own ``dask.distributed`` local
cluster (single-threaded worker processes, the start-up timed apart), evolves the same
seed for the same generations through ``nim_evo.cluster.evaluation_backend`` (the code path
of ``python -m nim_evo.run --backend dask``), and reports the evolution's wall time. The
baseline in the same process is one worker; the speed-up is its time over two workers'.
(joblib's Dask backend runs the tasks of a cluster of one thread in the client process, so
the baseline is the same work without Dask's transport: the speed-up counts Dask's overhead
against it.) The champions and logbooks must agree (the same seed gives the same result on
any backend).

    python benchmarks/distributed.py            # 8 generations, 200 games per opponent and seat
    python benchmarks/distributed.py --quick    # 2 generations
"""

import argparse
import json
import sys
import time
from pathlib import Path

# This file's name would hide the ``distributed`` package from the script's own folder.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from nim_evo import Rules, cluster, evolve  # noqa: E402
from nim_evo.genomes import get_kind  # noqa: E402

BOARD = Rules((5, 8, 11, 14, 17, 20, 23, 26, 29, 30))
OPPONENTS = ("random", "nimsum")


def evolve_on(workers: int, config: evolve.Config) -> tuple[float, float, str, str, int]:
    """``(start-up seconds, evolution seconds, champion JSON, logbook JSON without seconds, games)``."""
    began = time.perf_counter()
    with cluster.evaluation_backend("dask", jobs=workers) as jobs:
        started = time.perf_counter()
        toolbox = evolve.make_toolbox(config, jobs)
        state = evolve.start(config, toolbox)
        while state.generation < config.generations:
            evolve.step(state, config, toolbox)
        seconds = time.perf_counter() - started
    logbook = [{k: v for k, v in record.items() if k != "seconds"} for record in state.logbook]
    champion = json.dumps(get_kind(config.genome).to_json(state.halloffame[0], config.rules), sort_keys=True)
    return started - began, seconds, champion, json.dumps(logbook), state.games  # JSON: NaN compares equal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 generations instead of 8")
    parser.add_argument("--games", type=int, default=200, help="games per opponent and seat (default 200)")
    args = parser.parse_args()
    config = evolve.Config(genome="rules", rules=BOARD, generations=2 if args.quick else 8, opponents=OPPONENTS,
                           fitness="sampled", games=args.games, seed=0)
    print(f"rules genome on {BOARD.name}: {config.generations} generations, population {config.population} + "
          f"{config.offspring} offspring, {config.games} sampled games per opponent and seat")
    results = {}
    for workers in (1, 2):
        startup, seconds, champion, logbook, games = evolve_on(workers, config)
        results[workers] = (seconds, champion, logbook)
        print(f"  {workers} Dask worker{'s' if workers > 1 else ' '}: cluster start {startup:5.1f} s, evolution "
              f"{seconds:6.1f} s, {games / seconds:10,.0f} games/s, best fitness {json.loads(logbook)[-1]['max']:.4f}")
    same = results[1][1:] == results[2][1:]
    print(f"{games:,} games in all")
    print(f"speed-up, 2 workers over 1 (the baseline): {results[1][0] / results[2][0]:.2f}x")
    print(f"same champion and logbook on 1 and 2 workers: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
