"""Fitness on 2 workers over 1: a rules-genome run on a big board on local Dask clusters, and a
seven-heap exact table run on the local pool and on Dask.

The board is 10 piles of 5 to 30 (about 2.6e13 positions, far past enumeration), so the run
evolves with sampled tournaments on pile arrays against random and nim-sum play: the work
issue 7 hands to a cluster. Each configuration starts its own ``dask.distributed`` local
cluster (single-threaded worker processes, the start-up timed apart), evolves the same
seed for the same generations through ``nim_evo.evolution.cluster.evaluation_backend`` (the code path
of ``python -m nim_evo.run --backend dask``), and reports the evolution's wall time. The
baseline in the same process is one worker; the speed-up is its time over two workers'.
(joblib's Dask backend runs the tasks of a cluster of one thread in the client process, so
the baseline is the same work without Dask's transport: the speed-up counts Dask's overhead
against it.) The champions and logbooks must agree (the same seed gives the same result on
any backend).

The second part is a table genome over the multisets of seven heaps (1 3 5 7 9 11 13: 21,318
positions, 49 moves) with exact fitness against random, nim-sum and minimax play, the run of
``python -m nim_evo.run --genome table --piles 1 3 5 7 9 11 13 --generations 10``: ten tasks
of eight offspring a generation, each a few tens of milliseconds of work, against a panel of
25 MB of policy tables (and 8 MB of their sparse transitions), which the workers get once.
It runs on joblib's local pool with ``--jobs`` 1 and 2, and on a local Dask cluster of 1 and
2 workers (one worker: joblib runs the tasks in this process), each configuration
``--repeat`` times in turns, and reports the fastest run of each: the seconds of generation 0
(apart: it starts the pool's workers and brings them the panel), of generations 1 to 10,
and of fitness evaluation in them (the part that runs on the workers; varying, selecting
and recording stay in this process), and the speed-ups of 2 workers over 1. All runs must
give the same champion and logbook.

The third part is a sweep (issue 31): 20 seven-heap table runs (seeds 0-19, each the run
above with ``--generations 10``) as tasks of ``nim_evo.sweep`` on a local Dask cluster of 1 and
of 2 workers, each run single-process inside its task, ``--repeat`` times in turns. It reports
the wall time of each and the speed-up of 2 workers over 1, the fastest of each (goal: at
least 1.8x), checks that the rows agree (time aside), and measures what a cluster would carry: the bytes of a task and of its result as
Dask pickles them (cloudpickle), and the scheduler's cost of a task (a no-op task's round
trip, 200 of them). From those it estimates, on paper, a 1,000-run sweep on 100 workers.

    python benchmarks/distributed.py                # all three parts
    python benchmarks/distributed.py --quick        # 2 generations each, 4 sweep runs
    python benchmarks/distributed.py --part table   # the seven-heap table run only
    python benchmarks/distributed.py --part sweep   # the sweep of 20 seven-heap runs only
"""

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

# This file's name would hide the ``distributed`` package from the script's own folder.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from nim_evo import Rules
from nim_evo.evolution import cluster
from nim_evo.evolution import loop as evolve  # noqa: E402
from nim_evo.evolution.config import Config  # noqa: E402
from nim_evo.genomes import get_kind  # noqa: E402

BOARD = Rules((5, 8, 11, 14, 17, 20, 23, 26, 29, 30))
OPPONENTS = ("random", "nimsum")
SEVEN = Rules((1, 3, 5, 7, 9, 11, 13))


def evolve_on(workers: int, config: Config) -> tuple[float, float, str, str, int]:
    """``(start-up seconds, evolution seconds, champion JSON, logbook JSON without seconds, games)``."""
    began = time.perf_counter()
    with cluster.evaluation_backend("dask", jobs=workers) as jobs:
        started = time.perf_counter()
        toolbox = evolve.make_toolbox(config, jobs)
        state = evolve.start(config, toolbox)
        while state.generation < config.generations:
            evolve.step(state, config, toolbox)
        seconds = time.perf_counter() - started
    return started - began, seconds, *_outcome(state, config)


def _outcome(state: evolve.State, config: Config) -> tuple[str, str, int]:
    """``(champion JSON, logbook JSON without seconds, games)`` (JSON: NaN compares equal)."""
    logbook = [{k: v for k, v in record.items() if k != "seconds"} for record in state.logbook]
    champion = json.dumps(get_kind(config.genome).to_json(state.halloffame[0], config.rules), sort_keys=True)
    return champion, json.dumps(logbook), state.games


@contextlib.contextmanager
def _fitness_clock(spent: list):
    """Appends the seconds of each ``evolve.evaluate`` call of the body to ``spent``."""
    evaluate = evolve.evaluate

    def timed(*args, **kwargs):
        began = time.perf_counter()
        try:
            return evaluate(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - began)

    evolve.evaluate = timed  # start and step call it by the module's name
    try:
        yield
    finally:
        evolve.evaluate = evaluate


def table_run(backend: str, workers: int, config: Config) -> dict:
    """One seven-heap run: seconds of generation 0, of generations 1.., of fitness in them."""
    spent = []
    with cluster.evaluation_backend(backend, jobs=workers) as jobs, _fitness_clock(spent):
        toolbox = evolve.make_toolbox(config, jobs)
        began = time.perf_counter()
        state = evolve.start(config, toolbox)
        started = time.perf_counter()
        while state.generation < config.generations:
            evolve.step(state, config, toolbox)
        seconds = time.perf_counter() - started
    return {"start": started - began, "seconds": seconds, "fitness": sum(spent[1:]), "outcome": _outcome(state, config)}


def table_part(quick: bool, repeat: int) -> None:
    config = Config(genome="table", rules=SEVEN, generations=2 if quick else 10, seed=0)
    print(f"table genome on {SEVEN.name} over multisets, exact fitness against {', '.join(config.opponents)}: "
          f"{config.generations} generations, population {config.population} + {config.offspring} offspring; "
          f"each configuration {repeat} times, the fastest kept")
    setups = [("local", 1), ("local", 2), ("dask", 1), ("dask", 2)]
    runs = {setup: [] for setup in setups}
    for _ in range(repeat):  # in turns, so that a slow spell of the machine spreads over all four
        for setup in setups:
            runs[setup].append(table_run(*setup, config))
    best = {setup: {key: min(run[key] for run in runs[setup]) for key in ("start", "seconds", "fitness")}
            for setup in setups}
    labels = {"local": "local pool, --jobs", "dask": "Dask workers:     "}
    for backend in ("local", "dask"):
        for workers in (1, 2):
            run = best[backend, workers]
            print(f"  {labels[backend]} {workers}: generation 0 {run['start']:5.2f} s; generations 1-{config.generations} "
                  f"{run['seconds']:6.2f} s, fitness in them {run['fitness']:6.2f} s")
        one, two = best[backend, 1], best[backend, 2]
        print(f"  {backend:5s} speed-up, 2 workers over 1: fitness {one['fitness'] / two['fitness']:.2f}x, "
              f"generations {one['seconds'] / two['seconds']:.2f}x")
    same = len({run["outcome"] for setup in setups for run in runs[setup]}) == 1
    print(f"same champion and logbook with 1 and 2 local jobs and 1 and 2 Dask workers: {'yes' if same else 'NO'}")


def rules_part(quick: bool, games: int) -> None:
    config = Config(genome="rules", rules=BOARD, generations=2 if quick else 8, opponents=OPPONENTS,
                           fitness="sampled", games=games, seed=0)
    print(f"rules genome on {BOARD.name}: {config.generations} generations, population {config.population} + "
          f"{config.offspring} offspring, {config.games} sampled games per opponent and seat")
    results = {}
    for workers in (1, 2):
        startup, seconds, champion, logbook, played = evolve_on(workers, config)
        results[workers] = (seconds, champion, logbook)
        print(f"  {workers} Dask worker{'s' if workers > 1 else ' '}: cluster start {startup:5.1f} s, evolution "
              f"{seconds:6.1f} s, {played / seconds:10,.0f} games/s, best fitness {json.loads(logbook)[-1]['max']:.4f}")
    same = results[1][1:] == results[2][1:]
    print(f"{played:,} games in all")
    print(f"speed-up, 2 workers over 1 (the baseline): {results[1][0] / results[2][0]:.2f}x")
    print(f"same champion and logbook on 1 and 2 workers: {'yes' if same else 'NO'}")



def sweep_part(quick: bool, repeat: int = 1) -> None:
    import math
    import tempfile

    import cloudpickle

    from nim_evo.evolution.sweepdir import Setting, SweepFolder, plan
    from nim_evo.experiments import run_sweep

    runs, generations = (4, 2) if quick else (20, 10)
    setting = Setting({}, Config(genome="table", rules=SEVEN, generations=generations, seed=0))
    print(f"a sweep of {runs} table runs on {SEVEN.name} ({generations} generations each, exact fitness against "
          f"random, nimsum, minimax), each run one task, single-process")
    walls, tables = {1: [], 2: []}, {}
    with tempfile.TemporaryDirectory() as tmp:
        for turn in range(repeat):  # in turns, so that a slow spell of the machine spreads over both
            for workers in (1, 2):
                folder = SweepFolder(Path(tmp) / f"workers{workers}-{turn}")
                folder.begin([setting], range(runs), {})
                began = time.perf_counter()
                result = run_sweep(folder, [setting], tuple(range(runs)), jobs=workers, backend="dask", progress=False)
                wall = time.perf_counter() - began
                startup = _cluster_start(workers)
                walls[workers].append(wall - startup)
                tables[workers] = [{k: v for k, v in row.items() if k != "seconds"} for row in result.runs]
                evolving = sum(row["seconds"] for row in result.runs)
                print(f"  {workers} Dask worker{'s' if workers > 1 else ' '}: {walls[workers][-1]:6.1f} s wall ({wall:.1f} "
                      f"s with the cluster's start and close, {startup:.1f} s, timed apart), {evolving:6.1f} s of "
                      "evolving in the runs")
        task = plan([setting], range(runs))[0]
        from nim_evo.experiments import run_task

        task_bytes = len(cloudpickle.dumps((run_task, (str(folder.path), task, None))))
        result_bytes = len(cloudpickle.dumps({"row": result.runs[0], "curve": [c for c in result.curves
                                                                               if c["run_id"] == task.run_id]}))
    speedups = [one / two for one, two in zip(walls[1], walls[2])]
    best = min(walls[1]) / min(walls[2])
    print(f"speed-up, 2 workers over 1: {best:.2f}x, the fastest of each (goal 1.8x); turn by turn "
          f"{', '.join(f'{x:.2f}x' for x in speedups)}; the same rows (time aside): "
          f"{'yes' if tables[1] == tables[2] else 'NO'}")
    overhead = _scheduler_cost()
    per_run = min(walls[1]) / runs
    print(f"a task sends {task_bytes:,} bytes and returns {result_bytes:,}; the scheduler's round trip of a no-op "
          f"task: {1000 * overhead:.2f} ms")
    waves = math.ceil(1000 / 100)
    print(f"on paper, 1,000 such runs on 100 workers: {waves} waves of {per_run:.1f} s = about {waves * per_run / 60:.1f} "
          f"min (against {1000 * per_run / 3600:.1f} h on one worker); the scheduler handles 1,000 tasks, "
          f"{1000 * overhead:.1f} s of its time in all if it did them one after another, and sends "
          f"{1000 * task_bytes / 1e6:.1f} MB of tasks and receives {1000 * result_bytes / 1e6:.1f} MB of results: "
          "the runs, not the cluster, set the time")


def _cluster_start(workers: int) -> float:
    """Seconds to start and close a local Dask cluster of ``workers`` (the sweep's own, empty)."""
    began = time.perf_counter()
    with cluster.evaluation_backend("dask", jobs=workers):
        pass
    return time.perf_counter() - began


def _scheduler_cost(tasks: int = 200) -> float:
    """Seconds per task of a no-op task's round trip through a local Dask cluster of one worker."""
    import distributed

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as local, \
            distributed.Client(local) as client:
        client.submit(abs, -1, pure=False).result()  # warm
        began = time.perf_counter()
        client.gather([client.submit(abs, -i, pure=False) for i in range(tasks)])
        return (time.perf_counter() - began) / tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2 generations instead of 8 and 10")
    parser.add_argument("--games", type=int, default=200, help="games per opponent and seat (default 200)")
    parser.add_argument("--part", choices=["all", "rules", "table", "sweep"], default="all",
                        help="the big-board rules run, the seven-heap table run, the sweep of seven-heap runs, or "
                             "all three (default)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each seven-heap configuration (and sweeps of each), the fastest kept (default 3)")
    args = parser.parse_args()
    if args.part in ("all", "rules"):
        rules_part(args.quick, args.games)
    if args.part == "all":
        print()
    if args.part in ("all", "table"):
        table_part(args.quick, args.repeat)
    if args.part == "all":
        print()
    if args.part in ("all", "sweep"):
        sweep_part(args.quick, args.repeat)


if __name__ == "__main__":
    main()
