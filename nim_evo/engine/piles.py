"""Batched games on arrays of positions, for take-away boards too big to enumerate.

The table path (:mod:`nim_evo.evaluation.batched`) needs every position indexed; here games carry
their heaps, ``(g, n_heaps)``, and each player is a *mover*: a function from a block of
positions and a Generator to one action per position (the board's action alphabet). Every
player is one (:class:`nim_evo.agents.player.Mover`, its ``choose``), and genomes many at
once (:mod:`nim_evo.genomes.movers`).
"""

from __future__ import annotations

import numpy as np

from nim_evo.games.base import Game
from nim_evo.games.takeaway import TakeAway, move_array
from nim_evo.validation import AgentError, UserError

MAX_BOARD_MOVES = 5_000  # bounds the moves a board's move list may have (a mover may hold a (games, moves) array)


def check_board(rules: Game) -> None:
    """Refuse, in one line, a board whose move list is too long for batched games."""
    if rules.n_actions > MAX_BOARD_MOVES:
        raise UserError(f"the board {rules.name} has {rules.n_actions:,} moves; games on pile arrays "
                         f"handle at most {MAX_BOARD_MOVES:,} (smaller piles or a cap)")


def play_pile_games(rules: Game, first, second, games: int, rng: np.random.Generator,
                    start=None) -> np.ndarray:
    """Play ``games`` games from ``start`` (default the rules' start); ``first`` moves first.

    A mover is called as ``mover(positions, rng, games)``, ``games`` being the indices of
    the games still running (a mover for many genomes at once uses them).

    Returns:
        ``(games,) int8``: the winning seat of each game.
    """
    check_board(rules)
    if not isinstance(rules, TakeAway):
        raise UserError(f"games on pile arrays take objects from heaps: {rules.name} is no take-away game")
    moves = move_array(rules)
    position = np.tile(np.array(rules.start if start is None else start, dtype=np.int64), (games, 1))
    winner = np.empty(games, dtype=np.int8)
    game = np.arange(games)
    movers = (first, second)
    ply = 0
    while len(game):
        seat = ply % 2
        chosen = movers[seat](position, rng, game)
        heap, take = moves[chosen, 0], moves[chosen, 1]
        rows = np.arange(len(game))
        if np.any(position[rows, heap] < take):
            bad = int(np.flatnonzero(position[rows, heap] < take)[0])
            raise AgentError(f"{getattr(movers[seat], 'player', movers[seat])!r} chose the illegal move "
                             f"{rules.move_of(int(chosen[bad]))} in position {tuple(position[bad].tolist())}")
        position[rows, heap] -= take
        over = rules.over_mask(position)
        if over.any():
            winner[game[over]] = rules.winner(seat)
            game, position = game[~over], position[~over]
        ply += 1
    return winner
