"""Simplified program trees compute exactly what the evolved ones do, on every int64 input
(wrapping arithmetic, negative and huge values, zeros), are never longer, and are final."""

import random

import numpy as np
import pytest
from deap import gp

from nim_evo.genomes.expressions import SCORE, STEP, evaluate, parse
from nim_evo.genomes.simplify import simplify, simplify_text

SETS = {"step": STEP, "score": SCORE}
INT64 = np.iinfo(np.int64)
SPECIAL = np.array([0, 1, -1, 2, -2, 3, -3, 4, 7, INT64.max, INT64.min, INT64.max - 1, INT64.min + 1,
                    2**62, -2**62, 2**32, -2**32], dtype=np.int64)

CASES = [  # (set, expression, its simplified form)
    # the example program's two trees: the step has nothing exact to remove
    ("step", "sub(or(p, a), max(k, and(p, max(0, a))))", "sub(or(p, a), max(k, and(p, max(0, a))))"),
    ("score", "min(if(eq(m, min(1, v)), 0, if(False, v, 2)), if(eq(1, m), max(v, 1), v))",
     "min(if(eq(m, min(1, v)), 0, 2), if(eq(1, m), max(v, 1), v))"),
    # integer rules
    ("step", "add(a, 0)", "a"), ("step", "add(0, p)", "p"), ("step", "sub(a, 0)", "a"),
    ("step", "sub(a, a)", "0"), ("step", "sub(or(a, p), or(a, p))", "0"), ("step", "add(a, a)", "shl(a)"),
    ("step", "and(a, a)", "a"), ("step", "or(p, p)", "p"), ("step", "min(k, k)", "k"), ("step", "max(a, a)", "a"),
    ("step", "or(a, 0)", "a"), ("step", "or(0, a)", "a"), ("step", "and(a, 0)", "0"), ("step", "and(0, k)", "0"),
    ("step", "not(not(a))", "a"), ("step", "mod(a, 0)", "a"), ("step", "mod(a, 1)", "0"), ("step", "mod(0, k)", "0"),
    ("step", "mod(p, p)", "0"), ("step", "mod(mod(p, k), k)", "mod(p, k)"),
    ("step", "add(p, sub(a, p))", "a"), ("step", "add(sub(a, p), p)", "a"), ("step", "sub(add(a, p), a)", "p"),
    ("step", "sub(add(a, p), p)", "a"), ("step", "sub(a, sub(a, k))", "k"),
    ("step", "and(a, or(p, a))", "a"), ("step", "or(and(a, p), a)", "a"), ("step", "min(a, max(p, a))", "a"),
    ("step", "max(min(a, p), a)", "a"), ("step", "min(a, min(a, p))", "min(a, p)"),
    ("step", "or(or(p, a), a)", "or(p, a)"), ("step", "and(a, not(a))", "0"),
    # constants: folded where the value is a terminal of the set
    ("step", "shr(2)", "1"), ("step", "add(1, 1)", "2"), ("step", "and(max(1, 2), not(0))", "2"),
    ("step", "sub(2, 1)", "1"), ("step", "mod(add(p, sub(2, 2)), sub(1, 1))", "p"),
    # nested: the rules meet at a fixed point
    ("step", "sub(add(a, and(p, p)), or(p, 0))", "a"), ("step", "add(mod(a, 0), mod(a, sub(k, k)))", "shl(a)"),
    # logic
    ("score", "if(True, v, m)", "v"), ("score", "if(False, v, m)", "m"), ("score", "if(lt(v, m), m, m)", "m"),
    ("score", "if(when(True, lt(v, m), eq(v, m)), 0, 1)", "if(lt(v, m), 0, 1)"),
    ("score", "if(when(False, lt(v, m), eq(v, m)), 0, 1)", "if(eq(v, m), 0, 1)"),
    ("score", "if(when(lt(v, m), eq(v, 1), eq(v, 1)), 0, 1)", "if(eq(v, 1), 0, 1)"),
    ("score", "if(negate(negate(lt(v, m))), 0, 1)", "if(lt(v, m), 0, 1)"),
    ("score", "if(negate(lt(v, m)), 0, 1)", "if(lt(v, m), 1, 0)"),
    ("score", "if(both(lt(v, m), True), v, 2)", "if(lt(v, m), v, 2)"),
    ("score", "if(both(False, lt(v, m)), v, 2)", "2"), ("score", "if(either(lt(v, m), True), v, 2)", "v"),
    ("score", "if(either(False, lt(v, m)), v, 2)", "if(lt(v, m), v, 2)"),
    ("score", "if(either(lt(v, m), negate(lt(v, m))), v, m)", "v"),
    ("score", "if(eq(v, v), m, 1)", "m"), ("score", "if(lt(m, m), m, 1)", "1"),
    ("score", "if(lt(v, m), v, m)", "min(v, m)"), ("score", "if(lt(v, m), m, v)", "max(v, m)"),
    ("score", "if(eq(v, m), v, m)", "m"), ("score", "if(eq(v, m), m, v)", "v"),
    ("score", "if(lt(v, 1), if(lt(v, 1), 0, m), 2)", "if(lt(v, 1), 0, 2)"),
    ("score", "if(lt(v, 1), 2, if(lt(v, 1), 0, m))", "if(lt(v, 1), 2, m)"),
    ("score", "if(when(lt(v, m), True, False), v, 1)", "if(lt(v, m), v, 1)"),
    ("score", "if(when(lt(v, m), False, True), v, 1)", "if(lt(v, m), 1, v)"),
    ("score", "if(when(lt(v, m), eq(v, 1), False), v, 1)", "if(both(lt(v, m), eq(v, 1)), v, 1)"),
    ("score", "if(when(lt(v, m), True, eq(v, 1)), v, 1)", "if(either(lt(v, m), eq(v, 1)), v, 1)"),
    ("score", "if(eq(max(1, 2), 2), v, m)", "v"), ("score", "min(v, max(1, 2))", "min(v, 2)"),
    # exact only as written: these stay
    ("step", "max(0, a)", "max(0, a)"), ("step", "min(a, 0)", "min(a, 0)"), ("step", "sub(0, a)", "sub(0, a)"),
    ("step", "not(0)", "not(0)"), ("step", "add(not(0), 0)", "not(0)"), ("step", "shl(shr(a))", "shl(shr(a))"),
    ("step", "shr(shl(a))", "shr(shl(a))"), ("step", "add(a, p)", "add(a, p)"), ("step", "mod(a, 2)", "mod(a, 2)"),
    ("step", "sub(add(a, p), add(p, a))", "sub(add(a, p), add(p, a))"), ("step", "shl(2)", "shl(2)"),
    ("step", "or(a, 1)", "or(a, 1)"), ("step", "and(a, not(0))", "and(a, not(0))"),
    ("step", "max(a, min(p, k))", "max(a, min(p, k))"), ("score", "max(v, 0)", "max(v, 0)"),
    ("score", "if(eq(1, m), max(v, 1), v)", "if(eq(1, m), max(v, 1), v)"),
    ("score", "if(lt(v, m), v, 2)", "if(lt(v, m), v, 2)"), ("score", "if(lt(0, v), v, 0)", "max(0, v)"),
]


def inputs(pset, size=600, seed=0) -> dict:
    """Int64 arrays for each of the set's arguments: special values (0, +-1, extremes, powers of
    two), small ones (so that arguments are often equal) and huge random ones; first a row of
    zeros, then rows where one argument alone is 0."""
    rng = np.random.default_rng(seed)
    columns = {}
    for k, name in enumerate(pset.arguments):
        kind = rng.integers(3, size=size)
        values = np.where(kind == 0, rng.choice(SPECIAL, size=size),
                          np.where(kind == 1, rng.integers(-4, 5, size=size),
                                   rng.integers(INT64.min, INT64.max, size=size, endpoint=True)))
        values[0] = 0
        values[1 + k] = 0
        columns[name] = values.astype(np.int64)
    return columns


def assert_same_function(tree, simple, pset):
    arguments = inputs(pset)
    size = len(next(iter(arguments.values())))
    expected = np.broadcast_to(evaluate(tree, **arguments), (size,))
    got = np.broadcast_to(evaluate(simple, **arguments), (size,))
    assert np.array_equal(expected, got), f"{tree} -> {simple}"


@pytest.mark.parametrize("part, text, simplified", CASES)
def test_rewrites(part, text, simplified):
    pset = SETS[part]
    tree = parse(text, pset, "case")
    simple = simplify(tree, pset)
    assert str(simple) == simplified
    assert str(tree) == str(parse(text, pset, "case"))  # the tree given is left alone
    assert simple[0].ret is pset.ret and len(simple) <= len(tree)
    assert str(simplify(simple, pset)) == simplified
    assert simplify_text(text, pset) == simplified
    assert_same_function(tree, simple, pset)


@pytest.fixture
def seeded():
    state = random.getstate()
    random.seed(20240601)
    try:
        yield
    finally:
        random.setstate(state)


@pytest.mark.parametrize("part", SETS)
def test_random_trees_keep_their_function(part, seeded):
    """Random trees of each set: the same values everywhere, never longer, simplified once for
    all (idempotent), a tree of the set; and enough of them change for the rules to be exercised."""
    pset = SETS[part]
    arguments = inputs(pset, seed=1)
    size = len(next(iter(arguments.values())))
    changed = 0
    for k in range(250):
        tree = gp.PrimitiveTree(gp.genHalfAndHalf(pset, 1, 2 + k % 4))
        simple = simplify(tree, pset)
        assert len(simple) <= len(tree)
        assert simple[0].ret is pset.ret
        assert str(parse(str(simple), pset, "simplified")) == str(simple)  # well typed in the set
        assert str(simplify(simple, pset)) == str(simple)
        expected = np.broadcast_to(evaluate(tree, **arguments), (size,))
        assert np.array_equal(expected, np.broadcast_to(evaluate(simple, **arguments), (size,))), \
            f"{tree} -> {simple}"
        changed += len(simple) < len(tree)
    assert changed >= 25


def test_program_tree_by_tree():
    """A program of any number of trees simplifies tree by tree, each in its own set."""
    program = [("step", "sub(or(p, a), max(k, and(p, max(0, a))))"),
               ("score", "min(if(eq(m, min(1, v)), 0, if(False, v, 2)), if(eq(1, m), max(v, 1), v))"),
               ("score", "if(True, v, m)")]
    simplified = [simplify(parse(text, SETS[part], part), SETS[part]) for part, text in program]
    assert [str(tree) for tree in simplified] == [
        "sub(or(p, a), max(k, and(p, max(0, a))))", "min(if(eq(m, min(1, v)), 0, 2), if(eq(1, m), max(v, 1), v))",
        "v"]
