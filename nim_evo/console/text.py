"""Text that fits: names shortened in the middle, lines wrapped to the terminal's width.

Names come from files and from input, so what shows them makes them printable first
(:func:`~nim_evo.validation.printable`, the one helper every layer uses: control characters and
escape sequences shown escaped, ``\\x1b``); :func:`middle` does it itself.
"""

from __future__ import annotations

import os
import sys
import textwrap
from typing import TextIO

from nim_evo.validation import printable

WIDTH = 100  # columns when the text goes to no terminal (a pipe, a file, a notebook): the same text everywhere
NARROWEST = 40  # a terminal narrower than this is wrapped as if it were this wide


def width(stream: TextIO | None = None) -> int:
    """The columns to wrap text for ``stream`` (standard output by default) to: ``$COLUMNS``
    where it is set (as :func:`shutil.get_terminal_size` reads it), else the terminal's where
    ``stream`` is one, else :data:`WIDTH`; at least :data:`NARROWEST`."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(NARROWEST, int(columns))
    stream = sys.stdout if stream is None else stream
    try:
        if stream.isatty():
            return max(NARROWEST, os.get_terminal_size(stream.fileno()).columns)
    except (AttributeError, OSError, ValueError):  # no file descriptor (a notebook's stream), or a closed one
        pass
    return WIDTH


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


def wrapped(text: str, indent: str = "  ", stream: TextIO | None = None) -> str:
    """``text`` wrapped to the :func:`width` of ``stream`` (where it will be printed; standard
    output by default), later lines indented by ``indent``."""
    return textwrap.fill(text, width(stream), subsequent_indent=indent, break_on_hyphens=False)
