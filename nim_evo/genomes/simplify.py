"""Evolved program trees made readable: rewrites that keep a tree's function exactly.

:func:`simplify` rewrites a tree of :mod:`nim_evo.genomes.expressions`' language bottom up
(each subtree's children first, then its root, again until nothing changes) by rules that
hold for every int64 input, arithmetic wrapping, negative values included: ``max(0, a)``
stays (``a`` may be negative), ``add(x, x)`` is ``shl(x)`` (both wrap alike). Every rule
makes the tree shorter, so the rewriting stops, and the result is never longer. "The same
subtree" means the same expression string (no reordering: ``add(a, p)`` is not ``add(p,
a)``). ``x``, ``y``, ``z`` are integer subtrees, ``c``, ``d`` boolean ones; ``op(x, y)``
stands for either order where ``op`` is commutative.

- Constants: a subtree with no argument in it becomes its value where that value is a
  terminal of the set (0, 1, 2, True, False): ``shr(2)`` is ``1``, ``not(0)`` (-1) stays.
- ``add(x, 0)``, ``sub(x, 0)``, ``or(x, 0)`` are ``x``; ``and(x, 0)``, ``sub(x, x)`` are 0;
  ``add(x, x)`` is ``shl(x)``; ``add(x, sub(z, x))``, ``sub(add(x, z), x)``, ``sub(x,
  sub(x, z))`` are ``z`` (wrapping arithmetic is exact modulo 2**64); ``not(not(x))`` is ``x``.
- ``and``, ``or``, ``min``, ``max``, ``both``, ``either`` (``op``): ``op(x, x)`` is ``x``;
  ``op(x, op(x, y))`` is ``op(x, y)``; absorption: ``and(x, or(x, y))``, ``or(x, and(x, y))``,
  ``min(x, max(x, y))``, ``max(x, min(x, y))`` are ``x``, and the same for ``both``/``either``;
  complements: ``and(x, not(x))`` is 0, ``both(c, negate(c))`` False, ``either(c,
  negate(c))`` True; ``both(c, True)``, ``either(c, False)`` are ``c``; ``both(c, False)``
  is False, ``either(c, True)`` True.
- ``mod(x, 0)`` is ``x``; ``mod(x, 1)``, ``mod(0, x)``, ``mod(x, x)`` are 0 (``mod(0, 0)``
  is 0 too); ``mod(mod(x, y), y)`` is ``mod(x, y)``.
- ``eq(x, x)`` is True, ``lt(x, x)`` False; ``negate(negate(c))`` is ``c``.
- ``if`` and ``when`` (``if`` below): ``if(True, x, y)`` is ``x``, ``if(False, x, y)`` is
  ``y``, ``if(c, x, x)`` is ``x``; ``if(negate(c), x, y)`` is ``if(c, y, x)``; ``if(c, if(c,
  x, z), y)`` is ``if(c, x, y)`` and ``if(c, x, if(c, z, y))`` is ``if(c, x, y)``;
  ``if(lt(x, y), x, y)`` is ``min(x, y)``, ``if(lt(x, y), y, x)`` is ``max(x, y)``;
  ``if(eq(x, y), x, y)`` is ``y``, ``if(eq(x, y), y, x)`` is ``x``.
- ``when`` alone: ``when(c, True, False)`` is ``c``, ``when(c, False, True)`` is
  ``negate(c)``; ``when(c, d, False)`` and ``when(c, d, c)`` are ``both(c, d)``; ``when(c,
  True, d)`` and ``when(c, c, d)`` are ``either(c, d)``.

Rules whose result needs a primitive or a constant the set lacks are skipped.
"""

from __future__ import annotations

from deap import gp

from nim_evo.genomes.expressions import CONSTANTS, Bool, Int, evaluate, parse

# an expression here is a nested tuple: (name,) for a terminal, (name, child, ...) for a primitive
_COMMUTATIVE = {"add", "and", "or", "min", "max", "both", "either", "eq"}
_LATTICE = {"and": "or", "or": "and", "min": "max", "max": "min", "both": "either", "either": "both"}
_COMPLEMENT = {"and": ("not", 0, Int), "both": ("negate", False, Bool), "either": ("negate", True, Bool)}
_UNIT = {"add": 0, "or": 0, "both": True, "either": False}  # op(x, unit) is x
_ZERO = {"and": 0, "both": False, "either": True}  # op(x, zero) is zero


def simplify(tree: gp.PrimitiveTree, pset: gp.PrimitiveSetTyped) -> gp.PrimitiveTree:
    """A new tree of ``pset`` computing exactly what ``tree`` computes, the rules of this
    module applied to a fixed point; never longer than ``tree``."""
    nodes = list(tree)
    position = 0

    def read() -> tuple:
        nonlocal position
        node = nodes[position]
        position += 1
        if isinstance(node, gp.Terminal):
            return (node.value,)
        return (node.name, *(read() for _ in range(node.arity)))

    expression = _Simplifier(pset).normal(read())
    return gp.PrimitiveTree([pset.mapping[name] for name in _prefix(expression)])


def simplify_text(text: str, pset: gp.PrimitiveSetTyped) -> str:
    """:func:`simplify` for an expression written out, e.g. ``add(a, 0)`` to ``a``."""
    return str(simplify(parse(text, pset, "the expression"), pset))


def _type(value) -> type:
    return Bool if isinstance(value, bool) else Int


def _prefix(expression: tuple) -> list[str]:
    names = [expression[0]]
    for child in expression[1:]:
        names += _prefix(child)
    return names


class _Simplifier:
    def __init__(self, pset: gp.PrimitiveSetTyped):
        self.pset = pset
        self.done: dict[tuple, tuple] = {}

    def const(self, value, type_) -> tuple | None:
        """The terminal of the set for a constant ``value`` of type ``type_``, if it has one."""
        for terminal in self.pset.terminals.get(type_, ()):
            known = terminal.value in CONSTANTS and terminal.value not in self.pset.arguments
            if known and type(CONSTANTS[terminal.value]) is type(value) and CONSTANTS[terminal.value] == value:
                return (terminal.value,)
        return None

    def has(self, name: str) -> bool:
        return isinstance(self.pset.mapping.get(name), gp.Primitive)

    def normal(self, e: tuple) -> tuple:
        """``e`` with its children simplified, then rewritten at its root until no rule applies."""
        if e not in self.done:
            reduced = (e[0], *(self.normal(child) for child in e[1:]))
            rewritten = self.rewrite(reduced)
            result = reduced if rewritten is None else self.normal(rewritten)
            self.done[e] = self.done[result] = result
        return self.done[e]

    def fold(self, e: tuple) -> tuple | None:
        names = _prefix(e)
        if len(e) == 1 or any(name in self.pset.arguments for name in names):
            return None
        value = evaluate(gp.PrimitiveTree([self.pset.mapping[name] for name in names]))
        type_ = self.pset.mapping[e[0]].ret
        return self.const(bool(value) if type_ is Bool else int(value), type_)

    def rewrite(self, e: tuple) -> tuple | None:
        """One rule applied at ``e``'s root (its children simplified), or None."""
        folded = self.fold(e)
        if folded is not None:
            return folded
        name, args = e[0], e[1:]
        if len(args) == 2:
            return self.binary(name, *args)
        if len(args) == 1:
            (x,) = args
            return x[1] if name in ("not", "negate") and x[0] == name else None
        if len(args) == 3:
            return self.choice(name, *args)
        return None

    def binary(self, name: str, x: tuple, y: tuple) -> tuple | None:
        orders = ((x, y), (y, x)) if name in _COMMUTATIVE else ((x, y),)
        if x == y:
            if name in _LATTICE:
                return x
            if name in ("sub", "mod", "eq", "lt"):
                return self.const({"eq": True, "lt": False}.get(name, 0), Bool if name in ("eq", "lt") else Int)
            if name == "add" and self.has("shl"):
                return ("shl", x)
        for u, w in orders:
            if name in _UNIT and w == self.const(_UNIT[name], _type(_UNIT[name])):
                return u
            if name in _ZERO and w == self.const(_ZERO[name], _type(_ZERO[name])):
                return w
            if name in _LATTICE and w[0] in (name, _LATTICE[name]) and u in w[1:]:
                return w if w[0] == name else u  # op(x, op(x, y)) and absorption
            if name in _COMPLEMENT and w == (_COMPLEMENT[name][0], u):
                return self.const(*_COMPLEMENT[name][1:])
            if name == "add" and w[0] == "sub" and w[2] == u:
                return w[1]  # add(x, sub(z, x))
        if name == "sub":
            if y == self.const(0, Int):
                return x
            if x[0] == "add" and y in x[1:]:
                return x[2] if x[1] == y else x[1]  # sub(add(x, z), x)
            if y[0] == "sub" and y[1] == x:
                return y[2]  # sub(x, sub(x, z))
        if name == "mod":
            if y == self.const(0, Int):
                return x
            if y == self.const(1, Int) or x == self.const(0, Int):
                return self.const(0, Int)
            if x[0] == "mod" and x[2] == y:
                return x
        return None

    def choice(self, name: str, c: tuple, x: tuple, y: tuple) -> tuple | None:
        true, false = self.const(True, Bool), self.const(False, Bool)
        if c == true or x == y:
            return x
        if c == false:
            return y
        if c[0] == "negate":
            return (name, c[1], y, x)
        if x[0] == name and x[1] == c:
            return (name, c, x[2], y)
        if y[0] == name and y[1] == c:
            return (name, c, x, y[3])
        if c[0] in ("lt", "eq") and {x, y} == set(c[1:]):
            if c[0] == "eq":
                return y
            extreme = "min" if (x, y) == c[1:] else "max"
            return (extreme, *c[1:]) if self.has(extreme) else None
        if name != "when":
            return None
        if (x, y) == (true, false):
            return c
        if (x, y) == (false, true) and self.has("negate"):
            return ("negate", c)
        if (y == false or y == c) and self.has("both"):
            return ("both", c, x)
        if (x == true or x == c) and self.has("either"):
            return ("either", c, y)
        return None
