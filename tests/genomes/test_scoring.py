"""How a program's scores are computed: the fold run once per (value so far, heap read) pair
gives every score the tree run on every column gives, and a splitting game's move at heaps of
any size is the move it plays on a board."""

import copy

import numpy as np
import pytest

from nim_evo.games import Rules, game
from nim_evo.genomes import folds, scoring
from nim_evo.genomes.program import KIND
from nim_evo.genomes import get_kind

XOR = "sub(or(a, p), and(a, p))"


def untabulated(monkeypatch, genes, rules, positions):
    with monkeypatch.context() as patch:
        patch.setattr(folds, "TABLE_READ", 0)  # every step run on every column
        return scoring.scores(genes, rules, positions)


@pytest.mark.parametrize("name", ["10-kayles", "20-sub1.3.4", "3-5-7-lasker", "1-3-5-7"])
def test_a_tabulated_fold_scores_as_the_tree_run_on_every_column(monkeypatch, name):
    rules = Rules.parse(name) if name == "1-3-5-7" else game(name)
    rng = np.random.default_rng(5)
    positions = rng.integers(0, 40, size=(3000, 6))  # (heaps enough to be worth a table: folds.TABLE_WORTH)
    tabulated = 0
    for seed in range(120):
        genes = KIND.plain(KIND.create(rules, np.random.default_rng(seed)))
        assert np.array_equal(scoring.scores(genes, rules, positions), untabulated(monkeypatch, genes, rules, positions))
        step, _, _, heap = scoring.parts(genes)
        read = positions if heap is None else heap(positions)
        tabulated += folds.step_table(scoring.code(step), "a", max(int(read.max()), folds.TABLE_LEAST), 0,
                                      folds.budget(read.size)) is not None
    assert tabulated > 60  # (most random steps fold into few values; the rest fall back)


def test_a_table_is_made_only_where_it_costs_less_than_running_the_tree_on_every_heap(monkeypatch):
    """Few heaps read are folded by running the tree on each (no table is looked for); a
    table is given up where finding it would run the tree on more pairs than the heaps read."""
    xor = scoring.code(scoring.parse(XOR, scoring.STEP, "step"))
    small = np.random.default_rng(1).integers(0, 16, size=(folds.TABLE_WORTH // 4 - 1, 4))
    with monkeypatch.context() as patch:
        patch.setattr(folds, "step_table", lambda *arguments: pytest.fail("a table looked for"))
        assert np.array_equal(folds.fold(xor, "a", small, None, np.int64(0)), np.bitwise_xor.reduce(small, axis=1))
    grid = 256 * 16  # (the pairs below 256 and 16: every value xor reaches from heaps up to 15, at once)
    assert folds.step_table.__wrapped__(xor, "a", 15, 0, grid) is not None
    assert folds.step_table.__wrapped__(xor, "a", 15, 0, grid - 1) is None
    growing = scoring.code(scoring.parse("add(a, p)", scoring.STEP, "step"))
    assert folds.step_table.__wrapped__(growing, "a", 15, 0, 1 << 20) is None  # (found to grow within the grid)
    large = np.random.default_rng(2).integers(0, 16, size=(folds.TABLE_WORTH, 4))
    assert np.array_equal(folds.fold(xor, "a", large, None, np.int64(0)), np.bitwise_xor.reduce(large, axis=1))
    assert folds.step_table(xor, "a", 15, 0, folds.budget(large.size)) is not None


def test_a_growing_fold_falls_back_to_the_tree():
    assert folds.step_table(scoring.code(scoring.parse("add(a, p)", scoring.STEP, "step")), "a", 30, 0) is None
    reached, steps = folds.step_table(scoring.code(scoring.parse(XOR, scoring.STEP, "step")), "a", 5, 0)
    assert list(reached) == list(range(8)) and steps.shape == (8, 7)


def kayles_program() -> list[str]:
    values = game("10-kayles").grundy().periodic
    head = " ".join(map(str, values.values[:values.preperiod]))
    return [XOR, "v", "0", f"{head} ({' '.join(map(str, values.values[values.preperiod:]))})"]


def test_a_split_child_is_the_move_played_on_a_board():
    kayles = game("10-kayles")
    rng = np.random.default_rng(2)
    for trial in range(40):
        genes = kayles_program() if trial % 2 else KIND.plain(KIND.create(kayles, np.random.default_rng(trial)))
        heaps = tuple(int(h) for h in rng.integers(1, 12, size=int(rng.integers(1, 4))))
        board = kayles.board(heaps)
        start = np.array([board.start])
        child, _ = board.step(start, scoring.moves(genes, board, start))
        assert sorted(int(h) for h in child[0] if h) == [int(h) for h in scoring.split_child(genes, kayles, heaps) if h]


def test_the_true_values_move_to_a_lost_position_among_heaps_of_a_million():
    kayles = game("10-kayles")
    values = kayles.grundy()
    heaps = np.random.default_rng(0).integers(1, 10**6, size=5)
    assert np.bitwise_xor.reduce(values(heaps)) != 0
    child = scoring.split_child(kayles_program(), kayles, heaps)
    assert np.bitwise_xor.reduce(values(child)) == 0 and child.sum() in (heaps.sum() - 1, heaps.sum() - 2)


def test_held_out_boards_of_a_splitting_game_reach_a_million_and_catch_a_wrong_period():
    from nim_evo.evaluation.heldout import random_boards_accuracy

    kayles = game("10-kayles")
    values = kayles.grundy().periodic
    cycle = list(values.values[values.preperiod:])
    right = kayles_program()
    wrong = right[:3] + [right[3].replace(f"({' '.join(map(str, cycle))})",
                                          f"{' '.join(map(str, cycle))} ({' '.join(map(str, cycle[:-1] + [6]))})")]
    assert wrong != right  # (one value of the period's second turn changed: right up to heap 94)
    judged = [random_boards_accuracy(get_kind("program"), genes, kayles, np.random.default_rng(1), (3, 5), 10**6, count=6)
              for genes in (right, wrong)]
    assert judged[0] == 1.0 and judged[1] < 1.0


@pytest.mark.parametrize("name", ["1-3-5-7", "10-kayles"])
def test_a_program_written_from_its_trees_compiles_as_its_text_parsed(name):
    """The plain form written in one pass is DEAP's ``str`` of each tree, and the compiled form
    kept for it is what parsing the texts gives (its heap part the one the text names)."""
    rules = Rules.parse(name) if name == "1-3-5-7" else game(name)
    rng = np.random.default_rng(3)
    genomes = [KIND.create(rules, rng) for _ in range(60)]
    for _ in range(20):  # (and their offspring)
        first, second = (copy.deepcopy(genomes[i]) for i in rng.choice(len(genomes), 2, replace=False))
        genomes.append(KIND.mutate(KIND.crossover(first, second, rules, rng)[0], rules, rng)[0])
    for genes in genomes:
        texts = KIND.plain(genes)
        trees = scoring.parts(genes)
        assert texts[:3] == [str(tree) for tree in trees[:3]]
        assert len(texts) == 3 + (trees[3] is not None)
        written = scoring.compiled(texts)
        assert scoring._WRITTEN[tuple(texts)] is written  # (kept when written, not parsed)
        parsed = scoring._compiled_texts(tuple(texts))
        assert written[:3] == parsed[:3] and written[3] is parsed[3]  # (the heap part: one parse, kept)
    assert any(len(scoring.parts(g)[0]) > 5 for g in genomes)  # (trees with nesting, not only terminals)


def test_a_step_table_read_from_its_grid_is_the_one_found_round_by_round(monkeypatch):
    """A step's values at every small (value, heap) pair, found at once, give the table (and
    the same refusals) that running the tree round by round gives."""
    rng = np.random.default_rng(8)
    rules = Rules.parse("1-3-5-7")
    trees = {scoring.code(scoring.parts(KIND.create(rules, rng))[0]) for _ in range(150)} | {
        scoring.code(scoring.parse(XOR, scoring.STEP, "step"))}
    found = 0
    for tree in trees:
        for high, k in ((15, 0), (15, 4), (40, 0)):
            gridded = folds.step_table.__wrapped__(tree, "a", high, k)
            with monkeypatch.context() as patch:
                patch.setattr(folds, "GRID_CELLS", 0)
                rounds = folds.step_table.__wrapped__(tree, "a", high, k)
            assert (gridded is None) == (rounds is None)
            if gridded is not None:
                found += 1
                assert all(np.array_equal(a, b) for a, b in zip(gridded, rounds))
    assert found > 100
