"""The fixed agents: random, nim-sum, take-n, dumb, aggressive and fixed-rules.

Each is a :class:`~nim_evo.agents.player.Player`: one primary answer (the probability of each
move at a batch of positions, or, for the agents written one position at a time, at one
position), every other face derived from it. Each chooses from the multiset of pile sizes
alone (the first of equal piles where it picks "the longest"), so each is order-blind.
Build agents by name with :func:`nim_evo.agents.registry.make_agent`; all of them pickle, so
joblib workers can receive them.

The random and nim-sum agents are the package's one random player and one nim-sum player:
the thresholds genome's strategies, games on pile arrays and the panels all play them.
"""

from __future__ import annotations

import numpy as np

from nim_evo.agents.player import MAX_ANY, Player, PositionalAgent, TooManyToList, check_space
from nim_evo.engine import boards
from nim_evo.games import nimtheory
from nim_evo.engine.boards import uniform_rows
from nim_evo.engine.rules import Move, Position, Rules
from nim_evo.engine.solver import solve
from nim_evo.validation import UserError

__all__ = ["AggressiveAgent", "DumbAgent", "FixedRulesAgent", "NimSumAgent", "Player", "PositionalAgent",
           "RandomAgent", "TakeNAgent", "any_move", "nimsum_rows", "uniform"]


def uniform(moves: list[Move]) -> list[tuple[Move, float]]:
    """Each of ``moves`` with the same probability."""
    return [(m, 1.0 / len(moves)) for m in moves]




def any_move(rules: Rules, piles: Position) -> list[tuple[Move, float]]:
    """Uniform over the legal moves of ``piles``; :class:`TooManyToList` beyond ``MAX_ANY`` of
    them, which :meth:`PositionalAgent.move` answers with a draw that lists nothing."""
    count = rules.count_moves(piles)
    if count > MAX_ANY:
        raise TooManyToList(f"{tuple(piles)} has {count:,} legal moves, too many to list")
    return uniform(rules.legal_moves(piles))


class RandomAgent(Player):
    """Uniform over the legal moves, in every game. Its views are overridden for speed (held to
    its answer by the conformance suite): a move is drawn without listing the moves, on pile
    arrays in O(piles) per game."""

    name = "random"
    order_blind = True

    def move_probabilities(self, positions):
        return uniform_rows(boards.legal_mask(self.rules, np.asarray(positions, dtype=np.int64)))

    def distribution(self, piles):
        return any_move(self.rules, self.rules.check_position(piles))

    def move(self, piles, rng):
        return self.rules.random_move(piles, rng)

    def choose(self, positions, rng):
        return boards.random_moves(self.rules, positions, rng)

    def policy(self, space):
        check_space(self, space)
        return uniform_rows(space.multiplicity)


class NimSumAgent(Player):
    """The expert of the Simple Nim AI post and Nagappan's CI report: a winning move when one
    exists, else a random move.

    Winning moves come from Nim theory (the nim-sum in normal play, with Grundy values ``n mod
    (k + 1)`` under a cap; Bouton's misère rule, on those residues under a cap). Among several
    winning moves it picks uniformly.

    Its answer on arrays of positions reads :func:`nim_evo.games.nimtheory.winning_mask`; for
    speed, one position's moves come from :func:`nim_evo.games.nimtheory.winning_moves` (any
    board, piles of 10^15 included) and a whole space's from its solution.
    """

    name = "nimsum"
    order_blind = True
    families = ("nim",)

    def move_probabilities(self, positions):
        return nimsum_rows(self.rules, positions)

    def choose(self, positions, rng):
        """Batched draws in O(piles) per game (at most one winning take per pile,
        :func:`~nim_evo.games.nimtheory.winning_takes`), without a
        ``(games, moves)`` array; from the rows under misère play with a cap (whose winning
        takes :func:`~nim_evo.games.nimtheory.winning_takes` does not list)."""
        rules = self.rules
        if rules.misere and rules.max_take is not None:
            return super().choose(positions, rng)
        positions = np.asarray(positions, dtype=np.int64)
        wins, take = nimtheory.winning_takes(rules, positions)
        pile = np.where(wins, rng.random(wins.shape), -1.0).argmax(axis=1)
        rows = np.arange(len(positions))
        chosen = boards.random_moves(rules, positions, rng)
        found = wins.any(axis=1)
        chosen[found] = boards.move_indices(rules, pile[found], take[rows[found], pile[found]])
        return chosen

    def distribution(self, piles):
        piles = self.rules.check_position(piles)
        moves = nimtheory.winning_moves(self.rules, piles)
        return uniform(moves) if moves else any_move(self.rules, piles)

    def policy(self, space):
        check_space(self, space)
        winning = solve(space).winning
        return uniform_rows(np.where(winning.any(axis=1, keepdims=True), winning, space.legal) * space.multiplicity)


def nimsum_rows(rules: Rules, positions) -> np.ndarray:
    """The nim-sum player's rows at ``positions (k, n_piles)``: uniform over the winning moves
    (:func:`nim_evo.games.nimtheory.winning_mask`), over the legal ones where none wins."""
    positions = np.asarray(positions, dtype=np.int64)
    winning = nimtheory.winning_mask(rules, positions)
    legal = boards.legal_mask(rules, positions)
    return uniform_rows(np.where(winning.any(axis=1, keepdims=True), winning, legal))


class TakeNAgent(PositionalAgent):
    """Always take ``n`` (or all that is left, or the cap) from the longest pile (the Simple Nim AI post's take-n)."""

    def __init__(self, rules, n: int = 3):
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise UserError(f"take-n needs n >= 1, got {n!r}")
        self.n = n
        self.name = f"take-{n}"
        super().__init__(rules)

    order_blind = True
    families = ("nim",)

    def distribution(self, piles):
        if not any(piles):
            return []
        pile = _longest(piles)
        return [((pile, min(self.n, piles[pile], self.rules.max_take or self.n)), 1.0)]


class DumbAgent(PositionalAgent):
    """Take one object from the longest pile (the dumb agent of Nagappan's CI report)."""

    name = "dumb"
    order_blind = True
    families = ("nim",)

    def distribution(self, piles):
        return [((_longest(piles), 1), 1.0)] if any(piles) else []


class AggressiveAgent(PositionalAgent):
    """The aggressive agent of Nagappan's CI report: with an odd number of non-empty piles, empty the longest
    (as far as the cap allows); with an even number, a random move."""

    name = "aggressive"
    order_blind = True
    families = ("nim",)

    def distribution(self, piles):
        if not any(piles):
            return []
        if _active(piles) % 2 == 0:
            return any_move(self.rules, piles)
        pile = _longest(piles)
        return [((pile, _capped(self.rules, piles[pile])), 1.0)]


class FixedRulesAgent(PositionalAgent):
    """The fixed-rule agent of Nagappan's CI report, section 4.1.1, as clean rules, first match wins.

    1. One non-empty pile: take it all in normal play, leave one in misère (cap permitting).
    2. An even number of non-empty piles: if all hold one object, take one from the
       longest; otherwise leave one object in a random pile that holds more.
    3. Three non-empty piles, two of them equal: empty the third.
    4. n >= 4 non-empty piles, n - 1 of them equal and the other larger: cut it down to them.
    5. Otherwise a random legal move.

    Rule 3 empties the odd pile out, which leaves two equal piles, the point of the rule (where
    this departs from the report, its text or its code: the manual's References, Nagappan's CI
    report). Takes respect the cap by taking as many as it allows.
    """

    name = "fixed-rules"
    order_blind = True
    families = ("nim",)

    def distribution(self, piles):
        if not any(piles):
            return []
        active = [(i, n) for i, n in enumerate(piles) if n > 0]
        sizes = [n for _, n in active]
        if len(active) == 1:
            pile, size = active[0]
            take = size - 1 if self.rules.misere and size > 1 else size
            return [((pile, _capped(self.rules, take)), 1.0)]
        if len(active) % 2 == 0:
            if max(sizes) == 1:
                return [((_longest(piles), 1), 1.0)]
            return uniform([(i, _capped(self.rules, n - 1)) for i, n in active if n > 1])
        if len(active) == 3 and len(set(sizes)) == 2:
            (pile, size), = [(i, n) for i, n in active if sizes.count(n) == 1]
            return [((pile, _capped(self.rules, size)), 1.0)]
        if len(active) >= 4 and len(set(sizes)) == 2:
            common = max(set(sizes), key=sizes.count)
            odd = [(i, n) for i, n in active if n != common]
            if len(odd) == 1 and odd[0][1] > common:
                pile, size = odd[0]
                return [((pile, _capped(self.rules, size - common)), 1.0)]
        return any_move(self.rules, piles)


def _longest(piles: Position) -> int:
    """Index of the longest pile (the first, on ties)."""
    return max(range(len(piles)), key=lambda i: (piles[i], -i))


def _active(piles: Position) -> int:
    return sum(1 for n in piles if n > 0)


def _capped(rules: Rules, take: int) -> int:
    return max(1, min(take, rules.max_take or take))
