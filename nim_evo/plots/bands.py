"""Several runs of one setting in one picture: their median and interquartile band.

``plot`` of runs that differ only in their seed draws, for each setting, the median of the
runs' best fitness, of their champion's win rate against each opponent and of its accuracy,
each with the band between the first and third quartiles (a run that stopped early, at its
target, is carried on at its last value), instead of one line per run: fifteen runs of three
settings read as three lines. Against evaluations, a setting's x is the median of its runs'
cumulative evaluations at each generation.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from nim_evo.evolution.statistics import bands
from nim_evo.plots import X_AXES, count_formatter, new_figure, plain

if TYPE_CHECKING:
    from matplotlib.typing import LineStyleType

SIZE = (12.0, 9.5)
STYLES: tuple[LineStyleType, ...] = ("-", "--", ":", "-.")


def groups_of(histories, labels: list[str]) -> dict[str, list]:
    """Runs by their whole configuration but the seed (generations and target included): the
    settings whose runs a band summarises, each named by its first run's label without the seed."""
    keys: dict[str, str]
    grouped: dict[str, list]
    first: dict[str, dict]
    keys, grouped, first = {}, {}, {}
    for history, label in zip(histories, labels):
        config = {k: v for k, v in history.config.items() if k != "seed"}
        key = json.dumps(config, sort_keys=True)
        if key not in keys:
            name = ", ".join(p for p in label.split(", ") if not p.startswith("seed "))
            if name in first:  # the label does not tell them apart: say where they differ
                name += ", " + ", ".join(f"{k} {v}" for k, v in config.items() if first[name].get(k) != v)
            keys[key] = name
            first.setdefault(name, config)
        grouped.setdefault(keys[key], []).append(history)
    return grouped


def draw_bands(grouped: dict[str, list], x: str = "generations", title: str = ""):
    """The figure of each setting's median and interquartile band (see the module)."""
    figure = new_figure(*SIZE)
    fitness, rates, accuracy = figure.subplots(3, 1, sharex=True, height_ratios=(3, 3, 2))
    opponents = list(dict.fromkeys(o for runs in grouped.values() for h in runs for o in h.opponents))
    for g, (label, runs) in enumerate(grouped.items()):
        colour = f"C{g % 10}"
        length = max(len(h.columns["gen"]) for h in runs)
        xs = _x(runs, x, length)
        _band(fitness, xs, [h.columns["max"] for h in runs], length, colour)
        for o, opponent in enumerate(opponents):
            series = [h.columns[opponent] for h in runs if opponent in h.columns]
            if series:
                _band(rates, xs, series, length, colour, STYLES[o % len(STYLES)], shade=len(opponents) == 1)
        if any(np.isfinite(h.columns["accuracy"]).any() for h in runs):
            _band(accuracy, xs, [100 * h.columns["accuracy"] for h in runs], length, colour)
    fitness.set_ylabel("best fitness\n(median, IQR)")
    rates.set_ylabel("champion's win rate\n(median)")
    rates.set_ylim(-0.03, 1.03)
    accuracy.set_ylabel("champion's accuracy\n(%, median, IQR)")
    accuracy.set_ylim(-3, 103)
    for axes in (fitness, rates, accuracy):
        axes.grid(alpha=0.3)
    rates.legend([Line2D([], [], color="0.3", linestyle=STYLES[k % len(STYLES)]) for k in range(len(opponents))],
                 [plain(o) for o in opponents], title="opponent", loc="lower right", fontsize="small")
    accuracy.set_xlabel(X_AXES[x])
    accuracy.xaxis.set_major_locator(MaxNLocator(integer=True))
    accuracy.xaxis.set_major_formatter(count_formatter())
    figure.legend([Line2D([], [], color=f"C{g % 10}", linewidth=2) for g in range(len(grouped))],
                  [plain(f"{label} ({len(runs)} runs)") for label, runs in grouped.items()],
                  loc="outside lower center", ncols=min(3, len(grouped)), fontsize="small",
                  title="setting: the median of its runs, the band from the first to the third quartile")
    figure.suptitle(title, fontsize="large")  # (its names already made plain)
    return figure


def _x(runs, x: str, length: int) -> np.ndarray:
    if x == "generations":
        return np.arange(length, dtype=float)
    return bands([h.x(x).astype(float) for h in runs], length)[0]


def _band(axes, xs, series, length: int, colour: str, style: LineStyleType = "-", shade: bool = True) -> None:
    median, q1, q3 = bands([np.asarray(s, dtype=float) for s in series], length)
    axes.plot(xs, median, linestyle=style, color=colour, linewidth=1.8)
    if shade and len(series) > 1:
        axes.fill_between(xs, q1, q3, color=colour, alpha=0.2, linewidth=0)
