"""A run's fitness history, or several runs' side by side, from their ``logbook.csv``.

Three panels against generations (or cumulative evaluations, or games played):

1. fitness: the best, mean and worst individual per generation, the spread between best and
   worst shaded;
2. the best individual's win rate against each opponent of the panel (both seats);
3. the best individual's accuracy: the share of winning positions where it plays a winning
   move, by the solver (left out for boards too big to solve).

With one run plotted against generations, a second axis on top reads cumulative evaluations
(games, for sampled fitness).

Lines that coincide stay visible: each opponent (and each run of a comparison) is drawn
thinner than the one before it, in its own dash pattern, and the legend says where one
run's lines are equal (``minimax (= nimsum from generation 5)``). Runs are compared only
where their fitness means the same thing: the same boards, the same panel of opponents,
the same starts (:func:`check_comparable`); each run's label names what else differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator, ScalarFormatter

from nim_evo.games.base import Game
from nim_evo.games.registry import game_from_json
from nim_evo.evolution.config import Config
from nim_evo.evolution.logbook import OPTIONAL_COLUMNS, read_logbook
from nim_evo.evolution.rundir import read_config
from nim_evo.plots import X_AXES, count_formatter, new_figure, plain
from nim_evo.validation import UserError

if TYPE_CHECKING:
    from matplotlib.typing import LineStyleType

SIZE = (11.0, 10.0)
_STYLES: dict[str, LineStyleType] = {"best": "-", "mean": "--", "worst": ":"}
_OUTSIDE = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "fontsize": "small"}  # right of the panel
_OPPONENT_STYLES: tuple[LineStyleType, ...] = ("-", "--", ":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3)), (0, (8, 3)))
# what a comparison's labels may name, where runs differ in it (seed: always; the board: in the title if shared)
_SETTINGS = ("fitness", "games", "population", "offspring", "cxpb", "mutpb", "tournsize", "indpb", "greedy",
             "credit", "space", "selection", "restart")


@dataclass(frozen=True)
class History:
    """One run's logbook and the settings it ran with.

    Attributes:
        run_id: the run directory's name.
        config: its ``config.json``.
        rules: the board.
        opponents: the fitness panel, in order (a win-rate column each).
        columns: the logbook's columns as float arrays, one value per generation.
    """

    run_id: str
    config: dict
    rules: Game
    opponents: tuple[str, ...]
    columns: dict

    @property
    def genome(self) -> str:
        """The run's genome kind."""
        return self.config["genome"]

    @property
    def seed(self) -> int:
        """The run's seed."""
        return self.config["seed"]

    def x(self, axis: str) -> np.ndarray:
        """The x values for ``axis``: generations, cumulative evaluations or games."""
        if axis == "generations":
            return self.columns["gen"]
        if axis == "games" and not self.columns["games"].any():
            raise UserError(f"{self.run_id} uses exact fitness and plays no games; plot it against "
                             "generations or evaluations")
        return np.cumsum(self.columns["evals" if axis == "evaluations" else "games"])

    def label(self) -> str:
        """The run as a legend names it: genome, board and seed."""
        return f"{self.genome}, {self.rules.name}, seed {self.seed}"

    def fitness_definition(self) -> tuple:
        """What this run's fitness measures: ``(boards, panel, starts)``, the boards as names and
        the panel as a sorted tuple (fitness is the panel's mean: its order does not matter)."""
        boards = tuple(rules.name for rules in Config.from_json(self.config).training_rules())
        return boards, tuple(sorted(self.opponents)), self.config.get("starts", "start")

    @classmethod
    def from_logbook(cls, run_id: str, config: dict, logbook) -> History:
        """The history of a run in memory: its config (as JSON) and DEAP logbook."""
        rules = game_from_json(config["rules"], "the run's config")
        opponents = tuple(config["opponents"])
        needed = ["gen", "evals", "games", "min", "mean", "max", "accuracy", *opponents]
        needed += [name for name in OPTIONAL_COLUMNS if logbook and name in logbook[0]]
        columns = {name: np.array([float(record[name]) for record in logbook]) for name in needed}
        return cls(run_id, config, rules, opponents, columns)


def load_history(run_dir) -> History:
    """The history of the run in ``run_dir``; a one-line ``ValueError`` if it has none (saying
    what the folder is instead, where it can: an arena's output, a folder of runs)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise UserError(f"no run directory at {run_dir}")
    if not (run_dir / "config.json").exists():
        raise UserError(_not_a_run(run_dir))
    config = read_config(run_dir / "config.json")
    columns = read_logbook(run_dir / "logbook.csv", config.opponents)
    return History(run_dir.resolve().name, config.to_json(), config.rules, config.opponents, columns)


def draw_history(histories: list[History], x: str = "generations"):
    """The fitness-history figure of one or several runs (see the module docstring).

    Raises:
        ValueError: for an unknown ``x``, or runs whose fitness measures different things.
    """
    if x not in X_AXES:
        raise UserError(f"x must be one of {', '.join(X_AXES)}, got {x!r}")
    check_comparable(histories)
    labels = _labels(histories)
    single = len(histories) == 1
    figure = new_figure(*SIZE)
    fitness, rates, accuracy = figure.subplots(3, 1, sharex=True, height_ratios=(3, 3, 2))
    colors = [f"C{k % 10}" for k in range(len(histories))]
    opponents = list(dict.fromkeys(o for h in histories for o in h.opponents))  # one line style each
    for r, (history, color, label) in enumerate(zip(histories, colors, labels)):
        xs = history.x(x)
        c = history.columns
        width = _width(r, len(histories))  # thinner in turn: where runs' lines coincide, each shows
        fitness.fill_between(xs, c["min"], c["max"], color=color, alpha=0.15 if single else 0.1, linewidth=0)
        for key, column in (("best", "max"), ("mean", "mean"), ("worst", "min")):
            fitness.plot(xs, c[column], _STYLES[key], color=color, linewidth=width if key == "best" else 0.7 * width)
        for k, opponent in enumerate(history.opponents):
            o = opponents.index(opponent)
            style = _OPPONENT_STYLES[o % len(_OPPONENT_STYLES)]
            rates.plot(xs, c[opponent], linestyle=style, color=f"C{o % 10}" if single else color,
                       linewidth=_width(o, len(opponents), 2.6) if single else width,
                       label=plain(_short(opponent) + _same_as(c, history.opponents, k)) if single else None)
        if np.isfinite(c["accuracy"]).any():
            accuracy.plot(xs, 100 * c["accuracy"], color=color, linewidth=width, label=plain(label))
        if "heldout" in c and single:  # a board-free genome: also on the board it never saw
            accuracy.plot(xs, 100 * c["heldout"], "--", color=color, linewidth=1.3,
                          label="on 1-3-5-7-9-11-13 (never trained on)")
            accuracy.plot([], [], color=color, linewidth=1.6, label="on the run's board")
        if "restart" in c and single:
            for at in xs[c["restart"] == 1]:
                fitness.axvline(at, color="0.5", linewidth=0.8, linestyle=":")
    _decorate_fitness(fitness, histories, colors, single)
    if single and "restart" in histories[0].columns and (histories[0].columns["restart"] == 1).any():
        fitness.text(0.01, 0.02, "dotted lines: a new population after a stall (the champion is kept)",
                     transform=fitness.transAxes, fontsize="small", color="0.4")
    rates.set_ylabel("best individual's\nwin rate")
    rates.set_ylim(-0.03, 1.03)
    rates.grid(alpha=0.3)
    if single:  # handles given: a label such as "_x" (a file _x.json) is shown, not taken for "no label"
        lines = rates.get_lines()
        rates.legend(lines, [line.get_label() for line in lines], title="opponent", **_OUTSIDE)
    else:
        rates.legend([Line2D([], [], color="0.3", linestyle=_OPPONENT_STYLES[k % len(_OPPONENT_STYLES)])
                      for k in range(len(opponents))], [plain(_short(o)) for o in opponents], title="opponent",
                     **_OUTSIDE)
    if single and "heldout" in histories[0].columns:
        handles, names = accuracy.get_legend_handles_labels()
        accuracy.legend(handles[1:], names[1:], **_OUTSIDE)
    accuracy.set_ylabel("best individual's\naccuracy (%)")
    accuracy.set_ylim(-3, 103)
    accuracy.grid(alpha=0.3)
    unsolved = [h.run_id for h in histories if not np.isfinite(h.columns["accuracy"]).any()]
    if unsolved:
        accuracy.text(0.01, 0.5, plain("not measured (board too big to solve): " + ", ".join(unsolved)),
                      transform=accuracy.transAxes, fontsize="small", color="0.4")
    accuracy.set_xlabel(X_AXES[x])
    accuracy.xaxis.set_major_locator(MaxNLocator(integer=True))
    accuracy.xaxis.set_major_formatter(count_formatter())
    if single and x == "generations":
        _second_axis(fitness, histories[0])
    if not single:
        figure.legend([Line2D([], [], color=c, linewidth=_width(r, len(colors))) for r, c in enumerate(colors)],
                      [plain(label) for label in labels],
                      loc="outside lower center", ncols=min(3, len(labels)), fontsize="small",
                      title="run (each drawn thinner than the one before: lines that coincide all show)")
    figure.suptitle(_title(histories), fontsize="large")
    return figure


def draw_comparison(histories: list[History], x: str = "generations"):
    """Several runs in one figure: where runs share a setting (they differ in their seed
    alone), each setting's median and interquartile band (:mod:`nim_evo.plots.bands`), else
    one line per run (:func:`draw_history`)."""
    from nim_evo.plots.bands import draw_bands, groups_of  # (import time: bands load scipy.stats, half a second)

    check_comparable(histories)
    grouped = groups_of(histories, _labels(histories))
    if len(histories) > 1 and len(grouped) < len(histories):
        return draw_bands(grouped, x, _title(histories))
    return draw_history(histories, x)


def check_comparable(histories: list[History]) -> None:
    """Refuse, in one line, to put runs on one fitness axis when their fitness measures different
    things: other boards, another panel of opponents, other starting positions. (Exact and
    sampled fitness measure the same win rates: those compare, and their labels say which.)"""
    first = histories[0]
    boards, panel, starts = first.fitness_definition()
    for other in histories[1:]:
        their_boards, their_panel, their_starts = other.fitness_definition()
        pair = f"cannot compare {first.run_id} and {other.run_id}: "
        if their_boards != boards:
            raise UserError(pair + f"their fitness is measured on different boards ({', '.join(boards)} and "
                            f"{', '.join(their_boards)}), not comparable; plot each run alone")
        if their_panel != panel:
            mine, theirs = (", ".join(map(_short, h.opponents)) for h in (first, other))
            raise UserError(pair + f"their fitness is against different panels ({mine} and {theirs}), not comparable; "
                            "plot each run alone")
        if their_starts != starts:
            raise UserError(pair + f"their fitness is from different starts ({_STARTS[starts]} and "
                            f"{_STARTS[their_starts]}), not comparable; plot each run alone")


_STARTS = {"start": "the start position", "all": "every position"}


def _decorate_fitness(axes, histories, colors, single) -> None:
    axes.set_ylabel("fitness\n(mean win rate)")
    axes.grid(alpha=0.3)
    axes.yaxis.set_major_formatter(ScalarFormatter(useOffset=False))  # no "+6.667e-1" when the spread is thin
    width = _width(0, len(histories))
    proxies = [Line2D([], [], color="0.3" if not single else colors[0], linestyle=style,
                      linewidth=width if key == "best" else 0.7 * width) for key, style in _STYLES.items()]
    labels = ["best", "mean", "worst"]
    if single:  # a population that has converged: say so, the lines lie on one another
        c = histories[0].columns
        labels = [name + _same_as(c, ("max", "mean", "min"), k, names=labels) for k, name in enumerate(labels)]
    proxies.append(axes.fill_between([], [], [], color="0.3" if not single else colors[0], alpha=0.15, linewidth=0))
    labels.append("best-worst spread")
    axes.legend(proxies, labels, title="population", **_OUTSIDE)


def _width(k: int, n: int, widest: float = 4.0) -> float:
    """Line width of the ``k``-th of ``n`` lines that may coincide: ``widest`` down to 1.2."""
    return 1.6 if n == 1 else widest - (widest - 1.2) * k / (n - 1)


def _same_as(columns: dict, keys, k: int, names=None) -> str:
    """A legend note for line ``keys[k]`` that coincides with an earlier one for the whole run, or
    from some generation on (at least its last two): ``" (= nimsum from generation 5)"``, else ``""``."""
    names = names or [_short(key) for key in keys]
    mine, best = columns[keys[k]], None
    for j in range(k):
        same = np.isclose(mine, columns[keys[j]], rtol=0, atol=1e-9, equal_nan=True)
        differs = np.flatnonzero(~same)
        start = 0 if len(differs) == 0 else differs[-1] + 1
        if len(mine) - start >= 2 and (best is None or start < best[0]):
            best = (start, names[j])
    if best is None:
        return ""
    start, name = best
    return f" (= {name} throughout)" if start == 0 else f" (= {name} from generation {columns['gen'][start]:.0f})"


def _second_axis(axes, history: History) -> None:
    """Cumulative evaluations (or games) on top of a generations axis, where the mapping is monotonic."""
    kind = "games" if history.columns["games"].any() else "evaluations"
    gens, cumulative = history.columns["gen"], history.x(kind)
    if len(gens) < 2 or not (np.all(np.diff(gens) > 0) and np.all(np.diff(cumulative) > 0)):
        return
    top = axes.secondary_xaxis("top", functions=(lambda g: _interp(g, gens, cumulative),
                                                 lambda e: _interp(e, cumulative, gens)))
    top.set_xlabel(X_AXES[kind], fontsize="small")
    top.xaxis.set_major_formatter(count_formatter())


def _short(opponent: str) -> str:
    """An opponent as the legend names it: a strategy file by its name without the folder."""
    from nim_evo.evaluation.specs import label  # here: draw_history's loop variable is named label too

    return label(opponent)


def _interp(x, xp, fp):
    """``np.interp``, continued linearly beyond both ends (axis limits reach past the data)."""
    x = np.asarray(x, dtype=float)
    inside = np.interp(x, xp, fp)
    low = fp[0] + (x - xp[0]) * (fp[1] - fp[0]) / (xp[1] - xp[0])
    high = fp[-1] + (x - xp[-1]) * (fp[-1] - fp[-2]) / (xp[-1] - xp[-2])
    return np.where(x < xp[0], low, np.where(x > xp[-1], high, inside))


def _labels(histories: list[History]) -> list[str]:
    """Each run's legend label: its genome and seed, its board where boards differ, and every
    setting (:data:`_SETTINGS`) in which the runs differ; its id where two labels still agree."""
    if len(histories) == 1:
        return [histories[0].label()]
    differ = [key for key in _SETTINGS if len({_setting(h, key) for h in histories}) > 1]
    boards = len({h.rules for h in histories}) > 1
    labels = []
    for h in histories:
        parts = [h.genome, *([h.rules.name] if boards else []), f"seed {h.seed}"]
        parts += [text for key in differ if (text := _setting(h, key)) is not None]
        labels.append(", ".join(parts))
    return [f"{label} [{h.run_id}]" if labels.count(label) > 1 else label for label, h in zip(labels, histories)]


def _setting(history: History, key: str) -> str | None:
    """A run's ``key`` setting as its label names it (``None``: nothing to say, games under exact fitness)."""
    value = history.config.get(key)
    if key == "fitness":
        return f"{value or 'exact'} fitness"
    if key == "games":
        return f"{value:,} games" if history.config.get("fitness") == "sampled" else None
    if key == "credit":
        return "credit" if value else "no credit"
    if key == "offspring":
        return f"{value} offspring"
    return f"{key} {'default' if value is None else value}"


def _title(histories: list[History]) -> str:
    """The figure's title, two lines, its names from files :func:`~nim_evo.plots.plain`."""
    if len(histories) == 1:
        h = histories[0]
        fit = h.config.get("fitness", "exact")
        return (plain(f"Evolution of a {h.genome} genome on {h.rules.name}, seed {h.seed}") + "\n" +
                plain(f"against {', '.join(map(_short, h.opponents))}; {fit} fitness; population "
                      f"{h.config.get('population')}, {h.config.get('offspring')} offspring per generation"))
    boards = list(dict.fromkeys(h.rules.name for h in histories))
    kinds = list(dict.fromkeys(h.genome for h in histories))
    where = f"on {boards[0]}" if len(boards) == 1 else "on " + ", ".join(boards)
    trained, _, starts = histories[0].fitness_definition()
    measured = "" if list(trained) == boards else f" on {', '.join(trained)}"
    return (plain(f"{len(histories)} runs {where}: {', '.join(kinds)} genome{'s' if len(kinds) > 1 else ''}") + "\n" +
            plain(f"the same fitness for all: win rate{measured} against "
                  f"{', '.join(map(_short, histories[0].opponents))}, from {_STARTS[starts]}"))


def _not_a_run(folder: Path) -> str:
    """Why ``folder`` (a directory without ``config.json``) is no run, and what to do instead."""
    if (folder / "arena.csv").exists() or (folder / "arena.png").exists():  # the arena command's outputs
        picture = folder / "arena.png"
        drawn = f"its picture is {picture}" if picture.exists() else f"its results are {folder / 'arena.csv'}"
        return (f"{folder} is an arena's output, not a run: {drawn} (python -m nim_evo.arena draws it); "
                "plot draws run directories and strategy files")
    if (folder / "checkpoint.npz").exists():
        return f"{folder} has a checkpoint but no config.json yet: resume the run (--resume {folder}) to finish it"
    inside = sorted(d.name for d in folder.iterdir() if (d / "config.json").is_file())
    if inside:
        return (f"{folder} is a folder of {len(inside)} run{'s' if len(inside) > 1 else ''}, not a run: name "
                f"{'one (or several, to compare them)' if len(inside) > 1 else 'it'}, e.g. {folder / inside[0]}")
    return (f"{folder} is no run directory (it has no config.json); plot draws run directories "
            "(runs/<run-id>) and strategy files (genomes/*.json)")
