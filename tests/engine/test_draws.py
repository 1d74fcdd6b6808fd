"""numpy's ``choice`` draws that variation makes, written for speed: draw for draw the same."""

import random

import numpy as np
import pytest
from deap import gp

from nim_evo.engine import draws
from nim_evo.genomes import heaps, program


@pytest.mark.parametrize("n", [2, 3, 7, 500, 1000, 10_001, 2**33])
def test_two_of_n_is_numpys_choice_without_replacement(n):
    for seed in range(40):
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        for _ in range(30):
            assert draws.two_of(ours, n) == tuple(int(i) for i in numpys.choice(n, 2, replace=False))
        assert ours.random() == numpys.random()  # (as many draws taken)


def test_a_draw_below_n_is_numpys_integers_and_draws_nothing_below_one():
    for seed in range(40):
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        sizes = [1, 2, 1, 7, 1, 1, 500, 3]
        assert [draws.below(ours, n) for n in sizes] == [int(numpys.integers(n)) for n in sizes]
        assert ours.random() == numpys.random()


@pytest.mark.parametrize("weights", [program.MUTATION_WEIGHTS, heaps.MUTATION_WEIGHTS, (0.5, 0.5), (0.0, 1.0, 0.0),
                                     (1 / 3, 1 / 3, 1 / 3)])
def test_a_weighted_draw_is_numpys_choice_with_probabilities(weights):
    cdf = draws.cumulative(weights)
    for seed in range(40):
        ours, numpys = np.random.default_rng(seed), np.random.default_rng(seed)
        assert [draws.weighted(ours, cdf) for _ in range(50)] == [int(numpys.choice(len(weights), p=weights))
                                                                   for _ in range(50)]
        assert ours.random() == numpys.random()


def test_variation_draws_from_its_seed_and_leaves_pythons_generator_alone():
    """DEAP's gp draws from a generator seeded from the run's, as Python's own seeded so would
    draw; Python's own is where it was, and gp's module reads its own ``random`` again after."""
    random.seed(123)
    before = random.getstate()
    rng = np.random.default_rng(4)
    seed = int(np.random.default_rng(4).integers(2**63))
    with program._seeded(rng):
        drawn = [gp.random.random() for _ in range(5)]
    assert random.getstate() == before and gp.random is random
    expected = random.Random(seed)
    assert drawn == [expected.random() for _ in range(5)]
