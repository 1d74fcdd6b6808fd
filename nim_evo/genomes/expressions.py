"""The language of program genomes: DEAP strongly-typed primitive sets, a safe reader of
their expressions, and an interpreter that evaluates an expression on whole arrays.

Three primitive sets (``gp.PrimitiveSetTyped``), types ``int`` and ``bool``:

- ``STEP``, the fold's step ``f(a, p, k) -> int``: ``a`` the value folded so far, ``p`` a
  pile's size, ``k`` the cap plus one (0 without a cap). Integer arithmetic only: ``add``,
  ``sub`` (wrapping 64-bit integers); ``and``, ``or``, ``not`` (bitwise); ``mod`` (``mod(x,
  0)`` is ``x``, so ``mod(p, k)`` is the pile itself without a cap); ``shl``, ``shr`` (one
  bit left or right: doubling and halving); ``min``, ``max``; the constants 0, 1, 2.
- ``SECOND``, a second fold's step ``h(b, p, k) -> int``, the same language over ``b``, the
  value it has folded so far.
- ``SCORE``, ``g(v, m, w, x) -> int``: ``v`` the folded value of a position, ``m`` its largest
  pile, ``w`` the second fold's value, ``x`` (a truth value) whether the game is misère; the
  position's score (the lower, the better a position to leave the opponent). Logic on them:
  ``lt``, ``eq`` (int, int -> bool); ``both``, ``either``, ``negate`` (bool); ``if`` (bool,
  int, int -> int) and ``when`` (bool, bool, bool -> bool); ``min``, ``max``; the constants
  0, 1, 2, True and False. (Normal play's score is ``v`` itself.)

No primitive computes ``xor``, the nim-sum, a Grundy value, the largest residue or the misère
rule: exclusive or has to be found (``sub(or(a, p), and(a, p))`` is one way, ``sub(add(a, p), shl(and(a, p)))``
another). The language is split so that the step has what the exact rules need and the score
what a choice among folded values needs, and no more: a richer tree lets evolution encode the
positions of the small training boards and look them up instead of finding a rule. The program
as a whole has every operation the issue lists.

Expressions are DEAP's prefix notation, e.g. ``sub(or(a, p), and(a, p))``. :func:`parse`
reads one back from a file: every token must name a primitive or terminal of the set, with
the arity and types it requires (DEAP's own ``PrimitiveTree.from_string`` evaluates any
unknown token as Python, which a file must never do). :func:`evaluate` runs a tree on numpy
arrays, one node at a time over all positions at once, with no compiling and no ``eval``.
"""

from __future__ import annotations

import re
import zlib
from typing import Any, Callable

import numpy as np
from deap import gp

from nim_evo.validation import UserError

MAX_HEIGHT = 12  # DEAP's staticLimit on variation; files may hold no taller tree
MAX_NODES = 400


class _Tag(type):
    """The type of the type tags, hashed by name: DEAP's ``cxOnePoint`` draws the type to cross
    at from a *set* of types, whose order follows their hashes; a class's default hash is its
    address, which differs from one process to the next, so the same seed would cross at
    different points in a worker, a resumed run or a second run."""

    def __hash__(cls):
        return zlib.crc32(cls.__name__.encode())


class Int(metaclass=_Tag):
    """The type tag of integer values (not ``int``: DEAP treats ``bool``, a subclass, as one)."""


class Bool(metaclass=_Tag):
    """The type tag of truth values."""


def _mod(x, y):
    if np.ndim(y) == 0:  # (most often: a constant, or the cap)
        return x if y == 0 else np.mod(x, y)
    return np.where(y == 0, x, np.mod(x, np.where(y == 0, 1, y)))


def _if(condition, then, otherwise):
    return np.where(condition, then, otherwise)


STEP_PRIMITIVES = ("add", "sub", "and", "or", "not", "mod", "shl", "shr", "min", "max")
SCORE_PRIMITIVES = ("min", "max")
_Primitives = dict[str, tuple[Callable[..., Any], int]]
INT_PRIMITIVES: _Primitives = {  # name: (function, argument count)
    "add": (np.add, 2), "sub": (np.subtract, 2),
    "and": (np.bitwise_and, 2), "or": (np.bitwise_or, 2), "not": (np.invert, 1),
    "mod": (_mod, 2), "shl": (lambda x: np.left_shift(x, 1), 1), "shr": (lambda x: np.right_shift(x, 1), 1),
    "min": (np.minimum, 2), "max": (np.maximum, 2),
}
BOOL_PRIMITIVES: _Primitives
BOOL_PRIMITIVES = {"lt": (np.less, 2), "eq": (np.equal, 2), "both": (np.logical_and, 2),
                   "either": (np.logical_or, 2), "negate": (np.logical_not, 1)}
FUNCTIONS: dict[str, Callable[..., Any]]
FUNCTIONS = {**{name: f for name, (f, _) in INT_PRIMITIVES.items()},
             **{name: f for name, (f, _) in BOOL_PRIMITIVES.items()}, "if": _if, "when": _if}
CONSTANTS = {"0": 0, "1": 1, "2": 2, "True": True, "False": False}


def _primitive_set(name: str, arguments: tuple[str, ...], returns: type, integers: tuple[str, ...], logic: bool,
                   flags: tuple[str, ...] = ()) -> gp.PrimitiveSetTyped:
    """A typed set over ``arguments`` (ints) and ``flags`` (truth values): the integer
    primitives named, and with ``logic`` the comparisons, boolean operations and the two
    if-then-elses."""
    pset = gp.PrimitiveSetTyped(name, [Int] * len(arguments) + [Bool] * len(flags), returns)
    pset.renameArguments(**{f"ARG{k}": argument for k, argument in enumerate((*arguments, *flags))})
    for primitive in integers:
        function, arity = INT_PRIMITIVES[primitive]
        pset.addPrimitive(function, [Int] * arity, Int, name=primitive)
    if logic:
        for primitive in ("lt", "eq"):
            pset.addPrimitive(FUNCTIONS[primitive], [Int, Int], Bool, name=primitive)
        for primitive in ("both", "either"):
            pset.addPrimitive(FUNCTIONS[primitive], [Bool, Bool], Bool, name=primitive)
        pset.addPrimitive(FUNCTIONS["negate"], [Bool], Bool, name="negate")
        pset.addPrimitive(_if, [Bool, Int, Int], Int, name="if")
        pset.addPrimitive(_if, [Bool, Bool, Bool], Bool, name="when")
    for constant, value in CONSTANTS.items():
        if logic or not isinstance(value, bool):
            pset.addTerminal(value, Bool if isinstance(value, bool) else Int, name=constant)
    return pset


STEP = _primitive_set("step", ("a", "p", "k"), Int, STEP_PRIMITIVES, logic=False)
SECOND = _primitive_set("second", ("b", "p", "k"), Int, STEP_PRIMITIVES, logic=False)
SCORE = _primitive_set("score", ("v", "m", "w"), Int, SCORE_PRIMITIVES, logic=True, flags=("x",))
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|[(),]")


def parse(text, pset: gp.PrimitiveSetTyped, where: str) -> gp.PrimitiveTree:
    """The tree ``text`` writes in ``pset``'s language, checked (names, arity, types, size);
    a one-line :class:`UserError` naming ``where`` otherwise. Never evaluates anything."""
    if not isinstance(text, str) or len(text) > 20 * MAX_NODES:
        raise UserError(f"{where} must be an expression of at most {MAX_NODES} nodes")
    tokens = _TOKEN.findall(text)
    if "".join(tokens) != re.sub(r"\s+", "", text):
        raise UserError(f"{where}: {text[:60]!r} holds characters no expression has")
    nodes, position = [], 0

    def node(wanted: type) -> None:
        nonlocal position
        if position >= len(tokens) or tokens[position] in "(),":
            raise UserError(f"{where}: {text[:60]!r} is cut short or malformed")
        name = tokens[position]
        position += 1
        item = pset.mapping.get(name)
        if item is None:
            raise UserError(f"{where}: {name!r} is not a primitive or terminal of program genomes")
        if item.ret is not wanted:
            raise UserError(f"{where}: {name!r} gives {item.ret.__name__.lower()} where {wanted.__name__.lower()} is needed")
        nodes.append(item)
        if len(nodes) > MAX_NODES:
            raise UserError(f"{where} has more than {MAX_NODES} nodes")
        arguments = getattr(item, "args", [])
        if isinstance(item, gp.Primitive):
            _expect("(")
            for k, argument in enumerate(arguments):
                if k:
                    _expect(",")
                node(argument)
            _expect(")")

    def _expect(symbol: str) -> None:
        nonlocal position
        if position >= len(tokens) or tokens[position] != symbol:
            raise UserError(f"{where}: {text[:60]!r} is malformed (expected {symbol!r})")
        position += 1

    node(pset.ret)
    if position != len(tokens):
        raise UserError(f"{where}: {text[:60]!r} goes on after its expression")
    tree = gp.PrimitiveTree(nodes)
    if tree.height > MAX_HEIGHT:
        raise UserError(f"{where} is {tree.height} deep; program genomes are at most {MAX_HEIGHT}")
    return tree


def text(tree: gp.PrimitiveTree) -> str:
    """``str(tree)``, DEAP's form (``name(first, second)``), written in one pass without
    formatting each subtree's string into its parent's, and kept by the tree's nodes (a
    generation writes thousands, most of them trees it wrote before: the parents it keeps)."""
    nodes = tuple(tree)
    key = tuple(map(id, nodes))  # (the nodes are kept with it: no other node has their ids meanwhile)
    found = _TEXTS.get(key)
    if found is None:
        if len(_TEXTS) >= _TEXTS_KEPT:  # (the older half dropped)
            for old in list(_TEXTS)[:_TEXTS_KEPT // 2]:
                _TEXTS.pop(old, None)
        found = _TEXTS[key] = (_written(nodes), nodes)
    return found[0]


_TEXTS_KEPT = 1 << 14
_TEXTS: dict = {}  # a tree's nodes' ids: its text, and the nodes


def _written(tree) -> str:
    """:func:`text` of ``tree``'s nodes, written."""
    written: list[str] = []
    open_arguments: list[int] = []  # of each primitive still open, the arguments it has yet to get
    for node in tree:
        if node.arity:
            written += (node.name, "(")
            open_arguments.append(node.arity)
            continue
        written.append(node.format())
        while open_arguments:
            open_arguments[-1] -= 1
            if open_arguments[-1]:
                written.append(", ")
                break
            open_arguments.pop()
            written.append(")")
    return "".join(written)


def evaluate(tree: gp.PrimitiveTree, **arguments) -> np.ndarray:
    """The tree's value on arrays (``arguments`` by the set's argument names, int64 arrays of
    one shape, or scalars), every position at once. Integer overflow wraps, silently."""
    with np.errstate(over="ignore"):
        return run(code(tree), arguments)


def code(tree: gp.PrimitiveTree) -> tuple:
    """The tree as the interpreter reads it: ``(name, arity)`` of each node, last node first
    (a terminal by its value: DEAP keeps an argument's or a named constant's name there)."""
    return tuple((node.name if node.arity else node.value, node.arity) for node in reversed(tree))


def run(program: tuple, arguments: dict):
    """Run :func:`code`'s output on ``arguments`` (the caller sets numpy's error state)."""
    stack: list = []
    push, pop = stack.append, stack.pop
    for name, arity in program:
        if arity == 0:
            push(arguments[name] if name in arguments else CONSTANTS[name])
        elif arity == 2:
            first = pop()
            push(FUNCTIONS[name](first, pop()))
        elif arity == 1:
            push(FUNCTIONS[name](pop()))
        else:
            first, second = pop(), pop()
            push(FUNCTIONS[name](first, second, pop()))
    (result,) = stack
    return result


# the names scripts/program.js knows, per part (the primitive sets must hold no other)
SCRIPT_NAMES = {
    "step": frozenset({"add", "sub", "and", "or", "not", "mod", "shl", "shr", "min", "max",
                       "a", "p", "k", "0", "1", "2"}),
    "second": frozenset({"add", "sub", "and", "or", "not", "mod", "shl", "shr", "min", "max",
                         "b", "p", "k", "0", "1", "2"}),
    "score": frozenset({"min", "max", "lt", "eq", "both", "either", "negate", "if", "when",
                        "v", "m", "w", "x", "0", "1", "2", "True", "False"}),
}


def script_trees(texts) -> dict[str, list[str]]:
    """The step, score and second fold (``texts``, a plain program's first three) as
    ``scripts/program.js`` reads them: each tree's node names in prefix order, read back by
    :func:`parse` and every name checked against its primitive set and :data:`SCRIPT_NAMES`
    (a one-line :class:`UserError` for a name no script plays)."""
    trees = {}
    for text, pset, part in zip(texts, (STEP, SCORE, SECOND), ("step", "score", "second")):
        tree = parse(text, pset, f"the program's {part}")
        names = [node.name if isinstance(node, gp.Primitive) else str(node.value) for node in tree]
        for name in names:
            if name not in pset.mapping or name not in SCRIPT_NAMES[part]:
                raise UserError(f"the program's {part}: {name!r} cannot be played by a script")
        trees[part] = names
    return trees
