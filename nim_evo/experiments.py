"""Experiments, not runs: a grid of settings times seeds, each run one task on the local pool
or a Dask cluster, into a sweep folder (:mod:`nim_evo.evolution.sweepdir`), resumable.

    result = nim_evo.sweep(seeds=range(6), grid={"population": [20, 40]}, genome="table",
                           rules=nim_evo.Rules((7, 5, 3)), until="accuracy=1", generations=80,
                           jobs=2, out="runs/sweep-753")
    result.summary            # a dict per setting: success rate, Wilson interval, effort, ...
    pandas.DataFrame(result.runs)

Each task evolves one run in one process (its fitness single-process: the sweep's workers are
the runs), so a sweep's rows do not depend on the number of workers. A sweep killed at any
moment goes on with ``resume=True``: finished runs are kept, unfinished ones resume from
their checkpoints, and the rows are those of a sweep never stopped (time columns aside).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from joblib import delayed
from joblib.externals.loky.process_executor import TerminatedWorkerError

from nim_evo import processes
from nim_evo.games.base import Game
from nim_evo.annotations import StrPath
from nim_evo.api import Run, config_from
from nim_evo.engine.rules import Rules
from nim_evo.evolution import cluster
from nim_evo.evolution.config import Config
from nim_evo.evolution.feasible import check_feasible
from nim_evo.evolution.rundir import RunDir
from nim_evo.evolution.sweepdir import Setting, SweepFolder, Task, check_runs, parse_seeds, plan, tables
from nim_evo.orchestration import Evolution, check_opponents
from nim_evo.plots import save_figure
from nim_evo.validation import (BOOL, JOBS, MINUTES, PATH, InstanceOf, KeywordError, Names, Options, UserError, check,
                                printable, shown)


ROUNDED = 6


@dataclass
class SweepResult:
    """A sweep's folder and its tables, as lists of dicts (``pandas.DataFrame(result.runs)``)."""

    folder: Path
    runs: list = field(default_factory=list)
    curves: list = field(default_factory=list, repr=False)
    summary: list = field(default_factory=list)
    planned: int = 0

    def __repr__(self) -> str:
        rates = ", ".join(f"{row.get('success_rate', '')}" for row in self.summary)
        return (f"<sweep {self.folder}: {len(self.runs)} of {self.planned} runs done in {len(self.summary)} settings"
                + (f"; success rates {rates}" if rates.strip(", ") else "") + ">")


def settings_from(grid: dict | None, seeds: int = 1, **base) -> tuple[list[Setting], dict]:
    """The grid's settings for :func:`sweep`: each a :class:`~nim_evo.evolution.config.Config`
    made as :func:`nim_evo.evolve` makes one from ``base`` (its keywords) and the setting's
    values; the grid as text (for ``sweep.json``). A grid whose settings times ``seeds`` are
    more runs than a sweep has is refused before any setting is made."""
    if grid is not None and not isinstance(grid, Mapping):
        raise UserError(f"the grid is a dict of settings and their values, got {shown(grid)}")
    grid = dict(grid or {})
    fields = {f for f in Config.__dataclass_fields__} - {"seed"}
    for key, values in grid.items():
        if key not in fields:
            raise UserError(f"the grid has no setting {key!r}; the settings are {', '.join(sorted(fields))}")
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") or not (listed := list(values)):
            raise UserError(f"the grid's {key} must be a list of values, got {shown(values)}")
        grid[key] = listed  # (read once: an iterator's values are read one time)
    keys = list(grid)
    check_runs([len(grid[key]) for key in keys], seeds)
    settings = []
    for values in itertools.product(*(grid[key] for key in keys)):
        given = {**base, **dict(zip(keys, values))}
        label = {key: _text(value) for key, value in zip(keys, values)}
        settings.append(Setting(label, config_of(**given)))
    return settings, {key: [_text(v) for v in grid[key]] for key in keys}


def config_of(genome: str = "table", rules: Game | None = None, opponents=None, **settings) -> Config:
    """A run's configuration from :func:`nim_evo.evolve`'s keywords (:func:`nim_evo.api.config_from`);
    its seed is each task's."""
    config, given = config_from(genome, rules, opponents, who="sweep()", **{"seed": 0, **settings})
    if given:
        raise UserError("a sweep's opponents are names or specs (its runs go to other processes): "
                        f"{', '.join(given)} is an agent object")
    return config


def _text(value) -> str:
    if isinstance(value, Rules):
        return value.name
    if isinstance(value, (list, tuple)):
        return "+".join(map(_text, value))
    return str(value)


def sweep(seeds: str | Iterable[int] | None, grid: dict | None = None, *, out: StrPath | None = None,
          jobs: int | None = None, backend: str = "local", scheduler: str | None = None, resume: bool = False,
          progress: bool = True, code: Sequence[str] | None = None, minutes: float | None = None,
          **base: Any) -> SweepResult:
    """Run every setting of ``grid`` (a setting's name -> its values; a full product) with
    every seed of ``seeds`` (an iterable of ints, or text such as ``"0-29"``), each run a task
    on ``jobs`` local workers (default 1) or, with ``backend="dask"``, a Dask cluster (its own
    local one of ``jobs`` workers, default one per core, or ``scheduler``'s); ``base``: every other
    keyword of :func:`nim_evo.evolve` (``genome``, ``rules``, ``generations``, ``until``,
    ``population``, ...). Writes the sweep folder ``out`` (see
    :mod:`nim_evo.evolution.sweepdir`); ``resume=True`` continues the sweep there (its settings
    and seeds are its own: give ``seeds=None`` and no grid or settings). On a cluster of other
    machines, ``out`` must be a folder every worker reaches at the same path (a shared file
    system). ``minutes``: each run stops after that many minutes of evolving, its target
    not reached (a success rate within a time bound; the bound makes a run's end depend on
    the machine's speed). It is checked after each generation: a run ends the generation in
    which it passes the bound (one resumed past it, after one generation more). ``code``: on ``resume``, the code opponents (``module:NAME``, ``file.py:NAME``) its
    runs play, named again (a sweep folder never makes nim_evo run code unasked). Returns the
    :class:`SweepResult`."""
    check("out", out, [PATH])
    check("jobs", jobs, [None, JOBS])
    check("progress", progress, [BOOL])
    check("resume", resume, [BOOL])
    check("code", code, [None, Names()])
    check("minutes", minutes, [None, MINUTES])
    check("scheduler", scheduler, [None, InstanceOf(str, what="a scheduler's address")])
    check("backend", backend, [Options(*cluster.BACKENDS)])
    cluster.check_backend(backend, scheduler, jobs)
    folder = SweepFolder(Path(out).absolute())  # type: ignore[arg-type]  # checked: a path, never None
    if resume:
        if seeds is not None or grid or base or minutes is not None:
            raise UserError("resume continues a sweep as it was begun: give seeds=None, and no grid, settings or "
                            "minutes")
        begun = folder.load()
        return run_sweep(folder, begun.settings, begun.seeds, jobs=jobs, backend=backend, scheduler=scheduler,
                         progress=progress, trusted=tuple(code or ()), minutes=begun.minutes)
    seed_list = parse_seeds(seeds) if isinstance(seeds, str) else _seeds(seeds)
    settings, grid_text = settings_from(grid, len(seed_list), **base)
    return run_sweep(folder, settings, seed_list, jobs=jobs, backend=backend, scheduler=scheduler, progress=progress,
                     grid=grid_text, minutes=minutes)


def _seeds(values) -> tuple[int, ...]:
    try:
        seeds = tuple(values)
    except TypeError:
        raise UserError(f"seeds must be whole numbers (a range, a list) or text like 0-29, got {values!r}") from None
    for value in seeds:
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise UserError(f"seeds are whole numbers >= 0, got {value!r}")
    if not seeds:
        raise UserError("the sweep has no seeds")
    return tuple(int(s) for s in seeds)


def check_settings(settings: list[Setting]) -> None:
    """Everything a run would refuse at its start, refused before the sweep writes anything."""
    for setting in settings:
        check_feasible(setting.config)
        check_opponents(setting.config)


def run_sweep(folder: SweepFolder, settings: list[Setting], seeds, jobs: int | None = 1, backend: str = "local",
              scheduler: str | None = None, progress: bool = True, trusted=None, grid: dict | None = None,
              minutes: float | None = None) -> SweepResult:
    """The sweep's runs not yet finished, as tasks; its tables rewritten as they end.

    Args:
        grid: for a new sweep, its grid as text: everything is checked, and the cluster
            reached, before its folder is written. ``None``: the sweep is begun already.
        trusted: the code opponents (``module:NAME``) the person names again on a resumed
            sweep (a sweep folder never makes nim_evo run code unasked); ``None`` for a new
            sweep, whose own settings named them.
        minutes: each run's bound, in minutes of evolving (``None``: none).
    """
    tasks = plan(settings, seeds, minutes)
    if grid is not None:
        check_settings(settings)
        folder.check_free()
    else:
        folder.check_inside(tasks)
    with cluster.evaluation_backend(backend, jobs, scheduler) as workers:
        if grid is not None:
            folder.begin(settings, seeds, grid, minutes)
        hold = folder.lock()
        try:
            results = {t.index: done for t in tasks if (done := folder.done(t)) is not None}
            if progress:
                kept = f", {len(results)} finished before" if results else ""
                print(f"sweep {printable(folder.path)}: {len(tasks)} runs ({len(settings)} settings x {len(seeds)} "
                      f"seeds{kept}), {backend} workers", file=sys.stderr)
            folder.write_tables(tasks, settings, results)
            for attempt in range(1 + RETRIES):
                left = [t for t in tasks if t.index not in results]
                try:
                    _run(folder, tasks, left, settings, results, workers, trusted, progress)
                    break
                except _lost_worker() as error:  # a local worker killed: its run starts again from its checkpoint
                    if attempt == RETRIES:
                        raise KeywordError(f"a worker of the local pool was lost {RETRIES + 1} times "
                                           f"({type(error).__name__}); the finished runs are kept: continue with "
                                           f"[[resume=True|--resume {folder.path}]]") from None
                    if progress:
                        print(f"  a worker was lost ({type(error).__name__}): the unfinished runs go on",
                              file=sys.stderr)
            folder.write_tables(tasks, settings, results)
        finally:
            if hold is not None:
                hold()
    _draw(folder, tasks, settings, results)
    return load_result(folder, tasks, settings, results)


RETRIES = 2  # times a sweep on the local pool starts its unfinished runs again after a worker was lost
TABLES_EVERY = 2.0  # seconds: the tables are rewritten as runs end, at most this often (and at the end)


def _run(folder, tasks, left, settings, results, workers, trusted, progress) -> None:
    if not left:
        return
    calls = (delayed(run_task)(str(folder.path), task, trusted, workers == 1) for task in left)
    written = time.perf_counter()
    # (local workers end with this process, however it ends: otherwise they would write runs for
    # minutes after a SIGKILL, and a --resume would be refused meanwhile)
    for task, result in processes.parallel(workers, return_as="generator_unordered")(calls):
        results[task.index] = result
        if time.perf_counter() - written > TABLES_EVERY:
            folder.write_tables(tasks, settings, results)
            written = time.perf_counter()
        if progress:
            print(_said(task, result, len(results), len(tasks)), file=sys.stderr)


def _lost_worker() -> tuple:
    return (TerminatedWorkerError,)


def run_task(folder: str, task: Task, trusted=None, alone: bool = True) -> tuple[Task, dict]:
    """Evolve (or resume) one run of the sweep in ``folder``, single-process; its row and curve,
    also written beside it. ``trusted``: as :func:`run_sweep`'s; ``alone``: whether it runs by
    itself (a sweep of one worker), when a table run evaluates beside its variation (with other
    runs beside it, that took 7% longer: two runs of seven heaps on two cores)."""
    sweep = SweepFolder(folder)
    sweep.check_inside([task])  # (again where it runs: the folder may have changed since)
    run_dir = RunDir(sweep.run_dir(task))
    if run_dir.checkpoint_path.exists():
        own = task.config.opponents if trusted is None else [spec for spec in trusted if spec in task.config.opponents]
        evolution = Evolution.resume(run_dir.path, jobs=1, quiet=True, trusted=list(own), export=False, overlap=alone)
    else:  # new, or begun and stopped before its first checkpoint (a folder of the sweep's own)
        evolution = Evolution.begin(task.config, out=run_dir.path, jobs=1, quiet=True, force=True, overlap=alone)
    bound = None if task.minutes is None else 60 * task.minutes
    run = Run.evolved(evolution, progress=False,
                      on_generation=None if bound is None else lambda record: evolution.state.seconds >= bound)
    row, curve = row_of(task, task.label, run, evolution.reached())
    sweep.finish(task, row, curve)
    return task, {"row": row, "curve": curve}


def row_of(task: Task, label: dict, run, reached: bool) -> tuple[dict, list]:
    """A finished run's row of ``runs.csv`` and its curve (see :mod:`nim_evo.evolution.sweepdir`)."""
    records = list(run.logbook)
    evaluations = np.cumsum([int(r.get("evals") or 0) for r in records]).tolist()
    row = {"run_id": task.run_id, "seed": task.seed, **label,
           "success": None if run.config.until is None else int(reached),
           "generation": run.state.generation, "evaluations": evaluations[-1],
           "seconds": round(sum(float(r.get("seconds") or 0) for r in records), 3),
           "fitness": round(float(run.genes.fitness.values[0]), ROUNDED),
           "accuracy": None if run.accuracy is None else round(run.accuracy, ROUNDED)}
    for board, share in (run.held_out or {}).items():
        row[f"heldout {board}"] = round(share, ROUNDED)
    curve = [{"generation": int(r["gen"]), "evaluations": evaluations[i], "fitness": round(float(r["max"]), ROUNDED),
              "accuracy": None if r.get("accuracy") is None else round(float(r["accuracy"]), ROUNDED)}
             for i, r in enumerate(records)]
    return row, curve


def load_result(folder: SweepFolder, tasks: list[Task], settings: list[Setting], results: dict) -> SweepResult:
    """The :class:`SweepResult` of the sweep in ``folder``: its tables from the finished
    ``results``."""
    runs, curves, summary = tables(tasks, settings, results)
    return SweepResult(folder.path, runs, curves, summary, planned=len(tasks))


def _said(task: Task, result: dict, done: int, total: int) -> str:
    row = result["row"]
    if row.get("success") is None:
        how = f"generation {row['generation']}, accuracy {row['accuracy']}"
    elif row["success"]:
        how = f"reached its target at generation {row['generation']}"
    elif task.minutes is not None and row["seconds"] >= 60 * task.minutes:
        how = f"stopped at its bound of {task.minutes:g} minutes, at generation {row['generation']}"
    else:
        how = f"did not reach its target in {row['generation']} generations"
    return f"  [{done}/{total}] {task.run_id}: {how} ({row['seconds']:.1f} s evolving)"


def _draw(folder: SweepFolder, tasks, settings, results) -> None:
    if not results:
        return
    from nim_evo.plots.sweep import draw_sweep  # matplotlib only when drawing

    curves = {i: [results[t.index]["curve"] for t in tasks if t.setting == i and t.index in results]
              for i in range(len(settings))}
    successes = {i: [results[t.index]["row"] for t in tasks if t.setting == i and t.index in results]
                 for i in range(len(settings))}
    labels = [", ".join(f"{k}={v}" for k, v in s.label.items()) or "runs" for s in settings]
    save_figure(draw_sweep(labels, curves, successes), folder.path / "sweep.png")
