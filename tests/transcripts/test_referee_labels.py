"""The referee's labels against brute-force minimax written here, with each family's rules written
here too: random games of every family, normal and misère, graded through a nim-evo transcript
file, every label equal to what the brute force says (10^5 moves per board)."""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest

from nim_evo import game
from nim_evo.transcripts.judge import judge
from nim_evo.transcripts.reading import read_transcripts

MOVES_PER_BOARD = 100_000


def _takeaway(allowed):
    def moves(row):
        return [(i, c) for i, h in enumerate(row) for c in range(1, h + 1) if allowed(c)]

    def apply(row, move):
        i, c = move
        return row[:i] + (row[i] - c,) + row[i + 1:]
    return moves, apply


def _vector(legal_vector):
    def moves(row):
        found = []
        for v in np.ndindex(*(h + 1 for h in row)):
            if any(v) and legal_vector(v):
                found.append(tuple(int(x) for x in v))
        return found

    def apply(row, move):
        return tuple(h - t for h, t in zip(row, move))
    return moves, apply


def _split(allowed):
    """(heap, take, part): ``part`` the smaller side (0: one heap of the rest, or none); the row keeps
    the smaller part in the heap's slot and puts the larger in the first empty slot."""
    def moves(row):
        found = []
        for i, h in enumerate(row):
            for take in range(0, h + 1):
                for part in range(0, (h - take) // 2 + 1):
                    rest = h - take - part
                    if allowed(h, take, part, rest) and (part == 0 or 0 in row[:i] + row[i + 1:]):
                        found.append((i, take, part))
        return found

    def apply(row, move):
        i, take, part = move
        rest = row[i] - take - part
        out = list(row)
        if part:
            out[i] = part
            out[next(k for k, h in enumerate(row) if h == 0 and k != i)] = rest
        else:
            out[i] = rest
        return tuple(out)
    return moves, apply


SQUARES = {k * k for k in range(1, 40)}
RULES = {
    "2-3-5-6": _takeaway(lambda c: True),
    "2-3-5-6-misere": _takeaway(lambda c: True),
    "9-7-sub1.3.4": _takeaway(lambda c: c in (1, 3, 4)),
    "7-9-sub2.3-misere": _takeaway(lambda c: c in (2, 3)),
    "13-squares": _takeaway(lambda c: c in SQUARES),
    "6-7-wythoff": _vector(lambda v: (v[0] == 0) != (v[1] == 0) or v[0] == v[1]),
    "4-5-wythoff-misere": _vector(lambda v: (v[0] == 0) != (v[1] == 0) or v[0] == v[1]),
    "3-4-5-moore2": _vector(lambda v: sum(1 for x in v if x) <= 2),
    "9-kayles": _split(lambda h, take, part, rest: take in (1, 2)),
    "8-kayles-misere": _split(lambda h, take, part, rest: take in (1, 2)),
    "10-dawson": _split(lambda h, take, part, rest: take == 2),
    "3-5-7-lasker": _split(lambda h, take, part, rest: (take >= 1 and part == 0) or (take == 0 and part >= 1)),
    "11-grundy": _split(lambda h, take, part, rest: take == 0 and part >= 1 and rest > part),
}


def _brute(name):
    moves, apply = RULES[name]
    misere = name.endswith("-misere")

    @lru_cache(maxsize=None)
    def wins(multiset):
        row = multiset
        children = [tuple(sorted(apply(row, m))) for m in moves(row)]
        if not children:
            return misere  # no move: the player to move has lost (normal) or won (misère)
        return any(not wins(c) for c in children)

    return lambda row: wins(tuple(sorted(row)))


def _games(name, rng):
    """Random games of the board (with the rules written here) until MOVES_PER_BOARD moves:
    their moves as the family's words, and the labels brute force gives them; now and then a
    game ends on a move of the board that is illegal where it is played."""
    board = game(name)
    moves, apply = (lru_cache(maxsize=None)(f) for f in RULES[name])
    wins = _brute(name)
    words = [board.move_of(a) for a in range(board.n_actions)]
    games, labels, total = [], [], 0
    while total < MOVES_PER_BOARD:
        row, played, said = tuple(board.start), [], []
        while True:
            legal = moves(row)
            if rng.random() < 0.01 or (not legal and rng.random() < 0.3):
                illegal = [w for w in words if w not in set(legal)]
                if illegal:
                    played.append(illegal[int(rng.integers(len(illegal)))])
                    said.append("illegal")
                break
            if not legal:
                break
            move = legal[int(rng.integers(len(legal)))]
            after = apply(row, move)
            said.append("forced" if not wins(row) else "blunder" if wins(after) else "winning")
            played.append(move)
            row = after
        games.append(played)
        labels.append(said)
        total += len(played)
    return games, labels


@pytest.mark.parametrize("name", list(RULES))
def test_labels_agree_with_brute_force(name, tmp_path):
    rng = np.random.default_rng(sum(map(ord, name)))
    games, labels = _games(name, rng)
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps({"game": name, "moves": [list(m) for m in g]}) + "\n" for g in games))
    judgement = judge(read_transcripts([path]))
    assert len(judgement.label) == sum(map(len, labels)) >= MOVES_PER_BOARD
    for index, want in enumerate(labels):
        assert judgement.labels(index) == want, (index, games[index])
    said = [label for game_labels in labels for label in game_labels]
    assert {"winning", "blunder", "forced", "illegal"} <= set(said)  # every label is exercised
