"""A board-bound champion of a game without take-away moves, as the graph the page walks.

For a game whose moves take from several heaps or split one (Wythoff, Moore's Nim_k, Kayles,
Lasker's Nim, Grundy's game), the page needs no script of the family: the data carries every
position the game can reach (the ordered board where heaps keep their place, the multisets
where a position is its multiset of heaps), and at each one every legal action with its label,
the position it leads to, and the champion's probability of playing it. The page's script
(``assets/graph.js``) draws the heaps, lets a person click a move or pick it from the list, and
follows the edges; it never computes a move.

Data (``NIM_GRAPH``)::

    {"positions": [[heap sizes], ...], "start": index, "labels": [label of each action],
     "moves": [[action, child index, champion's probability, ...] per position],
     "shape": "split" | "vector" | "list", "pairs": [[take, part], ...] (split games),
     "vectors": [[counts], ...] (vector games)}
"""

from __future__ import annotations

import numpy as np

from nim_evo.agents.player import is_order_blind
from nim_evo.games.base import Game
from nim_evo.games.multitake import MultiTake
from nim_evo.games.splitting import SplitGame
from nim_evo.engine.space import space_for
from nim_evo.validation import UserError

MAX_EDGES = 300_000  # legal (position, action) pairs a page carries (some megabytes of JSON)


def game_graph(agent) -> dict:
    """The graph of ``agent``'s board with its probabilities (see the module docstring); a
    one-line :class:`UserError` for a board too big to carry."""
    board: Game = agent.rules
    if not board.heaps_in_place and not is_order_blind(agent):
        raise UserError(f"the page plays a {board.name} position as its multiset of heaps, and this champion reads "
                        "their order: export one kept over multisets (a table's default space, a learner with --symmetry)")
    space = space_for(board, multiset=not board.heaps_in_place)
    edges = int(space.legal.sum())
    if edges > MAX_EDGES:
        raise UserError(f"the page of a {board.name} champion would carry {edges:,} moves; a page carries at most "
                        f"{MAX_EDGES:,} (a smaller board)")
    positions = space.positions.astype(np.int64)
    moves = []
    block = max(1, 2_000_000 // max(1, board.n_actions * board.width))  # children held at once: 16 MB
    for start in range(0, len(positions), block):
        part = positions[start:start + block]
        table = agent.move_probabilities(part)
        children, legal = board.successors(part)
        rows, actions = np.nonzero(legal)
        reached = space.indices(children[rows, actions])
        for row in range(len(part)):
            mine = rows == row
            moves.append([v for action, child in zip(actions[mine], reached[mine])
                          for v in (int(action), int(child), round(float(table[row, action]), 12))])
    data = {"positions": positions.tolist(), "start": int(space.index(board.start)),
            "labels": [board.action_label(a) for a in range(board.n_actions)], "moves": moves, "shape": "list"}
    if isinstance(board, SplitGame):
        data.update(shape="split", pairs=[list(pair) for pair in board.pairs])
    elif isinstance(board, MultiTake):
        data.update(shape="vector", vectors=[list(board.move_of(a)) for a in range(board.n_actions)])
    return data
