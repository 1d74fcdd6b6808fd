"""A run's fitness history, or several runs' side by side, from their ``logbook.csv``.

Three panels against generations (or cumulative evaluations, or games played):

1. fitness: the best, mean and worst individual per generation, the spread between best and
   worst shaded;
2. the best individual's win rate against each opponent of the panel (both seats);
3. the best individual's accuracy: the share of winning positions where it plays a winning
   move, by the solver (left out for boards too big to solve).

With one run plotted against generations, a second axis on top reads cumulative evaluations
(games, for sampled fitness).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from nim_evo.engine.rules import Rules, rules_from_json
from nim_evo.evolution.rundir import OPTIONAL_COLUMNS, read_config, read_logbook
from nim_evo.plots import X_AXES, new_figure
from nim_evo.validation import UserError

SIZE = (11.0, 10.0)
_STYLES = {"best": "-", "mean": "--", "worst": ":"}
_OUTSIDE = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "fontsize": "small"}  # right of the panel
_OPPONENT_STYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3)), (0, (8, 3)))


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
    rules: Rules
    opponents: tuple[str, ...]
    columns: dict

    @property
    def genome(self) -> str:
        return self.config["genome"]

    @property
    def seed(self) -> int:
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
        return f"{self.genome}, {self.rules.name}, seed {self.seed}"


    @classmethod
    def from_logbook(cls, run_id: str, config: dict, logbook) -> History:
        """The history of a run in memory: its config (as JSON) and DEAP logbook."""
        rules = rules_from_json(config["rules"], "the run's config")
        opponents = tuple(config["opponents"])
        needed = ["gen", "evals", "games", "min", "mean", "max", "accuracy", *opponents]
        needed += [name for name in OPTIONAL_COLUMNS if logbook and name in logbook[0]]
        columns = {name: np.array([float(record[name]) for record in logbook]) for name in needed}
        return cls(run_id, config, rules, opponents, columns)


def load_history(run_dir) -> History:
    """The history of the run in ``run_dir``; a one-line ``ValueError`` if it has none."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise UserError(f"no run directory at {run_dir}")
    config = read_config(run_dir / "config.json")
    columns = read_logbook(run_dir / "logbook.csv", config.opponents)
    return History(run_dir.resolve().name, config.to_json(), config.rules, config.opponents, columns)


def draw_history(histories: list[History], x: str = "generations"):
    """The fitness-history figure of one or several runs (see the module docstring)."""
    if x not in X_AXES:
        raise UserError(f"x must be one of {', '.join(X_AXES)}, got {x!r}")
    labels = _labels(histories)
    single = len(histories) == 1
    figure = new_figure(*SIZE)
    fitness, rates, accuracy = figure.subplots(3, 1, sharex=True, height_ratios=(3, 3, 2))
    colors = [f"C{k % 10}" for k in range(len(histories))]
    opponents = list(dict.fromkeys(o for h in histories for o in h.opponents))  # one line style each
    for history, color, label in zip(histories, colors, labels):
        xs = history.x(x)
        c = history.columns
        fitness.fill_between(xs, c["min"], c["max"], color=color, alpha=0.15 if single else 0.1, linewidth=0)
        for key, column in (("best", "max"), ("mean", "mean"), ("worst", "min")):
            fitness.plot(xs, c[column], _STYLES[key], color=color, linewidth=1.6 if key == "best" else 1.1)
        for k, opponent in enumerate(history.opponents):
            style = "-" if single else _OPPONENT_STYLES[opponents.index(opponent) % len(_OPPONENT_STYLES)]
            rates.plot(xs, c[opponent], linestyle=style, color=f"C{k % 10}" if single else color,
                       label=_short(opponent) if single else None)
        if np.isfinite(c["accuracy"]).any():
            accuracy.plot(xs, 100 * c["accuracy"], color=color, linewidth=1.6, label=label)
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
    if single:
        rates.legend(title="opponent", **_OUTSIDE)
    else:
        rates.legend([Line2D([], [], color="0.3", linestyle=_OPPONENT_STYLES[k % len(_OPPONENT_STYLES)])
                      for k in range(len(opponents))], [_short(o) for o in opponents], title="opponent", **_OUTSIDE)
    if single and "heldout" in histories[0].columns:
        handles, names = accuracy.get_legend_handles_labels()
        accuracy.legend(handles[1:], names[1:], **_OUTSIDE)
    accuracy.set_ylabel("best individual's\naccuracy (%)")
    accuracy.set_ylim(-3, 103)
    accuracy.grid(alpha=0.3)
    unsolved = [h.run_id for h in histories if not np.isfinite(h.columns["accuracy"]).any()]
    if unsolved:
        accuracy.text(0.01, 0.5, "not measured (board too big to solve): " + ", ".join(unsolved),
                      transform=accuracy.transAxes, fontsize="small", color="0.4")
    accuracy.set_xlabel(X_AXES[x])
    accuracy.xaxis.set_major_locator(MaxNLocator(integer=True))
    if single and x == "generations":
        _second_axis(fitness, histories[0])
    if not single:
        figure.legend([Line2D([], [], color=c, linewidth=2) for c in colors], labels, loc="outside lower center",
                      ncols=min(3, len(labels)), title="run", fontsize="small")
    figure.suptitle(_title(histories), fontsize="large")
    return figure


def _decorate_fitness(axes, histories, colors, single) -> None:
    axes.set_ylabel("fitness\n(mean win rate)")
    axes.grid(alpha=0.3)
    proxies = [Line2D([], [], color="0.3" if not single else colors[0], linestyle=style,
                      linewidth=1.6 if key == "best" else 1.1) for key, style in _STYLES.items()]
    labels = ["best", "mean", "worst"]
    proxies.append(axes.fill_between([], [], [], color="0.3" if not single else colors[0], alpha=0.15, linewidth=0))
    labels.append("best-worst spread")
    axes.legend(proxies, labels, title="population", **_OUTSIDE)


def _second_axis(axes, history: History) -> None:
    """Cumulative evaluations (or games) on top of a generations axis, where the mapping is monotonic."""
    kind = "games" if history.columns["games"].any() else "evaluations"
    gens, cumulative = history.columns["gen"], history.x(kind)
    if len(gens) < 2 or not (np.all(np.diff(gens) > 0) and np.all(np.diff(cumulative) > 0)):
        return
    top = axes.secondary_xaxis("top", functions=(lambda g: _interp(g, gens, cumulative),
                                                 lambda e: _interp(e, cumulative, gens)))
    top.set_xlabel(X_AXES[kind], fontsize="small")


def _short(opponent: str) -> str:
    """An opponent as the legend names it: a strategy file by its name without the folder."""
    from nim_evo.evaluation.opponents import label

    return label(opponent)


def _interp(x, xp, fp):
    """``np.interp``, continued linearly beyond both ends (axis limits reach past the data)."""
    x = np.asarray(x, dtype=float)
    inside = np.interp(x, xp, fp)
    low = fp[0] + (x - xp[0]) * (fp[1] - fp[0]) / (xp[1] - xp[0])
    high = fp[-1] + (x - xp[-1]) * (fp[-1] - fp[-2]) / (xp[-1] - xp[-2])
    return np.where(x < xp[0], low, np.where(x > xp[-1], high, inside))


def _labels(histories: list[History]) -> list[str]:
    labels = [h.label() for h in histories]
    return [f"{label} [{h.run_id}]" if labels.count(label) > 1 else label for label, h in zip(labels, histories)]


def _title(histories: list[History]) -> str:
    if len(histories) == 1:
        h = histories[0]
        fit = h.config.get("fitness", "exact")
        return (f"Evolution of a {h.genome} genome on {h.rules.name}, seed {h.seed}\n"
                f"against {', '.join(map(_short, h.opponents))}; {fit} fitness; population {h.config.get('population')}, "
                f"{h.config.get('offspring')} offspring per generation")
    boards = list(dict.fromkeys(h.rules.name for h in histories))
    kinds = list(dict.fromkeys(h.genome for h in histories))
    where = f"on {boards[0]}" if len(boards) == 1 else "on " + ", ".join(boards)
    return f"{len(histories)} runs {where}: {', '.join(kinds)} genome{'s' if len(kinds) > 1 else ''}"
