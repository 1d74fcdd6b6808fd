"""nim_evo.web.translate: each board-free kind's script plays what Python's agent plays, at
every position of small boards and at sampled ones of big boards, in four families; a
program naming anything outside its primitive set is refused."""

import itertools
import json
import random
import shutil
import subprocess

import numpy as np
import pytest
from deap import gp

from nim_evo import Rules
from nim_evo.engine.rules import MAX_LISTED_MOVES
from nim_evo.genomes import GenomeAgent, genome_document, genome_from_document, get_kind, ruleset
from nim_evo.genomes.expressions import SCORE, STEP
from nim_evo.genomes.program import Program
from nim_evo.validation import UserError
from nim_evo.genomes.expressions import SCRIPT_NAMES
from nim_evo.web.translate import strategy_script, translatable

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node (Node.js) is not on PATH: the scripts cannot be run")
FAMILIES = {"normal": (None, False), "cap3": (3, False), "cap5": (5, False), "misere": (None, True),
            "cap2-misere": (2, True)}  # (under a cap of 5, a pile's Grundy target can exceed the cap)
SMALL_BOARDS = ((1, 3, 5, 7), (3, 4, 5))
XOR = "sub(or(a, p), and(a, p))"
# programs that take every primitive to its edges: negative operands of mod (either sign,
# and mod by zero), int64 overflow of add, sub and shl, shr of negatives, min and max of them
EDGE_PROGRAMS = [
    ("mod(not(add(shl(shl(shl(a))), p)), sub(k, add(p, 2)))", "if(lt(v, min(m, 2)), v, m)"),
    ("add(shl(shl(shl(shl(shl(shl(add(a, p))))))), p)", "v"),
    ("shr(sub(not(a), shl(shl(p))))", "if(either(lt(v, 0), eq(v, m)), 0, max(v, m))"),
    ("max(min(sub(a, p), mod(p, not(k))), or(and(a, not(p)), shr(a)))",
     "if(when(negate(lt(m, v)), both(lt(0, v), True), either(False, eq(max(v, 1), if(lt(v, m), 1, 2)))), min(v, m), "
     "2)"),
    ("mod(sub(shl(shl(shl(shl(shl(shl(or(a, 1))))))), p), sub(0, add(mod(a, 2), 1)))", "v"),
    ("mod(sub(a, mod(p, k)), sub(p, mod(p, k)))", "max(v, 0)"),
    ("shr(shl(shl(shl(shl(shl(shl(shl(add(a, p)))))))))", "if(lt(v, 0), 0, 1)"),
    (XOR, "if(lt(1, m), if(eq(v, 0), 0, v), if(either(eq(v, 1), False), 0, 1))"),
]


def _program_from_document(step: str, score: str, rules: Rules, verdict: str | None = None):
    """A program as genome files give it: a document through JSON, read back (with
    ``verdict``, a file of the first programs, which said yes or no instead of a score)."""
    document = genome_document("program", Program([step, score]), rules)
    if verdict is not None:
        del document["genome"]["score"]
        document["genome"]["verdict"] = verdict
    return genome_from_document(json.loads(json.dumps(document)))[1]


def _deep_program(seed: int):
    state = random.getstate()
    random.seed(seed)
    try:
        return Program([gp.PrimitiveTree(gp.genHalfAndHalf(pset, 2, 5)) for pset in (STEP, SCORE)])
    finally:
        random.setstate(state)


def genomes(kind: str, rules: Rules) -> list:
    """Random genomes of ``kind`` on fixed seeds, and known ones."""
    randoms = [get_kind(kind).create(rules, np.random.default_rng(seed)) for seed in range(4)]
    if kind == "rules":
        period = min((rules.max_take or 1) + 1, ruleset.MAX_PERIOD)
        known = [{s: [k % 3, k % 3, period, int(rules.misere)] for k, s in enumerate(ruleset.SITUATIONS)},
                 {s: [2, 1 + k % 2, 0, 0] for k, s in enumerate(ruleset.SITUATIONS)}]
        return randoms + known + [get_kind(kind).create(rules, np.random.default_rng(seed)) for seed in (10, 11)]
    if kind == "thresholds":
        return randoms + [np.eye(8)[7], np.zeros(8), np.array([0, 0, 0, 0.4, 0, 0, 0.6, 0]),
                          np.array([0.1, 0, 0.3, 0, 0.2, 0, 0, 0.9])]
    capped = "sub(or(a, mod(p, k)), and(a, mod(p, k)))"
    known = [_program_from_document(XOR, "v", rules), _program_from_document(capped, "v", rules),
             _program_from_document(XOR, "if(lt(1, m), v, if(eq(v, 1), 0, 1))", rules),
             _program_from_document(XOR, "v", rules, verdict="when(lt(1, m), eq(v, 0), eq(v, 1))")]
    edges = [Program(pair) for pair in EDGE_PROGRAMS]
    return known + randoms + [_deep_program(seed) for seed in range(3)] + edges


def cases(kind: str, cap) -> list[tuple[tuple, tuple]]:
    """``(position, board)`` pairs: every position of the small boards; sampled positions of
    8 to 12 piles up to 1,000 (each its own board); piles near 10^12 and 10^15 (the most a board holds)."""
    every = [(p, board) for board in SMALL_BOARDS for p in itertools.product(*(range(n + 1) for n in board))]
    rng = np.random.default_rng(7)
    sampled = []
    for k in range(300 if cap is not None else 30):  # (uncapped, each lists ~5,000 moves: 150,000 in all)
        position = rng.integers(0, 1001, rng.integers(8, 13))
        if k % 3 == 0:  # empty piles, and equal ones
            position[rng.random(len(position)) < 0.3] = 0
            position[rng.random(len(position)) < 0.3] = position[0]
        sampled.append(tuple(int(x) for x in position))
    big = [tuple(int(x) for x in rng.integers(10**12 - 50, 10**12 + 50, n)) for n in (1, 2, 3, 5, 8)]
    big += [(10**12, 10**12, 7), (10**15, 1, 10**15 - 2), (0, 10**15 - 1, 0, 10**15 - 1, 5), (10**15,)]
    crafted = [(5, 5, 5, 5, 2), (7, 7, 3), (0, 9, 9, 0, 4), (1, 6), (1, 1, 1, 2), (4, 4, 4, 4)]
    return every + [(p, p) for p in sampled + big + crafted]


def expected(kind: str, genes, cap, misere, all_cases) -> list:
    """Python's answer at each case: ``{(pile, count): probability}``, or ``"refused"``; the
    positions of a board asked together (``move_probabilities``), a board of one case alone
    (``distribution``)."""
    answers: list = [None] * len(all_cases)
    by_board: dict = {}
    for i, (_, board) in enumerate(all_cases):
        by_board.setdefault(board, []).append(i)
    for board, indices in by_board.items():
        rules = Rules(board, cap, misere)
        if len(indices) > 1:  # every position of a small board
            positions = np.array([all_cases[i][0] for i in indices], dtype=np.int64)
            rows = GenomeAgent(kind, genes, rules).move_probabilities(positions)
            for i, row in zip(indices, rows):
                answers[i] = {rules.move_of(int(k)): float(row[k]) for k in np.flatnonzero(row > 0)}
            continue
        [i] = indices
        position = all_cases[i][0]
        if not any(position):
            answers[i] = {}
            continue
        try:
            answers[i] = dict(GenomeAgent(kind, genes, rules).distribution(position))
        except UserError:  # more moves than an agent lists: the rules genome's move, else refused
            assert rules.n_moves > MAX_LISTED_MOVES
            answers[i] = _ruleset_move(genes, rules, position) if kind == "rules" else "refused"
    return answers


def _ruleset_move(genes, rules: Rules, position) -> dict:
    index = int(ruleset.moves(genes, rules, np.array([position]))[0])
    ends = np.cumsum([min(n, rules.max_take or n) for n in rules.piles])
    pile = int(np.searchsorted(ends, index, side="right"))
    return {(pile, index - int(ends[pile - 1] if pile else 0) + 1): 1.0}


def run_scripts(scripts: list[str], all_cases) -> list[list]:
    """Each script's ``nimDistribution`` at every case, in one node process."""
    driver = ["const results = [];", f"const cases = {json.dumps(all_cases)};"]
    for script in scripts:
        driver += [script, "results.push(cases.map(([piles, board]) => {",
                   "  try { return nimDistribution(piles, board); }",
                   "  catch (error) { return {error: `${error.name}: ${error.message}`}; }", "}));"]
    driver.append("process.stdout.write(JSON.stringify(results));")
    done = subprocess.run([NODE, "-"], input="\n".join(driver), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def mismatches(want: list, got: list, all_cases) -> list[str]:
    bad = []
    for (position, _), w, g in zip(all_cases, want, got):
        if w == "refused":
            ok = isinstance(g, dict) and g["error"].startswith("RangeError")
        else:
            moves = {(p, c): q for p, c, q in g} if isinstance(g, list) else None
            ok = (moves is not None and len(moves) == len(g) and moves.keys() == w.keys()
                  and all(abs(moves[m] - w[m]) <= 1e-12 for m in w) and (not w or abs(sum(moves.values()) - 1) <= 1e-12))
        if not ok:
            bad.append(f"{position}: python {w if w == 'refused' else sorted(w.items())[:4]}, js {str(g)[:200]}")
    return bad


@needs_node
@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("kind", ["rules", "thresholds", "program"])
def test_the_script_plays_as_python_plays(kind, family):
    """Same moves, same probabilities (1e-12), at every case, for every genome."""
    cap, misere = FAMILIES[family]
    rules = Rules((3, 4, 5), cap, misere)
    all_cases = cases(kind, cap)
    population = genomes(kind, rules)
    results = run_scripts([strategy_script(kind, genes, rules) for genes in population], all_cases)
    for genes, got in zip(population, results):
        bad = mismatches(expected(kind, genes, cap, misere, all_cases), got, all_cases)
        assert not bad, f"{kind} {genes}: {len(bad)} of {len(all_cases)} positions differ: {bad[:3]}"


@needs_node
@pytest.mark.parametrize("family", FAMILIES)
def test_programs_score_positions_as_python_does(family):
    """``nimScore`` is ``program.scores`` on big boards (where folds overflow int64)."""
    from nim_evo.genomes.program import scores

    cap, misere = FAMILIES[family]
    rules = Rules((3, 4, 5), cap, misere)
    rng = np.random.default_rng(3)
    groups = [rng.integers(0, top, (100, n)) for n in (1, 5, 12, 40) for top in (1000, 2**53)]
    positions = [tuple(int(x) for x in p) for group in groups for p in group]
    population = genomes("program", rules)
    scripts = [strategy_script("program", genes, rules) + "\nglobalThis.nimDistribution = nimScore;"
               for genes in population]
    results = run_scripts(scripts, [(p, p) for p in positions])
    for genes, got in zip(population, results):
        want = [str(int(v)) for group in groups for v in scores(genes, rules, group)]
        assert got == want, f"{genes}: {sum(g != w for g, w in zip(got, want))} of {len(positions)} differ"


def test_which_kinds_are_translatable():
    assert translatable("rules") and translatable("thresholds") and translatable("program")
    assert not translatable("table") and not translatable("nonsense")
    with pytest.raises(UserError, match="a table genome cannot be played by a script"):
        strategy_script("table", get_kind("table").create(Rules((3, 4)), np.random.default_rng(0)), Rules((3, 4)))


def test_the_script_knows_exactly_the_primitive_set():
    assert SCRIPT_NAMES["step"] == set(STEP.mapping) and SCRIPT_NAMES["score"] == set(SCORE.mapping)


@pytest.mark.parametrize("step, score", [("xor(a, p)", "v"), (XOR, "min(v, __import__)"),
                                         (XOR, "v; alert(1)"), ("add(a, v)", "v")])
def test_a_name_outside_the_primitive_set_is_refused(step, score):
    rules = Rules((3, 4, 5))
    document = genome_document("program", Program([XOR, "v"]), rules)
    document["genome"].update(step=step, score=score)
    with pytest.raises(UserError) as raised:
        genome_from_document(json.loads(json.dumps(document)))
    assert "\n" not in str(raised.value)
    with pytest.raises(UserError) as raised:
        strategy_script("program", [step, score], rules)
    assert "\n" not in str(raised.value) and "program's" in str(raised.value)


def test_a_tree_holding_a_foreign_primitive_is_refused():
    """A tree built in memory with a primitive of its own is refused too."""
    foreign = gp.PrimitiveSetTyped("foreign", [STEP.ins[0]] * 3, STEP.ret)
    foreign.renameArguments(ARG0="a", ARG1="p", ARG2="k")
    foreign.addPrimitive(np.bitwise_xor, [STEP.ret, STEP.ret], STEP.ret, name="xor")
    tree = gp.PrimitiveTree([foreign.mapping["xor"], foreign.mapping["a"], foreign.mapping["p"]])
    program = Program([XOR, "v"])
    program[0] = tree
    with pytest.raises(UserError, match="'xor' is not a primitive"):
        strategy_script("program", program, Rules((3, 4, 5)))


def test_the_script_evaluates_no_text_and_embeds_safely():
    rules = Rules((3, 4, 5), 2, True)
    for kind in ("rules", "thresholds", "program"):
        script = strategy_script(kind, get_kind(kind).create(rules, np.random.default_rng(0)), rules)
        assert "eval(" not in script and "Function(" not in script and "</" not in script
        assert "require(" not in script


@pytest.mark.parametrize("kind", ["rules", "thresholds"])
def test_malformed_genes_are_refused(kind):
    genes = {"one_pile": [9, 9, 9, 9]} if kind == "rules" else np.full(8, 2.0)
    with pytest.raises(UserError):
        strategy_script(kind, genes, Rules((3, 4, 5)))
