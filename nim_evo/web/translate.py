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

The kind gives the script (:meth:`~nim_evo.genomes.protocol.GenomeKind.script`: its
JavaScript, in ``nim_evo/genomes/scripts/``, and the genes it reads, checked); this module
wraps it with the family's rules, the limits and the helpers of ``assets/common.js``, in a
function of its own. Kinds that are not :attr:`~nim_evo.genomes.protocol.GenomeKind.scripted`
(a table genome, bound to its board's space) are not translated (:func:`translatable`).
"""

from __future__ import annotations

import json
from importlib import resources

from nim_evo.engine.rules import MAX_LISTED_MOVES, Rules
from nim_evo.games import GrundysGame, Lasker, Octal
from nim_evo.games.splitting import SplitGame
from nim_evo.genomes import get_kind, kind_names
from nim_evo.genomes.protocol import GenomeKind
from nim_evo.validation import UserError

__all__ = ["heaps_script", "strategy_script", "translatable"]

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


def translatable(kind: GenomeKind | str) -> bool:
    """Whether genomes of ``kind`` (a kind or its name) can be played by a script of
    :func:`strategy_script`."""
    if isinstance(kind, str) and kind not in kind_names():
        return False
    return get_kind(kind).scripted


def strategy_script(kind: GenomeKind | str, genes, rules: Rules) -> str:
    """JavaScript defining ``nimDistribution(piles, board)`` for a genome of ``kind`` (a kind
    or its name) evolved under ``rules`` (see the module docstring); the genes are checked
    first (a malformed genome, or a program naming anything outside its primitive set, is a
    one-line :class:`UserError`)."""
    kind = get_kind(kind)
    if not kind.scripted:
        raise UserError(f"a {kind.name} genome cannot be played by a script; translatable kinds: "
                        f"{', '.join(filter(translatable, kind_names()))}")
    sources, genes_literal = kind.script(genes, rules)
    limits = {"maxListedMoves": MAX_LISTED_MOVES}
    return "\n".join([
        f"// nim_evo: a {kind.name} genome of {rules.name}'s family "
        f"(cap {rules.max_take or 'none'}, {'misere' if rules.misere else 'normal'} play)",
        "(function () {",
        '"use strict";',
        f"const RULES = {_literal({'maxTake': rules.max_take, 'misere': rules.misere})};",
        f"const LIMITS = {_literal(limits)};",
        f"const GENES = {_literal(genes_literal)};",
        _source("common.js"), *sources, _ENTRY,
        "})();", ""])


def heaps_script(kind: GenomeKind | str, genes, board: SplitGame) -> str:
    """JavaScript defining ``nimSplitMove(heaps) -> [heap, take, part]`` for a genome of
    ``kind`` (a kind or its name) that plays heaps of any size of ``board``'s family (a
    program with a heap part, ``scripts/splitting.js``): the move Python's
    :meth:`~nim_evo.genomes.protocol.GenomeKind.child_of` chooses, named as
    :func:`~nim_evo.games.bigheaps.move_to` names it; and ``nimHeapMoves(n)``, every
    ``[take, part]`` a heap of ``n`` allows. A one-line :class:`UserError` for genes that do
    not play such heaps, or a family whose moves the script does not know."""
    kind, family = get_kind(kind), _family(board)
    sources, genes_literal = kind.script(genes, board)
    if not kind.plays_any_heaps(kind.plain(genes), board):
        raise UserError(f"a {kind.name} genome plays heaps of any size by its heap part, and this one has none")
    return "\n".join([
        f"// nim_evo: a {kind.name} genome of {board.title}, {'misere' if board.misere else 'normal'} play, "
        "on heaps of any size",
        "(function () {",
        '"use strict";',
        f"const RULES = {_literal({'maxTake': None, 'misere': board.misere})};",
        f"const FAMILY = {_literal(family)};",
        f"const GENES = {_literal(genes_literal)};",
        _source("common.js"), *sources,
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


def _literal(data) -> str:
    """``data`` as a JavaScript literal (JSON), safe inside an HTML ``<script>`` element."""
    text = json.dumps(data, allow_nan=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _source(name: str) -> str:
    return resources.files("nim_evo.web").joinpath("assets", name).read_text(encoding="utf-8")
