"""Transcript files read into records: each harness's format, named or recognised.

==============  =========================================================================
``nim-evo``     nim_evo's JSON Lines (:mod:`~nim_evo.transcripts.formats.nimevo`)
``openspiel``   OpenSpiel game strings and histories (:mod:`~nim_evo.transcripts.formats.openspiel`)
``textarena``   TextArena's Nim game logs (:mod:`~nim_evo.transcripts.formats.textarena`)
``gtbench``     GTBench's Nim records (:mod:`~nim_evo.transcripts.formats.gtbench`)
``pigbench``    a published LLM benchmark's seven impartial titles (:mod:`~nim_evo.transcripts.formats.pigbench`)
==============  =========================================================================
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from nim_evo.io import read_regular
from nim_evo.transcripts.formats import gtbench, nimevo, openspiel, pigbench, textarena
from nim_evo.transcripts.formats.common import CONVENTIONS
from nim_evo.transcripts.record import Record, TranscriptError
from nim_evo.validation import UserError

Reader = Callable[[str, str, "str | None", "str | None"], list[Record]]

FORMATS: dict[str, Reader] = {nimevo.NAME: nimevo.read, openspiel.NAME: openspiel.read, textarena.NAME: textarena.read,
                              gtbench.NAME: gtbench.read, pigbench.NAME: pigbench.read}
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
    if fmt is not None and not (isinstance(fmt, str) and fmt in FORMATS):
        raise UserError(f"unknown transcript format {fmt!r}; known: {', '.join(FORMATS)}")
    if convention is not None and not (isinstance(convention, str) and convention in CONVENTIONS):
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
    """The format of a transcript file, from its content; a one-line :class:`TranscriptError`
    asking for ``--format`` where it cannot tell."""
    offset = 0  # the first line that is neither blank nor a comment (OpenSpiel's header is no comment)
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped and (not stripped.startswith("#") or stripped == openspiel.HEADER):
            break
        offset += len(line)
    first = text[offset:offset + 4096].split("\n", 1)[0].strip()
    if first in (openspiel.HEADER, "[Meta]") or openspiel._GAME.match(first):
        return openspiel.NAME
    if first.startswith(("{", "[")):
        try:  # the first JSON value, however long its line (a TextArena log of long messages)
            data = json.JSONDecoder().raw_decode(text, offset + len(text[offset:]) - len(text[offset:].lstrip()))[0]
        except (ValueError, RecursionError):
            data = None
        found = _shape(data)
        if found:
            return found
    raise TranscriptError(path, "cannot tell which harness wrote it: name its format with --format "
                                f"({', '.join(FORMATS)})")


def _shape(data) -> str | None:
    """The format whose JSON ``data`` (one value, or a file's first line) looks like."""
    if isinstance(data, dict):
        if "actions" in data or "moves" in data:
            return nimevo.NAME
        if "logs" in data:
            return textarena.NAME
        if "matches" in data:
            return gtbench.NAME
        if "messages" in data and "game_class_name" in data:
            return pigbench.NAME
    if isinstance(data, list) and data:
        if all(isinstance(pair, list) and len(pair) == 2 for pair in data):
            return textarena.NAME  # a bare log
        return _shape(data[0])
    return None
