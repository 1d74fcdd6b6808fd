"""Experiments, not runs: a grid of settings times seeds, each run one task on the local pool
or a Dask cluster, into a sweep folder (:mod:`nim_evo.evolution.sweep`), resumable.

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
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from nim_evo.api import Evolution, check_opponents, named_opponents
from nim_evo.engine.rules import Rules
from nim_evo.evolution import cluster, loop
from nim_evo.evolution.feasible import check_feasible
from nim_evo.evolution.rundir import RunDir
from nim_evo.evolution.sweep import Setting, SweepFolder, Task, parse_seeds, plan, tables
from nim_evo.genomes import get_kind, kind_names
from nim_evo.validation import UserError, printable

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


def settings_from(grid: dict | None, **base) -> tuple[list[Setting], dict]:
    """The grid's settings for :func:`sweep`: each a :class:`~nim_evo.evolution.loop.Config`
    made as :func:`nim_evo.evolve` makes one from ``base`` (its keywords) and the setting's
    values; the grid as text (for ``sweep.json``)."""
    grid = dict(grid or {})
    fields = {f for f in loop.Config.__dataclass_fields__} - {"seed"}
    for key, values in grid.items():
        if key not in fields:
            raise UserError(f"the grid has no setting {key!r}; the settings are {', '.join(sorted(fields))}")
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") or not list(values):
            raise UserError(f"the grid's {key} must be a list of values, got {values!r}")
    keys = list(grid)
    settings = []
    for values in itertools.product(*(list(grid[key]) for key in keys)):
        given = {**base, **dict(zip(keys, values))}
        label = {key: _text(value) for key, value in zip(keys, values)}
        settings.append(Setting(label, config_of(**given)))
    return settings, {key: [_text(v) for v in grid[key]] for key in keys}


def config_of(genome: str = "table", rules: Rules | None = None, opponents=None, **settings) -> loop.Config:
    """A run's configuration from :func:`nim_evo.evolve`'s keywords (the kind's own defaults
    where not given); its seed is each task's."""
    if genome in kind_names():
        settings = {**get_kind(genome).defaults, **settings}
    if opponents is not None:
        names, given = named_opponents(opponents)
        if given:
            raise UserError("a sweep's opponents are names or specs (its runs go to other processes): "
                            f"{', '.join(given)} is an agent object")
        settings["opponents"] = names
    return loop.Config(genome=genome, rules=Rules((1, 3, 5, 7, 9)) if rules is None else rules,
                       **{"seed": 0, **settings})


def _text(value) -> str:
    if isinstance(value, Rules):
        return value.name
    if isinstance(value, (list, tuple)):
        return "+".join(map(_text, value))
    return str(value)


def sweep(seeds, grid: dict | None = None, *, out=None, jobs: int = 1, backend: str = "local",
          scheduler: str | None = None, resume: bool = False, progress: bool = True, **base) -> SweepResult:
    """Run every setting of ``grid`` (a setting's name -> its values; a full product) with
    every seed of ``seeds`` (an iterable of ints, or text such as ``"0-29"``), each run a task
    on ``jobs`` local workers or, with ``backend="dask"``, a Dask cluster; ``base``: every other
    keyword of :func:`nim_evo.evolve` (``genome``, ``rules``, ``generations``, ``until``,
    ``population``, ...). Writes the sweep folder ``out`` (see
    :mod:`nim_evo.evolution.sweep`); ``resume=True`` continues the sweep there (its settings
    are its own: give none). Returns the :class:`SweepResult`."""
    if out is None:
        raise UserError("a sweep needs out, the folder it writes (runs/sweep-<name>)")
    folder = SweepFolder(out)
    if resume:
        if grid or base:
            raise UserError("resume continues a sweep as it was begun; give no grid or settings")
        settings, seed_list, _ = folder.load()
    else:
        seed_list = parse_seeds(seeds) if isinstance(seeds, str) else tuple(_seed(s) for s in seeds)
        if not seed_list:
            raise UserError("the sweep has no seeds")
        settings, grid_text = settings_from(grid, **base)
        check_settings(settings)
        folder.begin(settings, seed_list, grid_text)
    return run_sweep(folder, settings, seed_list, jobs=jobs, backend=backend, scheduler=scheduler, progress=progress)


def _seed(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise UserError(f"seeds are whole numbers >= 0, got {value!r}")
    return int(value)


def check_settings(settings: list[Setting]) -> None:
    """Everything a run would refuse at its start, refused before the sweep writes anything."""
    for setting in settings:
        check_feasible(setting.config)
        check_opponents(setting.config)


def run_sweep(folder: SweepFolder, settings: list[Setting], seeds, jobs: int = 1, backend: str = "local",
              scheduler: str | None = None, progress: bool = True, trusted=None) -> SweepResult:
    """The sweep's runs not yet finished, as tasks; its tables rewritten as each one ends."""
    tasks = plan(settings, seeds)
    results = {t.index: done for t in tasks if (done := folder.done(t)) is not None}
    left = [t for t in tasks if t.index not in results]
    if progress:
        kept = f", {len(results)} finished before" if results else ""
        print(f"sweep {printable(folder.path)}: {len(tasks)} runs ({len(settings)} settings x {len(seeds)} seeds"
              f"{kept}), {backend} workers", file=sys.stderr)
    folder.write_tables(tasks, settings, results)
    if left:
        from joblib import Parallel, delayed

        with cluster.evaluation_backend(backend, jobs if backend == "local" else jobs or None, scheduler) as workers:
            calls = (delayed(run_task)(str(folder.path), task, trusted) for task in left)
            for task, result in Parallel(n_jobs=workers, return_as="generator_unordered")(calls):
                results[task.index] = result
                folder.write_tables(tasks, settings, results)
                if progress:
                    print(_said(task, result, len(results), len(tasks)), file=sys.stderr)
    _draw(folder, tasks, settings, results)
    return load_result(folder, tasks, settings, results)


def run_task(folder: str, task: Task, trusted=None) -> tuple[Task, dict]:
    """Evolve (or resume) one run of the sweep in ``folder``, single-process; its row and curve,
    also written beside it."""
    sweep = SweepFolder(folder)
    run_dir = RunDir(sweep.run_dir(task))
    if run_dir.checkpoint_path.exists():
        evolution = Evolution.resume(run_dir.path, jobs=1, quiet=True, trusted=trusted)
    else:  # new, or begun and stopped before its first checkpoint (a folder of the sweep's own)
        evolution = Evolution.begin(task.config, out=run_dir.path, jobs=1, quiet=True, force=True)
    run = evolution.evolve(progress=False)
    settings, _, _ = sweep.load()
    row, curve = row_of(task, settings[task.setting].label, run, evolution.reached())
    sweep.finish(task, row, curve)
    return task, {"row": row, "curve": curve}


def row_of(task: Task, label: dict, run, reached: bool) -> tuple[dict, list]:
    """A finished run's row of ``runs.csv`` and its curve (see :mod:`nim_evo.evolution.sweep`)."""
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
    return SweepResult(folder.path, *tables(tasks, settings, results), planned=len(tasks))


def _said(task: Task, result: dict, done: int, total: int) -> str:
    row = result["row"]
    if row.get("success") is None:
        how = f"generation {row['generation']}, accuracy {row['accuracy']}"
    elif row["success"]:
        how = f"reached its target at generation {row['generation']}"
    else:
        how = f"did not reach its target in {row['generation']} generations"
    return f"  [{done}/{total}] {task.run_id}: {how} ({row['seconds']:.1f} s evolving)"


def _draw(folder: SweepFolder, tasks, settings, results) -> None:
    if not results:
        return
    from nim_evo.plots import save_figure
    from nim_evo.plots.sweep import draw_sweep

    curves = {i: [results[t.index]["curve"] for t in tasks if t.setting == i and t.index in results]
              for i in range(len(settings))}
    successes = {i: [results[t.index]["row"] for t in tasks if t.setting == i and t.index in results]
                 for i in range(len(settings))}
    labels = [", ".join(f"{k}={v}" for k, v in s.label.items()) or "runs" for s in settings]
    save_figure(draw_sweep(labels, curves, successes), folder.path / "sweep.png")
