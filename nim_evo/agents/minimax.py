"""Minimax with alpha-beta pruning, a transposition table and a depth limit (Nagappan's CI report, 4.1.4).

To the end of the game (no depth limit) the agent reads the values from the solved board
(:mod:`nim_evo.engine.solver` over multisets of piles), which the search finds too, minutes
later on big boards; the tests hold the two equal.

Values are from the point of view of the player to move. A proven result is a "mate
score": ``WIN - plies`` for a win that far away, ``-(WIN - plies)`` for a loss, so perfect
play hurries to win and delays losing (which gives a fallible opponent the most chances
to go wrong). A position at the depth limit gets the heuristic's estimate, which stays
well inside ``(-WIN / 2, WIN / 2)``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Callable

import numpy as np

from nim_evo.agents.base import PositionalAgent, uniform
from nim_evo.agents.player import check_space, on_board
from nim_evo.engine.boards import uniform_rows
from nim_evo.games.base import Game
from nim_evo.engine.solver import solve
from nim_evo.engine.space import Space, enumerable, space_for, space_size
from nim_evo.validation import UserError

WIN = 1_000_000
_PROVEN = WIN // 2
MAX_SEARCH = 10**8  # moves ** depth from the start: a depth-limited search beyond is refused
_EXACT, _LOWER, _UPPER = 0, 1, 2

Heuristic = Callable[[Game, np.ndarray], np.ndarray]


def neutral(rules: Game, positions: np.ndarray) -> np.ndarray:
    """Nothing known beyond the horizon: every cut-off position is worth 0."""
    return np.zeros(np.shape(positions)[:-1])


def nimsum(rules: Game, positions: np.ndarray) -> np.ndarray:
    """+1 where the game's theory says the player to move wins, -1 where it loses (Nim's
    closed forms, exact in all its variants; a heap game's Sprague-Grundy values); 0 where
    the game has no theory for the board."""
    verdict = rules.theory_wins(np.asarray(positions, dtype=np.int64))
    if verdict is None:
        return np.zeros(np.shape(positions)[:-1])
    return np.where(verdict, 1.0, -1.0)


HEURISTICS: dict[str, Heuristic] = {"neutral": neutral, "nimsum": nimsum}


class MinimaxAgent(PositionalAgent):
    """Alpha-beta minimax; uniform choice among the moves of best value.

    Args:
        rules: the game.
        depth: plies to search; ``None`` searches to the end (perfect play).
        heuristic: ``"neutral"``, ``"nimsum"``, or a function ``(rules, positions) -> values``
            on a ``(k, n_piles)`` array, values in ``[-1, 1]``, for positions at the limit.
    """

    def __init__(self, rules: Game, depth: int | None = None, heuristic: str | Heuristic = "neutral"):
        super().__init__(rules)
        if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or depth < 1):
            raise UserError(f"minimax depth must be >= 1 or None, got {depth!r}")
        if isinstance(heuristic, str) and heuristic not in HEURISTICS:
            raise UserError(f"unknown heuristic {heuristic!r}; known: {', '.join(HEURISTICS)}")
        if depth is None and not enumerable(rules, multiset=True):
            # perfect play reads the solved board (a search to the end, in Python, takes hours there)
            raise UserError(f"minimax to the end of the game on {rules.name} needs its {space_size(rules, True):,} "
                            "multisets of piles solved, beyond the engine's limits; nimsum plays perfectly there "
                            "by theory, and minimax with a depth searches a few plies")
        if depth is not None and rules.n_actions ** depth > MAX_SEARCH:
            raise UserError(f"minimax(depth={depth}) on {rules.name} may search {rules.n_actions:,}^{depth} positions "
                            f"for one move, beyond {MAX_SEARCH:,}; a smaller depth, or nimsum, which plays "
                            "perfectly there by theory")
        self.depth = depth
        self.heuristic = heuristic
        self.order_blind = isinstance(heuristic, str)  # a heuristic of one's own may read the pile order
        self.name = "minimax" if depth is None else f"minimax(depth={depth})"
        self._table: dict = {}   # (position, depth) -> (value, bound flag); position alone at full depth
        self._proofs: dict = {}  # position -> (proven value, shortest horizon it was found in)

    def __getstate__(self):
        state = {**self.__dict__, "_table": {}, "_proofs": {}}  # caches
        state.pop("_solved", None)
        return state

    # -- the search ----------------------------------------------------------------------

    def values(self, piles) -> dict:
        """Value of each legal move from ``piles``, for the player making it."""
        piles = on_board(self.rules, piles)
        if self.depth is None:  # the search's values, read from the solved board
            legal, q = self._solved_values(np.array([piles], dtype=np.int64))
            actions = np.flatnonzero(legal[0])
            return dict(zip(self.rules.moves_of(actions), q[0, actions].tolist()))
        depth = self.depth
        return {
            move: _one_ply_back(-self._negamax(self.rules.apply(piles, move), depth - 1, -WIN - 1, WIN + 1))
            for move in self.rules.legal_moves(piles)
        }

    def move_probabilities(self, positions: np.ndarray) -> np.ndarray:
        """To the end of the game, every position's moves at once from the solved board (as
        :meth:`values` reads them one position at a time); with a depth, the search's, a
        position at a time."""
        if self.depth is not None:
            return super().move_probabilities(positions)
        positions = np.asarray(positions, dtype=np.int64)
        for piles in positions.tolist():
            on_board(self.rules, piles)
        legal, q = self._solved_values(positions)
        return uniform_rows(legal & (q == q.max(axis=1, keepdims=True)))

    def _solved_values(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(legal, q)``, each ``(k, n_actions)``: which actions of ``positions`` are legal, and
        each legal one's value for its mover read from the solved board (every child at once;
        ``-inf`` where illegal). A child off the board (a position its start does not reach)
        has no value there: a one-line :class:`UserError`."""
        space, solved = self._solved
        children, legal = self.rules.successors(positions)
        rows, actions = np.nonzero(legal)
        indices = space.indices(children[rows, actions])
        if (indices < 0).any():
            child = tuple(children[rows, actions][np.flatnonzero(indices < 0)[0]].tolist())
            raise UserError(f"minimax plays {self.rules.name}, whose start does not reach {child}")
        q = np.full(legal.shape, -np.inf)
        q[rows, actions] = _one_ply_back(-solved[indices])
        return legal, q

    def distribution(self, piles):
        values = self.values(piles)
        if not values:
            return []
        best = max(values.values())
        return uniform([m for m, v in values.items() if v == best])

    @cached_property
    def _solved(self) -> tuple:
        """The multiset space and every multiset's exact value, which a search to the end
        finds too (a test holds them equal): building and solving the board takes seconds where
        the search, in Python, takes minutes for one game (figures: the manual's Benchmarks)."""
        space = space_for(self.rules, multiset=True)
        return space, self.space_values(space, None)

    def _negamax(self, piles: tuple, depth: int, alpha: float, beta: float) -> float:
        if not self.rules.count_moves(piles):  # the game is over: whoever is to move wins only in misère
            return WIN if self.rules.to_move_wins_at_end else -WIN
        if depth == 0:
            return float(self._estimate(np.array([piles]))[0])
        # pile order changes nothing, unless a custom heuristic reads it
        position = tuple(sorted(piles)) if isinstance(self.heuristic, str) else piles
        proof = self._proofs.get(position)
        # a proof found within a shorter horizon holds for this one (a deeper search finds the
        # same proof and nothing faster); with no depth limit every value is a proof
        if proof is not None and (self.depth is None or proof[1] <= depth):
            return proof[0]
        key = position if self.depth is None else (position, depth)
        entry = self._table.get(key)
        if entry is not None:
            value, flag = entry
            if flag == _EXACT:
                return value
            if flag == _LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
        alpha0, best = alpha, -np.inf
        for move in reversed(self.rules.legal_moves(piles)):  # big takes first: short games
            # the child's window is widened by one: one ply moves a mate score by one
            child = self._negamax(self.rules.apply(piles, move), depth - 1, -beta - 1, -alpha + 1)
            value = _one_ply_back(-child)
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        self._table[key] = (best, flag)
        if flag == _EXACT and abs(best) > _PROVEN:
            self._proofs[position] = (best, min(depth, self._proofs.get(position, (0, depth))[1]))
        return best

    def _estimate(self, positions: np.ndarray) -> np.ndarray:
        function = HEURISTICS[self.heuristic] if isinstance(self.heuristic, str) else self.heuristic
        return np.clip(function(self.rules, positions), -1.0, 1.0)

    # -- the policy table ----------------------------------------------------------------

    def policy(self, space: Space) -> np.ndarray:
        """The same choices as the search, for every position at once.

        Depth-limited minimax values obey ``V_0 = heuristic``, ``V_d(p) = max over moves of
        one_ply_back(-V_{d-1}(next))`` (terminal positions keep their exact score), so the
        table takes ``depth - 1`` vectorised sweeps; full depth reads the solver.
        """
        check_space(self, space)
        values = self.space_values(space, None if self.depth is None else self.depth - 1)
        nxt = np.where(space.legal, space.next, 0)
        q = np.where(space.legal, _one_ply_back(-values[nxt]), -np.inf)
        return uniform_rows((space.legal & (q == q.max(axis=1, keepdims=True))) * space.multiplicity)

    def space_values(self, space: Space, depth: int | None) -> np.ndarray:
        """``V_depth`` of every position (``None``: exact values from the solver)."""
        terminal = WIN if self.rules.to_move_wins_at_end else -WIN
        if depth is None:
            solution = solve(space)
            return np.where(solution.win, WIN - solution.remoteness, -(WIN - solution.remoteness)).astype(float)
        values = self._estimate(space.positions)
        values[space.terminal] = terminal
        nxt = np.where(space.legal, space.next, 0)
        for _ in range(depth):
            q = np.where(space.legal, _one_ply_back(-values[nxt]), -np.inf)
            values = q.max(axis=1)
            values[space.terminal] = terminal
        return values


def _one_ply_back(value):
    """A child's value seen one ply earlier: proven scores move one step towards 0."""
    return np.where(value > _PROVEN, value - 1, np.where(value < -_PROVEN, value + 1, value)) \
        if isinstance(value, np.ndarray) else (
            value - 1 if value > _PROVEN else value + 1 if value < -_PROVEN else value)
