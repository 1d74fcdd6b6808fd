"""Solver speed: retrograde analysis of piles 1-3-5-7-9-11-13 (645,120 positions), target < 2 s.

Baseline in the same process: a plain memoised recursive solver in Python on a smaller
board (1-3-5-7-9-11, 46,080 positions), against the vectorised solver on that board.

    python benchmarks/solver.py
"""

import sys
import time
from functools import lru_cache

from nim_evo import Rules
from nim_evo.engine.solver import _solve
from nim_evo.engine.space import Space

TARGET_SECONDS = 2.0


def recursive_solve(rules: Rules) -> int:
    """Win/loss of every position by plain recursion; returns how many are wins."""

    @lru_cache(maxsize=None)
    def win(piles):
        if not any(piles):
            return rules.misere
        return any(not win(rules.apply(piles, m)) for m in rules.legal_moves(piles))

    def every(prefix, rest):
        if not rest:
            yield prefix
            return
        for size in range(rest[0] + 1):
            yield from every(prefix + (size,), rest[1:])

    sys.setrecursionlimit(10_000)
    return sum(win(p) for p in every((), rules.piles))


def timed(function, *args):
    began = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - began


def main():
    big = Rules((1, 3, 5, 7, 9, 11, 13))
    solution, seconds = timed(lambda: _solve(Space(big)))  # uncached, space included
    verdict = "OK" if seconds < TARGET_SECONDS else "MISSED"
    print(f"solve {big.name}: {solution.space.n_positions:,} positions in {seconds:.2f} s "
          f"(target < {TARGET_SECONDS:.0f} s: {verdict})")

    small = Rules((1, 3, 5, 7, 9, 11))
    fast, fast_s = timed(lambda: _solve(Space(small)))
    wins, slow_s = timed(recursive_solve, small)
    assert wins == int(fast.win.sum()), "the two solvers disagree"
    print(f"solve {small.name}: {fast.space.n_positions:,} positions, vectorised {fast_s:.3f} s, "
          f"plain recursion {slow_s:.2f} s, ratio {slow_s / fast_s:.0f}x")


if __name__ == "__main__":
    main()
