"""Board-free genomes as JavaScript: a script a web page runs to play them on any board of
their family (same cap, same misère flag), with the moves Python's agent plays.

:func:`strategy_script` returns plain ES2020 (no modules, no libraries) that defines

- ``nimDistribution(piles, board)``: ``piles`` an array of pile sizes (Numbers, whole, from
  0 to 2^53-1), ``board`` the game's starting piles (optional: ``piles`` by default); it
  returns ``[[pile, count, probability], ...]`` (0-based pile, probabilities summing to 1,
  ``[]`` on the empty board), the set of moves and chances of
  ``GenomeAgent(kind, genes, Rules(board, cap, misere)).distribution(piles)``. It throws a
  ``TypeError`` for piles that are not such an array, and a ``RangeError`` where Python's
  agent refuses the board (more than ``MAX_LISTED_MOVES`` moves) for a kind that lists
  moves (thresholds, program; a rules genome plays any board). (``board`` is checked, and
  otherwise changes nothing: every family has a closed form.)
- for a program, also ``nimScore(piles)``: a position's score as a decimal string (``program.scores``).

How each kind becomes JavaScript (the logic lives in ``*.js`` files beside this module, the
genome in a JSON literal): a **rules** genome is its six ``[pile, count, period, residue]``
rules, read by a port of ``ruleset.moves``; a **thresholds** genome is its eight strategy
probabilities as Python computes them, mixing ports of the strategies (nim-sum's winning
takes, and misère with a cap judged on each child); a **program** is each tree's node
names in prefix order, every name checked against the primitive set here and against a
closed table in the script, whose small interpreter composes the table's functions (BigInt
held to int64, as numpy computes) and never evaluates text as code. Table genomes are bound
to their board's space and are not translated (:func:`translatable`).
"""

from __future__ import annotations

import json
from importlib import resources

from deap import gp

from nim_evo.engine.rules import MAX_LISTED_MOVES, Rules
from nim_evo.games import GrundysGame, Lasker, Octal
from nim_evo.games.splitting import SplitGame
from nim_evo.genomes import get_kind, heaps, ruleset, thresholds
from nim_evo.genomes.expressions import SCORE, SECOND, STEP, parse
from nim_evo.validation import UserError

__all__ = ["PRIMITIVE_NAMES", "heaps_script", "strategy_script", "translatable"]

# the names program.js knows, per part (the primitive set must hold no other)
PRIMITIVE_NAMES = {
    "step": frozenset({"add", "sub", "and", "or", "not", "mod", "shl", "shr", "min", "max",
                       "a", "p", "k", "0", "1", "2"}),
    "second": frozenset({"add", "sub", "and", "or", "not", "mod", "shl", "shr", "min", "max",
                         "b", "p", "k", "0", "1", "2"}),
    "score": frozenset({"min", "max", "lt", "eq", "both", "either", "negate", "if", "when",
                        "v", "m", "w", "x", "0", "1", "2", "True", "False"}),
}
_ENTRY = """
globalThis.nimDistribution = function nimDistribution(piles, board) {
  checkPiles(piles, "piles");
  board = board === undefined ? piles : checkPiles(board, "board");
  if (board.length !== piles.length) {
    throw new TypeError(`piles has ${piles.length} piles; the board has ${board.length}`);
  }
  if (!piles.some((n) => n > 0)) return [];
  return distribution(piles, board);
};
"""


def translatable(kind: str) -> bool:
    """Whether genomes of ``kind`` can be played by a script of :func:`strategy_script`."""
    return kind in _GENES


def strategy_script(kind: str, genes, rules: Rules) -> str:
    """JavaScript defining ``nimDistribution(piles, board)`` for a genome of ``kind`` evolved
    under ``rules`` (see the module docstring); the genes are checked first (a malformed
    genome, or a program naming anything outside its primitive set, is a one-line
    :class:`UserError`)."""
    if not translatable(kind):
        raise UserError(f"a {kind} genome cannot be played by a script; translatable kinds: {', '.join(_GENES)}")
    genome_kind = get_kind(kind)
    plain = genome_kind.check_plain(genome_kind.plain(genes), rules)
    limits = {"maxListedMoves": MAX_LISTED_MOVES}
    return "\n".join([
        f"// nim_evo: a {kind} genome of {rules.name}'s family "
        f"(cap {rules.max_take or 'none'}, {'misere' if rules.misere else 'normal'} play)",
        "(function () {",
        '"use strict";',
        f"const RULES = {_literal({'maxTake': rules.max_take, 'misere': rules.misere})};",
        f"const LIMITS = {_literal(limits)};",
        f"const GENES = {_literal(_GENES[kind](plain))};",
        _source("common.js"), _source(f"{kind}.js"), _ENTRY,
        "})();", ""])


def heaps_script(genes, board: SplitGame) -> str:
    """JavaScript defining ``nimSplitMove(heaps) -> [heap, take, part]`` for a program with a
    heap part of ``board``'s family (``assets/splitting.js``): the move Python's
    :func:`~nim_evo.genomes.scoring.split_child` chooses among heaps of any size, named as
    :func:`~nim_evo.games.bigheaps.move_to` names it; and ``nimHeapMoves(n)``, every
    ``[take, part]`` a heap of ``n`` allows. A one-line :class:`UserError` for genes that are
    no such program, or a family whose moves the script does not know."""
    plain = get_kind("program").check_plain(get_kind("program").plain(genes), board)
    if len(plain) != 4:
        raise UserError("a program plays heaps of any size by its heap part, and this one has none")
    family = _family(board)
    heap = heaps.parse(plain[3], "the program's heap part")
    program = {**_program_genes(plain), "heap": {"values": list(heap.values), "period": heap.period,
                                                 "saltus": heap.saltus}}
    return "\n".join([
        f"// nim_evo: a program of {board.title}, {'misere' if board.misere else 'normal'} play, on heaps of any size",
        "(function () {",
        '"use strict";',
        f"const RULES = {_literal({'maxTake': None, 'misere': board.misere})};",
        f"const FAMILY = {_literal(family)};",
        f"const GENES = {_literal(program)};",
        _source("common.js"), _source("program.js"), _source("splitting.js"),
        "})();", ""])


def _family(board: SplitGame) -> dict:
    """The family's moves as ``splitting.js`` reads them."""
    if isinstance(board, Octal):
        return {"rule": "octal", "digits": list(board.digits)}
    if isinstance(board, Lasker):
        return {"rule": "lasker"}
    if isinstance(board, GrundysGame):
        return {"rule": "grundy"}
    raise UserError(f"the page does not know the moves of {board.title} on heaps of any size")


def _rules_genes(plain: dict) -> dict:
    return {"rules": [[int(v) for v in plain[situation]] for situation in ruleset.SITUATIONS]}


def _thresholds_genes(plain) -> dict:
    return {"probabilities": [float(p) for p in thresholds.probabilities(plain)]}


def _program_genes(plain: list) -> dict:
    """Each tree's node names in prefix order, read back by the safe reader and every name
    checked against the primitive set and the script's table."""
    genes = {}
    for text, pset, part in zip(plain[:3], (STEP, SCORE, SECOND), ("step", "score", "second")):
        tree = parse(text, pset, f"the program's {part}")
        names = [node.name if isinstance(node, gp.Primitive) else str(node.value) for node in tree]
        for name in names:
            if name not in pset.mapping or name not in PRIMITIVE_NAMES[part]:
                raise UserError(f"the program's {part}: {name!r} cannot be played by a script")
        genes[part] = names
    return genes


_GENES = {"rules": _rules_genes, "thresholds": _thresholds_genes, "program": _program_genes}


def _literal(data) -> str:
    """``data`` as a JavaScript literal (JSON), safe inside an HTML ``<script>`` element."""
    text = json.dumps(data, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _source(name: str) -> str:
    return resources.files("nim_evo.web").joinpath("assets", name).read_text(encoding="utf-8")
