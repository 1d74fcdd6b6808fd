"""The referee's picture: each player's winning-move rate by objects left before the move, one
line per player, each dot's area growing with the moves it stands for, and Wilson's 95% band
where a size has at least :data:`BAND_FROM` of them."""

from __future__ import annotations

import math

from matplotlib.ticker import MaxNLocator, PercentFormatter

from nim_evo.plots import new_figure, plain
from nim_evo.transcripts.summary import Report, wilson_interval

SIZE = (9.0, 5.5)
BAND_FROM = 10  # moves at one size from which its Wilson band is drawn (a dot's area grows with its moves)
MAX_PLAYERS = 12  # lines drawn, at most (the players with the most winning positions)


def draw_accuracy(report: Report):
    """A figure: x objects left, y the share of moves from winning positions that win."""
    figure = new_figure(*SIZE)
    axes = figure.add_subplot()
    players = sorted((name for name, sizes in report.by_size.items() if sizes),
                     key=lambda name: -sum(n for n, _ in report.by_size[name].values()))[:MAX_PLAYERS]
    for name in players:
        sizes = sorted(report.by_size[name])
        counts = [report.by_size[name][size] for size in sizes]
        rates = [k / n for n, k in counts]
        total = sum(n for n, _ in counts)
        (line,) = axes.plot(sizes, rates, linewidth=1.2, label=plain(f"{name} ({total:,} moves from winning positions)"))
        axes.scatter(sizes, rates, s=[10 + 3 * min(n, 400) ** 0.5 for n, _ in counts], color=line.get_color(),
                     zorder=3)
        bands = [wilson_interval(k, n) if n >= BAND_FROM else (math.nan, math.nan) for n, k in counts]
        axes.fill_between(sizes, [low for low, _ in bands], [high for _, high in bands], color=line.get_color(),
                          alpha=0.12, linewidth=0)
    boards = ", ".join(f"{name} ({board['convention']})" for name, board in list(report.boards.items())[:2])
    more = f" and {len(report.boards) - 2} more boards" if len(report.boards) > 2 else ""
    axes.set_title(plain(f"Winning moves by objects left: {boards}{more}"), fontsize=11)
    axes.set_xlabel("objects left before the move")
    axes.set_ylabel("winning moves from winning positions")
    axes.set_ylim(-0.02, 1.02)
    axes.yaxis.set_major_formatter(PercentFormatter(1.0))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(alpha=0.3)
    if players:
        axes.legend(loc="best", fontsize=9)
    else:
        axes.text(0.5, 0.5, "no move from a winning position", transform=axes.transAxes, ha="center")
    return figure
