"""Decisions beyond the boards: positions of a few heaps up to 120, each won by some move,
whose children are labelled by a brute-force Grundy sequence written here; a program's
decision is its move as it plays anywhere; a run of a splitting game reads them after Nim's
stage, and nowhere else."""

import numpy as np
import pytest

from nim_evo.evaluation.decisions import LARGEST, SMALL, WIDTH, Decisions
from nim_evo.evolution import fitness
from nim_evo.evolution.config import Config
from nim_evo.games import game
from nim_evo.genomes.program import KIND
from nim_evo.genomes import get_kind

XOR = "sub(or(a, p), and(a, p))"


def kayles_values(count: int) -> list[int]:
    """Kayles' Grundy values by the mex rule, written out: knock down one or two adjacent pins."""
    values = [0] * count
    for n in range(1, count):
        seen = {values[left] ^ values[n - take - left] for take in (1, 2) for left in range(n - take + 1)}
        values[n] = min(set(range(len(seen) + 1)) - seen)
    return values


KAYLES = kayles_values(LARGEST + 1)
TRUTH = " ".join(map(str, KAYLES[:-1])) + f" ({KAYLES[-1]})"  # every heap the decisions hold, as a heap part


@pytest.fixture(scope="module")
def kayles():
    return Decisions.build(game("10-kayles"))


def test_every_position_is_won_and_the_labels_are_the_grundy_sequences(kayles):
    def lost(rows):
        return [np.bitwise_xor.reduce([KAYLES[h] for h in row]) == 0 for row in rows]

    assert not any(lost(kayles.positions))
    held = {tuple(int(h) for h in row if h) for row in kayles.positions}
    pairs = {(n, k) for n in range(1, LARGEST + 1) for k in range(1, SMALL + 1) if KAYLES[n] != KAYLES[k]}
    assert {(max(p), min(p)) for p in pairs} <= held  # (every heap meets every small one where that is won)
    assert max(len(row) for row in held) == WIDTH - 1 and sum(len(row) >= 4 for row in held) > 100
    assert kayles.positions.max() == LARGEST and len(kayles.positions) > 500
    assert list(kayles.lost[:-1]) == lost(kayles.children) and not kayles.lost[-1]
    singles = {int(row[0]) for row in kayles.positions if row[1] == 0}
    assert singles == {n for n in range(1, LARGEST + 1) if KAYLES[n]}  # every heap alone (each is won)


def test_the_fold_over_the_true_values_wins_every_decision_and_one_wrong_value_loses_some(kayles):
    assert kayles.right(KIND, [[XOR, "v", "0", TRUTH]]).all()
    wrong = KAYLES.copy()
    wrong[70] = KAYLES[70 + 12]  # Kayles' last exception, taken for periodic
    part = " ".join(map(str, wrong[:-1])) + f" ({wrong[-1]})"
    right = kayles.right(KIND, [[XOR, "v", "0", part]])[0]
    assert 0 < (~right).sum() and kayles.positions[~right].max(axis=1).min() >= 70  # (a heap of 70 or its parent)


def test_a_programs_decision_is_its_move_there(kayles):
    rng = np.random.default_rng(3)
    for seed in range(6):
        genes = KIND.plain(KIND.create(game("10-kayles"), np.random.default_rng(seed)))
        assert np.array_equal(KIND.decide(genes, kayles.rules, kayles),
                              KIND.choose(genes, kayles.rules, kayles.positions, rng))


def test_decisions_evaluate_as_fitness_cases(kayles):
    genes = [[XOR, "v", "0", TRUTH], [XOR, "v", "0", "(0) +1"]]
    perfect, nim = fitness.evaluate_chunk(get_kind("program"), kayles, "exact", 0, genes, None, cases=True)
    assert (perfect.fitness, perfect.subgames, perfect.rates) == (1.0, 1.0, {"perfect": (1.0, 1.0)})
    assert nim.fitness < 0.5 and nim.cases.shape == (len(kayles.positions),) and nim.fitness == nim.cases.mean()
    assert fitness.ceiling((kayles,)) == (1.0, 1.0)


def test_a_splitting_games_run_reads_decisions_in_its_own_stage_against_perfect_play_only():
    config = Config("program", game("10-kayles"), opponents=("perfect",))
    assert config.decision_rules(0) == () and config.decision_rules(1) == (game("10-kayles"),)
    assert Config("program", game("10-kayles"), opponents=("perfect", "random")).decision_rules(1) == ()
    assert Config("program", game("20-sub1.3.4"), opponents=("perfect",)).decision_rules(1) == ()
    assert Decisions.build(game("10-kayles-misere")) is None  # (no theory: no labels)
