"""A strategy bound to its board as a look-up the page reads: its moves at every position.

A table genome or a trained learner plays one board, so the page carries its policy: for
every non-empty position of the strategy's own space, the moves it plays there and their
probabilities. Over multisets (a table genome's default space, a learner with ``symmetry``)
a position's key is its pile sizes sorted, and a move names the *size* of the pile it takes
from; the page plays it on the first pile of that size, as
:meth:`nim_evo.engine.enumeration.Enumeration.concrete_move` does. So seven heaps take 21,318
entries, not 645,120.
"""

from __future__ import annotations

import json

import numpy as np

from nim_evo.engine.policy import as_table
from nim_evo.engine.space import Space
from nim_evo.genomes import GenomeAgent

SCRIPT = """\
const NIM_TABLE = %s;
function nimDistribution(piles) {
  const key = (NIM_TABLE.multiset ? piles.slice().sort((x, y) => x - y) : piles).join(",");
  const flat = NIM_TABLE.moves[key] || [];
  const moves = [];
  for (let i = 0; i < flat.length; i += 3) {
    moves.push([NIM_TABLE.multiset ? piles.indexOf(flat[i]) : flat[i], flat[i + 1], flat[i + 2]]);
  }
  return moves;
}
"""


def own_space(agent) -> Space:
    """The space ``agent`` keeps its moves over: a learner's own, a genome's judged space."""
    if isinstance(agent, GenomeAgent):
        return agent.kind.judged_space(agent.genes, agent.rules)
    return agent.space


def lookup_table(agent) -> dict:
    """``{"multiset": bool, "moves": {key: [a, count, p, a, count, p, ...]}}``: ``a`` the pile
    (0-based) over ordered positions, the pile's size over multisets."""
    space = own_space(agent)
    table = as_table(agent, space)
    moves = {}
    for index in np.flatnonzero(~space.terminal):
        position = [int(n) for n in space.positions[index]]
        flat = []
        for column in np.flatnonzero(table[index] > 0):
            pile, count = space.move(int(column))
            flat += [position[pile] if space.multiset else pile, count, round(float(table[index, column]), 12)]
        moves[",".join(map(str, sorted(position) if space.multiset else position))] = flat
    return {"multiset": bool(space.multiset), "moves": moves}


def lookup_script(agent) -> str:
    """JavaScript defining ``nimDistribution(piles)`` from :func:`lookup_table`."""
    return SCRIPT % script_json(lookup_table(agent))


def script_json(value) -> str:
    """``value`` as JSON that is safe inside a ``<script>`` element (no ``</script>``, no
    HTML comment openers, no line separators that end a JavaScript string)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
