"""A strategy's moves against the solver's verdict, over every position of its board.

* **One heap**: the stacked bars of the Simple Nim AI post, the probability of each take per heap size, with
  the solver's winning take written above each bar (``L`` where every take loses).
* **Piles**: a map of every position, the first piles down the side and the rest across
  (each axis in the engine's mixed-radix order), coloured by the verdict on the move the
  strategy plays: a winning move, a losing move where a winning one exists, or a losing
  position (no winning move to find); a position where the game is over (on Nim the empty
  board) is white, as is, on another game's board, a position its start does not reach. A stochastic
  strategy that plays a winning move only sometimes gets its own colour. The figure grows
  with the board (:func:`map_layout`, up to :data:`~nim_evo.plots.MAX_PIXELS`): a
  deterministic strategy's cells name its move, ``pile:count`` (piles counted from 1), and
  every row and column is labelled with its pile sizes, as far as the limit allows.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from matplotlib import colormaps
from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from nim_evo.engine.solver import solve
from nim_evo.engine.space import DEFAULT_MAX_POSITIONS, enumerable, space_size
from nim_evo.engine.rules import Rules
from nim_evo.games.takeaway import TakeAway
from nim_evo.genomes import GenomeAgent
from nim_evo.plots import DPI, MAX_PIXELS, count_formatter, new_figure, plain
from nim_evo.plots.celltext import CellText
from nim_evo.validation import UserError

HEAP_SIZE = (11.0, 5.5)
PILES_SIZE = (12.0, 8.5)  # the smallest position map; bigger boards get bigger ones, up to MAX_PIXELS
CELL_NAMED, CELL_LABELLED = (38, 22), (15, 15)  # pixels per cell: to name the move in it; to label every row and column
CELL_FONT = 8  # points, the move named in a cell
MAP_MARGIN = (520, 240)  # pixels beside the grid (row labels, legend) and above and below it (title, column labels)
VERDICTS = ("game over", "losing position", "winning move", "sometimes a winning move", "losing move")
COLORS = ("white", "#d9d9d9", "#4daf4a", "#fdae61", "#d7191c")
UNREACHED = "#9fb7d9"  # a cell of a position the start cannot reach (another game's board than Nim's)
SEED_001_COLORS = ("#a44444", "#88a888", "#ccccac")  # take 1, 2, 3 in the Simple Nim AI post's picture
MAX_BAR_TAKES, MAX_BAR_HEAPS = 12, 60  # beyond, one heap is drawn as a map of heap x take


def draw_policy(agent, title: str):
    """The policy picture of ``agent`` (anything with ``rules`` and ``policy(space)``), under
    ``title``, drawn as matplotlib reads it (names in it made :func:`~nim_evo.plots.plain`).

    Raises:
        UserError: if the board is too big to enumerate and solve.
    """
    rules = agent.rules
    if not isinstance(rules, TakeAway):
        raise UserError(f"the policy picture draws heaps that moves take from: {rules.name} is no take-away game")
    if not enumerable(rules):
        raise UserError(f"the board {rules.name} has {space_size(rules):,} positions, too many to picture "
                         f"(limit {DEFAULT_MAX_POSITIONS:,})")
    solution = solve(rules)
    table = agent.policy(solution.space)
    if len(rules.start) == 1:
        return _heap_bars(solution, table, title)
    return _position_map(solution, table, title)


def box_indices(space, start) -> np.ndarray:
    """The space index of every position at most ``start`` heap by heap, in mixed-radix order
    (first heap most significant), -1 where the start does not reach it: on a Nim board every
    index in order; on another game's searched space, where each position lies."""
    radices = np.array(start, dtype=np.int64) + 1
    count = int(np.prod(radices))
    if getattr(space, "strides", None) is not None and space.n_positions == count:  # Nim's box: its own order
        return np.arange(count)
    box = (np.arange(count)[:, None] // np.concatenate([np.cumprod(radices[:0:-1])[::-1], [1]])) % radices
    return space.indices(box)


def draw_strategy(agent, name: str):
    """:func:`draw_policy` for a strategy file named ``name``: an exported genome or a learner."""
    if isinstance(agent, GenomeAgent):
        what = f"{agent.kind.name} genome"
    else:
        what = f"{agent.name} learner (from {agent.source}), {agent.games_played:,} games, " + \
               ("its sampling rule" if agent.stochastic else "greedy")
    return draw_policy(agent, plain(f"{name}: {what}, on {agent.rules.name}"))


def verdicts(solution, table: np.ndarray) -> np.ndarray:
    """Each position's verdict, an index into :data:`VERDICTS`: ``(n_positions,) int8``."""
    p_win = (table * solution.winning).sum(axis=1)
    verdict = np.where(p_win >= 1 - 1e-9, 2, np.where(p_win <= 1e-9, 4, 3)).astype(np.int8)
    verdict[~solution.win] = 1
    verdict[solution.space.terminal] = 0
    return verdict


def _heap_bars(solution, table, title):
    space, rules = solution.space, solution.rules
    where = box_indices(space, rules.start)   # heap size -> index, -1 where the start does not reach it
    reached = where[1:] >= 0
    heaps = np.arange(1, rules.start[0] + 1)[reached]
    rows = where[1:][reached]
    takes = rules.takes(rules.start[0])
    if len(takes) > MAX_BAR_TAKES or rules.start[0] > MAX_BAR_HEAPS:
        return _heap_map(solution, table, title)
    figure = new_figure(*HEAP_SIZE)
    axes = figure.subplots()
    colors = _take_colors(len(takes))
    bottom = np.zeros(len(heaps))
    for take, color in zip(takes, colors):
        p = table[rows, space.move_index((0, take))]
        axes.bar(heaps, p, bottom=bottom, width=0.8, color=color, edgecolor="white", linewidth=0.5,
                 label=f"take {take}")
        wrong = solution.win[rows] & ~solution.winning[rows, space.move_index((0, take))] & (p > 0)
        axes.bar(heaps[wrong], p[wrong], bottom=bottom[wrong], width=0.8, facecolor="none", edgecolor="0.15",
                 hatch="///", linewidth=0)
        bottom += p
    for heap, row in zip(heaps, rows):
        winning = np.flatnonzero(solution.winning[row])
        text = ",".join(str(space.move(k)[1]) for k in winning) if len(winning) else "L"
        axes.text(heap, 1.02, text, ha="center", va="bottom", fontsize="small" if len(heaps) <= 30 else 6,
                  color="#1a7a1a" if len(winning) else "0.45")
    axes.set_xlim(0.3, rules.start[0] + 0.7)
    axes.set_ylim(0, 1.1)
    axes.set_xticks(heaps if len(heaps) <= 30 else heaps[heaps % 5 == 0])
    axes.set_yticks(np.linspace(0, 1, 6))
    axes.set_xlabel("objects in the heap")
    axes.set_ylabel("probability of the take")
    handles, _ = axes.get_legend_handles_labels()
    handles.append(Patch(facecolor="white", edgecolor="0.15", hatch="///", label="a losing take\nwhere one wins"))
    axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                title="move")
    axes.text(1.01, 0.05, "above the bars:\nthe solver's winning\ntake (L: every take\nloses; the game is over)",
              transform=axes.transAxes, fontsize="small", va="bottom", color="0.3")
    figure.suptitle(f"{title}\n{_accuracy_line(solution, table, 'heap sizes')}")
    return figure


def _heap_map(solution, table, title):
    """A big heap: the probability of each take (up) at each heap size (across) as a map, the
    solver's winning takes marked."""
    rules = solution.rules
    size = rules.start[0]
    n_takes = rules.count_takes(size)
    where = box_indices(solution.space, rules.start)[1:]  # heap size -> index; -1 where it is not reached
    # a heap's move index is its take's rank: on Nim the take minus one
    probabilities = np.where(where[:, None] >= 0, table[where, :n_takes], 0.0).T
    figure = new_figure(*HEAP_SIZE)
    axes = figure.subplots()
    image = axes.imshow(probabilities, origin="lower", aspect="auto", cmap="Greys", vmin=0, vmax=1,
                        extent=(0.5, size + 0.5, 0.5, n_takes + 0.5), interpolation="nearest")
    heap, take = np.nonzero((where[:, None] >= 0) & solution.winning[where, :n_takes])
    axes.scatter(heap + 1, take + 1, s=6, color="#1a9a1a", marker="o", linewidths=0)
    axes.set_xlabel("objects in the heap")
    axes.set_ylabel("take" if isinstance(rules, Rules) else "take (its rank among the takes allowed)")
    figure.colorbar(image, ax=axes, label="probability of the take", shrink=0.9)
    for axis in (axes.xaxis, axes.yaxis):
        axis.set_major_locator(MaxNLocator(integer=True))
        axis.set_major_formatter(count_formatter())  # a heap of a million: 1M, not an offset
    figure.suptitle(f"{title}\n{_accuracy_line(solution, table, 'heap sizes')}\n"
                    "shade: the probability of each take; green dots: the solver's winning takes", fontsize="medium")
    return figure


def _position_map(solution, table, title):
    space, rules = solution.space, solution.rules
    piles = rules.start
    deterministic = bool(np.all(np.isclose(table.max(axis=1), 1) | space.terminal))
    layout = map_layout(piles, named=deterministic)
    split, (n_rows, n_cols) = layout.split, layout.grid
    verdict = verdicts(solution, table)
    where = box_indices(space, piles)  # each cell's position, first pile most significant: row-major
    cells = np.where(where >= 0, verdict[where], len(VERDICTS))  # a position the start does not reach
    grid = cells.reshape(n_rows, n_cols)
    colors = (*COLORS, UNREACHED)
    figure = new_figure(*layout.inches)
    axes = figure.subplots()
    axes.imshow(grid, cmap=ListedColormap(colors), vmin=-0.5, vmax=len(colors) - 0.5, aspect="auto",
                interpolation="nearest")
    _position_ticks(axes.set_yticks, piles[:split], n_rows, axes.axhline, layout.cell[1])
    _position_ticks(axes.set_xticks, piles[split:], n_cols, axes.axvline, layout.cell[0])
    axes.set_ylabel(_axis_name(piles, range(split)))
    axes.set_xlabel(_axis_name(piles, range(split, len(piles))))
    across = max(len(t.get_text()) for t in axes.get_xticklabels())
    axes.tick_params(axis="x", labelrotation=90 if 7 * across > layout.cell[0] else 0, labelsize="small")
    axes.tick_params(axis="y", labelsize="small")
    if layout.named:
        moves = table.argmax(axis=1)
        shown = [(cell, index) for cell, index in enumerate(where) if index >= 0 and not space.terminal[index]]
        moves_named = [space.move(int(moves[index])) for _, index in shown]
        CellText(axes, [(cell % n_cols, cell // n_cols) for cell, _ in shown],
                 [f"{pile + 1}:{count}" for pile, count in moves_named],
                 ["white" if verdict[index] == 4 else "black" for _, index in shown], CELL_FONT)  # legible on red
    counts = np.bincount(verdict, minlength=len(VERDICTS))
    handles = [Patch(facecolor=color, edgecolor="0.5", label=f"{name} ({counts[k]:,})")
               for k, (name, color) in enumerate(zip(VERDICTS, COLORS))]
    unreached = int(np.count_nonzero(where < 0))
    if unreached:  # another game's board: positions the start cannot reach
        handles.append(Patch(facecolor=UNREACHED, edgecolor="0.5", label=f"not reached from the start ({unreached:,})"))
    note = "\ncell text: the move played,\npile:count" if layout.named else ""
    axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                title="the strategy's move" + note, title_fontsize="small", alignment="left")
    axes.text(1.01, 0.0, "piles count from 1,\nin the board's order;\nrows and columns read\nthe objects left in each",
              transform=axes.transAxes, fontsize="small", va="bottom", color="0.3")
    figure.suptitle(f"{title}\n{_accuracy_line(solution, table, 'positions')}")
    return figure


class MapLayout(NamedTuple):
    """How a board's position map is laid out: ``split`` leading piles down the side, a grid of
    ``(rows, columns)`` cells of ``cell`` pixels, whether each cell names its move and every row
    and column is labelled, and the figure's size in inches."""

    split: int
    grid: tuple[int, int]
    cell: tuple[float, float]
    named: bool
    every_cell: bool
    inches: tuple[float, float]


def map_layout(piles, named: bool = True) -> MapLayout:
    """The layout of the map of ``piles`` within :data:`MAX_PIXELS`: cells that name their move
    (if ``named``) if they fit, else cells big enough to label every row and column, each on
    the split closest to 3:2 across that fits; else the biggest square cells that fit (rows
    and columns then labelled at each block's start). The figure is at least :data:`PILES_SIZE`."""
    room = (MAX_PIXELS[0] - MAP_MARGIN[0], MAX_PIXELS[1] - MAP_MARGIN[1])
    cell: tuple[float, float]
    for cell, names in ((CELL_NAMED, True), (CELL_LABELLED, False)):
        if names and not named:
            continue
        split = _split(piles, cell, room)
        if split is not None:
            rows, cols = _grid(piles, split)
            break
    else:  # square cells, the biggest that fit
        side = {k: min(room[0] / _grid(piles, k)[1], room[1] / _grid(piles, k)[0]) for k in range(1, len(piles))}
        near = [k for k in side if side[k] >= 0.9 * max(side.values())]  # of these, the one closest to 3:2 across
        split = min(near, key=lambda k: abs(np.log(_grid(piles, k)[1] / _grid(piles, k)[0] / 1.5)))
        rows, cols = _grid(piles, split)
        cell, names = (side[split], side[split]), False
    labelled = cell[0] >= CELL_LABELLED[0] and cell[1] >= CELL_LABELLED[1]
    width = max(PILES_SIZE[0] * DPI, cols * cell[0] + MAP_MARGIN[0])
    height = max(PILES_SIZE[1] * DPI, rows * cell[1] + MAP_MARGIN[1])
    return MapLayout(split, (rows, cols), cell, names and named, labelled,
                     (min(width, MAX_PIXELS[0]) / DPI, min(height, MAX_PIXELS[1]) / DPI))


def _accuracy_line(solution, table, what: str) -> str:
    winners = int(np.count_nonzero(solution.win & ~solution.space.terminal))
    return f"a winning move in {100 * solution.accuracy(table):.1f}% of the {winners:,} winning {what}"


def _split(piles, cell, room) -> int | None:
    """How many leading piles go down the side: of the splits whose grid of ``cell``-pixel cells
    fits in ``room`` pixels, the one closest to 3:2 across; ``None`` if none fits."""
    best, best_error = None, np.inf
    for k in range(1, len(piles)):
        rows, cols = _grid(piles, k)
        width, height = cols * cell[0], rows * cell[1]
        error = abs(np.log(width / height / 1.5))
        if width <= room[0] and height <= room[1] and error < best_error:
            best, best_error = k, error
    return best


def _grid(piles, split: int) -> tuple[int, int]:
    radices = np.array(piles) + 1
    return int(np.prod(radices[:split])), int(np.prod(radices[split:]))


def _position_ticks(set_ticks, piles, n: int, line, cell: float) -> None:
    """Ticks labelled with the pile sizes there, on every cell if cells of ``cell`` pixels are
    big enough for a label, else at the start of each block of the inner piles that is; lines
    between the innermost pile's blocks, heavier between the outer pile's."""
    radices = np.array(piles) + 1
    inner = np.cumprod(radices[::-1])[::-1]  # inner[k]: cells in one block of pile k
    blocks = (1, *inner[1:][::-1])  # every cell, then blocks from the innermost out
    step = next((int(size) for size in blocks if size * cell >= CELL_LABELLED[0]), -(-n // 20))
    starts = np.arange(0, n, step)
    labels = [" ".join(str(i // int(np.prod(radices[k + 1:])) % radices[k]) for k in range(len(piles))) for i in starts]
    set_ticks(starts, labels)
    if len(piles) > 1:
        block = int(radices[-1])
        for edge in range(block, n, block):
            heavy = edge % int(inner[1]) == 0
            line(edge - 0.5, color="0.15" if heavy else "0.45", linewidth=1.2 if heavy else 0.6)


def _axis_name(piles, indices) -> str:
    names = [str(i + 1) for i in indices]
    which = f"pile {names[0]}" if len(names) == 1 else f"piles {', '.join(names)}"
    return f"{which} (objects left in each)"


def _take_colors(n: int) -> list:
    """The Simple Nim AI post's three colours, else light ones (the hatching must show on them)."""
    if n <= len(SEED_001_COLORS):
        return list(SEED_001_COLORS[:n])
    if n <= 12:
        return [colormaps["Set3"](k) for k in range(n)]
    return [colormaps["Spectral"](0.1 + 0.8 * k / (n - 1)) for k in range(n)]
