"""A published LLM benchmark's transcripts (PigBench, github.com/1a3orn/winning-pig-eval): its
``full_results.json``, the games a model played first against MCTS, as chat messages.

Each entry (one game) has ``game_class_name``, ``model``, ``mcts_iterations``, ``invalid_moves``
and ``messages``: the model's moves are what its answers hold inside ``<move>...</move>`` (the
harness reads the first such pair), MCTS's are the ``... made move X`` its next prompt reports.
A move the harness refused is not in the messages (the game ends with ``invalid_moves`` 1): it
is graded as an illegal move whose text was not recorded. The benchmark's other titles (tic-tac-toe,
Domineering, Connect 3, Coin Counter) are skipped: they are no heap games. A title names its
board: ``--game`` does not apply. Its seven impartial titles, each in
its own move texts, and the nim_evo board that plays it:

=====================  ==================  ============================================  =========
game_class_name        board               a move                                        play
=====================  ==================  ============================================  =========
BookNim (Easy, Hard)   3-4-5 (1-3-4,       ``shelf,books`` (shelves from 0)              misère
                       2-4-5)
CountToTwentyOne       21-sub1.2.3         ``n``: count up to n (1 to 3 more)            normal
SubtractSquare         13-squares          ``k``: subtract the square k                  normal
WythofsNim             5-6-wythoff         ``pile,tokens`` or ``both,tokens``            normal
GrundysGame            11-grundy           ``heap:a,b``: split heap (sorted, largest     normal
                                           first) into a and b
Kayles                 8-kayles            ``pin`` or ``pin,pin`` (adjacent; from 0)     normal
TurningTurtles         Nim 1-2-3-4-5       ``coin`` or ``left,coin`` (flip heads coin to  normal
                                           tails, and optionally one to its left)
=====================  ==================  ============================================  =========

Turning Turtles is Nim in disguise: a coin showing heads at position ``i`` (from 0) is a heap of
``i + 1`` (a flip of two heads removes two heaps, worth the same as a Nim move), so its rows are
graded as Nim positions, and its objects are the coins showing heads.
"""

from __future__ import annotations

import re

import numpy as np

from nim_evo.games.base import Game
from nim_evo.games.registry import game as game_named
from nim_evo.io import parse_json
from nim_evo.transcripts.formats.common import graded_as
from nim_evo.transcripts.record import MAX_PLIES, Record, TranscriptError
from nim_evo.validation import UserError, shown

NAME = "pigbench"
UNRECORDED = "(refused by the harness; its text is not recorded)"
_THEIRS = re.compile(r"(?:Your opponent made move (\S+)\n|The opponent made move (.+?)\. The game state is)")
BOARDS = {"BookNim": "3-4-5-misere", "BookNimEasy": "1-3-4-misere", "BookNimHard": "2-4-5-misere",
          "CountToTwentyOne": "21-sub1.2.3", "SubtractSquare": "13-squares", "WythofsNim": "5-6-wythoff",
          "GrundysGame": "11-grundy", "Kayles": "8-kayles", "TurningTurtles": "1-2-3-4-5"}
RULES = {"BookNim": "whoever takes the last book loses", "CountToTwentyOne": "whoever says 21 wins",
         "SubtractSquare": "whoever reaches 0 wins", "WythofsNim": "whoever takes the last token wins",
         "GrundysGame": "the last player able to move wins", "Kayles": "whoever removes the last pin wins",
         "TurningTurtles": "whoever flips the last heads coin wins"}


class Illegal(Exception):
    """A move that is no legal move in the harness's rules (its text said by the caller)."""


class Title:
    """One title's state as the harness keeps it, and each move text read as an action of the board."""

    def __init__(self, board: Game):
        self.board = board
        self.row = tuple(board.start)

    def action(self, text: str) -> int:
        """The board's action of the move ``text``, legal where it is played (:class:`Illegal` else)."""
        raise NotImplementedError

    def play(self, text: str) -> int:
        """The action of the move ``text`` on nim_evo's board, played on the row; :class:`Illegal`
        for a move the board does not allow."""
        action = self.action(text)
        if not self.board.is_legal_action(self.row, action):
            raise Illegal
        self.row = self.board.apply_action(self.row, action)
        return action


def _numbers(text: str, pattern: str) -> tuple[int, ...]:
    match = re.fullmatch(pattern, text.strip())
    if not match or any(len(group) > 18 for group in match.groups() if group):  # no heap that big
        raise Illegal
    return tuple(int(group) for group in match.groups() if group is not None)


def _of(board: Game, move) -> int:
    try:
        return board.action_of(move)
    except UserError:
        raise Illegal from None


class BookNim(Title):
    def action(self, text):
        shelf, books = _numbers(text, r"([0-9]+),([0-9]+)")
        return _of(self.board, (shelf, books))


class CountToTwentyOne(Title):
    def action(self, text):
        (target,) = _numbers(text, r"([0-9]+)")
        return _of(self.board, (0, target - (21 - self.row[0])))


class SubtractSquare(Title):
    def action(self, text):
        (square,) = _numbers(text, r"([0-9]+)")
        return _of(self.board, (0, square))


class WythofsNim(Title):
    def action(self, text):
        if text.strip().startswith("both,"):
            (tokens,) = _numbers(text.strip()[len("both,"):], r"([0-9]+)")
            return _of(self.board, (tokens, tokens))
        pile, tokens = _numbers(text, r"([0-9]+),([0-9]+)")
        if pile not in (0, 1):
            raise Illegal
        return _of(self.board, (tokens, 0) if pile == 0 else (0, tokens))


class GrundysGame(Title):
    """The harness keeps its heaps sorted, largest first, after each move; nim_evo's row keeps its own order."""

    def __init__(self, board: Game):
        super().__init__(board)
        self.heaps = [n for n in board.start if n]

    def action(self, text):
        index, a, b = _numbers(text, r"([0-9]+):([0-9]+),([0-9]+)")
        if index >= len(self.heaps) or a + b != self.heaps[index] or a == b or not a or not b:
            raise Illegal
        return _of(self.board, (self.row.index(self.heaps[index]), 0, min(a, b)))

    def play(self, text):
        """As :meth:`Title.play`, the harness's sorted heaps kept too."""
        action = super().play(text)
        index, a, b = _numbers(text, r"([0-9]+):([0-9]+),([0-9]+)")
        self.heaps[index:index + 1] = [a, b]
        self.heaps.sort(reverse=True)
        return action


class Kayles(Title):
    """The harness's row of pins (standing or not); nim_evo's row holds the runs of standing pins."""

    def __init__(self, board: Game):
        super().__init__(board)
        self.pins = [True] * board.start[0]

    def _removed(self, text):
        pins = _numbers(text, r"([0-9]+)(?:,([0-9]+))?")
        if any(p >= len(self.pins) or not self.pins[p] for p in pins) or (len(pins) == 2 and abs(pins[0] - pins[1]) != 1):
            raise Illegal
        return min(pins), max(pins)

    def action(self, text):
        low, high = self._removed(text)
        start = low
        while start and self.pins[start - 1]:
            start -= 1
        end = high + 1
        while end < len(self.pins) and self.pins[end]:
            end += 1
        left, right = low - start, end - high - 1
        return _of(self.board, (self.row.index(end - start), high - low + 1, min(left, right)))

    def play(self, text):
        """As :meth:`Title.play`, the harness's pins kept too."""
        action = super().play(text)
        low, high = self._removed(text)
        self.pins[low:high + 1] = [False] * (high - low + 1)
        return action


TITLES: dict[str, type[Title]] = {"BookNim": BookNim, "BookNimEasy": BookNim, "BookNimHard": BookNim,
                                  "CountToTwentyOne": CountToTwentyOne, "SubtractSquare": SubtractSquare,
                                  "WythofsNim": WythofsNim, "GrundysGame": GrundysGame, "Kayles": Kayles}


def read(text: str, path: str, game: str | None, convention: str | None) -> list[Record]:
    """PIG-bench's transcript ``text`` (the file ``path``) as records; ``game`` and ``convention``:
    as given, where the file does not say."""
    data = parse_json(text, path)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise TranscriptError(path, "PigBench's full_results.json is a list of games")
    records, others = [], []
    for number, entry in enumerate(data, 1):
        where = f"{path}: game {number}"
        if not isinstance(entry, dict) or not isinstance(entry.get("messages"), list):
            raise TranscriptError(where, "a PigBench game is an object with game_class_name and messages")
        title = entry.get("game_class_name")
        if not isinstance(title, str):
            raise TranscriptError(where, f"game_class_name is a title's class name, got {shown(title)}")
        if title not in BOARDS:  # its partisan and board games (tic-tac-toe, Domineering, Connect 3): no theory here
            others.append(title)
            continue
        records.append(_record(entry, title, where, convention))
    if others and not records:
        known = ", ".join(sorted(BOARDS))
        raise TranscriptError(path, f"no impartial title in it (it holds {', '.join(sorted(set(others)))}; "
                                    f"nim_evo grades {known})")
    return records


def _moves(entry: dict, where: str) -> list[str]:
    """The moves in order: the model's answers' ``<move>`` texts and MCTS's reported moves."""
    moves = []
    for k, message in enumerate(entry["messages"]):
        if not (isinstance(message, dict) and isinstance(message.get("content"), str)
                and message.get("role") in ("user", "assistant")):
            raise TranscriptError(where, f"message {k + 1} is not a chat message with a role and a content")
        content = message["content"]
        if message["role"] == "assistant":
            start, end = content.find("<move>"), content.find("</move>")
            if start < 0 or end < start:
                raise TranscriptError(where, f"message {k + 1}, the model's, holds no <move>...</move>")
            moves.append(content[start + len("<move>"):end].strip())
        elif k:
            found = _THEIRS.findall(content)
            if not found:
                raise TranscriptError(where, f"message {k + 1} reports no move of the opponent ('made move ...')")
            moves.append(next(m for m in found[-1] if m).strip())
    return moves


def _record(entry: dict, title: str, where: str, convention: str | None) -> Record:
    board = game_named(BOARDS[title])  # a title names its board (--game is for transcripts that name none)
    if title == "TurningTurtles" and convention == "misere":
        raise TranscriptError(where, "Turning Turtles is graded as the Nim it is, which holds in normal play only: "
                                     "misère Turning Turtles is another game", board)
    harness = f"PigBench's {title}: " + RULES.get(title, RULES["BookNim"])
    board, why = graded_as(board, convention, harness)
    players = (str(entry.get("model", "model")), f"mcts({entry.get('mcts_iterations', '?')})")
    moves = _moves(entry, where)
    if len(moves) > MAX_PLIES:
        raise TranscriptError(where, f"{len(moves):,} moves in one game; nim_evo reads at most {MAX_PLIES:,}", board)
    if title == "TurningTurtles":
        return _turtles(board, why, players, where, moves, entry)
    record = Record(board, why, players, where, actions=[], texts=list(moves))
    state = TITLES[title](board)
    for text in moves:
        try:
            record.actions.append(state.play(text))  # type: ignore[union-attr]
        except Illegal:
            record.illegal = text
            break
    if record.illegal is None and entry.get("invalid_moves"):
        record.illegal = UNRECORDED
    return record


def _turtles(board: Game, why: str, players, where: str, moves: list[str], entry: dict) -> Record:
    """Turning Turtles' coins, graded as Nim rows (heads at ``i``: a heap of ``i + 1``)."""
    coins = [True] * board.width
    rows, objects, illegal = [_row(coins)], [sum(coins)], None
    for text in moves:
        try:
            flips = _numbers(text, r"([0-9]+)(?:,([0-9]+))?")
        except Illegal:
            illegal = text
            break
        right = flips[-1]
        if right >= len(coins) or not coins[right] or (len(flips) == 2 and not flips[0] < right):
            illegal = text
            break
        coins[right] = False
        if len(flips) == 2:
            coins[flips[0]] = not coins[flips[0]]
        rows.append(_row(coins))
        objects.append(sum(coins))
    if illegal is None and entry.get("invalid_moves"):
        illegal = UNRECORDED
    return Record(board, why, players, where, positions=np.array(rows, dtype=np.int64),
                  objects=np.array(objects[:len(rows) - 1] + ([objects[-1]] if illegal is not None else []),
                                   dtype=np.int64), illegal=illegal, texts=list(moves))


def _row(coins: list[bool]) -> tuple[int, ...]:
    return tuple(i + 1 if heads else 0 for i, heads in enumerate(coins))
