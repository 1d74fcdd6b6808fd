"""A program genome's trees as node-link diagrams, side by side: matplotlib alone.

Each tree is laid out tidily: its leaves one unit apart from left to right in the order the
expression writes them, each parent centred above its children (between the first and the
last), one level per depth; lines join each parent to its children. Nodes are labels in
rounded boxes, coloured by kind: primitives, the tree's arguments, and constants. The figure
grows with the leaves (width) and the depth (height) of the trees, so that trees of some 60
nodes stay legible; beyond :data:`~nim_evo.plots.MAX_PIXELS` it stops growing and the
labels shrink. A program may have any number of trees: each is given with its name, e.g.
``("step f(a, p, k)", tree)``.
"""

from __future__ import annotations

import textwrap

from deap import gp
from matplotlib.patches import Patch

from nim_evo.plots import DPI, MAX_PIXELS, new_figure, plain

COLORS = {"primitive": "#cfe2f3", "argument": "#d9ead3", "constant": "#fce5cd"}  # box fills
EDGES = {"primitive": "#3d85c6", "argument": "#6aa84f", "constant": "#e69138"}  # and their outlines
LEAF = 0.75  # inches between neighbouring leaves
LEVEL = 0.8  # inches between levels
FONT = 9.0  # points, at full size
MARGIN = (0.8, 1.3)  # inches around the trees (their titles, the legend, the figure's title)
MIN_TREE_WIDTH = 2.2  # inches: room for a tree's name over a small tree


def kind(node) -> str:
    """``primitive``, ``argument`` (a terminal DEAP made for an argument: ``ARG0``... renamed or
    not) or ``constant`` (any other terminal)."""
    if isinstance(node, gp.Primitive):
        return "primitive"
    return "argument" if str(node.name).startswith("ARG") else "constant"


def label(node) -> str:
    """A program node's name as the picture shows it (a primitive by name, a constant by value)."""
    return plain(node.name if isinstance(node, gp.Primitive) else node.format())


def wrapped(text: str, inches: float, points: float) -> str:
    """``text`` (already :func:`~nim_evo.plots.plain`) in lines that fit ``inches`` at ``points``."""
    return textwrap.fill(text, max(12, int(inches * 72 / (0.62 * points))), break_on_hyphens=False)


def layout(tree) -> tuple[list[tuple[float, int]], list[tuple[int, int]], int, int]:
    """``(positions, edges, leaves, levels)``: each node's ``(x, depth)`` (in prefix order, x
    in leaf units from 0), the ``(parent, child)`` index pairs, the number of leaves and of levels."""
    positions: list = [None] * len(tree)
    edges = []
    next_leaf = 0

    def place(index: int, depth: int) -> int:  # the index after the subtree at ``index``
        nonlocal next_leaf
        node, child, xs = tree[index], index + 1, []
        for _ in range(node.arity):
            edges.append((index, child))
            xs.append(child)
            child = place(child, depth + 1)
        if xs:
            positions[index] = ((positions[xs[0]][0] + positions[xs[-1]][0]) / 2, depth)
        else:
            positions[index] = (float(next_leaf), depth)
            next_leaf += 1
        return child

    if len(tree):
        place(0, 0)
    return positions, edges, max(next_leaf, 1), 1 + max((depth for _, depth in positions), default=0)


def draw_program(trees: list[tuple[str, gp.PrimitiveTree]], title: str | None = None):
    """The named trees side by side, each a node-link diagram (a ``matplotlib.figure.Figure``)."""
    if not trees:
        raise ValueError("draw_program needs at least one tree")
    layouts = [layout(tree) for _, tree in trees]
    widths = [max(MIN_TREE_WIDTH, leaves * LEAF) for _, _, leaves, _ in layouts]
    levels = max(levels for *_, levels in layouts)
    width, height = sum(widths) + MARGIN[0], levels * LEVEL + MARGIN[1]
    scale = min(1.0, MAX_PIXELS[0] / DPI / width, MAX_PIXELS[1] / DPI / height)
    font = max(5.0, FONT * scale)
    figure = new_figure(width, height)
    axes_row = figure.subplots(1, len(trees), width_ratios=widths, squeeze=False)[0]
    for axes, (name, tree), (positions, edges, leaves, _), inches in zip(axes_row, trees, layouts, widths):
        for parent, child in edges:
            (x0, y0), (x1, y1) = positions[parent], positions[child]
            axes.plot([x0, x1], [-y0, -y1], color="0.45", linewidth=1.0, zorder=1, solid_capstyle="round")
        for node, (x, depth) in zip(tree, positions):
            what = kind(node)
            axes.text(x, -depth, label(node), ha="center", va="center", fontsize=font, zorder=2,
                      bbox={"boxstyle": "round,pad=0.3", "facecolor": COLORS[what], "edgecolor": EDGES[what],
                            "linewidth": 0.8})
        spare = (inches / LEAF - leaves) / 2  # a narrow tree under a wide name: centred
        axes.set_xlim(-0.6 - spare, leaves - 0.4 + spare)
        axes.set_ylim(-(levels - 1) - 0.5, 0.5)
        axes.set_axis_off()
        size = max(6.0, 11 * scale)
        axes.set_title(wrapped(plain(name), inches * scale, size), fontsize=size)
    handles = [Patch(facecolor=COLORS[what], edgecolor=EDGES[what], label=what + "s") for what in COLORS]
    figure.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize="small", frameon=False)
    if title is not None:
        figure.suptitle(wrapped(plain(title), width * scale, 12.0), fontsize=12.0)
    return figure
