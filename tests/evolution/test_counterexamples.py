"""Counterexamples from the ladder: a Kayles champion that wins every decision of its stage
with a wrong value for a heap the decisions never meet (50) gains the positions of the first
rung it loses; a right one gains nothing; a resumed run's toolbox gains the same positions
from its state, and a checkpoint keeps them."""

import numpy as np
import pytest
from deap import base

from nim_evo.evaluation.decisions import WIDTH, Decisions
from nim_evo.evolution import counterexamples
from nim_evo.games import game
from nim_evo.genomes import heaps
from nim_evo.genomes.program import KIND

XOR = "sub(or(a, p), and(a, p))"


@pytest.fixture(scope="module")
def narrow():
    """Decisions of 60-kayles at heaps up to 40 alone and beside one up to 8 (none meets heap 50)."""
    board = game("60-kayles")
    return Decisions.at(board, np.array([[big, small, 0] for big in range(1, 41) for small in range(9)]))


def toolbox(panel):
    box = base.Toolbox()
    box.stage_panels, box.stage, box.restored = ((panel,),), 0, set()
    return box


def program(values, board):
    return KIND.individual(KIND.from_json({"step": XOR, "score": "v", "second": "0", "heap": str(values)}, board))


def test_a_champion_right_on_every_decision_but_wrong_beyond_them_gains_the_first_rung_it_loses(narrow):
    kayles = heaps.parse(game("10-kayles").grundy_words(), "Kayles")
    right = program(kayles, narrow.rules)
    wrong = program(heaps.with_value(kayles, 50, 7), narrow.rules)  # (Kayles' heap 50 is worth 2; 42's 7)
    assert narrow.right("program", [KIND.plain(wrong)]).all()
    box, decided = toolbox(narrow), {}
    assert not counterexamples.grow(box, "program", right, decided)  # (right on the whole ladder too)
    assert decided == {} and box.stage_panels[0][0] is narrow
    assert counterexamples.grow(box, "program", wrong, decided)
    gained = decided[0]
    assert gained.shape == (counterexamples.GROWN, WIDTH) and (gained[:, 0] == 50).all()  # (rung 50's: 49 below it right)
    grown = box.stage_panels[0][0]
    assert len(grown.positions) == len(narrow.positions) + len(gained)
    assert not grown.right("program", [KIND.plain(wrong)]).all()
    assert grown.right("program", [KIND.plain(right)]).all()  # (each gained position a winning one, judged by theory)
    assert box.stage in box.restored
    assert not counterexamples.grow(box, "program", wrong, decided)  # (it no longer wins every decision)
    assert not counterexamples.grow(toolbox(narrow), "program", wrong, {0: np.zeros((counterexamples.MOST, WIDTH),
                                                                                      dtype=np.int64)})
    resumed = toolbox(narrow)
    assert counterexamples.restore(resumed, decided)
    assert np.array_equal(resumed.stage_panels[0][0].positions, grown.positions)
    assert np.array_equal(resumed.stage_panels[0][0].lost, grown.lost)
    assert not counterexamples.restore(resumed, decided)  # (once)
    assert not counterexamples.restore(toolbox(narrow), {})


def test_a_stage_without_decisions_gains_none():
    box = base.Toolbox()
    box.stage_panels, box.stage, box.restored = ((),), 0, set()
    assert not counterexamples.grow(box, "program", None, {})
    assert not counterexamples.restore(box, {0: np.ones((1, WIDTH), dtype=np.int64)})
