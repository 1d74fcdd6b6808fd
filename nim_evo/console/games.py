"""Games in a console: a person against a strategy (moves typed, hints from the solver),
or a match between two strategies, watched or tallied. What ``python -m nim_evo.play`` runs.

Moves are typed as the pile (counted from 1) and how many to take: ``2 3`` (or ``2,3``,
``2:3``) takes 3 from pile 2; on a single heap a bare count will do. In a game whose moves take
from several heaps or split one, a move is typed as its label (``1 1 3``: Kayles' heap 1, one
pin down, 3 left on one side), and ``moves`` lists the legal ones. ``hint`` asks the solver,
``help`` explains, ``quit`` leaves.
"""

from __future__ import annotations

import re

from nim_evo.console.session import Console
from nim_evo.console.text import wrapped
from nim_evo.games import nimtheory
from nim_evo.engine.game import play_game
from nim_evo.agents.perfect import PerfectAgent
from nim_evo.engine.rules import Move, Position, Rules
from nim_evo.games.base import Game
from nim_evo.games.takeaway import TakeAway
from nim_evo.validation import UserError, printable

MAX_MARKS = 40
HUMAN_FIRST = ("you", "computer", "random", "alternate")
COMPUTER_FIRST = ("strategy", "other", "alternate", "random")


def describe(rules: Game) -> str:
    """One line on the game: its piles, what a move takes, and who wins."""
    return rules.describe()


def show_piles(piles: Position, widest: int | None = None, word: str = "pile", empty: bool = True) -> str:
    """The piles, one line each: ``pile 2  ooooo  5`` (marks only up to 40 objects).

    Args:
        widest: the column width's pile size (the start's largest pile keeps a game aligned).
        word: what a line calls its heap.
        empty: show empty heaps too (not where a row's empty slots are only room for splits).
    """
    widest = max(piles) if widest is None else max(widest, *piles)
    label = len(str(len(piles)))
    marks = min(widest, MAX_MARKS)
    digits = len(str(widest))
    return "\n".join(f"  {word} {i:<{label}}  {('o' * n if n <= MAX_MARKS else ''):<{marks}}  {n:>{digits}}"
                     for i, n in enumerate(piles, 1) if n or empty)


def _show(piles: Position, rules: Game) -> str:
    if isinstance(rules, TakeAway):
        return show_piles(piles, max(rules.start), rules.heap_word)
    return show_piles(piles, max(rules.start), "heap", empty=rules.heaps_in_place)


def read_action(text: str, piles: Position, rules: Game):
    """The move a typed line names by its label (any game), or one sentence saying why it is none."""
    tokens = [t for t in re.split(r"[\s,:;]+", text.strip()) if t]
    shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:37] + "..."
    if not tokens:
        return f"Type a move: {rules.typing}."
    try:
        action = rules.parse_action(" ".join(tokens))
    except UserError:
        return f"{shown!r} is not a move: type {rules.typing} (moves lists them, help explains)."
    if not rules.is_legal_action(piles, action):
        return f"{shown!r} cannot be played here; moves lists the moves that can."
    return rules.move_of(action)


def _left(piles: Position) -> str:
    heaps = [str(n) for n in piles if n]
    return "heaps " + " ".join(heaps) if len(heaps) > 1 else f"a heap of {heaps[0]}" if heaps else "nothing"


def _legal_list(piles: Position, rules: Game) -> str:
    """Every legal move by its label, and what it leaves."""
    return "Moves: " + "; ".join(f"{rules.action_label(a)} (leaves {_left(rules.apply_action(piles, a))})"
                                 for a in rules.legal_actions(piles)) + "."


def read_move(text: str, piles: Position, rules: TakeAway) -> Move | str:
    """The 0-based move a typed line asks for, or one sentence saying why it is not a move.

    ``text`` holds the pile (from 1) and the count, separated by spaces, commas, colons or
    semicolons; on a single heap the count alone is enough.
    """
    tokens = [t for t in re.split(r"[\s,:;]+", text.strip()) if t]
    single = len(piles) == 1
    if single and len(tokens) == 1:
        tokens = ["1", tokens[0]]
    # a number of more than 30 digits is no pile and no count (and int() refuses thousands)
    numbers = [int(t) if re.fullmatch(r"[+-]?[0-9]{1,30}", t) else None for t in tokens]
    if len(numbers) != 2 or None in numbers:
        what = "how many to take, e.g. 2" if single else f"two numbers, the pile (1-{len(piles)}) and how many " \
                                                           "to take, e.g. 2 3"
        shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:37] + "..."
        return f"{shown!r} is not a move: type {what} (or help)." if text.strip() else f"Type {what}."
    pile, count = numbers
    assert pile is not None and count is not None  # None in numbers returned above
    if not 1 <= pile <= len(piles):
        where = "there is only pile 1" if single else f"the piles are 1-{len(piles)}"
        return f"There is no pile {pile} ({where})."
    size, cap = piles[pile - 1], getattr(rules, "max_take", None)
    if size == 0:
        return f"Pile {pile} is empty."
    if count < 1:
        return "You must take at least 1."
    if count > size and (cap is None or size <= cap):
        return f"There are only {size} left." if single else f"Pile {pile} has only {size}."
    if cap is not None and count > cap:
        return f"At most {cap} per move."
    if not rules.is_legal(piles, (pile - 1, count)):
        return f"A move takes {rules.takes_words()}."
    return pile - 1, count


def _took(who: str, move, after: Position, rules: Game) -> str:
    """``nimsum takes 2 from pile 3.``, or on a single heap ``nimsum takes 2, leaving 13.``;
    in another game ``perfect plays 1 1 3, leaving heaps 3 4.``"""
    if not isinstance(rules, TakeAway):
        return f"{who} {'play' if who == 'You' else 'plays'} {rules.action_label(rules.action_of(move))}, leaving " \
               f"{_left(after)}."
    verb = "take" if who == "You" else "takes"
    pile, count = move
    if len(after) == 1:
        return f"{who} {verb} {count}, leaving {after[0]}."
    return f"{who} {verb} {count} from pile {pile + 1}."


def _record(rules: Game, moves, first: str) -> str:
    """The game in 1-based moves, as Moore's NIM Rules printed it."""
    if not isinstance(rules, TakeAway):
        return f"Game was [{', '.join(rules.action_label(rules.action_of(m)) for m in moves)}] ({first} first)."
    if len(rules.start) == 1:
        return f"Game was [{', '.join(str(c) for _, c in moves)}] ({first} first)."
    return f"Game was [{', '.join(f'{p + 1}:{c}' for p, c in moves)}] (pile:count; {first} first)."


def hint(piles: Position, rules: Game) -> str:
    """Perfect play's advice (Nim theory, or the game's theory or solved board): a winning
    move, or that every move loses against perfect play."""
    moves = nimtheory.winning_moves(rules, piles) if isinstance(rules, Rules) else PerfectAgent(rules).winning_moves(piles)
    if not moves:
        return "Hint: every move loses against perfect play; play on and hope for a mistake."
    if not isinstance(rules, TakeAway):
        what = f"play {rules.action_label(rules.action_of(moves[0]))}"
        others = f" (one of {len(moves)} winning moves)" if len(moves) > 1 else ""
        return f"Hint: {what}{others}."
    pile, count = moves[0]
    what = f"take {count}" + ("" if len(piles) == 1 else f" from pile {pile + 1}")
    others = f" (one of {len(moves)} winning moves)" if len(moves) > 1 else ""
    return f"Hint: {what}{others}."


def _help(piles: Position, rules: Game) -> str:
    if not isinstance(rules, TakeAway):
        return f"Type {rules.typing}. Also: moves (the legal moves), hint (the solver's advice), quit."
    cap = (f"1 to {rules.max_take}" if rules.max_take else "any number") if isinstance(rules, Rules) \
        else rules.takes_words().removesuffix(" objects").removesuffix(" object")
    how = (f"Type how many to take ({cap}), e.g. 2." if len(piles) == 1 else
           f"Type the pile (1-{len(piles)}) and how many to take ({cap}): '2 3' takes 3 from pile 2.")
    return how + " Also: hint (the solver's advice), quit."


def ask_move(console: Console, prompt: str, helped, hinted, listed, read):
    """The move you type at ``prompt`` (``read(text)``: the move, or one sentence why the text
    is none, said before asking again); ``help``, ``hint`` and ``moves`` say what the functions
    give; ``None`` if you quit."""
    while True:
        text = console.ask(prompt)
        command = text.lower()
        if command in ("q", "quit", "exit"):
            return None
        answers = {"help": helped, "?": helped, "h": helped, "hint": hinted, "moves": listed}
        if command in answers:
            console.say(answers[command]())
            continue
        move = read(text)
        if not isinstance(move, str):
            return move
        console.say(move)


def _choose(console: Console, prompt: str, answers: dict, again: str):
    """Ask until the answer is one of ``answers`` (lower-cased keys); return its value."""
    while True:
        text = console.ask(prompt).lower()
        if text in answers:
            return answers[text]
        console.say(again)


def _you_first(console: Console, first: str | None, game: int, rng, name: str) -> bool | None:
    """Do you move first in this game? ``None`` if you quit instead of answering."""
    if first is None:
        first = _choose(console, "Do you want to start? [Y/n/r(andom)]",
                        {"": "you", "y": "you", "yes": "you", "n": "computer", "no": "computer",
                         "r": "random", "random": "random", "q": None, "quit": None},
                        f"Please answer y (you start), n ({name} starts) or r (a coin decides).")
        if first is None:
            return None
    you = {"you": True, "computer": False, "alternate": game % 2 == 1}.get(first)
    coin = you is None
    you = bool(rng.random() < 0.5) if coin else you
    who = "You start" if you else f"{name} starts"
    console.say(f"The coin says: {who}." if coin else f"{who}.")
    return you


def _human_game(console: Console, rules: Game, agent, name: str, you_first: bool, rng) -> bool | None:
    """One game of you against ``agent``; True if you won, None if you quit."""
    piles, moves, seat, you = rules.start, [], 0, 0 if you_first else 1
    take_away = isinstance(rules, TakeAway)
    prompt = "Your move:" if not take_away else "Your move (count):" if len(piles) == 1 else "Your move (pile count):"
    while rules.count_moves(piles):
        console.say(_show(piles, rules))
        if seat == you:
            move = ask_move(console, prompt, lambda: _help(piles, rules), lambda: hint(piles, rules),
                            lambda: wrapped(_legal_list(piles, rules)),
                            lambda text: read_move(text, piles, rules) if isinstance(rules, TakeAway)
                            else read_action(text, piles, rules))
            if move is None:
                return None
        else:
            move = rules.read_move(agent.move(piles, rng))  # the agent's move, in whole numbers
        piles = rules.apply(piles, move)
        moves.append(move)
        console.say(_took("You" if seat == you else name, move, piles, rules))
        seat = 1 - seat
    last = 1 - seat
    if rules.misere:
        console.say(f"{'You' if last == you else name} made the last move." if any(piles) or not take_away else
                    f"{'You' if last == you else name} took the last object.")
    won = rules.winner(last) == you
    console.say("You win!" if won else f"{name} wins.")
    console.say(_record(rules, moves, "you" if you_first else name))
    return won


def play_human(console: Console, rules: Game, agent, name: str, first: str | None, rng) -> int:
    """Games of you against ``agent`` until you stop; the exit status. ``name`` is shown
    printable (:func:`~nim_evo.validation.printable`): a file's name may hold anything."""
    name = printable(name)
    return games_with_you(console, describe(rules), name, first, rng,
                          lambda you_start: _human_game(console, rules, agent, name, you_start, rng))


def games_with_you(console: Console, described: str, name: str, first: str | None, rng, one_game) -> int:
    """Games of you against ``name`` (printable) until you stop, after the game ``described``;
    ``one_game(you_start)`` plays one: True if you won, None if you quit. The exit status."""
    console.say(described)
    console.say(f"You play against {name}. Type help to see how to move.")
    game = 0
    while True:
        game += 1
        console.say(f"— Game {game} —")
        first_here = _you_first(console, first, game, rng, name)
        if first_here is None or one_game(first_here) is None:
            break
        if not _choose(console, "Play again? [Y/n]", {"": True, "y": True, "yes": True, "n": False, "no": False,
                                                      "q": False, "quit": False}, "Please answer y or n."):
            break
    console.say("Goodbye.")
    return 0


def _watch(console: Console, rules: Game, record, names, game: int) -> None:
    """Print one finished game move by move."""
    console.say(f"— Game {game} —")
    console.say(f"{names[0]} moves first, {names[1]} second.")
    positions = record.positions(rules)
    for i, move in enumerate(record.moves):
        console.say(_show(positions[i], rules))
        console.say(_took(names[i % 2], move, positions[i + 1], rules))
    if rules.misere:
        ended = "took the last object" if isinstance(rules, TakeAway) and not any(positions[-1]) else "made the last move"
        console.say(f"{names[(len(record.moves) - 1) % 2]} {ended}.")
    console.say(f"{names[record.winner]} wins. {_record(rules, record.moves, names[0])}")


def play_computers(console: Console, rules: Game, players, names, games: int, first: str, watch: bool,
                   rng) -> int:
    """``games`` games between two agents; prints the wins of each in total and by seat
    (``names`` shown printable, :func:`~nim_evo.validation.printable`)."""
    names = [printable(name) for name in names]
    console.say(describe(rules))
    seats = {"strategy": f"{names[0]} always first", "other": f"{names[1]} always first",
             "alternate": f"taking turns to start, {names[0]} first", "random": "a coin decides who starts"}
    console.say(wrapped(f"{names[0]} against {names[1]}: {games:,} game{'s' * (games != 1)}, {seats[first]}."))
    wins, seated = [[0, 0], [0, 0]], [[0, 0], [0, 0]]  # [player][seat]
    played = 0
    try:
        for game in range(1, games + 1):
            strategy_first = {"strategy": True, "other": False, "alternate": game % 2 == 1}.get(first)
            order = (0, 1) if (rng.random() < 0.5 if strategy_first is None else strategy_first) else (1, 0)
            record = play_game(rules, [players[p] for p in order], rng)
            for seat, player in enumerate(order):
                seated[player][seat] += 1
            wins[order[record.winner]][record.winner] += 1
            played = game
            if watch:
                _watch(console, rules, record, [names[p] for p in order], game)
    except KeyboardInterrupt:
        console.say()
        console.say(f"— Interrupted after {played:,} game{'s' * (played != 1)} —")
        _tally(console, names, wins, seated, played)
        raise
    console.say(f"— Completed {games:,} game{'s' * (games != 1)} —")
    _tally(console, names, wins, seated, games)
    return 0


def _tally(console: Console, names, wins, seated, games: int) -> None:
    """Each player's wins, in total and by seat."""
    width, digits = max(map(len, names)), len(f"{games:,}")
    for player, name in enumerate(names):
        by_seat = ", ".join(f"{wins[player][s]:,} of {seated[player][s]:,} {where}"
                            for s, where in enumerate(("first", "second")) if seated[player][s])
        total = sum(wins[player])
        share = f"{100 * total / games:5.1f}%" if games else "-"
        console.say(f"{name:<{width}}  {total:>{digits},} win{'s' * (total != 1)}, {share} ({by_seat})")
