"""The referee: transcripts of whole games from other harnesses, graded move by move.

Each move of a transcript is labelled by the exact value of the positions before and after it
(:mod:`nim_evo.engine.oracle`: the family's theory, else the solved board):

* **winning**: from a winning position (the player to move can win), into a lost one;
* **blunder**: from a winning position, into one that the opponent wins;
* **forced**: from a lost position (every legal move loses against perfect play);
* **illegal**: not a legal move there; the rest of that game is not graded.

:mod:`~nim_evo.transcripts.reading` reads each harness's files (:data:`~nim_evo.transcripts.reading.FORMATS`)
into :class:`~nim_evo.transcripts.record.Record` objects, :func:`~nim_evo.transcripts.judge.judge`
labels every move of them at once, in arrays, and :mod:`~nim_evo.transcripts.summary` reports
per player, per game and per position size. ``nim-evo referee`` is the command.
"""
