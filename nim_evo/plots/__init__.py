"""Pictures: a run's fitness history, a strategy's moves against the solver, an arena's matrix.

Figures are drawn with matplotlib's object API (``matplotlib.figure.Figure``, no ``pyplot``):
no global figure state, no display needed, safe in tests and on servers. Each has a fixed size
in inches at :data:`DPI`, and constrained layout keeps titles, labels and legends inside it, so
a PNG is always ``width * DPI`` by ``height * DPI`` pixels. :func:`save_figure` writes
atomically.
"""

from __future__ import annotations

import io
from pathlib import Path

from nim_evo.io import atomic_write_bytes
from nim_evo.validation import UserError

DPI = 100
FORMATS = ("png", "svg", "pdf")
# a fitness history's x axes, and their labels
X_AXES = {"generations": "generation", "evaluations": "evaluations (cumulative)", "games": "games played (cumulative)"}


def new_figure(width: float, height: float):
    """An empty ``matplotlib.figure.Figure`` of ``width`` x ``height`` inches, constrained layout.
    (matplotlib is imported here, not with the package: ``run`` needs it only with ``--plot``.)"""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def save_figure(figure, path) -> Path:
    """Write ``figure`` to ``path`` (format from the suffix: png, svg or pdf), atomically."""
    path = Path(path)
    fmt = path.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise UserError(f"cannot write a picture to {path}: the name must end in " + ", ".join(f".{f}" for f in FORMATS))
    buffer = io.BytesIO()
    metadata = {"Software": "nim_evo"} if fmt == "png" else {"Creator": "nim_evo"}
    figure.savefig(buffer, format=fmt, dpi=DPI, metadata=metadata)
    atomic_write_bytes(path, buffer.getvalue())
    return path


def pixel_size(figure) -> tuple[int, int]:
    """The ``(width, height)`` in pixels of the figure's PNG."""
    width, height = figure.get_size_inches()
    return round(width * DPI), round(height * DPI)
