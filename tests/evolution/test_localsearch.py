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


@pytest.fixture(scope="module")
def decisions():
    return Decisions.build(game("10-kayles"))


def individual(heap: str, decisions: Decisions, fitness: float):
    ind = KIND.individual(KIND.from_json({"step": XOR, "score": "v", "second": "0", "heap": heap}, decisions.rules))
    ind.fitness.values = (fitness, 0.0)
    ind.cases = np.concatenate([np.ones(30), decisions.right("program", [KIND.plain(ind)])[0]])  # (boards' first)
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
        fixed += localsearch.improved([broken], toolbox(decisions), "program", np.random.default_rng(seed))
    assert fixed and all(not child.fitness.valid for child in fixed)
    assert any(str(child[3].simplest()) == str(KIND.part(individual(true, decisions, 0), "heap").simplest())
               for child in fixed)
    assert all(child[0] is not broken[0] for child in fixed)  # (a clone's own trees)
    assert all(decisions.right("program", [KIND.plain(c)]).sum() > broken.cases[30:].sum() for c in fixed)
    perfect = individual(true, decisions, 0.5)
    assert perfect.cases.all()
    assert localsearch.improved([perfect], toolbox(decisions), "program", np.random.default_rng(0)) == []
    assert localsearch.improved([broken], toolbox(), "program", np.random.default_rng(0)) == []
    growing = individual("0 1 2 4 3 5 6 8 (7) +1", lasker, 0.3)  # (Lasker's first values, then Nim's)
    assert not growing.cases.all()
    found = {str(child[3].simplest()) for seed in range(6)  # (variants of a growing part are drawn)
             for child in localsearch.improved([growing], toolbox(lasker), "program", np.random.default_rng(seed))}
    assert "0 (1 2 4 3) +4" in found  # (its table read with period 4)
    variants = KIND.value_variants(growing, lasker.positions, np.random.default_rng(0))
    assert len(variants) == program.GROWING_VARIANTS and all(v[:3] == list(growing[:3]) for v in variants)
    nim = individual(heaps.IDENTITY, lasker, 0.3)  # (1,417 of the 1,578 decisions)
    found = {str(child[3].simplest()) for seed in range(6)
             for child in localsearch.improved([nim], toolbox(lasker), "program", np.random.default_rng(seed))}
    assert found & {"0 (1 2 4 3) +4", "0 (2 1) +2"}  # (a failing heap's pair exchanged in every period)


def test_at_most_eight_programs_are_searched_a_generation(decisions, monkeypatch):
    tried = []
    monkeypatch.setattr(KIND, "values_at", lambda genes, heap, through: [])  # (no sweep: the test's search alone)
    monkeypatch.setattr(KIND, "value_variants", lambda genes, decided, rng: tried.append(genes) or [list(genes)])
    wrong = heaps.with_value(heaps.parse(game("10-kayles").grundy_words(), "Kayles"), 11, 5)
    population = [individual(str(heaps.with_value(wrong, 90 + k, 3)), decisions, 0.4 - k / 100) for k in range(20)]
    assert localsearch.improved(population, toolbox(decisions), "program", np.random.default_rng(0)) == []
    assert len(tried) == localsearch.SEARCHED  # (no variant wins more: none joins, and the search stops anyway)


def test_a_sweep_sets_kayles_values_heap_by_heap_from_nims_fold_alone():
    board = game("40-kayles")
    rungs = ladder(board, ("perfect",))
    assert len(rungs) == 41 and rungs[1] is not None
    for heap, rung in enumerate(rungs[1:], start=1):  # (a rung's positions and children: heaps up to its own)
        assert (rung.positions[:, 0] == heap).all() and rung.children.max() <= heap
        assert rung.lost[rung.index].any(axis=1).all()  # (each a winning position: some move leaves a lost one)
    ones = KIND.from_json({"step": XOR, "score": "v", "second": "0", "heap": "0 (1)"}, board)
    before = sum(int(rung.right("program", [KIND.plain(ones)]).sum()) for rung in rungs[1:])
    swept = localsearch.put_right(ones, KIND, "program", rungs)
    assert all(rung.right("program", [KIND.plain(swept)]).all() for rung in rungs[1:])
    assert before < sum(len(rung.positions) for rung in rungs[1:])
    mine, truth = swept[3](np.arange(41)), board.heap_values(41)(np.arange(41))
    # the values xor as Kayles' do: two heaps' values match a third's exactly where Kayles' do
    assert np.array_equal(mine[:, None, None] ^ mine[None, :, None] == mine[None, None, :],
                          truth[:, None, None] ^ truth[None, :, None] == truth[None, None, :])
    assert swept[:3] == list(ones[:3])
    assert localsearch.put_right(swept, KIND, "program", rungs) is None  # (nothing left to set)
