"""The local search beside variation: a Kayles program one value wrong is put right by trying
every value at a heap of the first decision it lost, a table of Lasker's Nim's first values by
reading it with each period, and Nim's values by exchanging a failing pair in every period; a program that loses none, or a stage without decisions, gives
nothing."""

import numpy as np
import pytest
from deap import base

from nim_evo.evaluation.decisions import Decisions, ladder
from nim_evo.evolution import localsearch
from nim_evo.games import game
from nim_evo.genomes import heaps
from nim_evo.genomes import program
from nim_evo.genomes.program import KIND

XOR = "sub(or(a, p), and(a, p))"
DAWSON_STEP = "add(sub(or(a, p), p), sub(or(a, p), a))"  # (exclusive or too: the bits of each the other lacks)


@pytest.fixture(scope="module")
def decisions():
    return Decisions.build(game("10-kayles"))


def individual(heap: str, decisions: Decisions, fitness: float):
    ind = KIND.individual(KIND.from_json({"step": XOR, "score": "v", "second": "0", "heap": heap}, decisions.rules))
    ind.fitness.values = (fitness, 0.0)
    ind.cases = np.concatenate([np.ones(30), decisions.right(KIND, [KIND.plain(ind)])[0]])  # (boards' first)
    return ind


def toolbox(*panels):
    box = base.Toolbox()
    box.stage_panels, box.stage = (tuple(panels),), 0
    return box


@pytest.fixture(scope="module")
def lasker():
    return Decisions.build(game("10-lasker"))


def test_one_wrong_value_is_put_right(decisions, lasker):
    true = game("10-kayles").grundy_words()
    wrong = heaps.with_value(heaps.parse(true, "Kayles"), 11, 5)  # (Kayles' heap 11 is worth 6)
    broken = individual(str(wrong), decisions, 0.4)
    assert not broken.cases.all()
    fixed = []
    for seed in range(6):  # (a heap of the first lost decision is drawn: 11 is one of its heaps)
        fixed += localsearch.improved([broken], toolbox(decisions), KIND, np.random.default_rng(seed))
    assert fixed and all(not child.fitness.valid for child in fixed)
    assert any(str(child[3].simplest()) == str(KIND.part(individual(true, decisions, 0), "heap").simplest())
               for child in fixed)
    assert all(child[0] is not broken[0] for child in fixed)  # (a clone's own trees)
    assert all(decisions.right(KIND, [KIND.plain(c)]).sum() > broken.cases[30:].sum() for c in fixed)
    perfect = individual(true, decisions, 0.5)
    assert perfect.cases.all()
    assert localsearch.improved([perfect], toolbox(decisions), KIND, np.random.default_rng(0)) == []
    assert localsearch.improved([broken], toolbox(), KIND, np.random.default_rng(0)) == []
    growing = individual("0 1 2 4 3 5 6 8 (7) +1", lasker, 0.3)  # (Lasker's first values, then Nim's)
    assert not growing.cases.all()
    found = {str(child[3].simplest()) for seed in range(6)  # (variants of a growing part are drawn)
             for child in localsearch.improved([growing], toolbox(lasker), KIND, np.random.default_rng(seed))}
    assert "0 (1 2 4 3) +4" in found  # (its table read with period 4)
    variants = KIND.value_variants(growing, lasker.positions, np.random.default_rng(0))
    assert len(variants) == program.GROWING_VARIANTS and all(v[:3] == list(growing[:3]) for v in variants)
    nim = individual(heaps.IDENTITY, lasker, 0.3)  # (1,417 of the 1,578 decisions)
    found = {str(child[3].simplest()) for seed in range(6)
             for child in localsearch.improved([nim], toolbox(lasker), KIND, np.random.default_rng(seed))}
    assert found & {"0 (1 2 4 3) +4", "0 (2 1) +2"}  # (a failing heap's pair exchanged in every period)


def test_at_most_eight_programs_are_searched_a_generation(decisions, monkeypatch):
    tried = []
    monkeypatch.setattr(KIND, "values_at", lambda genes, heap, through: [])  # (no sweep: the test's search alone)
    monkeypatch.setattr(KIND, "value_variants", lambda genes, decided, rng: tried.append(genes) or [list(genes)])
    wrong = heaps.with_value(heaps.parse(game("10-kayles").grundy_words(), "Kayles"), 11, 5)
    population = [individual(str(heaps.with_value(wrong, 90 + k, 3)), decisions, 0.4 - k / 100) for k in range(20)]
    assert localsearch.improved(population, toolbox(decisions), KIND, np.random.default_rng(0)) == []
    assert len(tried) == localsearch.SEARCHED  # (no variant wins more: none joins, and the search stops anyway)


def test_a_sweep_sets_kayles_values_heap_by_heap_from_nims_fold_alone():
    board = game("40-kayles")
    rungs = ladder(board, ("perfect",))
    assert len(rungs) == 41 and rungs[1] is not None
    for heap, rung in enumerate(rungs[1:], start=1):  # (a rung's positions and children: heaps up to its own)
        assert (rung.positions[:, 0] == heap).all() and rung.children.max() <= heap
        assert rung.lost[rung.index].any(axis=1).all()  # (each a winning position: some move leaves a lost one)
    ones = KIND.from_json({"step": XOR, "score": "v", "second": "0", "heap": "0 (1)"}, board)
    before = sum(int(rung.right(KIND, [KIND.plain(ones)]).sum()) for rung in rungs[1:])
    swept = localsearch.put_right(ones, KIND, rungs)
    assert all(rung.right(KIND, [KIND.plain(swept)]).all() for rung in rungs[1:])
    assert before < sum(len(rung.positions) for rung in rungs[1:])
    mine, truth = swept[3](np.arange(41)), board.heap_values(41)(np.arange(41))
    # the values xor as Kayles' do: two heaps' values match a third's exactly where Kayles' do
    assert np.array_equal(mine[:, None, None] ^ mine[None, :, None] == mine[None, None, :],
                          truth[:, None, None] ^ truth[None, :, None] == truth[None, None, :])
    assert swept[:3] == list(ones[:3])
    assert localsearch.put_right(swept, KIND, rungs) is None  # (nothing left to set)


# Dawson's Kayles' seed 0 (on 053c138's code): right on every decision and every rung of the
# ladder, but its table's end repeats with 17, and Dawson's period is 34
DAWSON_SEED0 = ("0 1 2 3 4 1 6 2 3 1 6 6 5 4 8 0 10 5 4 7 6 0 3 3 6 0 4 2 2 0 8 11 5 15 8 1 2 2 5 1 6 2 3 1 6 6 5 5 8 "
                "8 10 10 4 6 6 0 3 2 6 0 4 2 2 0 9 10 7 14 8 32 2 2 4 1 7 2 3 1 6 7 4 4 8 9 10 11 34 6 6 0 3 2 7 0 5 2 2 0 "
                "9 10 7 14 8 32 (2 3 4 1 7 3 3 1 7 7 5 4 9 8 10 10 34)")


def lost_beyond_the_ladder(genes, family, count=300):
    """Winning positions of 2 to 5 heaps up to 5,000 (their own seed) where the program's move loses."""
    values, rng, lost = family.values_for(5000), np.random.default_rng(1), 0
    for _ in range(count):
        heaps_ = np.sort(rng.integers(1, 5001, size=int(rng.integers(2, 6))))
        if np.bitwise_xor.reduce(values(heaps_[None]), axis=1)[0]:
            child = np.asarray(KIND.child_of(KIND.plain(genes), family, heaps_)).reshape(1, -1)
            lost += int(np.bitwise_xor.reduce(values(child), axis=1)[0] != 0)
    return lost


def test_a_table_is_read_with_the_period_that_predicts_the_ladder_and_a_smaller_one_joins_at_the_top():
    family = game("12-dawson")
    dawson = Decisions.build(family)
    champion = individual(DAWSON_SEED0, dawson, 0.5)
    champion[0] = program.Program([DAWSON_STEP, "v"])[0]
    champion.cases = np.concatenate([np.ones(30), dawson.right(KIND, [KIND.plain(champion)])[0]])
    rungs = dawson.ladder()
    assert champion.cases.all() and all(r.right(KIND, [KIND.plain(champion)]).all() for r in rungs if r is not None)
    assert lost_beyond_the_ladder(champion, family) > 100
    assert str(heaps.repeating(champion[3])).endswith("(2 3 4 1 7 3 3 1 7 7 5 4 9 8 10 10 34)")  # (its end's)
    read = localsearch.predicting(champion, KIND, rungs)
    assert read[3].period == 34 and len(read[3].values) == 87  # (cut at 87: rungs 87 to 120 predicted)
    assert lost_beyond_the_ladder(read, family) == 0
    made = localsearch.improved([champion], toolbox(dawson), KIND, np.random.default_rng(0))
    assert [str(child[3]) for child in made] == [str(read[3])]  # (as many decisions won, and smaller: it joins)
    assert KIND.size(made[0]) < KIND.size(champion)
