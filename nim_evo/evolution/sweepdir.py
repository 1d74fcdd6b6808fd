"""A sweep's plan, folder and tables: a grid of run settings times seeds, each run a task.

A sweep folder holds::

    sweep.json     what the sweep is: its settings (each a run's configuration), its seeds and,
                   if it has one, each run's time bound in minutes of evolving
    runs/<id>/     each run's directory, as ``nim-evo run`` writes it, with ``sweep-row.json``
                   once it is done (its row of runs.csv and its curve)
    runs.csv       a row per finished run: run id, seed, each grid setting, success (by the
                   target), generation reached, evaluations, seconds, fitness, accuracy and,
                   for genomes that play any board, held-out accuracies
    curves.csv     a row per run and generation (long form): evaluations, fitness, accuracy
    summary.csv    a row per setting: runs, successes, success rate and Wilson's 95% interval,
                   median and interquartile range of generation and seconds to success, and
                   Koza's computational effort (z = 0.99) in evaluations

A run's id is ``<setting>-<values>-seed<seed>``, e.g. ``s1-population40-seed3``: the
setting's number first, so no id reads like another seed.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from nim_evo.evolution import statistics
from nim_evo.evolution.config import Config
from nim_evo.io import check_envelope, read_json
from nim_evo.atomic import atomic_write_text, write_json
from nim_evo.folderlock import hold_folder
from nim_evo.validation import MINUTES, UserError, printable, shown

FORMAT, VERSION = "nim_evo/sweep", 1
FORMER_FORMAT = "nim_evo-sweep"  # the record's format name until 0.1.0's manual: still read
ROW_FORMAT, ROW_VERSION = "nim_evo/sweep-row", 1
RECORD, ROW = "sweep.json", "sweep-row.json"
MAX_SEEDS = 100_000
MAX_RUNS = 100_000
CURVE_COLUMNS = ("generation", "evaluations", "fitness", "accuracy")


@dataclass(frozen=True)
class Setting:
    """One point of the grid: its values as given (grid key -> text) and the run it makes."""

    label: dict
    config: Config  # its seed is each task's


class Begun(NamedTuple):
    """What ``sweep.json`` says a sweep is."""

    settings: list[Setting]
    seeds: tuple[int, ...]
    grid: dict
    minutes: float | None  # each run's bound, in minutes of evolving (None: none)


@dataclass(frozen=True)
class Task:
    """One run of the sweep (all a worker needs: it reads nothing of the sweep but its run's folder)."""

    index: int
    setting: int
    seed: int
    run_id: str
    config: Config
    label: dict
    minutes: float | None = None  # the run stops after this many minutes of evolving (None: no bound)


RESULTS = ("run_id", "seed", "success", "generation", "evaluations", "seconds", "fitness", "accuracy")


def column(key: str) -> str:
    """A grid setting's column: its name, or ``<name> setting`` where a result column has it
    (``--grid fitness=exact,sampled`` against the run's final ``fitness``)."""
    return f"{key} setting" if key in RESULTS or key.startswith("heldout ") else key


def parse_seeds(text: str) -> tuple[int, ...]:
    """``0-29``, ``0,3,5`` or ``0-4,10``: the seeds, in order, each once; a one-line error
    for anything else or for none."""
    seeds: list[int] = []
    seen: set[int] = set()
    for part in str(text).split(","):
        match = re.fullmatch(r"\s*(\d{1,9})\s*(?:-\s*(\d{1,9})\s*)?", part)
        if match is None:
            raise UserError(f"seeds are whole numbers and ranges like 0-29 or 0,3,5, got {text!r}")
        low, high = int(match[1]), int(match[2] or match[1])
        if high < low:
            raise UserError(f"the seeds {part.strip()} are an empty range")
        if len(seeds) + high - low + 1 > MAX_SEEDS:
            raise UserError(f"a sweep takes at most {MAX_SEEDS:,} seeds")
        seeds += [s for s in range(low, high + 1) if s not in seen]
        seen.update(range(low, high + 1))
    return tuple(seeds)


def check_runs(values: list[int], seeds: int) -> None:
    """Refuse, in one line, a sweep of more than :data:`MAX_RUNS` runs: a grid of ``values``
    values for each of its settings, times ``seeds`` seeds (counted before any setting is made)."""
    runs = math.prod(values) * seeds
    if runs > MAX_RUNS:
        raise UserError(f"the sweep has {runs:,} runs; at most {MAX_RUNS:,}")


def plan(settings: list[Setting], seeds, minutes: float | None = None) -> list[Task]:
    """Every setting times every seed, setting by setting (each run bound to ``minutes`` of
    evolving, if given)."""
    check_runs([len(settings)], len(seeds))
    if len(set(seeds)) != len(seeds):
        raise UserError("seeds must differ: the sweep names a seed twice")
    tasks: list[Task] = []
    for s, setting in enumerate(settings):
        for seed in seeds:
            tasks.append(Task(len(tasks), s, seed, run_id(s, setting.label, seed),
                              dataclasses.replace(setting.config, seed=seed),
                              {column(key): value for key, value in setting.label.items()}, minutes))
    return tasks


def run_id(index: int, label: dict, seed: int) -> str:
    """``s<index>-<key><value>...-seed<seed>`` in characters a file name takes."""
    words = "-".join(re.sub(r"[^A-Za-z0-9.+=]+", "_", f"{key}{value}")[:24] for key, value in label.items())
    return f"s{index}-{words[:60]}-seed{seed}" if words else f"s{index}-seed{seed}"


class SweepFolder:
    """A sweep's folder (see the module)."""

    def __init__(self, path):
        self.path = Path(path)
        self.record_path = self.path / RECORD
        self.runs = self.path / "runs"

    def run_dir(self, task: Task) -> Path:
        """The folder of ``task``'s run, under the sweep's ``runs/``."""
        return self.runs / task.run_id

    def check_inside(self, tasks) -> None:
        """Refuse, in one line, a sweep folder whose ``runs`` folder, or the folder of one of
        ``tasks``' runs, is a link or resolves outside the sweep's folder (a folder received
        from someone else): a run begun there would replace the files of its names, wherever
        the link leads. Nothing is written."""
        root = self.path.resolve()
        for path in (self.runs, *(self.run_dir(task) for task in tasks)):
            if path.is_symlink() or path.exists() and not path.resolve().is_relative_to(root):
                raise UserError(f"{printable(path)} leads to {printable(path.resolve())}: a sweep writes its runs only "
                                f"in folders of its own, in {printable(root)}; nothing was written (a link there "
                                "is someone's: remove it to go on)")

    def check_free(self) -> None:
        """Refuse, in one line, a folder that holds anything (a sweep goes on with ``--resume``;
        nothing of a person's is replaced)."""
        if self.path.exists() and (not self.path.is_dir() or any(self.path.iterdir())):
            what = ("a sweep: continue it with --resume, or give the new one another --name or --out"
                    if self.record_path.exists() else "files")
            raise UserError(f"{self.path} holds {what}; a new sweep needs an empty or new folder")

    def begin(self, settings: list[Setting], seeds, grid: dict, minutes: float | None = None) -> None:
        """Write ``sweep.json`` (first: a folder holding it is a sweep), then its ``runs``."""
        self.check_free()
        self.path.mkdir(parents=True, exist_ok=True)
        bound = {} if minutes is None else {"minutes": minutes}
        write_json(self.record_path, {"format": FORMAT, "version": VERSION, "grid": grid, "seeds": list(seeds), **bound,
                                      "settings": [{"label": s.label, "config": s.config.to_json()}
                                                   for s in settings]})
        self.runs.mkdir(exist_ok=True)

    def lock(self):
        """Hold the folder for this process: a second sweep on it is refused in one line."""
        try:
            return hold_folder(self.path)
        except BlockingIOError:
            raise UserError(f"{self.path} is being swept by another process; wait for it to end") from None

    def load(self) -> Begun:
        """The settings, seeds, grid and time bound of the sweep begun here; a one-line error
        for a folder that is no sweep."""
        if not self.record_path.is_file():
            raise UserError(f"{self.path} is not a sweep folder (it has no {RECORD})")
        data = read_json(self.record_path)
        if isinstance(data, dict) and data.get("format") == FORMER_FORMAT:
            data = {**data, "format": FORMAT}
        data = check_envelope(data, self.record_path, FORMAT, VERSION, "sweep record")
        try:
            settings = [Setting({str(k): str(v) for k, v in s["label"].items()},
                                Config.from_json(_document(s["config"]))) for s in data["settings"]]
            seeds = tuple(data["seeds"])
            if not all(isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed for seed in seeds):
                raise TypeError("seeds")
            grid = {str(k): [str(v) for v in values] for k, values in data["grid"].items()}
            minutes = data.get("minutes")
            if minutes is not None and not MINUTES(minutes):
                raise TypeError("minutes")
        except UserError as error:  # a setting's configuration, refused: said as Config says it
            raise UserError(f"{self.record_path}: {error}") from None
        except (KeyError, TypeError, AttributeError) as error:
            raise UserError(f"{self.record_path} does not read as a sweep ({type(error).__name__})") from None
        return Begun(settings, seeds, grid, minutes)

    def done(self, task: Task) -> dict | None:
        """The finished run's ``{"row", "curve"}``, or None if it has not finished."""
        path = self.run_dir(task) / ROW
        if not path.is_file():
            return None
        data = check_envelope(read_json(path), path, ROW_FORMAT, ROW_VERSION, "sweep row", unversioned=True)
        problem = _row_problem(data.get("row"), data.get("curve"))
        if problem:
            raise UserError(f"{path} does not read as a sweep's row: {problem}")
        return data

    def finish(self, task: Task, row: dict, curve: list) -> None:
        """Write ``task``'s row and curve beside its run (``sweep-row.json``): the run is finished."""
        write_json(self.run_dir(task) / ROW, {"format": ROW_FORMAT, "version": ROW_VERSION, "row": row, "curve": curve})

    def write_tables(self, tasks: list[Task], settings: list[Setting], results: dict) -> list[Path]:
        """``runs.csv``, ``curves.csv`` and ``summary.csv`` (:func:`tables`), written atomically."""
        keys = [column(key) for key in settings[0].label] if settings else []
        written = []
        for name, table in zip(("runs.csv", "curves.csv", "summary.csv"), tables(tasks, settings, results)):
            atomic_write_text(self.path / name, to_csv(table, first=["run_id", "seed", *keys] if name != "summary.csv"
                                                       else keys))
            written.append(self.path / name)
        return written


def _document(value) -> dict:
    """``value`` if it is a JSON object (a setting's config), else a ``TypeError``."""
    if not isinstance(value, dict):
        raise TypeError("config")
    return value


def _row_problem(row, curve) -> str | None:
    """What is wrong, if anything, with a finished run's row and curve as the tables read them
    (:func:`summarize`): a dict and a list of dicts, the row's success 0, 1 or none, its
    generation and each point's evaluations whole numbers, its seconds a number."""
    def whole(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0

    if not isinstance(row, dict) or not isinstance(curve, list):
        return "it holds no row and curve"
    success = row.get("success")
    if success not in (None, "") and not (whole(success) and success in (0, 1)):
        return f"its success is {shown(success)}, not 0, 1 or none"
    if not whole(row.get("generation")):
        return f"its generation is {shown(row.get('generation'))}, not a whole number"
    seconds = row.get("seconds")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
        return f"its seconds are {shown(seconds)}, not a number"
    if not all(isinstance(point, dict) and whole(point.get("evaluations")) for point in curve):
        return "its curve is not a list of points with whole numbers of evaluations"
    return None


def tables(tasks: list[Task], settings: list[Setting], results: dict) -> tuple[list, list, list]:
    """The rows of ``runs.csv``, ``curves.csv`` and ``summary.csv`` from the finished runs'
    results (by task index), in the plan's order."""
    rows = [results[t.index]["row"] for t in tasks if t.index in results]
    curves = [{"run_id": t.run_id, "seed": t.seed, **t.label, **point}
              for t in tasks if t.index in results for point in results[t.index]["curve"]]
    summary = [summarize({column(key): value for key, value in setting.label.items()}, [results[t.index] for t in tasks if t.setting == s and t.index in results],
                         sum(t.setting == s for t in tasks)) for s, setting in enumerate(settings)]
    return rows, curves, summary


def summarize(label: dict, results: list[dict], planned: int) -> dict:
    """A setting's row of ``summary.csv`` from its finished runs' results."""
    rows = [r["row"] for r in results]
    judged = [r for r in rows if r.get("success") not in (None, "")]
    successes = sum(int(r["success"]) for r in judged)
    low, high = statistics.wilson(successes, len(judged))
    won = [r for r in judged if int(r["success"])]
    generation = statistics.quartiles([r["generation"] for r in won])
    seconds = statistics.quartiles([r["seconds"] for r in won])
    first = [r["generation"] if int(r["success"]) else None for r in judged]  # a run stops at its target
    longest = max((len(r["curve"]) for r in results), default=0)
    evaluations = [statistics.quartiles([r["curve"][i]["evaluations"] for r in results if len(r["curve"]) > i])[0]
                   for i in range(longest)]  # a run's cumulative evaluations by generation i (their median)
    effort, at = statistics.effort(first, evaluations) if judged else (math.nan, None)
    return {**label, "runs": len(rows), "planned": planned, "successes": successes if judged else "",
            "success_rate": round(successes / len(judged), 6) if judged else "",
            "ci_low": _num(low), "ci_high": _num(high),
            "generation_median": _num(generation[0]), "generation_q1": _num(generation[1]),
            "generation_q3": _num(generation[2]),
            "seconds_median": _num(seconds[0]), "seconds_q1": _num(seconds[1]), "seconds_q3": _num(seconds[2]),
            "effort": "" if not judged or math.isinf(effort) else int(effort),
            "effort_generation": "" if at is None else at}


def _num(value: float):
    return "" if value is None or math.isnan(value) else round(value, 6)


def to_csv(rows: list[dict], first: list[str]) -> str:
    """Rows as CSV, the ``first`` columns first and then every other key in order of appearance."""
    columns = list(first)
    for row in rows:
        columns += [key for key in row if key not in columns]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: "" if row.get(key) is None else row.get(key) for key in columns})
    return buffer.getvalue()
