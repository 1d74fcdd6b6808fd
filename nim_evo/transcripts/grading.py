"""The referee as one library call: transcript files in, the report out."""

from __future__ import annotations

import os
from collections.abc import Iterable

from nim_evo.transcripts.formats.common import CONVENTIONS
from nim_evo.transcripts.judge import judge
from nim_evo.transcripts.reading import FORMATS, read_transcripts
from nim_evo.transcripts.summary import Report, summarise
from nim_evo.validation import UserError, shown


def referee_transcripts(paths: Iterable, fmt: str | None = None, game: str | None = None,
                        convention: str | None = None) -> Report:
    """Grade every move of the games in transcript files ``paths`` (what ``nim-evo referee`` does).

    Args:
        paths: a transcript file, or a list of them, each of one harness's format.
        fmt: their format (``nim-evo``, ``openspiel``, ``textarena``, ``gtbench``, ``pigbench``);
            ``None`` recognises each file's.
        game: the board of transcripts that name none (a nim_evo name; for OpenSpiel histories,
            an OpenSpiel game string too).
        convention: ``"normal"`` or ``"misere"`` to grade every game under, instead of each
            harness's own (which the report states).

    Returns:
        A :class:`~nim_evo.transcripts.summary.Report`: its ``judgement`` holds every move's
        label, its ``players`` each player's figures, ``to_json()`` all of it.

    Example::

        report = nim_evo.referee_transcripts(["games.jsonl"])
        report.judgement.labels(0)   # ['winning', 'forced', 'blunder', ...]
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    if not isinstance(paths, (list, tuple)) or not paths or not all(isinstance(p, (str, os.PathLike)) for p in paths):
        raise UserError(f"paths must be a transcript file's path or a list of them, got {shown(paths)}")
    if fmt is not None and not (isinstance(fmt, str) and fmt in FORMATS):
        raise UserError(f"fmt must be None or a transcript format ({', '.join(FORMATS)}), got {shown(fmt)}")
    if game is not None and not isinstance(game, str):
        raise UserError(f"game must be None or a board's name (3-4-5-misere), got {shown(game)}")
    if convention is not None and not (isinstance(convention, str) and convention in CONVENTIONS):
        raise UserError(f"convention must be None, 'normal' or 'misere', got {shown(convention)}")
    return summarise(judge(read_transcripts(paths, fmt, game, convention)))
