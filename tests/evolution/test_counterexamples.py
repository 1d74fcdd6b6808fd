"""Counterexamples from the ladder: a Kayles champion that wins every decision of its stage
with a wrong value for a heap the decisions never meet (50) gains the positions of the first
rung it loses; a right one gains nothing; a resumed run's toolbox gains the same positions
from its state, and a checkpoint keeps them."""

import numpy as np
import pytest
from deap import base, tools

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
    assert narrow.right(KIND, [KIND.plain(wrong)]).all()
    box, decided = toolbox(narrow), {}
    assert not counterexamples.grow(box, KIND, right, decided)  # (right on the whole ladder too)
    assert decided == {} and box.stage_panels[0][0] is narrow
    assert counterexamples.grow(box, KIND, wrong, decided)
    gained = decided[0]
    assert gained.shape == (counterexamples.GROWN, WIDTH) and (gained[:, 0] == 50).all()  # (rung 50's: 49 below it right)
    grown = box.stage_panels[0][0]
    assert len(grown.positions) == len(narrow.positions) + len(gained)
    assert not grown.right(KIND, [KIND.plain(wrong)]).all()
    assert grown.right(KIND, [KIND.plain(right)]).all()  # (each gained position a winning one, judged by theory)
    assert box.stage in box.restored
    assert not counterexamples.grow(box, KIND, wrong, decided)  # (it no longer wins every decision)
    assert not counterexamples.grow(toolbox(narrow), KIND, wrong, {0: np.zeros((counterexamples.MOST, WIDTH),
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
    assert not counterexamples.grow(box, KIND, None, {})
    assert not counterexamples.restore(box, {0: np.ones((1, WIDTH), dtype=np.int64)})


def test_a_run_resumed_right_after_its_decisions_grew_goes_on_as_the_uninterrupted_one(narrow, monkeypatch, tmp_path):
    """A Kayles run in its heap stage whose champion wins every decision (the narrow ones of
    heaps up to 40) with heap 50 wrong: a generation gains rung 50's positions and scores its
    population and hall of fame again; the run written to its checkpoint then and read back
    plays its next generation as the uninterrupted run does."""
    from nim_evo.archives import read_arrays_document, write_arrays_document
    from nim_evo.evolution import loop
    from nim_evo.evolution.checkpoint import freeze, thaw
    from nim_evo.evolution.config import Config

    monkeypatch.setattr(Decisions, "build", classmethod(lambda cls, family, names=("perfect",): narrow))
    config = Config("program", game("60-kayles"), population=4, offspring=4, generations=3, opponents=("perfect",),
                    seed=3)
    toolbox = loop.make_toolbox(config)
    kayles = heaps.parse(game("10-kayles").grundy_words(), "Kayles")
    population = [program(part, narrow.rules) for part in (heaps.with_value(kayles, 50, 7), heaps.with_value(kayles, 3, 0),
                                                            heaps.with_value(kayles, 5, 0), heaps.with_value(kayles, 7, 0))]
    loop._bind_stage(toolbox, config, 1, population[0])
    loop.evaluate(toolbox, config, population, 0)
    state = loop.State(0, population, loop.hall_of_fame(KIND), tools.Logbook())
    state.halloffame.update(population)
    loop._record(state, config, len(population), 0, 0.0, False, 1)
    assert KIND.plain(state.halloffame[0]) == KIND.plain(population[0])  # (right on every decision and board)
    loop.step(state, config, toolbox)
    assert list(state.decided) == [1] and (state.decided[1][:, 0] == 50).all()
    assert state.logbook[-1]["evals"] >= len(population) + config.offspring  # (the population scored again too)
    assert all(len(ind.cases) == len(state.population[0].cases) for ind in state.population + list(state.halloffame))
    path = tmp_path / "state.npz"
    write_arrays_document(path, {"state": freeze(state, config)})
    resumed = thaw(read_arrays_document(path)["state"], config)
    assert np.array_equal(resumed.decided[1], state.decided[1])
    again = loop.make_toolbox(config)
    loop.step(state, config, toolbox)
    loop.step(resumed, config, again)
    assert again.stage_panels[1][-1].positions.shape == toolbox.stage_panels[1][-1].positions.shape
    assert [KIND.plain(ind) for ind in resumed.population] == [KIND.plain(ind) for ind in state.population]
    assert [ind.fitness.values for ind in resumed.halloffame] == [ind.fitness.values for ind in state.halloffame]
    record = [(k, str(v)) for k, v in sorted(state.logbook[-1].items()) if k != "seconds"]  # (nan: no accuracy on 60-kayles)
    assert [(k, str(v)) for k, v in sorted(resumed.logbook[-1].items()) if k != "seconds"] == record
