"""Text that fits: names shortened in the middle, lines wrapped to the terminal's width.

Names come from files and from input, so what shows them makes them printable first
(:func:`~nim_evo.validation.printable`, the one helper every layer uses: control characters and
escape sequences shown escaped, ``\\x1b``); :func:`middle` does it itself.
"""

from __future__ import annotations

import shutil
import textwrap

from nim_evo.validation import printable

WIDTH = 100  # columns when the output is no terminal (a pipe, a file, a notebook): the same text everywhere
NARROWEST = 40  # a terminal narrower than this is wrapped as if it were this wide


def width() -> int:
    """The columns to wrap to: the terminal's (``$COLUMNS`` first, as :func:`shutil.get_terminal_size`
    reads it), at least :data:`NARROWEST`; :data:`WIDTH` when standard output is no terminal."""
    return max(NARROWEST, shutil.get_terminal_size((WIDTH, 24)).columns)


def middle(name: str, width: int) -> str:
    """``name``, printable (:func:`~nim_evo.validation.printable`), in at most ``width``
    characters, cut in the middle (``genomes/qua~seed0.json``): both ends tell names apart (a
    folder, a board, a seed), and files keep the full name."""
    name = printable(name)
    if len(name) <= width:
        return name
    head = (width - 1) // 2
    tail = width - 1 - head
    return name[:head] + "~" + name[len(name) - tail:]


def wrapped(text: str, indent: str = "  ") -> str:
    """``text`` wrapped to the terminal's :func:`width`, later lines indented by ``indent``."""
    return textwrap.fill(text, width(), subsequent_indent=indent, break_on_hyphens=False)
