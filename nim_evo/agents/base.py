"""Agents: one interface, ``move(piles, rng) -> (pile_index, count)``, and the fixed agents.

Every agent here chooses from the position alone (no memory), so it also answers
``distribution(piles)``, the probability of each move, and compiles to a policy table
(:meth:`PositionalAgent.policy`) for the batched path. Build agents by name with
:func:`nim_evo.agents.registry.make_agent`; all of them pickle, so joblib workers can receive them.
"""

from __future__ import annotations

import numpy as np

from nim_evo.engine import theory
from nim_evo.engine.boards import uniform_rows
from nim_evo.engine.rules import Move, Position, Rules
from nim_evo.engine.solver import solve
from nim_evo.engine.space import Space, space_for
from nim_evo.validation import UserError


class PositionalAgent:
    """Base of agents whose choice depends only on the position.

    Subclasses define :meth:`distribution`; sampling, policy tables and pickling follow.
    """

    name = "agent"

    def __init__(self, rules: Rules):
        self.rules = rules

    def __repr__(self) -> str:
        return f"<{self.name} agent for {self.rules.name}>"

    def distribution(self, piles: Position) -> list[tuple[Move, float]]:
        """The moves this agent may play from ``piles``, with their probabilities."""
        raise NotImplementedError

    def move(self, piles: Position, rng: np.random.Generator) -> Move:
        """Draw a move from :meth:`distribution` with ``rng``; where the distribution is "any
        legal move" of a position with too many to list, draw one without listing them."""
        try:
            options = self.distribution(tuple(piles))
        except TooManyToList:
            return self.rules.random_move(piles, rng)
        if not options:
            raise UserError(f"no legal move in {tuple(piles)}: the game is over")
        if len(options) == 1:
            return options[0][0]
        u = rng.random()
        for move, p in options:
            u -= p
            if u < 0:
                return move
        return options[-1][0]

    def policy(self, space: Space) -> np.ndarray:
        """The policy table: ``(n_positions, n_moves) float64``, each row the probability
        of each move (a zero row on the empty board). Subclasses vectorise where they can.

        On a multiset space a row is what the agent does at the multiset's representative
        position, equal piles' moves added up (see :mod:`nim_evo.engine.multiset`)."""
        table = np.zeros((space.n_positions, space.n_moves))
        for index in range(1, space.n_positions):
            position = space.position(index)
            for move, p in self.distribution(position):
                table[index, space.move_index_at(position, move)] += p
        return table


def uniform(moves: list[Move]) -> list[tuple[Move, float]]:
    return [(m, 1.0 / len(moves)) for m in moves]


class TooManyToList(UserError):
    """A distribution over every legal move of a position with more than ``MAX_ANY`` of them."""


MAX_ANY = 5_000  # beyond, "any legal move" is drawn by Rules.random_move, not listed


def any_move(rules: Rules, piles: Position) -> list[tuple[Move, float]]:
    """Uniform over the legal moves of ``piles``; :class:`TooManyToList` beyond ``MAX_ANY`` of
    them, which :meth:`PositionalAgent.move` answers with a draw that lists nothing."""
    count = rules.count_moves(piles)
    if count > MAX_ANY:
        raise TooManyToList(f"{tuple(piles)} has {count:,} legal moves, too many to list")
    return uniform(rules.legal_moves(piles))


class RandomAgent(PositionalAgent):
    """Uniform over the legal moves."""

    name = "random"

    def distribution(self, piles):
        return any_move(self.rules, piles)

    def move(self, piles, rng):
        return self.rules.random_move(piles, rng)

    def policy(self, space):
        return uniform_rows(space.multiplicity)


class NimSumAgent(PositionalAgent):
    """The expert of the Simple Nim AI post and Nagappan's CI report: a winning move when one
    exists, else a random move.

    Winning moves come from Nim theory where a closed form applies (the nim-sum in normal
    play, with Grundy values ``n mod (k + 1)`` under a cap; Bouton's misère rule without a
    cap), and from the solver otherwise (misère play with a cap). Among several winning
    moves it picks uniformly.
    """

    name = "nimsum"

    def distribution(self, piles):
        moves = theory.winning_moves(self.rules, piles)
        if moves is None:
            moves = self._solution().winning_moves(piles)
        return uniform(moves) if moves else any_move(self.rules, piles)

    def policy(self, space):
        winning = solve(space).winning
        return uniform_rows(np.where(winning.any(axis=1, keepdims=True), winning, space.legal) * space.multiplicity)

    def _solution(self):
        return solve(space_for(self.rules, multiset=True))


class TakeNAgent(PositionalAgent):
    """Always take ``n`` (or all that is left, or the cap) from the longest pile (the Simple Nim AI post's take-n)."""

    def __init__(self, rules, n: int = 3):
        super().__init__(rules)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise UserError(f"take-n needs n >= 1, got {n!r}")
        self.n = n
        self.name = f"take-{n}"

    def distribution(self, piles):
        if not any(piles):
            return []
        pile = _longest(piles)
        return [((pile, min(self.n, piles[pile], self.rules.max_take or self.n)), 1.0)]


class DumbAgent(PositionalAgent):
    """Take one object from the longest pile (the dumb agent of Nagappan's CI report)."""

    name = "dumb"

    def distribution(self, piles):
        return [((_longest(piles), 1), 1.0)] if any(piles) else []


class AggressiveAgent(PositionalAgent):
    """The aggressive agent of Nagappan's CI report: with an odd number of non-empty piles, empty the longest
    (as far as the cap allows); with an even number, a random move."""

    name = "aggressive"

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

    The seed's code departs from its own rules (rule 1 always took one object, rule 4
    compared counts of sizes including empty piles); this follows the rules' intent. One
    deliberate departure from the seed's text: rule 3 says "remove all sticks from the
    smallest pile", which on 3-3-5 leaves 3-5; emptying the odd pile out leaves two equal
    piles, the point of the rule. Takes respect the cap by taking as many as it allows.
    """

    name = "fixed-rules"

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
