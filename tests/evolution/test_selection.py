"""Lexicase selection over sub-game cases, and restarts after a stall."""

import numpy as np
import pytest

from nim_evo import Rules
from nim_evo.evolution import loop, selection
from nim_evo.evolution.config import Config
from nim_evo.genomes.protocol import individual_type
from nim_evo.validation import UserError

Individual = individual_type("SelectionTestIndividual", list)


def _individual(name: str, fitness: float, cases, size: int):
    ind = Individual([name] * size)
    ind.fitness.values = (fitness, fitness)
    ind.cases = np.array(cases, dtype=np.float32)
    return ind


def test_lexicase_keeps_each_specialist_drops_the_dominated_and_prefers_the_smaller_of_equals():
    """A wins case 0 alone, B case 1 alone: both survive though neither has the best mean;
    C is worse than someone on every case and is never picked; D plays as A does but is
    bigger: of two of them drawn the smaller is picked, so D only when both draws are D (a
    quarter of their picks), and the population keeps both genomes."""
    best = _individual("best", 0.9, [0.5, 0.5, 1.0], 3)
    a = _individual("a", 0.5, [1.0, 0.0, 0.0], 3)
    b = _individual("b", 0.4, [0.0, 1.0, 0.0], 3)
    c = _individual("c", 0.1, [0.0, 0.0, 0.0], 1)
    d = _individual("d", 0.5, [1.0, 0.0, 0.0], 9)
    pool = [c, d, a, b, best]
    picked = selection.select_lexicase(pool, 300, np.random.default_rng(0))
    names = [ind[0] for ind in picked]
    assert names[0] == "best"  # elitist: the best fitness first
    counts = {name: names.count(name) for name in ("best", "a", "b", "c", "d")}
    assert counts["c"] == 0
    # the first case decides: each of the three cases leads to its specialist, a third of the time each
    for name, count in (("best", counts["best"]), ("a or d", counts["a"] + counts["d"]), ("b", counts["b"])):
        assert 60 <= count <= 140, (name, counts)
    assert 0.1 <= counts["d"] / (counts["a"] + counts["d"]) <= 0.4, counts
    again = selection.select_lexicase(pool, 300, np.random.default_rng(0))
    assert [ind[0] for ind in again] == names


def test_lexicase_with_epsilon_keeps_near_ties_on_continuous_cases():
    """Within the median absolute deviation of the best, a candidate stays: on one case where
    scores are 0.50, 0.49 and 0.0 (deviation 0.01), the first two both survive."""
    first = _individual("first", 0.9, [0.50], 2)
    near = _individual("near", 0.5, [0.49], 2)
    far = _individual("far", 0.1, [0.0], 2)
    names = [ind[0] for ind in selection.select_lexicase([first, near, far], 400, np.random.default_rng(1))]
    assert names.count("far") == 0 and 150 <= names.count("near") <= 250


def test_a_stall_is_counted_from_the_start_or_the_last_restart():
    def book(maxima, restarts=()):
        return [{"gen": g, "max": m, "restart": int(g in restarts)} for g, m in enumerate(maxima)]

    assert not loop.stalled(book([0.1, 0.2, 0.2, 0.2]), 0)                       # patience 0: never
    assert not loop.stalled(book([0.1, 0.2, 0.2]), 2)                            # 2 generations, not yet more
    assert loop.stalled(book([0.1, 0.2, 0.2, 0.2]), 2)                           # 0.2 not beaten in the last 2
    assert not loop.stalled(book([0.1, 0.2, 0.2, 0.3]), 2)
    assert not loop.stalled(book([0.5, 0.5, 0.5, 0.1, 0.2], restarts=(3,)), 2)   # since the restart: rising
    assert loop.stalled(book([0.5, 0.5, 0.5, 0.1, 0.2, 0.2, 0.2], restarts=(3,)), 2)


def test_a_restart_draws_a_new_population_and_the_hall_of_fame_keeps_the_best():
    config = Config(genome="program", rules=Rules((1, 3, 5, 7)), generations=12, population=20, offspring=20,
                         starts="all", restart=2, seed=3)
    toolbox = loop.make_toolbox(config)
    state = loop.start(config, toolbox)
    champions = [state.halloffame[0].fitness.values]
    while state.generation < config.generations:
        before = [str(ind) for ind in state.population]
        loop.step(state, config, toolbox)
        if state.logbook[-1]["restart"]:
            assert not set(before) & {str(ind) for ind in state.population}  # all new
        champions.append(state.halloffame[0].fitness.values)
    assert sum(record["restart"] for record in state.logbook) >= 1
    assert champions == sorted(champions)  # the run's best never drops
    assert "heldout" in state.logbook[-1] and 0 <= state.logbook[-1]["heldout"] <= 1


def test_the_kinds_choose_their_selection_and_a_user_may_override():
    rules = Rules((1, 3, 5))
    assert Config(genome="program", rules=rules).selector == "lexicase"
    assert Config(genome="program", rules=rules, fitness="sampled").selector == "tournament"
    assert Config(genome="table", rules=rules).selector == "tournament"
    assert Config(genome="table", rules=rules, selection="lexicase").selector == "lexicase"
    assert Config(genome="program", rules=rules).patience == 10
    assert Config(genome="program", rules=rules, restart=0).patience == 0
    old = Config(genome="program", rules=rules).to_json()
    del old["selection"], old["restart"]
    assert Config.from_json(old).selector == "tournament"  # a run begun before: as it was
    with pytest.raises(UserError, match="lexicase"):
        Config(genome="rules", rules=rules, selection="lexicase", fitness="sampled")


def test_the_hall_of_fame_ranks_the_smaller_of_equals_first():
    """Lexicographic parsimony: of equal fitness the smaller ranks first and displaces a
    bigger one from a full hall; a worse one never enters a full hall, however small."""
    hall = selection.HallOfFame(2, similar=lambda a, b: a == b, size=len)
    big, bigger = _individual("big", 0.5, [0.5], 9), _individual("bigger", 0.5, [0.5], 12)
    hall.update([bigger, big])
    assert [ind[0] for ind in hall] == ["big", "bigger"]
    hall.update([_individual("small", 0.5, [0.5], 3), _individual("worse", 0.4, [0.4], 1)])
    assert [(ind[0], len(ind)) for ind in hall] == [("small", 3), ("big", 9)]
    hall.update([_individual("best", 0.6, [0.6], 20)])
    assert [ind[0] for ind in hall] == ["best", "small"]


def test_the_hall_of_fame_is_deaps_where_sizes_are_equal():
    """Equal sizes (table genomes): a newcomer goes before those of equal fitness and enters a
    full hall only if better, as in DEAP's HallOfFame."""
    from deap import tools

    population = [_individual(name, fitness, [fitness], 4)
                  for name, fitness in [("a", 0.5), ("b", 0.7), ("c", 0.5), ("d", 0.7), ("e", 0.6), ("f", 0.7)]]
    ours, deaps = selection.HallOfFame(3, similar=lambda a, b: a == b), tools.HallOfFame(3, similar=lambda a, b: a == b)
    for start in range(0, 6, 2):
        ours.update(population[start:start + 2])
        deaps.update(population[start:start + 2])
        assert [ind[0] for ind in ours] == [ind[0] for ind in deaps]


def test_unique_rows_are_numpys_by_bytes():
    from nim_evo.evolution.selection import unique_rows

    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        base = rng.choice([0.0, 0.25, 0.5, 1.0, 1e-40, 0.3333], size=(40, 30)).astype(dtype)
        values = base[rng.integers(0, 40, size=300)]
        values[5, 3] = -0.0  # the same row as its 0.0 twin, for numpy
        rows, group = unique_rows(values)
        expected_rows, expected_group = np.unique(values, axis=0, return_inverse=True)
        assert np.array_equal(rows, expected_rows) and np.array_equal(group, expected_group.reshape(-1))
    negative = np.array([[-1.0, 2.0], [0.5, 0.0], [-1.0, 2.0]])  # (not win probabilities: numpy's own way)
    assert unique_rows(negative)[1].tolist() == [0, 1, 0]


def _lexicase_one_case_at_a_time(individuals, k, rng, size=len):
    """Lexicase as it was written before the first cases were found at once: each pick meets
    its cases one by one, the median and deviation of each from a Python float (the reference
    :func:`selection.select_lexicase` must pick as)."""
    values = np.stack([ind.cases for ind in individuals])
    rows, group = selection.unique_rows(values)
    rows = rows[:, (rows != rows[:1]).any(axis=0)]
    members = [np.flatnonzero(group == g) for g in range(len(rows))]
    sizes = np.array([size(ind) for ind in individuals])

    def median(ordered):
        middle = len(ordered) // 2
        return float(ordered[middle]) if len(ordered) % 2 else (float(ordered[middle - 1]) + float(ordered[middle])) / 2

    chosen = sorted(individuals, key=lambda ind: ind.fitness, reverse=True)[:1]
    for _ in range(k - 1):
        candidates, order = np.arange(len(rows)), rng.permutation(rows.shape[1])
        for case in order:
            if len(candidates) <= 1:
                break
            scores = rows[candidates, case]
            ordered = np.sort(scores)
            deviation = median(np.sort(np.abs(ordered - median(ordered))))
            candidates = candidates[scores >= ordered[-1] - deviation]
        alike = members[candidates[rng.integers(len(candidates))]]
        first, second = alike[rng.integers(len(alike))], alike[rng.integers(len(alike))]
        chosen.append(individuals[second if sizes[second] < sizes[first] else first])
    return chosen


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_lexicase_picks_as_one_case_at_a_time(dtype):
    """The first cut of every case found at once, the few left's next separating case found at
    once, copies read once: the picks of the plain algorithm, draw for draw, on populations
    with many copies and ties (odd and even counts of candidates, values on a coarse grid and
    near ties)."""
    rng = np.random.default_rng(5)
    for trial in range(12):
        kinds = int(rng.integers(1, 60))
        grid = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=(kinds, 40)) + rng.choice([0, 1e-3], size=(kinds, 40))
        shared = [grid[g].astype(dtype) for g in range(kinds)]
        pool = []
        for j in range(int(rng.integers(1, 120))):
            g = int(rng.integers(kinds))
            cases = shared[g] if rng.random() < 0.5 else shared[g].copy()  # (copies share their array, or not)
            pool.append(_individual(f"{j}", round(rng.random(), 1), cases, int(rng.integers(1, 9))))
            pool[-1].cases = cases
        ours = selection.select_lexicase(pool, 80, np.random.default_rng(trial))
        plain = _lexicase_one_case_at_a_time(pool, 80, np.random.default_rng(trial))
        assert [ind[0] for ind in ours] == [ind[0] for ind in plain], trial
