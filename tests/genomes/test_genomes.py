"""Genome kinds: one conformance run for all three, then each kind's own rules."""

import copy
import json
import pickle

import numpy as np
import pytest

from nim_evo import Rules, load_strategy, make_agent, solve, win_probabilities
from nim_evo.engine.policy import as_table, check_table
from nim_evo.engine.space import space_for
from nim_evo.genomes import GenomeAgent, genome_document, genome_from_document, get_kind, ruleset, table, thresholds
from nim_evo.genomes.registry import BUILTIN
from nim_evo.atomic import write_json
from nim_evo.validation import UserError

BOARDS = [Rules((2, 3, 4)), Rules((3, 4, 5), 2), Rules((2, 3, 4, 5), misere=True), Rules((9,), 3, True),
          Rules((3, 3, 5, 5), 3, True), Rules((1, 3, 5, 7, 9))]  # 3-3-5-5-cap3-misere: no closed form
IDS = [r.name for r in BOARDS]


def individual(kind, rules, rng, **options):
    return get_kind(kind).create(rules, rng, container=get_kind(kind).individual, **options)


@pytest.mark.parametrize("kind", BUILTIN)
@pytest.mark.parametrize("rules", BOARDS, ids=IDS)
def test_variation_keeps_every_genome_legal(kind, rules):
    """Created, mutated and crossed genomes are valid policies; scalar play equals the table."""
    rng = np.random.default_rng(3)
    space = space_for(rules)
    module = get_kind(kind)
    a, b = individual(kind, rules, rng), individual(kind, rules, rng)
    for _ in range(5):
        a, = module.mutate(a, rules=rules, rng=rng)
        a, b = module.crossover(a, b, rules=rules, rng=rng)
    for genes in (a, b):
        agent = GenomeAgent(kind, genes, rules)
        policy = agent.policy(space)
        check_table(policy, space)
        for index in rng.integers(1, space.n_positions, 20):
            row = np.zeros(space.n_moves)
            for move, p in agent.distribution(space.position(index)):
                row[space.move_index(move)] += p
            np.testing.assert_allclose(row, policy[index], atol=1e-12)


@pytest.mark.parametrize("kind", BUILTIN)
def test_json_round_trip_and_pickle(kind, tmp_path):
    """A genome survives JSON (versioned, with its rules) and pickling (joblib workers)."""
    rules = Rules((3, 4, 5), 2)
    genes = individual(kind, rules, np.random.default_rng(1))
    document = genome_document(kind, genes, rules)
    assert document["version"] == 1 and document["rules"] == {"piles": [3, 4, 5], "max_take": 2, "misere": False}
    loaded_kind, loaded, loaded_rules = genome_from_document(json.loads(json.dumps(document)))
    space = space_for(rules)
    assert loaded_kind is get_kind(kind) and loaded_rules == rules
    np.testing.assert_array_equal(GenomeAgent(kind, loaded, rules).policy(space),
                                  GenomeAgent(kind, genes, rules).policy(space))
    clone = pickle.loads(pickle.dumps(genes))
    # DEAP 1.4 pickles creator classes by value (copyreg on MetaCreator): same name, new class object
    assert type(clone).__name__ == type(genes).__name__ and hasattr(clone, "fitness")
    np.testing.assert_array_equal(GenomeAgent(kind, clone, rules).policy(space),
                                  GenomeAgent(kind, genes, rules).policy(space))
    path = tmp_path / "g.json"
    write_json(path, document)
    agent = load_strategy(path)
    assert agent.rules == rules and agent.move((3, 4, 5), np.random.default_rng(0)) in rules.legal_moves((3, 4, 5))


def test_load_strategy_refuses_what_it_cannot_play(tmp_path):
    rules = Rules((2, 3, 4))
    path = tmp_path / "g.json"
    write_json(path, genome_document("table", table.KIND.create(rules, np.random.default_rng(0)), rules))
    with pytest.raises(ValueError, match="evolved for 2-3-4, not 2-3-5"):
        load_strategy(path, rules=Rules((2, 3, 5)))
    agent = load_strategy(path, rules=rules)
    with pytest.raises(ValueError, match="not reachable"):
        agent.move((3, 3, 4), np.random.default_rng(0))
    for content, message in [("[1, 2]", "JSON object"), ("{nope", "cannot read"),
                             ('{"format": "something else"}', "not a nim_evo genome")]:
        path.write_text(content)
        with pytest.raises(ValueError, match=message):
            load_strategy(path)
    document = genome_document("table", table.KIND.create(rules, np.random.default_rng(0)), rules)
    write_json(path, {**document, "version": 99})
    with pytest.raises(ValueError, match="version 99"):
        load_strategy(path)
    document["genome"]["moves"][5] = [0, 9]
    write_json(path, document)
    with pytest.raises(ValueError, match="gene 5"):
        load_strategy(path)
    with pytest.raises(ValueError, match="no such file"):
        load_strategy(tmp_path / "missing.json")


# -- table ---------------------------------------------------------------------------------

@pytest.mark.parametrize("multiset", [False, True], ids=["ordered", "multiset"])
def test_greedy_mutation_plays_the_best_sub_game(multiset):
    """With greedy=1, every mutated gene takes a move with the best credit after it."""
    rules = Rules((2, 3, 4))
    space = space_for(rules, multiset=multiset)
    rng = np.random.default_rng(5)
    genes = individual("table", rules, rng, multiset=multiset)
    theirs = rng.random(space.n_positions).astype(np.float32)
    genes.credit = (np.zeros(space.n_positions, np.float32), theirs)
    before = genes.copy()
    table.KIND.mutate(genes, rules=rules, rng=rng, indpb=0.5, greedy=1.0)
    changed = np.flatnonzero(genes != before)
    assert len(changed) > 5
    for p in changed:
        values = np.where(space.legal[p], theirs[np.maximum(space.next[p], 0)], -np.inf)
        assert values[genes[p]] == values.max()
    assert space.legal[np.arange(1, space.n_positions), genes[1:]].all()


def test_tables_drawn_in_threads_are_the_tables_drawn_in_one(monkeypatch):
    """Creation and mutation in threads (a big board's: here any board's) draw the same genes,
    and leave the generator where one thread leaves it."""
    monkeypatch.setattr(table, "_THREADED_DRAWS", 0)
    rules = Rules((1, 3, 5, 7, 9))
    space = space_for(rules, multiset=True)
    made = []
    for threads in (1, 2, 3):
        rng = np.random.default_rng(5)
        genes = individual("table", rules, rng, threads=threads)
        created = np.asarray(genes).copy()
        genes.credit = (np.zeros(space.n_positions, np.float32), rng.random(space.n_positions).astype(np.float32))
        mutated = table.KIND.mutate(genes, rules=rules, rng=rng, indpb=0.5, greedy=0.5, threads=threads)[0]
        made.append((created, np.asarray(mutated).copy(), rng.random()))
    for genes, mutated, after in made[1:]:
        assert np.array_equal(genes, made[0][0]) and np.array_equal(mutated, made[0][1]) and after == made[0][2]
    assert not np.array_equal(made[0][0], made[0][1])


@pytest.mark.parametrize("multiset", [False, True], ids=["ordered", "multiset"])
def test_credit_crossover_child_is_at_least_as_good_as_both_parents(multiset):
    """Against one opponent, the first child wins every position at least as often as either parent."""
    rules = Rules((2, 3, 4, 3))
    space = space_for(rules, multiset=multiset)
    opponent = make_agent("fixed-rules", rules)
    rng = np.random.default_rng(11)
    for _ in range(5):
        a, b = (individual("table", rules, rng, multiset=multiset) for _ in range(2))
        values = win_probabilities(space, np.stack([a, b]), opponent)
        a.credit, b.credit = (values[0, :, 0], values[0, :, 1]), (values[1, :, 0], values[1, :, 1])
        parents = values
        child, _ = table.KIND.crossover(a, b, rules=rules, rng=rng)
        after = win_probabilities(space, np.asarray(child), opponent)
        assert np.all(after[:, 0] >= parents[:, :, 0].max(axis=0) - 1e-12)
        assert np.mean(after[:, 0] > parents[:, :, 0].max(axis=0) + 1e-9) > 0.01  # and often better


@pytest.mark.parametrize("multiset, size", [(False, 6), (True, 5)], ids=["ordered", "multiset"])
def test_table_json_is_readable_moves(multiset, size):
    """A move per position (per multiset, read on its representative), and the space named."""
    rules = Rules((1, 2))
    genes = table.KIND.create(rules, np.random.default_rng(0), multiset=multiset)
    document = table.KIND.to_json(genes, rules)
    moves = document["moves"]
    assert moves[0] is None and len(moves) == size
    assert document["space"] == ("multiset" if multiset else "ordered")
    space = space_for(rules, multiset=multiset)
    for index, move in enumerate(moves[1:], start=1):
        assert rules.is_legal(space.position(index), tuple(move))
    assert np.array_equal(table.KIND.from_json(document, rules), genes)


@pytest.mark.parametrize("gene", [-1, 9])
def test_a_table_gene_that_is_no_action_is_refused_when_written(gene):
    """Written a move object per action (not per gene), a gene outside them is still refused."""
    rules = Rules((2, 3, 4))
    genes = table.KIND.create(rules, np.random.default_rng(0)).astype(np.int64)
    genes[5] = gene
    with pytest.raises(UserError, match=f"{gene} is not an action of 2-3-4"):
        table.KIND.to_json(genes, rules)


def test_a_table_file_written_before_multisets_still_loads():
    """No ``space`` key: the ordered space, one move per position."""
    rules = Rules((1, 2))
    genes = table.KIND.create(rules, np.random.default_rng(0), multiset=False)
    document = table.KIND.to_json(genes, rules)
    del document["space"]
    assert np.array_equal(table.KIND.from_json(document, rules), genes)
    with pytest.raises(ValueError, match="space is one of"):
        table.KIND.from_json({**document, "space": "tree"}, rules)


# -- rules ---------------------------------------------------------------------------------

@pytest.mark.parametrize("piles, situation", [
    ((0, 0, 6), "one_pile"), ((1, 0, 6), "two_piles_one_single"), ((2, 0, 6), "two_piles"),
    ((3, 3, 6), "three_piles_two_equal"), ((1, 2, 6), "otherwise"), ((1, 1, 1), "otherwise"),
    ((2, 2, 2, 5), "n_piles_n_minus_1_equal"), ((2, 2, 5, 5), "otherwise"), ((1, 1, 1, 4), "n_piles_n_minus_1_equal"),
])
def test_situations(piles, situation):
    assert ruleset.SITUATIONS[ruleset.situations(np.array([piles]))[0]] == situation


PERFECT_ENDGAME = {"one_pile": [0, 0, 0, 0], "two_piles_one_single": [1, 0, 0, 1], "two_piles": [1, 2, 0, 0],
                   "three_piles_two_equal": [2, 0, 0, 0], "n_piles_n_minus_1_equal": [2, 2, 0, 0],
                   "otherwise": [0, 0, 0, 0]}


@pytest.mark.parametrize("piles, move", [
    ((0, 0, 0, 0, 6), (4, 6)),      # one pile: take it all
    ((1, 0, 0, 0, 6), (4, 5)),      # a single and a pile: leave one, the opponent must take a single
    ((0, 0, 3, 7, 0), (3, 4)),      # two piles: match the smaller
    ((0, 3, 3, 6, 0), (3, 6)),      # three, two equal: empty the odd one
    ((2, 2, 2, 5, 0), (3, 3)),      # four, three equal: cut the odd one to them
    ((1, 2, 4, 0, 0), (0, 1)),      # otherwise: all of the shortest
])
def test_rules_genome_moves(piles, move):
    rules = Rules((2, 3, 5, 7, 9))
    agent = GenomeAgent("rules", dict(PERFECT_ENDGAME), rules)
    assert agent.distribution(piles) == [(move, 1.0)]


def test_rules_respect_caps_and_misere():
    """Leave-by-residue expresses N mod (k+1) play: period k+1, residue 0 (normal) or 1 (misère)."""
    for misere, residue in [(False, 0), (True, 1)]:
        rules = Rules((17,), 3, misere)
        genes = {s: [0, 0, 4, residue] for s in ruleset.SITUATIONS}
        solution = solve(rules)
        assert solution.accuracy(ruleset.policy(genes, solution.space)) == 1.0


def test_rules_genome_plays_boards_too_big_to_enumerate():
    """Any board: a random rules genome gives a legal move in positions of a huge board."""
    rules = Rules(tuple(range(10, 40, 3)), 7, True)
    rng = np.random.default_rng(2)
    positions = rng.integers(0, 11, (500, len(rules.piles)))
    positions[:, -1] += 1
    for _ in range(20):
        genes = ruleset.KIND.create(rules, rng)
        chosen = ruleset.moves(genes, rules, positions)
        from nim_evo.engine.boards import move_list

        pile, count = move_list(rules)[chosen].T
        assert np.all(count >= 1) and np.all(count <= 7)
        assert np.all(positions[np.arange(500), pile] >= count)


# -- thresholds ----------------------------------------------------------------------------

def test_thresholds_strategies():
    """All weight on nim-sum plays perfectly; on shortest-one, takes one from the shortest pile."""
    rules = Rules((1, 3, 5, 7, 9))
    solution = solve(rules)
    nimsum_only = np.array([0, 0, 0, 0, 0, 0, 0, 1.0])
    table_ = thresholds.policy(nimsum_only, solution.space)
    np.testing.assert_allclose(table_, as_table(make_agent("nimsum", rules), solution.space))
    shortest_one = np.array([0, 0, 1.0, 0, 0, 0, 0, 0])
    agent = GenomeAgent("thresholds", shortest_one, rules)
    assert agent.distribution((0, 3, 2, 7, 9)) == [((2, 1), 1.0)]
    mixed = GenomeAgent("thresholds", np.array([1.0, 0, 0, 0, 0, 0, 0, 1.0]), rules)
    probabilities = dict(mixed.distribution((1, 3, 5, 7, 9)))
    assert probabilities[(4, 9)] == pytest.approx(0.5 + 0.5 / 25)  # the winning move, also drawn at random


def test_thresholds_operators_stay_in_range():
    rng = np.random.default_rng(0)
    rules = Rules((2, 3))
    a, b = individual("thresholds", rules, np.random.default_rng(0)), individual("thresholds", rules,
                                                                                  np.random.default_rng(1))
    for _ in range(50):
        thresholds.KIND.mutate(a, rules=rules, rng=rng, sigma=1.0, indpb=1.0)
        thresholds.KIND.crossover(a, b, rules=rules, rng=rng, alpha=1.0)
        assert np.all((a >= 0) & (a <= 1)) and np.all((b >= 0) & (b <= 1))
    assert copy.deepcopy(a).fitness is not a.fitness


@pytest.mark.parametrize("kind, field, value", [
    ("rules", "period", 2.7), ("rules", "residue", True), ("rules", "period", None),
    ("thresholds", "nimsum", None), ("thresholds", "random", [1]), ("thresholds", "random", True),
])
def test_genome_json_refuses_wrong_types(tmp_path, kind, field, value):
    """A hand-edited genome file with a wrong value type is refused in one line, not coerced."""
    rules = Rules((2, 3, 4))
    document = genome_document(kind, get_kind(kind).create(rules, np.random.default_rng(0)), rules)
    if kind == "rules":
        document["genome"]["rules"]["otherwise"][field] = value
    else:
        document["genome"]["weights"][field] = value
    path = tmp_path / "g.json"
    write_json(path, document)
    with pytest.raises(ValueError):
        load_strategy(path)


def test_a_multiset_table_plays_every_position_of_its_board(tmp_path):
    """Exported over multisets, a champion plays each arrangement of the piles: a legal move
    to the multiset its gene names, the same win probabilities as its table; and it loads."""
    from nim_evo.evaluation.strategy import load_strategy
    from nim_evo.evaluation.exact import win_probabilities
    from nim_evo.atomic import write_json

    rules = Rules((2, 4, 3, 4))
    genes = table.KIND.create(rules, np.random.default_rng(2))
    space, ordered = space_for(rules, multiset=True), space_for(rules)
    assert len(genes) == space.n_positions < ordered.n_positions
    path = tmp_path / "champion.json"
    write_json(path, genome_document("table", genes, rules))
    agent = load_strategy(path, rules)
    for index in range(1, ordered.n_positions):
        position = ordered.position(index)
        (move, p), = agent.distribution(position)
        assert p == 1.0 and rules.is_legal(position, move)
        assert space.index(rules.apply(position, move)) == space.next[space.index(position), genes[space.index(position)]]
    opponent = make_agent("random", rules)
    by_table = win_probabilities(space, genes, opponent)[space.indices(ordered.positions)]
    assert np.allclose(win_probabilities(ordered, agent, opponent), by_table, atol=1e-12)


def test_a_genome_on_a_board_of_too_many_moves_is_refused_when_bound():
    """A genome's moves index the board's move list: a board of a trillion moves is refused in one
    line when the genome is bound to it, not with a MemoryError at its first move."""
    genes = get_kind("rules").create(Rules((3, 4)), np.random.default_rng(0))
    with pytest.raises(UserError, match=r"a rules genome plays boards of at most 1,000,000 moves; 1000000000000-3 has"):
        GenomeAgent("rules", genes, Rules((10**12, 3)))
