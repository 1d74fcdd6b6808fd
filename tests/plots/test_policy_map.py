"""Position maps that can be read: the figure grows with the board up to the pixel limit, every
row and column is labelled where the cells leave room, each cell's move is written in a font
that fits the cell, and the legend covers every colour on the map."""

from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from PIL import Image

from nim_evo import Rules, make_agent, solve
from nim_evo.evaluation.strategy import load_strategy
from nim_evo.plots import DPI, MAX_PIXELS, pixel_size, save_figure
from nim_evo.plots.celltext import CellText
from nim_evo.plots.policy import (CELL_FONT, COLORS, PILES_SIZE, VERDICTS, draw_policy, map_layout,
                                  verdicts)

GREEN, RED = (0x4D, 0xAF, 0x4A), (0xD7, 0x19, 0x1C)
GENOMES = Path(__file__).parents[2] / "genomes"


def rendered(figure):
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return canvas.get_renderer()


def tick_texts(axis) -> list[str]:
    return [label.get_text() for label in axis.get_ticklabels()]


def every_position(piles) -> list[str]:
    """Each row's or column's label in the engine's mixed-radix order: ``"0 0"``, ``"0 1"``, ..."""
    radices = np.array(piles) + 1
    return [" ".join(map(str, np.unravel_index(i, radices))) for i in range(int(np.prod(radices)))]


def assert_apart(labels, renderer, vertical: bool) -> None:
    """Tick labels do not overlap one another."""
    boxes = [label.get_window_extent(renderer) for label in labels]
    spans = sorted((b.y0, b.y1) if vertical else (b.x0, b.x1) for b in boxes)
    assert all(end <= start + 0.5 for (_, end), (start, _) in zip(spans, spans[1:])), spans


def image_of_axes(figure, path):
    """The PNG of ``figure`` cropped to its map (legend and labels left out), as RGB pixels."""
    renderer = rendered(figure)
    box = figure.axes[0].get_window_extent(renderer)
    save_figure(figure, path)
    height = Image.open(path).size[1]
    crop = (int(box.x0) + 2, height - int(box.y1) + 2, int(box.x1) - 2, height - int(box.y0) - 2)
    return np.asarray(Image.open(path).convert("RGB").crop(crop))


def pixels(image, color) -> int:
    return int(np.all(image == color, axis=-1).sum())


@pytest.mark.parametrize("name", ["2-3-4-5-misere-seed1-table", "1-3-5-7-9-seed1-table"])
def test_a_deterministic_map_names_every_move_and_labels_every_row_and_column(name, assert_nothing_clipped):
    """The shipped table genomes: a deterministic move in every position."""
    agent = load_strategy(GENOMES / f"{name}.json")
    rules, piles = agent.rules, agent.rules.piles
    figure = draw_policy(agent, name)
    layout = map_layout(piles)
    split = layout.split
    axes = figure.axes[0]
    assert tick_texts(axes.yaxis) == every_position(piles[:split])
    assert tick_texts(axes.xaxis) == every_position(piles[split:])
    width, height = pixel_size(figure)
    assert width <= MAX_PIXELS[0] and height <= MAX_PIXELS[1]
    assert (width, height) >= (PILES_SIZE[0] * DPI, PILES_SIZE[1] * DPI)
    renderer = rendered(figure)
    rows, cols = layout.grid
    cell = axes.get_window_extent(renderer).width / cols, axes.get_window_extent(renderer).height / rows
    assert not [t for t in axes.texts if ":" in t.get_text()]
    [labels] = [c for c in axes.collections if isinstance(c, CellText)]  # the cells' moves, one collection
    assert len(labels.texts) == rows * cols - 1  # every position but the empty one
    assert labels.size >= CELL_FONT >= 8
    boxes = labels.extents()
    assert max(b.width for b in boxes) < cell[0] and max(b.height for b in boxes) < cell[1]  # each inside its cell
    assert 0.5 * CELL_FONT * DPI / 72 < max(b.height for b in boxes) <= 1.1 * CELL_FONT * DPI / 72  # its font's size
    centres = np.array([[(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2] for b in boxes])
    assert np.allclose(centres, axes.transData.transform(labels.positions))  # each centred on its cell
    solution = solve(rules)
    moves = agent.policy(solution.space).argmax(axis=1)
    for text, (col, row) in zip(labels.texts, labels.positions.astype(int)):
        pile, count = solution.space.move(int(moves[row * cols + col]))
        assert text == f"{pile + 1}:{count}"  # piles count from 1
    assert_apart(axes.get_yticklabels(), renderer, vertical=True)
    assert_apart(axes.get_xticklabels(), renderer, vertical=False)
    assert_nothing_clipped(figure)


def test_the_legend_names_every_colour_and_how_to_read_the_cells():
    figure = draw_policy(load_strategy(GENOMES / "2-3-4-5-misere-seed1-table.json"), "table")
    axes = figure.axes[0]
    legend = axes.get_legend()
    texts = [t.get_text() for t in legend.get_texts()]
    assert [text.split(" (")[0] for text in texts] == list(VERDICTS)
    assert texts[0] == "game over (1)" and texts[1] == "losing position (54)"
    assert [tuple(p.get_facecolor()[:3]) for p in legend.get_patches()] == [
        tuple(int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)) if c.startswith("#") else (1.0, 1.0, 1.0)
        for c in COLORS]
    assert "cell text: the move played,\npile:count" in legend.get_title().get_text()
    assert any(t.get_text().startswith("piles count from 1") for t in axes.texts)
    assert axes.get_ylabel() == "piles 1, 2 (objects left in each)"
    assert axes.get_xlabel() == "piles 3, 4 (objects left in each)"
    assert len(VERDICTS) == len(COLORS) == 5


def test_the_cells_moves_are_drawn_legibly_in_every_format(tmp_path):
    """The moves' letters are in the picture: white on a red cell, black on the others, and in
    SVG and PDF as well as PNG."""
    figure = draw_policy(make_agent("take-1", Rules((2, 3, 4, 5))), "take-1")  # mostly losing moves: red cells
    [labels] = [c for c in figure.axes[0].collections if isinstance(c, CellText)]
    on_red = labels.get_facecolors().tolist().count([1.0, 1.0, 1.0, 1.0])
    assert on_red > 100
    image = image_of_axes(figure, tmp_path / "map.png")
    red = np.all(np.abs(image.astype(int) - (0xd7, 0x19, 0x1c)) < 8, axis=-1)
    white = np.all(image > 200, axis=-1)
    near_red = red | np.roll(red, 3, axis=1) & np.roll(red, -3, axis=1)  # a pixel with red on both sides
    assert (white & near_red).sum() > 5 * on_red
    green = np.all(np.abs(image.astype(int) - (0x4d, 0xaf, 0x4a)) < 8, axis=-1)
    dark = np.all(image < 60, axis=-1)
    assert (dark & (np.roll(green, 3, axis=1) & np.roll(green, -3, axis=1))).sum() > 3 * (len(labels.texts) - on_red)
    for fmt, magic in (("svg", b"<svg"), ("pdf", b"%PDF")):
        path = save_figure(figure, tmp_path / f"map.{fmt}")
        assert magic in path.read_bytes()[:1000] and path.stat().st_size > 20_000


def test_a_stochastic_map_labels_every_row_and_column_without_cell_text():
    piles = (1, 3, 5, 7, 9)
    figure = draw_policy(make_agent("random", Rules(piles)), "random")
    layout = map_layout(piles, named=False)
    axes = figure.axes[0]
    assert not layout.named and layout.every_cell
    assert not [t for t in axes.texts if ":" in t.get_text()]
    assert not [c for c in axes.collections if isinstance(c, CellText)]
    assert tick_texts(axes.yaxis) == every_position(piles[:layout.split])
    assert tick_texts(axes.xaxis) == every_position(piles[layout.split:])
    renderer = rendered(figure)
    assert_apart(axes.get_yticklabels(), renderer, vertical=True)
    assert_apart(axes.get_xticklabels(), renderer, vertical=False)


def test_a_big_board_stays_within_the_pixel_limit_with_labels_apart(assert_nothing_clipped):
    piles = (2, 3, 4, 5, 6, 7)
    figure = draw_policy(make_agent("nimsum", Rules(piles)), "nimsum")
    width, height = pixel_size(figure)
    assert width <= MAX_PIXELS[0] and height <= MAX_PIXELS[1]
    layout = map_layout(piles)
    assert not layout.named and not layout.every_cell
    axes = figure.axes[0]
    rows, cols = layout.grid
    assert axes.images[0].get_array().shape == (rows, cols)
    assert 4 < len(tick_texts(axes.xaxis)) < cols and 4 < len(tick_texts(axes.yaxis)) < rows  # blocks
    renderer = rendered(figure)
    assert_apart(axes.get_yticklabels(), renderer, vertical=True)
    assert_apart(axes.get_xticklabels(), renderer, vertical=False)
    assert_nothing_clipped(figure)


def test_policy_map_colours_match_the_solver(tmp_path, assert_nothing_clipped):
    """Perfect play shows no red; a random agent's colours cover the map in its verdicts' proportions."""
    rules = Rules((2, 3, 4, 5), misere=True)
    perfect = draw_policy(make_agent("minimax", rules), "minimax")
    assert pixel_size(perfect) == tuple(round(v * DPI) for v in map_layout(rules.piles, named=False).inches)
    assert_nothing_clipped(perfect)
    image = image_of_axes(perfect, tmp_path / "perfect.png")
    assert pixels(image, GREEN) > 50_000 and pixels(image, RED) == 0
    random = make_agent("random", rules)
    image = image_of_axes(draw_policy(random, "random"), tmp_path / "random.png")
    counts = np.bincount(verdicts(solve(rules), random.policy(solve(rules).space)), minlength=5)
    areas = np.array([pixels(image, tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))) for c in COLORS[1:]])
    assert np.allclose(areas / areas.sum(), counts[1:] / counts[1:].sum(), atol=0.01)  # each cell its verdict
    assert counts[3] > counts[2] > 0 and counts[4] == 0
    assert "a winning move in 100.0% of the 305 winning positions" in perfect.get_suptitle()


def test_a_subtraction_game_s_map_marks_where_the_game_ends_and_what_the_start_cannot_reach(tmp_path):
    """4-8 with S = {2, 3}: the game ends where both heaps hold 0 or 1 (4 positions), a heap of 3
    or of 7 is never reached (13 cells), and perfect play's colours are the Grundy theory's."""
    import nim_evo

    board = nim_evo.game("4-8-sub2.3")
    figure = draw_policy(make_agent("perfect", board), "perfect")
    texts = [t.get_text() for t in figure.axes[0].get_legend().get_texts()]
    assert texts[0] == "game over (4)" and texts[-1] == "not reached from the start (13)"
    grid = figure.axes[0].get_images()[0].get_array()
    g = [0, 0, 1, 1, 2, 0, 0, 1, 1]  # the Grundy values of S = {2, 3}, by hand
    for a in range(5):
        for b in range(9):
            reached = a != 3 and b != 7
            ended = a <= 1 and b <= 1
            expected = len(VERDICTS) if not reached else 0 if ended else 1 if g[a] == g[b] else 2
            assert grid[a, b] == expected, (a, b)
    bars = draw_policy(make_agent("perfect", nim_evo.game("12-sub3.5")), "perfect")
    assert "of the 5 winning heap sizes" in bars.get_suptitle()
    assert [t.get_text() for t in bars.axes[0].get_legend().get_texts()][:2] == ["take 3", "take 5"]
