"""Pictures: a run's fitness history, a strategy's moves against the solver, an arena's matrix.

Figures are drawn with matplotlib's object API (``matplotlib.figure.Figure``, no ``pyplot``):
no global figure state, no display needed, safe in tests and on servers. Each has a fixed size
in inches at :data:`DPI`, and constrained layout keeps titles, labels and legends inside it, so
a PNG is always ``width * DPI`` by ``height * DPI`` pixels, at most :data:`MAX_PIXELS`.
:func:`save_figure` writes atomically. Axes that count (evaluations, games, objects) read
:func:`count_formatter`'s plain labels (``250k``, ``1.5M``), never an offset like ``1e6``.
Every name drawn (a run's id, an opponent's or a strategy file's name) goes through
:func:`plain`: it is drawn as written, never read as a formula.
"""

from __future__ import annotations

import io
from pathlib import Path

from nim_evo.atomic import atomic_write_bytes
from nim_evo.validation import UserError, printable

DPI = 100
FORMATS = ("png", "svg", "pdf")
# a fitness history's x axes, and their labels
X_AXES = {"generations": "generation", "evaluations": "evaluations (cumulative)", "games": "games played (cumulative)"}
MAX_PIXELS = (4000, 4000)  # the biggest picture nim_evo draws, width and height: figures scaled to a board stop here


def plain(text) -> str:
    """``text`` (a name from a file or from input) as a label matplotlib draws character for
    character: printable (:func:`~nim_evo.validation.printable`: no control character, no
    line break of its own) and with every ``$`` escaped (``\\$``), so that no name is read as
    mathtext, where ``a$^$b`` would be an error at drawing time and ``x$\\alpha$`` a Greek
    letter. (``Text(parse_math=False)`` would say the same, but not for the tick labels
    matplotlib makes as it draws, nor inside a legend.) matplotlib draws ``\\$`` as ``$``
    wherever the text holds no unescaped ``$``, as a label made of plain pieces never does."""
    return printable(text).replace("$", "\\$")


def new_figure(width: float, height: float):
    """An empty ``matplotlib.figure.Figure`` of ``width`` x ``height`` inches, constrained layout.
    (matplotlib is imported here, not with the package: ``run`` needs it only with ``--plot``.)
    A size beyond :data:`MAX_PIXELS` is cut to it."""
    from matplotlib.figure import Figure  # matplotlib only when drawing (--help loads this module)

    width, height = min(width, MAX_PIXELS[0] / DPI), min(height, MAX_PIXELS[1] / DPI)
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


def count_formatter():
    """A tick formatter for counts that grow big: ``1,600`` up to 9,999, then ``250k``,
    ``1.5M``, ``2G``; no offset text, no ``1e6`` at the end of the axis."""
    from matplotlib.ticker import FuncFormatter  # matplotlib only when drawing (--help loads this module)

    return FuncFormatter(count_label)


def count_label(value, _position=None) -> str:
    """``value`` as :func:`count_formatter` writes it."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= 10_000 and abs(value) >= scale:
            return f"{value / scale:.3g}{suffix}"
    return f"{value:,.6g}"
