"""Batched games on pile arrays, for boards too big to enumerate.

The table path (:mod:`nim_evo.evaluation.tournament`) needs every position indexed; here games carry
their piles, ``(g, n_piles)``, and each player is a *mover*: a function from a block of
positions and a Generator to one move index per position (the rules' move list). Rule and
threshold genomes (:mod:`nim_evo.genomes.movers`), random and nim-sum (here, where Nim theory
gives a closed form) have movers.
"""

from __future__ import annotations

import numpy as np

from nim_evo.engine import boards
from nim_evo.engine.rules import Rules
from nim_evo.engine.space import enumerable
from nim_evo.validation import UserError

MAX_MOVES = 5_000  # a mover may hold a (games, moves) array: boards with more moves are refused


def check_board(rules: Rules) -> None:
    """Refuse, in one line, a board whose move list is too long for batched games."""
    if rules.n_moves > MAX_MOVES:
        raise UserError(f"the board {rules.name} has {rules.n_moves:,} moves; games on pile arrays "
                         f"handle at most {MAX_MOVES:,} (smaller piles or a cap)")


def play_pile_games(rules: Rules, first, second, games: int, rng: np.random.Generator,
                    start=None) -> np.ndarray:
    """Play ``games`` games from ``start`` (default the rules' start); ``first`` moves first.

    A mover is called as ``mover(positions, rng, games)``, ``games`` being the indices of
    the games still running (a mover for many genomes at once uses them).

    Returns:
        ``(games,) int8``: the winning seat of each game.
    """
    check_board(rules)
    moves = boards.move_list(rules)
    position = np.tile(np.array(rules.start if start is None else start, dtype=np.int64), (games, 1))
    winner = np.empty(games, dtype=np.int8)
    game = np.arange(games)
    movers = (first, second)
    ply = 0
    while len(game):
        mover = ply % 2
        chosen = movers[mover](position, rng, game)
        pile, count = moves[chosen, 0], moves[chosen, 1]
        rows = np.arange(len(game))
        if np.any(position[rows, pile] < count):
            raise UserError("a mover chose an illegal move")
        position[rows, pile] -= count
        over = ~position.any(axis=1)
        if over.any():
            winner[game[over]] = rules.winner(mover)
            game, position = game[~over], position[~over]
        ply += 1
    return winner


def mover(name: str, rules: Rules):
    """A mover for an opponent name: ``random`` or ``nimsum`` (genomes' movers are in
    :mod:`nim_evo.genomes.movers`)."""
    if name == "random":
        return _RandomMover(rules)
    if name == "nimsum":
        if rules.misere and rules.max_take is not None and len(rules.piles) > 1 \
                and not enumerable(rules, multiset=True):
            raise UserError(f"nimsum on {rules.name} would need the solver (misère with a cap has no "
                             "closed form) and the board is too big to solve")
        return _NimSumMover(rules)
    raise UserError(f"opponent {name!r} needs the board's tables, and {rules.name} is too big for them; "
                     "the panel can hold random and nimsum")


class _RandomMover:
    def __init__(self, rules):
        self.rules = rules

    def __call__(self, positions, rng, games=None):
        return boards.random_moves(self.rules, positions, rng)


class _NimSumMover:
    """A winning move (uniformly among them) where Nim theory finds one, else a random move."""

    def __init__(self, rules):
        self.rules = rules

    def __call__(self, positions, rng, games=None):
        if self.rules.misere and self.rules.max_take is not None:  # no closed form: the solver, or one heap
            winning = boards.winning_mask(self.rules, positions)
            pool = np.where(winning.any(axis=1, keepdims=True), winning, boards.legal_mask(self.rules, positions))
            return np.where(pool, rng.random(pool.shape), -1.0).argmax(axis=1)
        wins, take = boards.winning_takes(self.rules, positions)
        pile = np.where(wins, rng.random(wins.shape), -1.0).argmax(axis=1)
        rows = np.arange(len(positions))
        chosen = boards.random_moves(self.rules, positions, rng)
        found = wins.any(axis=1)
        chosen[found] = boards.move_indices(self.rules, pile[found], take[rows[found], pile[found]])
        return chosen
