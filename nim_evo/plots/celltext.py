"""Thousands of short labels, one per cell of a grid, drawn as one collection of glyph outlines.

A map of five heaps names its move in each of 3,840 cells. As 3,840 matplotlib ``Text``
artists, each would be measured by the layout and laid out and rendered by Agg; here each distinct
label (a few dozen) is made into its outline once, with ``TextPath``, and every cell's label
is one item of a ``PathCollection``, which Agg fills in one call: the same letters, in any
output format, in a fraction of the time (figures: the manual's Benchmarks). The collection
is not measured by the layout (it lies inside the axes).
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import PathCollection
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D, Bbox

POINTS_PER_INCH = 72


class CellText(PathCollection):
    """Labels ``texts`` centred on the data points ``positions`` of ``axes``, in a font of
    ``size`` points, each in its colour. ``texts`` and ``positions`` are kept, in order, for
    whoever reads the picture back (its tests)."""

    def __init__(self, axes, positions, texts, colors, size: float):
        self.texts = list(texts)
        self.positions = np.asarray(positions, dtype=float).reshape(len(self.texts), 2)
        self.size = size
        font = FontProperties(size=size)
        outlines = {text: _centred(TextPath((0, 0), text, prop=font)) for text in set(self.texts)}
        super().__init__([outlines[text] for text in self.texts], offsets=self.positions,
                         offset_transform=axes.transData, facecolors=list(colors), edgecolors="none",
                         linewidths=0, transform=Affine2D().scale(1 / POINTS_PER_INCH) + axes.figure.dpi_scale_trans)
        self.set_in_layout(False)
        axes.add_collection(self, autolim=False)

    def extents(self) -> list[Bbox]:
        """Each label's box on the figure, in display units (pixels), in order (from the
        transforms alone: nothing need be drawn first)."""
        offsets = self.get_offset_transform().transform(self.positions)
        return [path.get_extents(self.get_transform()).translated(*offset)
                for path, offset in zip(self.get_paths(), offsets)]


def _centred(path):
    (x0, y0), (x1, y1) = path.get_extents().get_points()
    return path.transformed(Affine2D().translate(-(x0 + x1) / 2, -(y0 + y1) / 2))
