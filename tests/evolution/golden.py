"""Short runs of every genome kind and a few games, boiled down to digests of everything a
run decides by: every logbook record (each number in full, as ``repr`` gives it) and the
hall of fame (genomes and fitness). ``test_golden.py`` holds the digests that commit 1be1205
gave, before the population evaluator, and asserts that today's code gives the same bits.

Run as a script to print today's digests: ``python tests/evolution/golden.py``.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np

from nim_evo import api
from nim_evo.games.registry import game

# name: (genome, board, settings), each a few seconds
RUNS = {
    "table-5": ("table", "1-3-5-7-9", {"generations": 12}),
    "table-ordered": ("table", "7-5-3", {"generations": 8, "space": "ordered"}),
    "table-misere": ("table", "2-3-4-5-misere", {"generations": 8}),
    "table-sub": ("table", "20-sub1.3.4", {"generations": 8, "opponents": ["random", "perfect"]}),
    "table-kayles": ("table", "10-kayles", {"generations": 6, "opponents": ["random", "perfect"]}),
    "rules": ("rules", "7-5-3", {"generations": 10}),
    "thresholds": ("thresholds", "7-5-3", {"generations": 10}),
    "program": ("program", None, {"generations": 4}),
    "program-sub": ("program", "20-sub1.3.4", {"generations": 3}),
    "program-four": ("program", None, {"generations": 3, "families": ["normal", "misere", "cap3", "cap3-misere"]}),
    # more offspring than a fitness task's chunk, the last chunk of one genome: chunks evaluated
    # together and genomes remembered across generations (pinned on 7324d71, before them)
    "program-merged": ("program", None, {"generations": 6, "population": 41, "offspring": 161}),
}


def digest(name: str) -> str:
    """The SHA-256 of run ``name``'s logbook records and hall of fame."""
    genome, board, settings = RUNS[name]
    run = api.evolve(genome, None if board is None else game(board), progress=False, **settings)
    records = [{key: repr(value) for key, value in record.items() if key != "seconds"} for record in run.logbook]
    fame = [(repr(ind.fitness.values), json.dumps(_genes(ind), sort_keys=True, default=repr))
            for ind in run.hall_of_fame]
    return hashlib.sha256(json.dumps([records, fame]).encode()).hexdigest()


def _genes(ind):
    """A hall-of-fame individual's genes as JSON can hold them: a table's list, else its text."""
    return ind.tolist() if isinstance(ind, np.ndarray) else str(ind)


if __name__ == "__main__":
    for name in RUNS:
        print(f"    {name!r}: {digest(name)!r},")
