"""A program's trees as a picture: drawn side by side, laid out tidily, legible at 60 nodes."""

import numpy as np
from PIL import Image

from nim_evo.genomes.expressions import SCORE, STEP, parse
from nim_evo.plots import DPI, MAX_PIXELS, pixel_size, save_figure
from nim_evo.plots.program import draw_program, kind, layout

STEP_TEXT = "sub(or(p, a), max(k, and(p, max(0, a))))"
SCORE_TEXT = "min(if(eq(m, min(1, v)), 0, if(False, v, 2)), if(eq(1, m), max(v, 1), v))"


def program():
    return [("step f(a, p, k)", parse(STEP_TEXT, STEP, "step")), ("score g(v, m)", parse(SCORE_TEXT, SCORE, "score"))]


def built(nodes: int, k: int = 0) -> str:
    """A STEP expression of exactly ``nodes`` nodes, as balanced as binary and unary primitives make it."""
    if nodes == 1:
        return "apk012"[k % 6]
    if nodes == 2:
        return f"not({built(1, k)})"
    left = (nodes - 1) // 2
    operator = ("add", "sub", "and", "or", "min", "max", "mod")[k % 7]
    return f"{operator}({built(left, 2 * k + 1)}, {built(nodes - 1 - left, 2 * k + 2)})"


def picture(figure, path):
    save_figure(figure, path)
    image = Image.open(path)
    assert image.format == "PNG" and image.size == pixel_size(figure)
    return np.asarray(image.convert("RGB")).astype(int)


def test_layout_is_tidy():
    tree = parse(SCORE_TEXT, SCORE, "score")
    positions, edges, leaves, levels = layout(tree)
    assert leaves == sum(node.arity == 0 for node in tree) == 12 and levels == tree.height + 1 == 5
    assert len(edges) == len(tree) - 1
    leaf_x = [x for node, (x, _) in zip(tree, positions) if node.arity == 0]
    assert leaf_x == list(range(leaves))  # left to right, one apart, in the expression's order
    children = {}
    for parent, child in edges:
        children.setdefault(parent, []).append(child)
        assert positions[child][1] == positions[parent][1] + 1
    for parent, below in children.items():
        assert positions[parent][0] == (positions[below[0]][0] + positions[below[-1]][0]) / 2
    assert [kind(node) for node in tree[:4]] == ["primitive", "primitive", "primitive", "argument"]
    assert kind(tree[-1]) == "argument" and kind(parse("if(False, v, 2)", SCORE, "s")[1]) == "constant"


def test_two_trees_side_by_side(tmp_path):
    figure = draw_program(program(), title="fold(...) -> ... at $5")
    assert len(figure.axes) == 2
    assert figure.axes[0].get_title() == "step f(a, p, k)"
    assert figure.axes[0].get_position().x1 <= figure.axes[1].get_position().x0  # step left of score
    texts = [text.get_text() for text in figure.axes[1].texts]
    assert len(texts) == len(parse(SCORE_TEXT, SCORE, "s")) and texts[0] == "min" and "False" in texts
    assert figure.texts[0].get_text() == "fold(...) -> ... at \\$5"  # plain: never mathtext
    pixels = picture(figure, tmp_path / "program.png")
    height, width = pixels.shape[:2]
    assert 800 <= width <= MAX_PIXELS[0] and 300 <= height <= MAX_PIXELS[1] and width > height
    assert (pixels != 255).any(axis=-1).mean() > 0.01  # lines and boxes drawn
    assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 20  # three colours of boxes and their outlines


def test_a_tree_of_sixty_nodes(tmp_path):
    big = parse(built(60), STEP, "big")
    assert len(big) == 60
    small = draw_program(program()[:1])
    figure = draw_program([("step f(a, p, k)", big)], title="sixty nodes")
    leaves = sum(node.arity == 0 for node in big)
    width, height = figure.get_size_inches()
    assert width >= leaves * 0.6 and height >= (big.height + 1) * 0.6  # room for every label
    assert (width, height) > tuple(small.get_size_inches())
    pixels = picture(figure, tmp_path / "big.png")
    assert (pixels != 255).any(axis=-1).mean() > 0.01
    assert pixels.shape[1] == round(width * DPI)
    # no two labels overlap
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    boxes = [text.get_bbox_patch().get_window_extent(canvas.get_renderer()) for text in figure.axes[0].texts]
    assert len(boxes) == 60
    for i, one in enumerate(boxes):
        for other in boxes[i + 1:]:
            assert not one.overlaps(other)


def test_a_third_tree_and_a_lone_leaf(tmp_path):
    trees = [*program(), ("extra h(v, m)", parse("v", SCORE, "extra"))]
    figure = draw_program(trees)
    assert len(figure.axes) == 3 and not figure.texts
    picture(figure, tmp_path / "three.png")


def test_nothing_clipped(assert_nothing_clipped):
    assert_nothing_clipped(draw_program(program(), title="a program"))


def test_long_names_stay_inside(assert_nothing_clipped):
    """A long title over a small tree, and long tree names, wrap to the figure's width."""
    tree = parse("v", SCORE, "lone")
    long = "fold(" + STEP_TEXT + ") -> " + SCORE_TEXT
    figure = draw_program([("score g(v, m), the last champion's, of the longest run", tree), ("score", tree)], title=long)
    assert "\n" in figure.texts[0].get_text()
    assert_nothing_clipped(figure)
