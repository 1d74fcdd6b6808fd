"""The impartial families: the largest board of each solved within 10 s, Grundy values per second,
and a table genome at 100% on a board of each family.

1. Solving: for each family, a ladder of growing boards; the largest whose space (of
   multisets) is found and solved within 10 s, with its position count and time.
2. Grundy values: Kayles' first 4,096 values by nim_evo's mex rule (vectorised over each heap's
   options), beside a plain Python mex loop over the same values in the same process (ratio),
   and beside the published record for octal games (Flammenkamp's and Officers' computations,
   about 5 million values a second on a parallel machine; a figure quoted, not measured here).
3. Evolution: the table genome against random and perfect play, ``--until accuracy=1``, on a
   board of each family (a Kayles row of 20 pins, Wythoff on 20-30, Moore's Nim_2 on 1-3-5-7-9 and
   one board of each other family): generations and seconds to 100%.

    python benchmarks/families.py
"""

import time

import numpy as np

import nim_evo
from nim_evo import evolve
from nim_evo.engine.search import searched_space
from nim_evo.engine.solver import _solve
from nim_evo.engine.space import space_for
from nim_evo.games.splitting import grundy_values

BUDGET = 10.0  # seconds a solve may take
OFFICERS = 5e6  # values a second: the published record for octal games (parallel machine)

LADDERS = {
    "subtraction": [f"{n}-{n}-{n}-sub1.3.4" for n in (10, 20, 30, 40, 60)],
    "squares": [f"{n}-{n}-{n}-squares" for n in (10, 20, 30, 40, 60)],
    "wythoff": [f"{n}-{n}-wythoff" for n in (100, 300, 1000, 2000)],
    "moore": [f"{'-'.join(str(2 * i + 1) for i in range(k))}-moore2" for k in (4, 5, 6, 7)],
    "kayles": [f"{n}-kayles" for n in (30, 40, 50, 60, 70)],
    "dawson": [f"{n}-dawson" for n in (40, 60, 80, 100)],
    "lasker": [f"{n}-{n}-lasker" for n in (6, 8, 10, 12, 14)],
    "grundy": [f"{n}-grundy" for n in (20, 30, 40, 50, 60)],
}
EVOLVED = ["20-kayles", "30-dawson", "20-30-wythoff", "1-3-5-7-9-moore2", "4-5-7-lasker", "15-grundy",
           "10-20-30-squares", "20-20-sub1.3.4"]


def timed(function):
    began = time.perf_counter()
    result = function()
    return result, time.perf_counter() - began


def solve_ladder(names):
    """The largest board of ``names`` solved within the budget (the ladder stops at the first over it)."""
    best = None
    for name in names:
        board = nim_evo.game(name)
        try:
            solution, seconds = timed(lambda: _solve(searched_space(board, multiset=True) if not board.box
                                                     else space_for(board, multiset=True)))
        except nim_evo.UserError as error:
            print(f"  {name}: {error}")
            break
        if seconds > BUDGET:
            print(f"  {name}: {solution.space.n_positions:,} multisets in {seconds:.1f} s, over the budget")
            break
        best = (name, solution.space.n_positions, seconds)
    return best


def plain_mex(count):
    """Kayles' Grundy values by a plain Python loop: each heap's options listed, their mex taken."""
    values = [0] * count
    for n in range(1, count):
        seen = set()
        for take in (1, 2):
            for part in range(0, (n - take) // 2 + 1):
                seen.add(values[part] ^ values[n - take - part])
        values[n] = next(v for v in range(len(seen) + 1) if v not in seen)
    return values


def main():
    print("1. the largest board of each family solved within 10 s (spaces of multisets, search included)")
    for family, names in LADDERS.items():
        best = solve_ladder(names)
        print(f"{family:12} {best[0]:24} {best[1]:>10,} multisets  {best[2]:5.2f} s" if best else f"{family}: none")

    print("\n2. Grundy values of Kayles, heaps 0 to 4,095")
    count = 4096
    board = nim_evo.game("8-kayles")
    ours, ours_s = timed(lambda: grundy_values(board, count).values)
    plain, plain_s = timed(lambda: plain_mex(count))
    assert list(ours) == plain, "the two computations disagree"
    print(f"nim_evo: {count / ours_s:,.0f} values/s ({ours_s:.2f} s); plain Python mex loop: {count / plain_s:,.0f} "
          f"values/s ({plain_s:.2f} s); ratio {plain_s / ours_s:.1f}x; the published record (quoted): "
          f"{OFFICERS:,.0f} values/s, {OFFICERS * ours_s / count:,.0f}x ours")
    certified, certified_s = timed(lambda: board.heap_values(64))
    print(f"Kayles' period certified (Guy-Smith) in {certified_s:.3f} s: {certified.periodic.period} from "
          f"{certified.periodic.preperiod}: every heap size known")

    print("\n3. a table genome against random and perfect play, until accuracy=1")
    for name in EVOLVED:
        run, seconds = timed(lambda: evolve("table", nim_evo.game(name), opponents=["random", "perfect"],
                                            until="accuracy=1", generations=500, seed=0, progress=False))
        print(f"{name:20} {len(run.logbook) - 1:>4} generations  {seconds:6.1f} s  accuracy {run.accuracy:.4f}")
    print(f"(numpy {np.__version__})")


if __name__ == "__main__":
    main()
