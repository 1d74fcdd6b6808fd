"""The referee as one library call: transcript files in, the report out."""

from __future__ import annotations

from collections.abc import Iterable

from nim_evo.transcripts.judge import judge
from nim_evo.transcripts.reading import read_transcripts
from nim_evo.transcripts.summary import Report, summarise


def referee_transcripts(paths: Iterable, fmt: str | None = None, game: str | None = None,
                        convention: str | None = None) -> Report:
    """Grade every move of the games in transcript files ``paths`` (what ``nim-evo referee`` does).

    Args:
        paths: transcript files, each of one harness's format.
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
    return summarise(judge(read_transcripts(paths, fmt, game, convention)))
