"""The arena's heat map: each row's win rate against each column, with its 95% interval."""

from __future__ import annotations

import numpy as np
from matplotlib import colormaps

from nim_evo.plots import new_figure, plain


def figure_size(n: int) -> tuple[float, float]:
    """Inches for ``n`` participants: room for the annotated cells, the names and the colour bar."""
    return max(8.0, 1.5 * n + 4.0), max(6.5, 1.1 * n + 3.5)


def draw_arena(result):
    """The heat map of a :class:`~nim_evo.evaluation.roundrobin.RoundRobin`."""
    n = len(result.names)
    figure = new_figure(*figure_size(n))
    axes = figure.subplots()
    cmap = colormaps["RdYlGn"].with_extremes(bad="0.85")
    image = axes.imshow(np.ma.masked_invalid(result.rate), cmap=cmap, vmin=0, vmax=1)
    small = "small" if n <= 6 else "x-small"
    for i in range(n):
        for j in range(n):
            if i == j:
                axes.text(j, i, "-", ha="center", va="center", color="0.4")
                continue
            rate = result.rate[i, j]
            text = f"{rate:.3f}" if result.exact else f"{rate:.3f}\n[{result.low[i, j]:.3f}, {result.high[i, j]:.3f}]"
            axes.text(j, i, text, ha="center", va="center", fontsize=small,
                      color="white" if rate < 0.15 or rate > 0.85 else "black")
    names = [plain(name) for name in result.names]  # names of files: drawn as written, never as mathtext
    axes.set_xticks(range(n), names, rotation=30 if n > 3 else 0, ha="right" if n > 3 else "center")
    axes.set_yticks(range(n), [f"{name}\n(mean {mean:.3f})" for name, mean in zip(names, result.mean_rates())])
    axes.set_xlabel("opponent")
    axes.set_ylabel("player")
    axes.tick_params(labelsize=small)
    bar = figure.colorbar(image, ax=axes, shrink=0.8)
    bar.set_label("the player's win rate, both seats")
    how = "exact win probabilities" if result.exact else \
        f"{result.games:,} games per seat, seed {result.seed}; 95% Wilson intervals"
    figure.suptitle(f"Arena on {result.rules.name}: {how}")
    return figure
