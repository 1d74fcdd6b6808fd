"""One player, one truth: the base class every player of nim_evo derives from.

A player's one primary answer is :meth:`Player.move_probabilities`: at a batch of positions
``(k, n_piles)``, the probability of each move of the rules' move list ``(k, n_moves)`` (a
zero row for an empty board). Every other face of the player is a view of it:

=====================================  ==================================================
``distribution(piles)``                the row of one position, as ``[(move, p)]`` (moves in the game's words)
``move(piles, rng)``                   a draw from that row (the scalar path: ``play``)
``choose(positions, rng)``             a draw per row (the batched path on pile arrays)
``policy(space)``                      the rows of every position of an enumerated space;
                                       over multisets, the rows of the representatives with
                                       equal piles' moves added up (order-blind players only)
=====================================  ==================================================

A subclass may override a view for speed (the random agent draws a move without listing
them, the nim-sum agent reads the solved board for a whole space); the conformance suite
(:mod:`nim_evo.agents.conformance`) holds every override to the primary answer at every
position of its boards.

**Order-blind players.** A player declares ``order_blind = True`` when its choice depends
only on the multiset of pile sizes: at two arrangements of the same sizes it leads, with the
same probabilities, to the same multisets. Only such players are judged over multisets
(where one arrangement stands for all); an order-reading player asked there is refused with
:class:`~nim_evo.validation.OrderReading`, and evaluation judges it on the ordered board.

:class:`PositionalAgent` is the base of players written one position at a time: its
primary answer is ``distribution(piles)``, and ``move_probabilities`` asks it position by
position.
"""

from __future__ import annotations

from types import FunctionType, MethodType
from typing import TYPE_CHECKING

import numpy as np

from nim_evo.games.base import Game, Position
from nim_evo.games.registry import GAME
from nim_evo.games.takeaway import Move, TakeAway
from nim_evo.validation import AgentError, IllegalMove, OrderReading, UserError, check, shown

if TYPE_CHECKING:
    from nim_evo.engine.space import Space


class Player:
    """The base of every player: the primary answer :meth:`move_probabilities`, and its views.

    Attributes:
        rules: the game it plays (its action alphabet indexes the columns of every answer).
        name: what results call it.
        order_blind: whether its choice depends only on the multiset of pile sizes.
        families: the game families it plays (``None``: every family); another is refused
            in one line when it is made.
    """

    name = "player"
    order_blind = False
    families: tuple[str, ...] | None = None

    def __init__(self, rules: Game):
        self.rules = check("rules", rules, [GAME])
        refuse_family(self, rules)

    def __repr__(self) -> str:
        return f"<{self.name} agent for {self.rules.name}>"

    # -- the one answer ----------------------------------------------------------------

    def move_probabilities(self, positions: np.ndarray) -> np.ndarray:
        """``(k, n_moves) float64``: the probability of each move of the rules' move list in
        each of ``positions (k, n_piles)``, rows summing to 1 over legal moves (zero for an
        empty board)."""
        raise NotImplementedError

    # -- its views ---------------------------------------------------------------------

    def distribution(self, piles: Position) -> list[tuple[Move, float]]:
        """The moves this player may play from ``piles``, with their probabilities."""
        piles = on_board(self.rules, piles)
        row = self.move_probabilities(np.array([piles], dtype=np.int64))[0]
        return [(self.rules.move_of(int(k)), float(row[k])) for k in np.flatnonzero(row > 0)]

    def move(self, piles: Position, rng: np.random.Generator) -> Move:
        """A move drawn with ``rng`` from :meth:`distribution`; where that is "any legal move"
        of a position with too many to list, one drawn without listing them."""
        try:
            options = self.distribution(tuple(piles))
        except TooManyToList:
            if isinstance(self.rules, TakeAway):
                return self.rules.random_move(piles, rng)
            raise
        return draw(options, rng, self, piles)

    def choose(self, positions: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """``(k,)`` move indices of the rules' move list, one drawn per non-empty position of
        ``positions (k, n_piles)``: the player as a mover of games on pile arrays."""
        probabilities = self.move_probabilities(np.asarray(positions, dtype=np.int64))
        cumulative = probabilities.cumsum(axis=1)
        u = rng.random((len(probabilities), 1)) * cumulative[:, -1:]
        return np.minimum((cumulative <= u).sum(axis=1), probabilities.shape[1] - 1)

    def policy(self, space: Space) -> np.ndarray:
        """The policy table over an enumerated space ``(n_positions, n_moves)``: the rows of
        its positions; over multisets (order-blind players only) the rows of the
        representatives, equal piles' moves added up."""
        check_space(self, space)
        return space.merge(self.move_probabilities(space.positions))


class TooManyToList(UserError):
    """A distribution over every legal move of a position with more than ``MAX_ANY`` of them."""


MAX_ANY = 5_000  # beyond, "any legal move" is drawn by Rules.random_move, not listed


class Mover:
    """A player as a mover of games on arrays of positions (``play_pile_games``, the engine's):
    ``mover(positions, rng, games)`` is the player's :meth:`Player.choose`."""

    def __init__(self, player: Player):
        self.player = player

    def __call__(self, positions: np.ndarray, rng: np.random.Generator, games=None) -> np.ndarray:
        return self.player.choose(positions, rng)


class PositionalAgent(Player):
    """Base of players written one position at a time: subclasses define
    :meth:`distribution` (their primary answer), and :meth:`move_probabilities` asks it at
    each position."""

    name = "agent"

    def distribution(self, piles: Position) -> list[tuple[Move, float]]:
        """The moves this agent may play from ``piles``, with their probabilities."""
        raise NotImplementedError

    def move_probabilities(self, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions, dtype=np.int64)
        table = np.zeros((len(positions), self.rules.n_actions))
        for row, piles in enumerate(map(tuple, positions.tolist())):
            if any(piles) and not self.rules.is_over(piles):
                for move, p in self.distribution(piles):
                    table[row, index_of(self, piles, move)] += p
        return table


def check_space(player, space) -> None:
    """Refuse, in one line, a space of another board, or of multisets for a player that
    reads the order of the piles."""
    rules = getattr(player, "rules", None)
    if rules is not None and rules != space.rules:
        raise UserError(f"{name_of(player)} plays {rules.name}, not {space.rules.name}")
    if space.multiset and not is_order_blind(player):
        raise OrderReading(f"{name_of(player)} reads the order of the piles (it does not declare order_blind), so one "
                           "arrangement cannot stand for every arrangement of its pile sizes: it is judged on the "
                           "ordered board")


def refuse_family(player, rules: Game) -> None:
    """A one-line :class:`UserError` if ``player`` does not play the family of ``rules``."""
    families = getattr(type(player), "families", None)
    if families is not None and rules.family not in families:
        plays = " and ".join(FAMILY_NAMES.get(f, f) for f in families)
        raise UserError(f"{name_of(player)} plays {plays} only, not {rules.name} (a {rules.family} game)")


FAMILY_NAMES = {"nim": "Nim"}


def on_board(rules: Game, piles) -> Position:
    """``piles`` checked as a position of ``rules``'s board (on a take-away game, no pile
    above its start), or a one-line :class:`UserError`."""
    piles = rules.check_position(piles)
    if isinstance(rules, TakeAway) and any(n > start for n, start in zip(piles, rules.start)):
        raise UserError(f"position {piles} is not reachable from the start {rules.start}")
    return piles


def is_order_blind(player) -> bool:
    """Whether a player declares that its choice depends only on the multiset of pile sizes."""
    return getattr(player, "order_blind", False) is True


def name_of(agent) -> str:
    """What results call ``agent``: its ``name``, a function's or a class's own name, else its class's."""
    name = getattr(agent, "name", None)
    if isinstance(name, str) and name:
        return name
    return agent.__name__ if isinstance(agent, (FunctionType, MethodType, type)) else type(agent).__name__


def index_of(player, piles: Position, move) -> int:
    """The action of a move ``player`` answered at ``piles`` (in its game's words); an
    :class:`~nim_evo.validation.IllegalMove` naming the player, the position and the move if
    it is no legal move there, an :class:`AgentError` if it is no move at all."""
    rules = player.rules
    try:
        move = rules.read_move(move)
    except UserError as problem:
        raise AgentError(f"{name_of(player)} answered {shown(move)} at {tuple(piles)}; {problem}") from None
    except Exception as error:  # the answer's own code raised as it was read (its __index__, its __iter__)
        raise AgentError(f"{name_of(player)} answered {shown(move)} at {tuple(piles)}, which raised "
                         f"{type(error).__name__} as it was read: {shown(str(error))[1:-1]}") from None
    if not rules.is_legal(tuple(piles), move):
        raise IllegalMove(f"{name_of(player)} played the illegal move {shown(move)} in position {tuple(piles)} "
                          f"of {rules.name}", move)
    return rules.action_of(move)


def draw(options: list[tuple[Move, float]], rng: np.random.Generator, player=None, piles=()) -> Move:
    """A move drawn with ``rng`` from ``[(move, probability), ...]``."""
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
