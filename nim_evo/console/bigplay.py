"""A person against a strategy on a splitting game's board too big for the engine (twelve rows
of Kayles of 100,000 pins): the position is its heaps, a move is typed ``heap take part``.

The strategies that play there read no board: an evolved program with a heap part (its move
among every child of every heap, :meth:`~nim_evo.genomes.protocol.GenomeKind.child_of`),
``perfect`` (the family's certified Grundy values, :func:`~nim_evo.games.bigheaps.winning_moves`)
and ``random``. ``hint`` asks the theory, ``moves`` says what a heap allows, ``help``
explains, ``quit`` leaves. (A match between two computers would last hundreds of thousands
of moves here, and is not offered.)
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from nim_evo.console.games import ask_move, games_with_you, show_piles
from nim_evo.console.session import Console
from nim_evo.console.text import wrapped
from nim_evo.games import bigheaps
from nim_evo.games.splitting import Split, SplitGame
from nim_evo.genomes.protocol import GenomeKind
from nim_evo.validation import UserError, printable

Mover = Callable[[tuple, np.random.Generator], Split]  # a strategy's move in a position of heaps


def genome_mover(kind: GenomeKind, genes, board: SplitGame) -> Mover:
    """An evolved genome's move among heaps of any size (its kind's
    :meth:`~nim_evo.genomes.protocol.GenomeKind.child_of`: a program's, into the child of
    lowest score among every heap's)."""
    return lambda heaps, rng: bigheaps.move_to(heaps, kind.child_of(genes, board, heaps))


def perfect_mover(board: SplitGame) -> Mover:
    """Perfect play by the family's theory: the first winning move, else the first move."""
    if board.misere:
        raise UserError(f"perfect play on {board.name} is not known here (no theory of misère play past the engine's "
                        "boards): play random or a program file")
    if bigheaps.winning_moves(board, board.heaps) is None:
        raise UserError(f"perfect play on {board.name} needs the Grundy values of heaps up to {max(board.heaps):,}; "
                        f"{board.theory_scope()}")

    def move(heaps, rng):
        return (bigheaps.winning_moves(board, heaps) or [_first_move(board, heaps)])[0]
    return move


def random_mover(board: SplitGame) -> Mover:
    """A mover of uniformly random legal moves on ``board``'s heaps, however big."""
    return lambda heaps, rng: bigheaps.random_move(board, heaps, rng)


def _first_move(board: SplitGame, heaps) -> Split:
    heap = next(i for i, n in enumerate(heaps) if n and bigheaps.moves_from(board, n))
    return (heap, *bigheaps.moves_from(board, heaps[heap])[0])


def read_split(text: str, heaps: tuple, board: SplitGame) -> Split | str:
    """The move a typed line names (``heap take part``, the heap from 1; the part either side
    of the gap), or one sentence saying why it is none."""
    tokens = [t for t in re.split(r"[\s,:;]+", text.strip()) if t]
    if not tokens:
        return f"Type a move: {board.typing}."
    if len(tokens) != 3 or not all(re.fullmatch(r"[0-9]{1,16}", t) for t in tokens):
        shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:37] + "..."
        return f"{shown!r} is not a move: type three whole numbers, {board.typing} (help explains)."
    heap, take, part = (int(t) for t in tokens)
    if not 1 <= heap <= len(heaps) or heaps[heap - 1] == 0:
        return f"There is no heap {heap} (the heaps are numbered as shown)."
    n = heaps[heap - 1]
    if take + part > n:
        return f"Heap {heap} has only {n}."
    move = (heap - 1, take, min(part, n - take - part))  # (the part on either side of the gap)
    if not bigheaps.is_legal(board, heaps, move):
        return f"{heap} {take} {part} cannot be played: {board.move_words}."
    return move


def _said(who: str, move: Split, after: tuple) -> str:
    heap, take, part = move
    left = [n for n in after if n]
    return (f"{who} {'play' if who == 'You' else 'plays'} {heap + 1} {take} {part}, leaving "
            f"{len(left)} heap{'s' * (len(left) != 1)} ({sum(left):,} in all).")


def _moves_text(board: SplitGame, heaps: tuple) -> str:
    sizes = sorted({n for n in heaps if n})
    counts = [f"{n:,}: {len(bigheaps.moves_from(board, n)):,}" for n in sizes[:12]]
    return (f"Moves are {board.typing}. Moves from each heap size (up to 12 shown): " + "; ".join(counts) + ".")


def _hint(board: SplitGame, heaps: tuple) -> str:
    found = bigheaps.winning_moves(board, heaps)
    if found is None:
        return f"Hint: no theory here ({board.theory_scope()})."
    if not found:
        return "Hint: every move loses against perfect play; play on and hope for a mistake."
    heap, take, part = found[0]
    return f"Hint: play {heap + 1} {take} {part}."


def _game(console: Console, board: SplitGame, mover: Mover, name: str, you_start: bool, rng) -> bool | None:
    """One game of you against ``mover``; True if you won, None if you quit."""
    heaps, seat, you, moves = board.heaps, 0, 0 if you_start else 1, 0
    while bigheaps.has_move(board, heaps):
        console.say(show_piles(heaps, max(board.heaps), "heap", empty=False))
        if seat == you:
            move = ask_move(console, "Your move:",
                            lambda: wrapped(f"Type {board.typing}. Also: moves, hint (the theory's advice), quit."),
                            lambda: _hint(board, heaps), lambda: wrapped(_moves_text(board, heaps)),
                            lambda text: read_split(text, heaps, board))
            if move is None:
                return None
        else:
            move = mover(heaps, rng)
        heaps = bigheaps.apply(heaps, move)
        moves += 1
        console.say(_said("You" if seat == you else name, move, heaps))
        seat = 1 - seat
    last = 1 - seat
    won = (last == you) != board.misere
    console.say(f"{'You' if last == you else name} made the last move, after {moves:,} moves.")
    console.say("You win!" if won else f"{name} wins.")
    return won


def play_big(console: Console, board: SplitGame, mover: Mover, name: str, first: str | None, rng) -> int:
    """Games of you against ``mover`` on ``board`` until you stop; the exit status."""
    name = printable(name)
    return games_with_you(console, board.describe(), name, first, rng,
                          lambda you_start: _game(console, board, mover, name, you_start, rng))
