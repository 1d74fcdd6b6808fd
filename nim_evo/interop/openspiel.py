"""nim_evo players as OpenSpiel bots in OpenSpiel's own ``nim``, and pyspiel bots as nim_evo agents.

OpenSpiel's ``nim`` takes ``pile_sizes`` (``"1;3;5;7"`` by default) and ``is_misere`` (``True``
by default); a move has no cap; its action id is ``(take - 1) * num_piles + pile`` (pile
0-based, as nim_evo's). :func:`rules_of` and :func:`game_of` translate the game,
:func:`bot` makes any nim_evo player a ``pyspiel.Bot``, :func:`agent` makes pyspiel bots a
nim_evo agent::

    import numpy as np, pyspiel
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from nim_evo import tournament
    from nim_evo.interop.openspiel import agent, bot, rules_of

    game = pyspiel.load_game("nim")  # 1;3;5;7, misere: lost for the first player
    bots = [pyspiel.make_uniform_random_bot(0, 1), bot("nimsum", game, seed=2)]
    evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(3))  # [-1.0, 1.0]

    rules = rules_of(game)
    random = agent([pyspiel.make_uniform_random_bot(p, 4 + p) for p in (0, 1)], rules)
    tournament(rules, "nimsum", [random], exact=True)

pyspiel is imported only when a function needs it (``pip install 'nim-evo[openspiel]'``).
"""

from __future__ import annotations

import numpy as np

from nim_evo.agents.adapted import RandomMoves
from nim_evo.engine.rules import Rules
from nim_evo.interop.extras import OPENSPIEL, need
from nim_evo.interop.players import player_for
from nim_evo.validation import AgentError, IllegalMove, UserError

WHAT = "nim_evo.interop.openspiel"


def _pyspiel():
    return need("pyspiel", OPENSPIEL, WHAT)


def rules_of(game) -> Rules:
    """The :class:`~nim_evo.engine.rules.Rules` of an OpenSpiel ``nim`` game (its
    ``pile_sizes`` and ``is_misere``); a one-line :class:`UserError` for any other game."""
    _pyspiel()
    try:
        short_name = game.get_type().short_name
    except AttributeError:
        raise UserError(f"{type(game).__name__} is not a pyspiel game; expected OpenSpiel's nim") from None
    if short_name != "nim":
        raise UserError(f"OpenSpiel's {short_name!r} is not Nim; expected pyspiel.load_game('nim', ...)")
    params = game.get_parameters()
    piles = tuple(int(size) for size in str(params.get("pile_sizes", "1;3;5;7")).split(";"))
    return Rules(piles, misere=bool(params.get("is_misere", True)))


def game_of(rules: Rules):
    """OpenSpiel's ``nim`` game of ``rules``; a capped game is refused in one line (OpenSpiel's
    Nim has no cap)."""
    pyspiel = _pyspiel()
    if not isinstance(rules, Rules):
        raise UserError(f"rules must be a nim_evo.Rules, got {type(rules).__name__}")
    if rules.max_take is not None:
        raise UserError(f"{rules.name} caps a move at {rules.max_take}: OpenSpiel's nim has no cap")
    try:
        return pyspiel.load_game("nim", {"pile_sizes": ";".join(map(str, rules.piles)), "is_misere": rules.misere})
    except pyspiel.SpielError as error:
        raise UserError(f"OpenSpiel cannot load {rules.name}: {str(error).splitlines()[0]}") from None


def _action(move, n_piles: int) -> int:
    pile, take = move
    return (take - 1) * n_piles + pile


def _move(action: int, n_piles: int) -> tuple[int, int]:
    return int(action) % n_piles, int(action) // n_piles + 1


def bot(strategy, game, seed: int = 0):
    """A ``pyspiel.Bot`` playing ``strategy`` (anything
    :func:`~nim_evo.interop.players.player_for` takes: ``"random"``, ``"nimsum"``, a strategy
    file, ``module:NAME``, an agent object) in OpenSpiel's nim ``game``, for either player.

    It reads a state's piles by replaying ``state.history()`` from the game's start, draws its
    moves with a ``numpy.random.default_rng(seed)`` of its own (the same seed, the same moves),
    and provides its policy: ``step_with_policy`` answers the player's distribution over the
    legal actions and a move drawn as ``step`` draws it.
    """
    pyspiel = _pyspiel()
    rules = rules_of(game)

    class NimEvoBot(pyspiel.Bot):  # type: ignore[name-defined]  # pyspiel, an optional extra, is imported on use
        """A nim_evo player as a pyspiel bot (see :func:`bot`)."""

        def __init__(self):
            pyspiel.Bot.__init__(self)
            self.rules, self.player = rules, player_for(strategy, rules, seed)
            self.params, self.rng = game.get_parameters(), np.random.default_rng(seed)

        def __repr__(self) -> str:
            return f"<nim_evo bot {self.player.name} for OpenSpiel's nim {self.rules.name}>"

        def piles(self, state) -> tuple[int, ...]:
            """The pile sizes of ``state``: the game's start, minus each action of its history."""
            if state.get_game().get_parameters() != self.params:
                raise UserError(f"{self!r} was given a state of {state.get_game()}")
            piles, n = list(self.rules.piles), len(self.rules.piles)
            for action in state.history():
                pile, take = _move(action, n)
                piles[pile] -= take
            return tuple(piles)

        def step(self, state) -> int:
            if state.is_terminal():
                return pyspiel.INVALID_ACTION
            return _action(self.player.move(self.piles(state), self.rng), len(self.rules.piles))

        def step_with_policy(self, state):
            if state.is_terminal():
                return [], pyspiel.INVALID_ACTION
            piles, n = self.piles(state), len(self.rules.piles)
            chances = {_action(move, n): p for move, p in self.player.distribution(piles)}
            policy = [(action, float(chances.get(action, 0.0))) for action in state.legal_actions()]
            return policy, _action(self.player.move(piles, self.rng), n)

        def provides_policy(self) -> bool:
            """Whether the player has a distribution to give (a move-only random one has none)."""
            try:
                self.player.distribution(self.rules.start)
            except RandomMoves:
                return False
            return True

        def restart(self):
            pass

        def restart_at(self, state):
            pass

        def inform_action(self, state, player_id, action):
            pass

    return NimEvoBot()


class BotAgent:
    """pyspiel bots as a nim_evo agent playing ``move(piles, rng)`` (see :func:`agent`)."""

    order_blind = False

    def __init__(self, bots, seats, rules: Rules, name: str):
        self.bots, self.seats, self.rules, self.name = bots, seats, rules, name
        self.game = game_of(rules)
        self.pyspiel = _pyspiel()

    def __repr__(self) -> str:
        return f"<{self.name} agent for {self.rules.name}>"

    def state(self, piles):
        """OpenSpiel's state at ``piles`` and the bot to ask there: from the game's start, one
        action per pile that has lost objects, in pile order (one pile's loss split in two
        where a bot made for one player needs that player to move)."""
        piles = self.rules.check_position(piles)
        n, start = len(piles), self.rules.piles
        if any(now > size for now, size in zip(piles, start)):
            raise UserError(f"position {piles} is not reachable from the start {start}")
        takes = [(pile, size - now) for pile, (size, now) in enumerate(zip(start, piles)) if now < size]
        if len(self.bots) == 1 and self.seats[0] is not None and len(takes) % 2 != self.seats[0]:
            split = next((k for k, (_, lost) in enumerate(takes) if lost > 1), None)
            if split is None:
                raise UserError(f"{self.name} is OpenSpiel's player {self.seats[0]}, and no game from {start} "
                                f"reaches {piles} with that player to move: give agent() a bot for each player")
            pile, lost = takes[split]
            takes[split:split + 1] = [(pile, 1), (pile, lost - 1)]
        state = self.game.new_initial_state()
        for move in takes:
            state.apply_action(_action(move, n))
        asked = self.bots[0] if len(self.bots) == 1 else self.bots[state.current_player()]
        asked.restart_at(state)
        return piles, state, asked

    def answer(self, piles, with_policy: bool):
        """The bot's ``(policy or None, move)`` at ``piles``; its errors as an :class:`AgentError`."""
        piles, state, asked = self.state(piles)
        if state.is_terminal():
            raise UserError(f"no legal move in {piles}: the game is over")
        try:
            policy, action = asked.step_with_policy(state) if with_policy else (None, asked.step(state))
        except self.pyspiel.SpielError as error:
            raise AgentError(f"{self.name} failed at {piles}: {str(error).splitlines()[0]}") from None
        if action not in state.legal_actions():
            raise IllegalMove(f"{self.name} played the illegal action {action} at {piles} of {self.rules.name}")
        return policy, _move(action, len(piles))

    def move(self, piles, rng: np.random.Generator) -> tuple[int, int]:
        """The bot's move at ``piles`` (its own randomness: ``rng`` is not used)."""
        return self.answer(piles, False)[1]


class PolicyBotAgent(BotAgent):
    """pyspiel bots that provide a policy: also ``distribution(piles)``, from ``step_with_policy``."""

    def distribution(self, piles) -> list[tuple[tuple[int, int], float]]:
        """The bot's policy at ``piles`` as ``[((pile, count), probability), ...]`` (positive ones)."""
        if not any(piles):
            return []
        policy = self.answer(piles, True)[0]
        return [(_move(action, len(self.rules.piles)), float(p)) for action, p in policy if p > 0]


def agent(bot, rules: Rules, seat=None, name: str | None = None):
    """pyspiel bots as a nim_evo agent of ``rules`` (uncapped: a capped game is a one-line
    :class:`UserError`), which ``nim_evo.as_player`` takes.

    At a position it builds OpenSpiel's state from the start (see :meth:`BotAgent.state`), asks
    the bot ``step`` (``move``) or ``step_with_policy`` (``distribution``) and maps the action id
    back to ``(pile, count)``. The agent has a ``distribution``, and is evaluated exactly, only if
    every bot ``provides_policy()``; a bot whose moves are random and that provides no policy
    plays the scalar path only (sampled games), as any random agent without a distribution.

    Args:
        bot: a pyspiel bot, or a pair of them: the bots of OpenSpiel's player 0 and player 1,
            each asked where its player is to move (a nim_evo agent plays either seat).
        seat: for one bot, the OpenSpiel player it was made for (a uniform random bot or a
            policy bot answers only for its own player: OpenSpiel's C++ ones crash when asked
            for another), or ``"any"`` for a bot that plays whoever is to move (MCTS, the bots
            of :func:`bot`); default its ``player_id()`` if it has one, else 0. A position no
            game reaches with that player to move is a one-line :class:`UserError`.
        name: what results call it (default ``openspiel:`` and the bot's class).
    """
    pyspiel = _pyspiel()
    bots = list(bot) if isinstance(bot, (list, tuple)) else [bot]
    if len(bots) not in (1, 2) or not all(isinstance(b, pyspiel.Bot) for b in bots):
        raise UserError("agent() takes a pyspiel.Bot, or a pair of them (the bots of player 0 and player 1)")
    seats: list[int | None]  # None: whoever is to move
    if len(bots) == 2:
        seats = [0, 1]
    elif seat is None:
        own = getattr(bots[0], "player_id", None)
        seats = [int(own()) if callable(own) else 0]
    elif seat == "any" or seat in (0, 1):
        seats = [None if seat == "any" else int(seat)]
    else:
        raise UserError(f"seat must be 0, 1, 'any' or None, got {seat!r}")
    name = name or f"openspiel:{type(bots[0]).__name__}"
    policy = all(b.provides_policy() for b in bots)
    return (PolicyBotAgent if policy else BotAgent)(bots, seats, rules, name)
