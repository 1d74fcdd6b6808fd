"""Text that fits: names shortened in the middle, lines wrapped to the width tables keep to."""

from __future__ import annotations

import textwrap

WIDTH = 100  # the columns every table and summary line of the commands fits in


def middle(name: str, width: int) -> str:
    """``name`` in at most ``width`` characters, cut in the middle (``genomes/qua~seed0.json``):
    both ends tell names apart (a folder, a board, a seed), and files keep the full name."""
    if len(name) <= width:
        return name
    head = (width - 1) // 2
    tail = width - 1 - head
    return name[:head] + "~" + name[len(name) - tail:]


def wrapped(text: str, indent: str = "  ") -> str:
    """``text`` wrapped to :data:`WIDTH` columns, later lines indented by ``indent``."""
    return textwrap.fill(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False)
