"""A search in stages: the program kind's misère runs evolve normal play first, then the score
with the step the first stage's champion hands on, held."""

import numpy as np
import pytest

import nim_evo
from nim_evo import Rules
from nim_evo.genomes import get_kind
from nim_evo.genomes.program import KIND, Program
from nim_evo.genomes.protocol import Stage

XOR = "sub(or(a, p), and(a, p))"


def test_misere_programs_search_in_two_stages_normal_play_first():
    misere = KIND.stages(((None, True),))
    assert [s.families for s in misere] == [((None, False),), ((None, True),)]
    assert [s.held for s in misere] == [("second",), ("step", "second")]
    assert KIND.stages(((3, False),)) == (Stage(((3, False),), held=("second",)),)
    capped = KIND.stages(((3, True),))  # its rule reads the largest residue: the second fold evolves
    assert [s.families for s in capped] == [((3, False),), ((3, True),)] and capped[1].held == ("step",)
    assert get_kind("table").stages(((None, True),)) == (Stage(((None, True),)),)  # other kinds: one stage


def test_held_trees_are_never_varied_and_new_programs_take_them():
    rng = np.random.default_rng(5)
    step = Program([XOR, "v"])[0]
    programs = [KIND.create(Rules((2, 3)), rng, held={"step": step}) for _ in range(30)]
    assert all(str(p[0]) == XOR for p in programs)
    assert len({str(p[1]) for p in programs}) > 5  # the scores are random
    assert str(KIND.create(Rules((2, 3)), rng, held={"second": None})[2]) == "0"  # no stage before: nothing
    for _ in range(300):
        a, b = rng.choice(len(programs), 2, replace=False)
        KIND.crossover(programs[a], programs[b], Rules((2, 3)), rng, held=("step",))
        KIND.mutate(programs[a], Rules((2, 3)), rng, held=("step",))
    assert all(str(p[0]) == XOR for p in programs)
    assert len({str(p[1]) for p in programs}) > 5


@pytest.fixture(scope="module")
def misere_run(tmp_path_factory):
    """Seed 0 on 1-3-5-7-9 misère, to perfect play on it."""
    out = tmp_path_factory.mktemp("misere") / "run"
    return nim_evo.evolve("program", Rules((1, 3, 5, 7, 9), misere=True), seed=0, until="accuracy=1", out=out,
                          progress=False)


def test_a_misere_program_is_found_from_scratch_and_plays_boards_it_never_saw(misere_run):
    """Normal play first (stage 0); at the switch a new population, every program of it with
    the stage-0 champion's step; then misère play's score: perfect on 1-3-5-7-9, and on the
    held-out boards of the family (seven heaps, random boards up to 1,000)."""
    stages = [record["stage"] for record in misere_run.logbook]
    switch = stages.index(1)
    assert 0 < switch < misere_run.state.generation and stages == sorted(stages)
    assert misere_run.logbook[switch]["restart"] == 1
    assert misere_run.accuracy == 1.0
    assert misere_run.held_out == {"1-3-5-7-9-11-13-misere": 1.0, "random boards": 1.0}
    steps = {str(ind[0]) for ind in misere_run.state.population}
    assert len(steps) == 1  # held: one step in the whole population


def test_a_run_resumed_in_either_stage_goes_on_as_the_uninterrupted_one(misere_run, tmp_path, monkeypatch):
    """Stopped in the last generation of stage 0 or within stage 1 and resumed, a run's
    logbook is the uninterrupted run's, every column but the seconds (to a few generations past
    the switch: each generation's statistics are its whole population's)."""
    monkeypatch.chdir(tmp_path)  # (a resume exports to genomes/)
    switch = [record["stage"] for record in misere_run.logbook].index(1)
    until = min(switch + 3, misere_run.state.generation)
    assert switch + 1 < until

    def columns(logbook):
        return [{k: v for k, v in record.items() if k != "seconds"} for record in logbook[:until + 1]]

    out = tmp_path / "run"
    nim_evo.evolve("program", Rules((1, 3, 5, 7, 9), misere=True), seed=0, generations=switch - 1, out=out,
                   until="accuracy=1", progress=False)
    for to in (switch + 1, until):  # resumed in the last generation of stage 0, then within stage 1
        resumed = nim_evo.resume(out, generations=to, progress=False)
        assert resumed.state.generation == to
        assert columns(resumed.logbook) == columns(misere_run.logbook)[:to + 1]
    assert until < misere_run.state.generation or str(resumed.genes) == str(misere_run.genes)


def test_a_misere_program_run_begun_before_stages_resumes_as_it_began(tmp_path, monkeypatch):
    """A run directory written by nim_evo before stages (two trees, no stage column, no until or
    families in its config): resumed twice, in the one stage it began in, its columns unchanged."""
    import shutil
    from pathlib import Path

    run = tmp_path / "run"
    shutil.copytree(Path(__file__).parent / "data" / "run-before-stages", run)
    monkeypatch.chdir(tmp_path)
    first = nim_evo.resume(run, generations=4, progress=False, genomes_dir=tmp_path)
    assert first.config.stages == (Stage(((None, True),), held=("second",)),)
    assert "stage" not in first.logbook[-1] and first.state.generation == 4
    again = nim_evo.resume(run, generations=6, progress=False, genomes_dir=tmp_path)
    assert again.state.generation == 6 and set(again.logbook[-1]) == set(again.logbook[0])
    assert (run / "logbook.csv").read_text().count("\n") == 8  # header and generations 0 to 6


def test_a_heap_games_stage_of_nims_boards_hands_on_only_a_fold_that_reads_heaps_in_any_order():
    """Kayles' seed 9 (and Lasker's) once handed on a step right on Nim's boards, whose heaps the
    fold reads ascending, but not on a heap part's values, which come in any order: it is 0
    at 2 then 6 and 4 at 6 then 2."""
    from nim_evo.evaluation.heldout import validates
    from nim_evo.evolution.config import Config
    from nim_evo.evolution.stages import beyond_its_boards
    from nim_evo.games import game
    from nim_evo.genomes.scoring import folds_in_any_order

    sorted_only = "or(sub(or(a, p), a), mod(add(p, or(a, p)), p))"
    assert not folds_in_any_order([sorted_only, "v", "0"])
    assert folds_in_any_order([XOR, "v", "0"]) and folds_in_any_order(["add(sub(or(a, p), p), sub(or(a, p), a))", "v", "0"])
    config = Config("program", game("10-kayles"))
    assert config.stages[0].nim and not config.stages[1].nim
    nim = Rules((1, 3, 5, 7, 9))
    for step, handed_on in ((XOR, True), (sorted_only, False)):
        champion = KIND.individual(KIND.from_json({"step": step, "score": "v", "second": "0"}, nim))
        assert validates(get_kind("program"), KIND.plain(champion), config.stage_games(0))  # (both play Nim's boards right)
        assert beyond_its_boards(config, champion, 0) is handed_on
