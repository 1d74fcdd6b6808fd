"""The program genome: its language (no xor, nothing a file can run), the known winning
programs of normal, capped and misère play, vectorised play that agrees everywhere, and
DEAP's operators made reproducible."""

import copy
import json
import random

import numpy as np
import pytest
from deap import gp

from nim_evo import Rules
from nim_evo.engine import boards
from nim_evo.engine.space import space_for
from nim_evo.games.nimtheory import wins
from nim_evo.evolution.fitness import accuracy
from nim_evo.genomes.expressions import MAX_HEIGHT, SCORE, STEP, parse
from nim_evo.evaluation.heldout import board_accuracy
from nim_evo.genomes.program import KIND, Program, expression, scores
from nim_evo.validation import UserError
from nim_evo.genomes import get_kind
from nim_evo.genomes.scoring import policy

XOR = "sub(or(a, p), and(a, p))"
NORMAL = Program([XOR, "v"])
CAPPED = Program(["sub(or(a, mod(p, k)), and(a, mod(p, k)))", "v"])
MISERE = Program([XOR, "if(lt(1, m), v, if(eq(v, 1), 0, 1))"])


def test_no_primitive_computes_xor_or_the_nim_sum():
    names = {name for pset in (STEP, SCORE) for name in pset.mapping}
    assert not names & {"xor", "nimsum", "nim_sum", "grundy", "misere"}
    functions = {getattr(p, "name", None) for pset in (STEP, SCORE) for prims in pset.primitives.values()
                 for p in prims}
    assert "xor" not in functions
    a, b = np.arange(16).repeat(16), np.tile(np.arange(16), 16)
    from nim_evo.genomes.expressions import FUNCTIONS
    for name, function in FUNCTIONS.items():  # none of them is exclusive or, on any pair of 4-bit numbers
        try:
            out = function(a, b)
        except TypeError:
            continue
        assert not np.array_equal(out, a ^ b), name


@pytest.mark.parametrize("program, rules", [
    (NORMAL, Rules((1, 3, 5, 7, 9))), (NORMAL, Rules((2, 3, 4, 5))), (NORMAL, Rules((7, 7, 1))),
    (CAPPED, Rules((5, 7, 9), max_take=3)), (CAPPED, Rules((21,), max_take=3)), (CAPPED, Rules((4, 6, 9), max_take=2)),
    (MISERE, Rules((1, 3, 5, 7), misere=True)), (MISERE, Rules((2, 3, 4, 5), misere=True)),
])
def test_the_known_winning_programs_play_perfectly(program, rules):
    assert accuracy(get_kind("program"), program, rules) == 1.0
    space = space_for(rules, multiset=False)
    assert np.array_equal(scores(program, rules, space.positions) == 0, ~wins(rules, space.positions))


@pytest.mark.parametrize("step", [XOR, "sub(add(a, p), shl(and(a, p)))",
                                  # two that evolution found (benchmarks/program.py): 2(a|p) - p - a, and
                                  # (2(a|p) + 1) mod (a + p + 1), the same for piles of 0 or more
                                  "sub(sub(shl(or(a, p)), p), a)", "mod(add(1, shl(or(p, a))), add(add(a, p), 1))"])
def test_the_normal_program_judges_big_boards_as_theory_does(step):
    rng = np.random.default_rng(1)
    for piles in (8, 12, 16):
        rules = Rules(tuple(int(x) for x in rng.integers(1, 1000, piles)))
        positions = rng.integers(0, 1000, size=(500, piles))
        positions[::2, -1] = np.bitwise_xor.reduce(positions[::2, :-1], axis=1)  # half of them lost
        truth = np.bitwise_xor.reduce(positions, axis=1) == 0
        assert truth.mean() > 0.4 and np.array_equal(scores(Program([step, "v"]), rules, positions) == 0, truth)


def test_play_on_pile_arrays_is_its_play_on_the_enumerated_space():
    rules = Rules((2, 3, 4, 5))
    space = space_for(rules, multiset=False)
    rng = np.random.default_rng(0)
    for program in (NORMAL, KIND.create(rules, rng), KIND.create(rules, rng)):
        live = np.flatnonzero(space.legal.any(axis=1))
        assert np.array_equal(KIND.choose(program, rules, space.positions[live], rng),
                              policy(program, space)[live])


@pytest.mark.parametrize("text, message", [
    ("xor(a, p)", "'xor' is not a primitive or terminal"),
    ("__import__", "'__import__' is not a primitive or terminal"),
    ("sub(a, p); import os", "holds characters no expression has"),
    ("sub(a)", "malformed (expected ',')"),
    ("sub(a, p", "malformed (expected ')')"),
    ("sub(a, p) a", "goes on after its expression"),
    ("if(lt(a, p), p, p)", "'if' is not a primitive or terminal"),  # no logic in the step
    ("shl(a, p)", "malformed (expected ')')"),  # shifts are by one bit: no hashing by a variable shift
    ("mul(a, p)", "'mul' is not a primitive or terminal"),
    ("v", "'v' is not a primitive or terminal"),  # the score's argument, not the step's
    ("not(" * 13 + "a" + ")" * 13, f"is 13 deep; program genomes are at most {MAX_HEIGHT}"),
    (7, "must be an expression"),
])
def test_a_program_file_is_read_never_run(text, message):
    with pytest.raises(UserError) as error:
        parse(text, STEP, "the step")
    assert message in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("text, message", [
    ("if(v, m, m)", "'v' gives int where bool is needed"),
    ("eq(v, 0)", "'eq' gives bool where int is needed"),  # a score, not a verdict
    ("add(v, 1)", "'add' is not a primitive or terminal"),  # no arithmetic in the score
    ("min(n, 0)", "'n' is not a primitive or terminal"),
])
def test_the_score_is_logic_on_the_folded_value_and_the_largest_pile(text, message):
    with pytest.raises(UserError, match=message):
        parse(text, SCORE, "the score")
    assert str(parse("if(lt(1, m), v, if(eq(min(v, 2), 1), 0, 1))", SCORE, "the score")).startswith("if(")


def test_json_round_trip_and_expression():
    rules = Rules((1, 3, 5))
    document = KIND.to_json(NORMAL, rules)
    assert document == {"step": XOR, "score": "v", "second": "0", "expression": f"fold({XOR}) -> v"}
    back = KIND.from_json(document, rules)
    assert expression(back) == expression(NORMAL) and all(isinstance(t, gp.PrimitiveTree) for t in back)


def _first_by_size_then_count(space, row, candidates):
    """Of ``candidates`` (columns of ``row``), the one taking from the smallest pile, then the fewest, then the first."""
    key = [(space.positions[row, space.moves[j, 0]], space.moves[j, 1], j) for j in candidates]
    return min(key)[2]


def test_the_move_made_is_into_a_position_of_lowest_score_ties_by_pile_size_then_count():
    """Scores that tie are broken by the size of the pile taken from, then the count (never by
    pile index): a score of the largest pile alone moves to the smallest largest pile there is,
    from the smallest pile that gets there, taking fewest. So the program plays the same
    multisets at every arrangement of a position's piles."""
    for rules in (Rules((2, 3, 4)), Rules((4, 3, 2)), Rules((3, 1, 3, 2))):
        space = space_for(rules, multiset=False)
        chosen = policy(Program(["max(a, p)", "v"]), space)
        move_list = boards.move_list(rules)
        for row, (position, legal, after, move) in enumerate(zip(space.positions, space.legal, space.next, chosen)):
            if not legal.any():
                continue
            largest = {j: space.positions[after[j]].max() for j in np.flatnonzero(legal)}
            lowest = [j for j in largest if largest[j] == min(largest.values())]
            first = _first_by_size_then_count(space, row, lowest)
            assert move == first, (position, move_list[move], move_list[first])


@pytest.mark.parametrize("step, verdict", [(XOR, "eq(v, 0)"), ("p", "lt(v, 2)"), ("sub(p, a)", "either(eq(v, 0), lt(m, 2))"),
                                            (XOR, "when(lt(1, m), eq(v, 0), eq(v, 1))")])
def test_a_file_with_a_verdict_plays_as_that_verdict_did(step, verdict):
    """The first programs said yes or no ("is the position lost?") and played a move into a
    position called lost, else any legal move: such a file is read as the score ``if(verdict,
    0, 1)`` and plays into a position called lost wherever there is one, ties broken as every
    program's are (the smallest pile, then the fewest taken)."""
    from nim_evo.genomes.expressions import Bool, _primitive_set, evaluate

    verdicts = _primitive_set("verdict", ("v", "m"), Bool, ("min", "max"), logic=True)
    judge = parse(verdict, verdicts, "the verdict")
    rules = Rules((1, 3, 5, 7), misere=True)
    space = space_for(rules, multiset=False)
    program = KIND.from_json({"step": step, "verdict": verdict}, rules)
    assert str(program[1]) == f"if({verdict}, 0, 1)"
    values = np.zeros(space.n_positions, dtype=np.int64)
    ordered = np.sort(space.positions, axis=1)
    for column in ordered.T:
        values = np.broadcast_to(evaluate(parse(step, STEP, "s"), a=values, p=column, k=np.int64(0)), values.shape)
    called_lost = np.broadcast_to(evaluate(judge, v=values, m=ordered[:, -1]), values.shape)
    chosen = policy(program, space)
    for row in np.flatnonzero(space.legal.any(axis=1)):
        legal = np.flatnonzero(space.legal[row])
        into_lost = [j for j in legal if called_lost[space.next[row, j]]]
        assert chosen[row] == _first_by_size_then_count(space, row, into_lost or legal)
    with pytest.raises(UserError, match="'xor' is not a primitive"):
        KIND.from_json({"step": step, "verdict": "xor(v, m)"}, rules)


def test_operators_are_reproducible_and_leave_python_random_alone():
    rules = Rules((1, 3, 5, 7))
    random.seed(123)
    before = random.getstate()

    def lineage(seed):
        rng = np.random.default_rng(seed)
        a, b = (KIND.create(rules, rng, container=KIND.individual) for _ in range(2))
        out = []
        for _ in range(30):
            a, b = KIND.crossover(a, b, rules, rng)
            (a,) = KIND.mutate(a, rules, rng)
            assert max(tree.height for tree in [*a, *b]) <= MAX_HEIGHT  # DEAP's staticLimit
            out.append((expression(a), expression(b)))
        return out

    assert lineage(5) == lineage(5) != lineage(6)
    assert random.getstate() == before


def test_a_copy_never_shares_a_tree_with_its_parent():
    rules = Rules((1, 3, 5))
    parent = KIND.individual(NORMAL)
    child = copy.deepcopy(parent)
    rng = np.random.default_rng(0)
    for _ in range(5):
        KIND.mutate(child, rules, rng)
    assert expression(parent) == expression(NORMAL) != expression(child)


def test_checkpoint_genes_are_checked():
    rules = Rules((1, 3, 5))
    assert KIND.check_plain(KIND.plain(NORMAL), rules) == [XOR, "v", "0"]
    assert KIND.check_plain([XOR, "v"], rules) == [XOR, "v", "0"]  # a checkpoint of two trees: no second fold
    assert KIND.check_plain([XOR, "if(x, w, v)", "max(b, p)"], rules) == [XOR, "if(x, w, v)", "max(b, p)"]
    with pytest.raises(UserError, match="genes\\[1\\]: 'a' is not a primitive"):
        KIND.check_plain([XOR, "min(a, 0)"], rules)
    with pytest.raises(UserError, match="genes\\[2\\]: 'a' is not a primitive"):
        KIND.check_plain([XOR, "v", "max(a, p)"], rules)
    with pytest.raises(UserError, match="the program's expressions"):
        KIND.check_plain([XOR], rules)
    # a checkpoint of a run begun when programs said yes or no resumes with that verdict as a score
    assert KIND.check_plain([XOR, "eq(v, 0)"], rules) == [XOR, "if(eq(v, 0), 0, 1)", "0"]
    with pytest.raises(UserError, match="genes\\[1\\]: 'add' is not a primitive"):
        KIND.check_plain([XOR, "add(v, 0)"], rules)


def test_the_second_fold_and_the_misere_flag():
    """The score reads w, the second fold's value, and x, whether the game is misère: one
    program plays capped misère (Bouton on the residues, w their largest) and both flags."""
    residues = "sub(or(a, mod(p, k)), and(a, mod(p, k)))"
    program = Program([residues, "if(both(x, negate(lt(1, w))), if(eq(v, 1), 0, 1), v)", "max(b, mod(p, k))"])
    assert expression(program) == (f"fold({residues}), fold(max(b, mod(p, k))) -> "
                                   "if(both(x, negate(lt(1, w))), if(eq(v, 1), 0, 1), v)")
    for cap, misere in [(None, False), (None, True), (3, False), (3, True), (2, True)]:
        rules = Rules((2, 3, 5, 6), cap, misere)
        assert board_accuracy(get_kind("program"), program, rules) == 1.0, rules.name
        assert KIND.from_json(KIND.to_json(program, rules), rules) == program


def _run(tmp_path, name, *argv):
    from nim_evo.commands.run import main

    return main(["--genome", "program", "--game", "1-3-5-7", "--population", "30", "--offspring", "60", "--quiet",
                 "--out", str(tmp_path / name), "--genomes-dir", str(tmp_path / "genomes"), *argv])


def _outcome(tmp_path, name):
    import csv
    import json

    with open(tmp_path / name / "logbook.csv") as handle:
        rows = [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(handle)]
    return rows, json.loads((tmp_path / "genomes" / f"{name}-program.json").read_text())["genome"]


def test_a_program_run_is_the_same_with_two_jobs_and_after_resume(tmp_path):
    """Fitness on the kind's six training boards; the same seed gives the same champion with
    --jobs 2, and a run stopped at generation 3 and resumed gives the straight run's result."""
    from nim_evo.commands.run import main

    assert _run(tmp_path, "straight", "--generations", "6", "--seed", "11") == 0
    assert _run(tmp_path, "two", "--generations", "6", "--jobs", "2", "--seed", "11") == 0
    assert _run(tmp_path, "stopped", "--generations", "3", "--seed", "11") == 0
    assert main(["--resume", str(tmp_path / "stopped"), "--generations", "6", "--quiet",
                 "--genomes-dir", str(tmp_path / "genomes")]) == 0
    straight = _outcome(tmp_path, "straight")
    assert _outcome(tmp_path, "two") == straight == _outcome(tmp_path, "stopped")
    assert straight[1]["expression"].startswith("fold(") and float(straight[0][-1]["max"]) > float(straight[0][0]["max"])
    import json

    held_out = json.loads((tmp_path / "genomes" / "straight-program.json").read_text())["held_out_accuracy"]
    assert set(held_out) == {"1-3-5-7-9-11-13", "random boards"} and all(0 <= v <= 1 for v in held_out.values())


def test_train_boards_choose_what_fitness_is_measured_on(tmp_path):
    import json

    from nim_evo.evolution.config import Config

    config = Config(genome="program", rules=Rules((1, 3, 5, 7), max_take=3), train_boards=((2, 3), (4, 5, 6)))
    assert config.training_rules() == (Rules((2, 3), max_take=3), Rules((4, 5, 6), max_take=3))
    assert Config.from_json(json.loads(json.dumps(config.to_json()))) == config
    assert Config(genome="rules", rules=Rules((1, 3))).training_rules() == (Rules((1, 3)),)
    assert len(Config(genome="program", rules=Rules((1, 3))).training_rules()) == 6
    assert _run(tmp_path, "one", "--generations", "2", "--train-boards", "3-4") == 0
    assert json.loads((tmp_path / "one" / "config.json").read_text())["train_boards"] == [[3, 4]]


def test_crossover_is_the_same_in_another_process():
    """DEAP's cxOnePoint picks the type to cross at from a set of types, ordered by their
    hashes: the type tags hash by name, so two processes (workers, a resumed run) cross alike."""
    import subprocess
    import sys

    script = ("import numpy as np\n"
              "from nim_evo import Rules\n"
              "from nim_evo.genomes.program import KIND\n"
              "rules, rng = Rules((1, 3, 5)), np.random.default_rng(4)\n"
              "pairs = [(KIND.create(rules, rng), KIND.create(rules, rng)) for _ in range(40)]\n"
              "print([str(KIND.crossover(a, b, rules, rng)[0]) for a, b in pairs])\n")
    preludes = [f"kept = [type(f'T{{i}}', (), {{}}) for i in range({n})]\n" for n in (0, 1, 2, 3, 5, 8, 13)]
    runs = {subprocess.run([sys.executable, "-c", prelude + script], capture_output=True, text=True, check=True).stdout
            for prelude in preludes}
    assert len(runs) == 1


def test_the_program_kinds_own_settings_apply_where_no_flag_is_given():
    """A program run plays its tournaments against a perfect player (nimsum) with a population
    of 500 unless told otherwise; other kinds keep the common panel."""
    from nim_evo.commands.run import build_parser, config_from_args

    def config(*argv):
        return config_from_args(build_parser().parse_args(list(argv)))

    own = config("--genome", "program")
    assert (own.opponents, own.population, own.offspring, own.starts) == (("nimsum",), 500, 500, "all")
    told = config("--genome", "program", "--opponents", "random,nimsum", "--population", "50")
    assert (told.opponents, told.population) == (("random", "nimsum"), 50)
    assert config("--genome", "rules").opponents == ("random", "nimsum", "minimax")


def test_a_program_reads_simplified_and_plays_as_evolved():
    """The summary, play, plot and the page show the program simplified (identities and dead
    branches gone), and it plays exactly as the evolved one on every training position."""
    from nim_evo.genomes.program import readable

    noisy = Program(["sub(or(add(a, 0), p), and(max(a, a), p))", "if(True, min(v, v), m)"])
    rules = Rules((1, 3, 5))
    assert expression(readable(noisy, rules)) == f"fold({XOR}) -> v" == KIND.describe(noisy, rules)
    assert [name for name, _ in KIND.trees(noisy, rules)] == ["step f(a, p, k), folded to v",
                                                              "score g(v, m, w, x): lowest is best"]
    space = space_for(Rules((3, 5, 6)), multiset=True)
    assert np.array_equal(policy(noisy, space), policy(readable(noisy, rules), space))


def test_a_run_shows_its_program_simplified_and_draws_its_trees(tmp_path, capsys):
    from nim_evo.commands.run import main

    assert main(["--genome", "program", "--game", "2-3-4", "--generations", "2", "--population", "20",
                 "--offspring", "20", "--out", str(tmp_path / "run"), "--genomes-dir", str(tmp_path), "--plot"]) == 0
    out = capsys.readouterr().out
    champion = json.loads((tmp_path / "run" / "champion.json").read_text())["genome"]
    described = KIND.describe([champion["step"], champion["score"], champion["second"]], Rules((2, 3, 4)))
    assert f"program: {described}"[:60] in " ".join(out.split())
    assert (tmp_path / "run" / "program.png").stat().st_size > 10_000


def test_heights_and_texts_are_deaps_of_trees_made_and_changed_in_place():
    """A tree's height and text (kept by its nodes) are DEAP's own, for random trees of every
    height and after variation changed them in place."""
    from deap import gp

    from nim_evo.genomes import expressions, program

    rng = np.random.default_rng(6)
    trees = []
    for seed in range(60):
        with program._seeded(np.random.default_rng(seed)):
            trees.append(gp.PrimitiveTree(gp.genGrow(expressions.STEP, 0, int(rng.integers(0, 9)))))
    for tree in trees:
        assert program.height(tree) == tree.height and expressions.text(tree) == str(tree)
    assert {tree.height for tree in trees} >= set(range(6))
    for seed, tree in enumerate(trees):  # (in place: the same list, other nodes)
        with program._seeded(np.random.default_rng(seed)):
            gp.mutNodeReplacement(tree, expressions.STEP)
        assert program.height(tree) == tree.height and expressions.text(tree) == str(tree)
