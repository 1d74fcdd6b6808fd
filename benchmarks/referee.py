"""The referee's speed: graded moves a second, in arrays, beside a move-at-a-time loop.

For each board (Nim as GTBench and OpenSpiel play it, seven heaps of Nim, and heap games judged
by their Grundy tables: Kayles rows, a subtraction game, Dawson's Kayles), random games of random
legal moves (about 10^6 moves a board) are graded three ways in one process:

1. ``judge``: the referee's core on records of action ids (replay in lockstep, the oracle in one
   call per board, labels in arrays);
2. end to end: the same games written as nim_evo's JSON Lines, read and judged
   (``read_transcripts`` + ``judge``, what ``nim-evo referee`` does before printing);
3. a move-at-a-time loop (the baseline): for each move, ``game.apply_action`` and the oracle asked
   about the position before and after it, one position at a time, as a referee written the
   obvious way would; run on the first 20,000 moves and reported per second.

    python benchmarks/referee.py
"""

import json
import tempfile
import time
from pathlib import Path

import numpy as np

import nim_evo
from nim_evo.engine.oracle import Oracle
from nim_evo.transcripts.judge import judge
from nim_evo.transcripts.reading import read_transcripts
from nim_evo.transcripts.record import Record

BOARDS = ["1-3-5-7-misere", "1-3-5-7-9-11-13", "20-20-20-kayles", "30-30-30-sub1.3.4", "40-40-dawson"]
MOVES = 1_000_000
LOOP_MOVES = 20_000
ROUNDS = 3  # each timing repeated, the fastest kept


def random_games(game, moves: int, rng) -> list[list[int]]:
    """Whole games of uniformly random legal moves, played in lockstep, until ``moves`` moves."""
    games: list[list[int]] = []
    total = 0
    while total < moves:
        batch = 4096
        positions = np.tile(np.asarray(game.start, dtype=np.int64), (batch, 1))
        histories: list[list[int]] = [[] for _ in range(batch)]
        active = np.arange(batch)
        while len(active):
            legal = game.legal_mask(positions[active])
            alive = legal.any(axis=1)
            active, legal = active[alive], legal[alive]
            if not len(active):
                break
            choice = (rng.random(legal.shape) * legal).argmax(axis=1)
            positions[active] = game.step(positions[active], choice)[0]
            for row, action in zip(active.tolist(), choice.tolist()):
                histories[row].append(action)
        games += histories
        total += sum(map(len, histories))
    return games


def fastest(function):
    best, result = float("inf"), None
    for _ in range(ROUNDS):
        began = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - began)
    return result, best


def loop(game, oracle, games, limit):
    """The baseline: one move at a time."""
    labels, done = [], 0
    for actions in games:
        position = tuple(game.start)
        for action in actions:
            before = bool(oracle.wins(np.array([position]))[0])
            if not game.is_legal_action(position, action):
                labels.append("illegal")
                break
            position = game.apply_action(position, action)
            after = bool(oracle.wins(np.array([position]))[0])
            labels.append("forced" if not before else "blunder" if after else "winning")
            done += 1
            if done >= limit:
                return labels
    return labels


def main():
    rng = np.random.default_rng(0)
    print(f"{'board':<20} {'moves':>10} {'judge':>14} {'file, end to end':>18} {'one at a time':>15} {'ratio':>7}")
    for name in BOARDS:
        game = nim_evo.game(name)
        games = random_games(game, MOVES, rng)
        moves = sum(map(len, games))
        records = [Record(game, "benchmark", ("a", "b"), f"game {k}", actions=g) for k, g in enumerate(games)]
        judged, seconds = fastest(lambda: judge(records))
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "games.jsonl"
            path.write_text("".join(json.dumps({"game": name, "actions": g}) + "\n" for g in games))
            _, end_to_end = fastest(lambda: judge(read_transcripts([path])))
        oracle = Oracle(game)
        began = time.perf_counter()
        slow = loop(game, oracle, games, LOOP_MOVES)
        loop_rate = len(slow) / (time.perf_counter() - began)
        assert [["winning", "blunder", "forced", "illegal"][c] for c in judged.label[:len(slow)]] == slow
        rate = moves / seconds
        print(f"{name:<20} {moves:>10,} {rate:>10,.0f} m/s {moves / end_to_end:>14,.0f} m/s "
              f"{loop_rate:>11,.0f} m/s {rate / loop_rate:>6,.0f}x")


if __name__ == "__main__":
    main()
