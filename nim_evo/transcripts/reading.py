"""Transcript files read into records: each harness's format, named or recognised.

==============  =========================================================================
``nim-evo``     nim_evo's JSON Lines (:mod:`~nim_evo.transcripts.formats.nimevo`)
``openspiel``   OpenSpiel game strings and histories (:mod:`~nim_evo.transcripts.formats.openspiel`)
``textarena``   TextArena's Nim game logs (:mod:`~nim_evo.transcripts.formats.textarena`)
==============  =========================================================================
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from nim_evo.io import read_regular
from nim_evo.transcripts.formats import nimevo, openspiel, textarena
from nim_evo.transcripts.formats.common import CONVENTIONS
from nim_evo.transcripts.record import Record, TranscriptError
from nim_evo.validation import UserError

Reader = Callable[[str, str, "str | None", "str | None"], list[Record]]

FORMATS: dict[str, Reader] = {nimevo.NAME: nimevo.read, openspiel.NAME: openspiel.read, textarena.NAME: textarena.read}
MAX_BYTES = 1 << 30  # a transcript file of at most 1 GiB


def read_transcripts(paths: Iterable, fmt: str | None = None, game: str | None = None,
                     convention: str | None = None) -> list[Record]:
    """The games of transcript files ``paths``, in order.

    Args:
        fmt: the files' format (a key of :data:`FORMATS`); ``None`` recognises each file's.
        game: the board for transcripts that do not name one (a nim_evo name; for OpenSpiel
            histories, an OpenSpiel game string too).
        convention: ``"normal"`` or ``"misere"`` to grade every game under, overriding each
            harness's own; ``None`` keeps each harness's (every report says which, and why).
    """
    if fmt is not None and fmt not in FORMATS:
        raise UserError(f"unknown transcript format {fmt!r}; known: {', '.join(FORMATS)}")
    if convention is not None and convention not in CONVENTIONS:
        raise UserError(f"the convention is normal or misere, got {convention!r}")
    records: list[Record] = []
    for path in paths:
        data = read_regular(path, MAX_BYTES, "transcripts")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise TranscriptError(f"{path}", f"not UTF-8 text ({error.reason} at byte {error.start})") from None
        read = fmt or recognise(text, str(path))
        found = FORMATS[read](text, str(path), game, convention)
        if not found:
            raise TranscriptError(f"{path}", f"no game in it (read as {read} transcripts)")
        records.extend(found)
    return records


def recognise(text: str, path: str) -> str:
    """The format of a transcript file, from its first characters; a one-line
    :class:`TranscriptError` asking for ``--format`` where it cannot tell."""
    lines = (line.strip() for line in text[:1 << 20].splitlines())
    first = next((line for line in lines if line and (not line.startswith("#") or line == openspiel.HEADER)), "")
    if first in (openspiel.HEADER, "[Meta]") or openspiel._GAME.match(first):
        return openspiel.NAME
    if first.startswith("{"):
        try:
            line = json.loads(first)
        except ValueError:
            line = None
        if isinstance(line, dict) and ("actions" in line or "moves" in line):
            return nimevo.NAME
        if isinstance(line, dict) and "logs" in line:
            return textarena.NAME
    if first.startswith("[") and '"logs"' in text[:1 << 20] or first.startswith("[[") or first.startswith("[ ["):
        return textarena.NAME
    raise TranscriptError(path, "cannot tell which harness wrote it: name its format with --format "
                                f"({', '.join(FORMATS)})")
