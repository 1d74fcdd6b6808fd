"""A sweep's picture: per setting, the median and interquartile band of its runs' fitness and
accuracy against generations, and the cumulative share of runs that reached their target.

A run that stopped at its target is carried on at its last value (its champion stays the
champion), so a setting's band never narrows just because its best runs have ended.
"""

from __future__ import annotations

import numpy as np

from nim_evo.evolution.statistics import bands, cumulative_success
from nim_evo.plots import new_figure, plain

SIZE = (15.0, 4.8)


def draw_sweep(labels: list[str], curves: dict, rows: dict):
    """The figure: ``labels`` a name per setting, ``curves[i]`` its runs' curves (lists of
    ``{"generation", "fitness", "accuracy", ...}``), ``rows[i]`` its runs' rows of runs.csv."""
    figure = new_figure(*SIZE)
    fitness, accuracy, success = figure.subplots(1, 3)
    colours = [f"C{i % 10}" for i in range(len(labels))]
    longest = max((len(c) for runs in curves.values() for c in runs), default=1)
    generations = np.arange(longest)
    for i, label in enumerate(labels):
        runs = curves.get(i) or []
        name = plain(f"{label} ({len(runs)} runs)")
        for axes, key in ((fitness, "fitness"), (accuracy, "accuracy")):
            series = [np.array([np.nan if p[key] is None else p[key] for p in run], dtype=float) for run in runs if run]
            median, q1, q3 = bands(series, longest)
            axes.plot(generations, median, color=colours[i], label=name)
            axes.fill_between(generations, q1, q3, color=colours[i], alpha=0.2, linewidth=0)
        judged = [r for r in rows.get(i) or [] if r.get("success") is not None]
        if judged:
            firsts = [r["generation"] if r["success"] else None for r in judged]
            success.step(generations, cumulative_success(firsts, longest - 1), where="post", color=colours[i],
                         label=name)
    fitness.set_title("fitness: median and interquartile band")
    accuracy.set_title("accuracy: median and interquartile band")
    success.set_title("runs that reached their target")
    for axes, what in ((fitness, "champion's fitness"), (accuracy, "share of winning positions won"),
                       (success, "share of runs")):
        axes.set_xlabel("generation")
        axes.set_ylabel(what)
        axes.grid(alpha=0.3)
    accuracy.set_ylim(-0.02, 1.02)
    success.set_ylim(-0.02, 1.02)
    if not success.lines:
        success.text(0.5, 0.5, "no target (--until) to reach", ha="center", va="center", transform=success.transAxes)
    fitness.legend(fontsize=8, loc="lower right")
    return figure
