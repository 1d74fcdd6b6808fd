"""The DEAP loop: operators that use per-position credit, the seed's targets, checkpoints."""

import dataclasses

import numpy as np
import pytest

from nim_evo import Rules
from nim_evo.evolution.fitness import accuracy
from nim_evo.evolution.checkpoint import freeze, thaw
from nim_evo.evolution.config import Config
from nim_evo.evolution.loop import make_toolbox, restore_evaluations, start, step
from nim_evo.genomes import get_kind


def evolve(config, generations):
    toolbox = make_toolbox(config)
    state = start(config, toolbox)
    for _ in range(generations):
        step(state, config, toolbox)
    return state


def test_credit_guided_operators_beat_a_plain_ga():
    """On 7-5-3 the default table GA plays perfectly within 30 generations; with operators
    blind to per-position credit (a plain GA) the same budget leaves many winning positions wrong."""
    config = Config(genome="table", rules=Rules((7, 5, 3)), seed=1)
    guided = evolve(config, 30)
    plain = evolve(dataclasses.replace(config, credit=False), 30)
    assert accuracy(get_kind("table"), guided.halloffame[0], config.rules) == 1.0
    assert accuracy(get_kind("table"), plain.halloffame[0], config.rules) < 0.8


@pytest.mark.parametrize("genome, generations", [("rules", 25), ("thresholds", 30)])
def test_rules_and_thresholds_beat_random_as_first_player(genome, generations):
    """The seed's evolved agents won 70% (rules) and near random (thresholds); ours >= 95% from 1-3-5-7-9."""
    config = Config(genome=genome, rules=Rules((1, 3, 5, 7, 9)), population=20, offspring=40, seed=2)
    state = evolve(config, generations)
    first, _ = state.halloffame[0].rates["random"]
    assert first >= 0.95
    assert state.logbook[-1]["max"] > state.logbook[0]["max"]


def test_best_fitness_never_drops():
    """(mu + lambda) with an elitist tournament: the best fitness is monotone."""
    config = Config(genome="rules", rules=Rules((2, 3, 4, 5), misere=True), population=10, offspring=20, seed=4)
    state = evolve(config, 10)
    best = [record["max"] for record in state.logbook]
    assert best == sorted(best)


def test_checkpoint_state_round_trip(monkeypatch):
    """freeze/thaw keep genes, fitness, win rates, hall of fame and logbook; credit is not
    kept, and a resumed run's population gets it back, evaluated again, bit for bit, its
    fitness the checkpoint's (evolved in chunks of four, evaluated again one by one: a genome
    alone sums its sub-games in another order, other last bits); a state frozen with credit,
    as files written before were, is read with it."""
    from nim_evo.evolution import fitness

    monkeypatch.setattr(fitness, "chunk_size", lambda panel, mode: 4)
    config = Config(genome="table", rules=Rules((1, 3, 5, 7)), population=6, offspring=8, seed=3)
    state = evolve(config, 2)
    frozen = freeze(state, config)
    back = thaw(frozen, config)
    assert back.generation == 2 and list(back.logbook) == list(state.logbook)
    for a, b in zip(list(state.population) + list(state.halloffame), list(back.population) + list(back.halloffame)):
        np.testing.assert_array_equal(a, b)
        assert a.fitness.values == b.fitness.values and a.rates == b.rates
        assert a.credit is not None and b.credit is None
    assert type(back.population[0]).__name__ == "TableIndividual"
    monkeypatch.setattr(fitness, "chunk_size", lambda panel, mode: 1)
    restore_evaluations(back, config, make_toolbox(config))
    for a, b in zip(state.population, back.population, strict=True):
        assert a.fitness.values == b.fitness.values and a.rates == b.rates
        assert all(np.array_equal(x, y) for x, y in zip(a.credit, b.credit, strict=True))
    for item, ind in zip(frozen["population"], state.population):
        item["credit"] = ind.credit
    older = thaw(frozen, config)
    for a, b in zip(state.population, older.population, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a.credit, b.credit, strict=True))


def test_a_program_population_gets_its_cases_back_on_resume():
    """Lexicase selection's cases are not kept in a checkpoint either: evaluated again, the
    same bits; a state frozen with them is read with them."""
    config = Config(genome="program", rules=Rules((1, 3, 5, 7, 9)), population=20, offspring=20, seed=2)
    state = evolve(config, 1)
    frozen = freeze(state, config)
    back = thaw(frozen, config)
    assert all(ind.cases is not None for ind in state.population) and all(ind.cases is None for ind in back.population)
    restore_evaluations(back, config, make_toolbox(config))
    for a, b in zip(state.population, back.population, strict=True):
        assert a.fitness.values == b.fitness.values and np.array_equal(a.cases, b.cases)
    for item, ind in zip(frozen["population"], state.population):
        item["cases"] = ind.cases
    assert all(np.array_equal(a.cases, b.cases) for a, b in zip(state.population, thaw(frozen, config).population))


@pytest.mark.parametrize("genome", ["table", "thresholds"])
def test_evolution_leaves_the_global_random_module_alone(genome):
    """All randomness comes from the Generator of each generation: the global ``random``
    state is untouched, and the same seed gives the same population."""
    import random

    from nim_evo.evolution.selection import select_elitist

    config = Config(genome=genome, rules=Rules((2, 3, 4)), population=6, offspring=8, generations=3)
    random.seed(123)
    before = random.getstate()
    runs = []
    for _ in range(2):
        toolbox = make_toolbox(config)
        state = start(config, toolbox)
        for _ in range(3):
            step(state, config, toolbox)
        runs.append([np.asarray(ind).tolist() for ind in state.population])
    assert random.getstate() == before and runs[0] == runs[1]
    population = state.population
    best = max(ind.fitness for ind in population)
    chosen = select_elitist(population, 50, tournsize=3, rng=np.random.default_rng(0))
    assert chosen[0].fitness == best and len(chosen) == 50
    rank = {id(ind): r for r, ind in enumerate(sorted(population, key=lambda i: i.fitness))}
    mean_rank = np.mean([rank[id(ind)] for ind in chosen[1:]])
    assert mean_rank > (len(population) - 1) / 2  # tournaments favour the fitter


def test_a_bug_in_measuring_accuracy_is_not_taken_for_a_board_too_big(monkeypatch):
    """Only a board too big to solve (SpaceTooLarge) leaves a run without accuracy; any other
    failure while measuring it (a bug: a plain ValueError, a player's AgentError) reaches the
    caller with its traceback, not a NaN in the logbook or None in Run.accuracy."""
    import nim_evo
    import nim_evo.api  # (imported before the patch: it keeps the accuracy it imports)
    from nim_evo.engine.space import SpaceTooLarge
    from nim_evo.evolution import fitness

    def broken(*args):
        raise ValueError("a bug")

    monkeypatch.setattr(fitness, "accuracy", broken)
    with pytest.raises(ValueError, match="^a bug$"):
        nim_evo.evolve("table", nim_evo.Rules((2, 3)), generations=1, population=4, offspring=4, progress=False)

    def too_big(*args):
        raise SpaceTooLarge("too big")

    monkeypatch.setattr(fitness, "accuracy", too_big)
    run = nim_evo.evolve("table", nim_evo.Rules((2, 3)), generations=1, population=4, offspring=4, progress=False)
    assert np.isnan(run.logbook[-1]["accuracy"])


@pytest.mark.parametrize("until", ["accuracy=1", "ceiling"])
def test_a_run_stops_at_the_first_generation_whose_champion_reaches_its_target(tmp_path, until):
    """accuracy=1 (perfect play on the board) and ceiling (the most the panel allows) end the
    run there: the same run one generation shorter had not reached it."""
    from nim_evo import evolve

    run = evolve("table", Rules((7, 5, 3)), generations=200, seed=1, out=tmp_path / "run", progress=False,
                 until=until)
    stopped = run.state.generation
    assert 0 < stopped < 60  # a table finds perfect play on 7-5-3 within a few dozen generations
    before = evolve("table", Rules((7, 5, 3)), generations=stopped - 1, seed=1, progress=False)
    if until == "accuracy=1":
        assert run.accuracy == 1.0 > before.accuracy
        assert [record["accuracy"] for record in run.logbook].index(1.0) == stopped
    else:
        assert run.genes.fitness.values[0] >= run.ceiling[0] - 1e-9 > before.genes.fitness.values[0]


def test_a_resumed_run_keeps_its_target_until_given_another(tmp_path):
    from nim_evo import evolve, resume

    first = evolve("table", Rules((7, 5, 3)), generations=200, seed=1, out=tmp_path / "run", progress=False,
                   until="accuracy=1", export=tmp_path / "champion.json")
    stopped = first.state.generation
    assert resume(tmp_path / "run", generations=200, progress=False).state.generation == stopped
    more = resume(tmp_path / "run", generations=stopped + 3, progress=False, until="never")
    assert more.state.generation == stopped + 3 and more.config.until is None
    assert more.exported == tmp_path / "champion.json"  # the run's own export, replaced


@pytest.mark.parametrize("genome", ["rules", "thresholds"])
def test_a_target_short_of_perfection_stops_a_board_free_run_without_validation(genome):
    """Only perfection asks a genome that plays any board to validate beyond its board: a
    rules or thresholds run stops at accuracy=0.5 as soon as its champion gets there."""
    from nim_evo import evolve

    run = evolve(genome, Rules((3, 4, 5)), generations=15, seed=0, progress=False, until="accuracy=0.5")
    accuracies = [record["accuracy"] for record in run.logbook]
    assert run.state.generation < 15 and accuracies[-1] >= 0.5 > max(accuracies[:-1], default=0)


def test_on_generation_sees_each_record_and_a_true_answer_stops_the_run(tmp_path):
    """evolve(on_generation=f): f gets every generation's record as a dict, in order; a true
    answer stops the run there (its outputs written, as at a target), and resuming goes on to
    the same champion as a run never stopped. Resumed with the same answer, it stays stopped:
    the last record it holds is asked first."""
    import nim_evo

    seen = []

    def watch(record):
        seen.append(record)
        return record["gen"] == 3

    rules = nim_evo.Rules((3, 4, 5))
    run = nim_evo.evolve("table", rules, generations=8, seed=2, population=10, offspring=20, progress=False,
                         out=tmp_path / "run", on_generation=watch)
    assert [r["gen"] for r in seen] == [1, 2, 3] and all(isinstance(r, dict) and "max" in r for r in seen)
    assert run.state.generation == 3 and (tmp_path / "run" / "champion.json").exists()
    assert seen[-1]["max"] == run.logbook[-1]["max"]
    again = nim_evo.resume(tmp_path / "run", progress=False, genomes_dir=tmp_path / "genomes", on_generation=watch)
    assert again.state.generation == 3 and [r["gen"] for r in seen] == [1, 2, 3, 3]
    whole = nim_evo.evolve("table", rules, generations=8, seed=2, population=10, offspring=20, progress=False)
    resumed = nim_evo.resume(tmp_path / "run", progress=False, genomes_dir=tmp_path / "genomes")
    assert resumed.state.generation == 8 and list(resumed.genes) == list(whole.genes)
