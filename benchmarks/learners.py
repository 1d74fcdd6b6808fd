"""The learners against their seeds' published figures, and Q-learning's training speed.

Each learner trains on its own seed's game with the seed's budget and parameters, over
five seeds (0 to 4), and our figure is printed beside the published one:

- 001 (wincount): heap 21, take 1-3, normal play, 100,000 games against each opponent
  with the seed's seating (the loser of a game starts the next); the published "W/L ratio"
  is the share of wins in a block of 10,000 games, here the last block. The opponents
  are the seed's own: its expert (``heap % 4`` or a random take) and random player both
  draw ``min(heap, randint(1, 3))``, which favours taking the whole of a small heap.
- 000 (subgame): heap 17 take 1-3 misère and heap 20 take 1-4 misère, 5,000 self-play
  games. The seed's "more than 98% accurate in all cases" is the smallest probability
  its learned distribution gives to the winning move over the winning heaps (its report
  printed one line per heap); printed with the share of winning heaps whose most probable
  move wins.
- 002 (qlearning): 2-3-4-5 misère over multisets (the seed sorted its rows), the
  30,000-game epsilon schedule, the seed's exploration (a (row, value) pair of its whole
  grid, drawn again while no legal move), seeds 1 to 5 (the issue's target: a mean of at
  least 0.97). Two counts: the seed's own (its table's rows, the 75 sorted winning
  positions, each once: share whose greedy move wins) and ours (every winning position
  of the board). Also with uniform exploration, to show what the retry loop is worth,
  and over ordered positions, to show what sorting is worth.
- 003 (quality): 7-5-3 normal play, 15,000 self-play games; the same share.
- 004 (td, montecarlo): 1-3-5-7-9, 5,000 training games against random, TD as first
  player and Monte Carlo with the previous game's loser starting (the seed's settings);
  the exact probability that greedy play beats random from the start as first player
  (the seed measured 1,000 games).

Speed: Q-learning self-play games per second through the 30,000-game schedule on
1-3-5-7-9 on one core (target >= 5,000), with the ratio to a baseline in the same process:
the same schedule in the seed's structure, a dict keyed by (position string, move) and a
Python scan of the moves at each turn.

    python benchmarks/learners.py            # the measurement (a few minutes on 2 cores)
    python benchmarks/learners.py --quick    # one seed, a tenth of each budget
"""

import argparse
import time

import numpy as np
from joblib import Parallel, delayed

from nim_evo import Rules, make_agent
from nim_evo.engine.solver import solve
from nim_evo.engine.space import space_for
from nim_evo.evaluation.exact import win_probabilities
from nim_evo.learners import make_learner
from nim_evo.learners.qlearning import SCHEDULE

SEEDS = (0, 1, 2, 3, 4)
Q_SEEDS = (1, 2, 3, 4, 5)  # seed 002's figure is judged over these
SPEED_TARGET = 5000


def seed001_opponent(rules: Rules, expert: bool) -> np.ndarray:
    """Seed 001's opponents as a policy table: ``min(heap, randint(1, 3))``, or the expert's
    ``heap % 4`` where that is a move."""
    space = space_for(rules)
    table = np.zeros((space.n_positions, space.n_moves))
    for index in range(1, space.n_positions):
        heap = space.position(index)[0]
        if expert and heap % 4:
            table[index, space.move_index((0, heap % 4))] = 1.0
            continue
        for take in (1, 2, 3):
            table[index, space.move_index((0, min(heap, take)))] += 1 / 3
    return table


def wincount(opponent: str, seed: int, scale: float) -> float:
    rules = Rules((21,), max_take=3)
    table = {"expert": seed001_opponent(rules, True), "random": seed001_opponent(rules, False),
             "take-3": make_agent("take-3", rules)}[opponent]
    learner = make_learner("wincount", rules)
    won = learner.train(int(100_000 * scale), np.random.default_rng(seed), table, seat="loser")
    return float(won[-int(10_000 * scale):].mean())


def subgame(heap: int, cap: int, seed: int, scale: float) -> tuple[float, float]:
    rules = Rules((heap,), max_take=cap, misere=True)
    learner = make_learner("subgame", rules)
    learner.train(int(5000 * scale), np.random.default_rng(seed))
    solution, space = solve(rules), learner.space
    winners = np.flatnonzero(solution.win & (space.totals > 0))
    learner.stochastic = True
    table = learner.policy(space)
    least = float((table[winners] * solution.winning[winners]).sum(axis=1).min())
    learner.stochastic = False
    return least, solution.accuracy(learner.policy(space))


def greedy_accuracy(name: str, game: str, episodes: int, seed: int, **params) -> float:
    rules = Rules.parse(game)
    learner = make_learner(name, rules, **params)
    learner.train(episodes, np.random.default_rng(seed))
    return solve(rules).accuracy(learner.policy(learner.space))


def qlearning(seed: int, scale: float, exploration: str, symmetry: bool = True) -> tuple[float, float]:
    """``(the seed's count, ours)`` after the schedule on 2-3-4-5 misère."""
    rules = Rules.parse("2-3-4-5-misere")
    learner = make_learner("qlearning", rules, exploration=exploration, symmetry=symmetry)
    learner.train(int(30_000 * scale), np.random.default_rng(seed))
    if symmetry:
        space = space_for(rules, multiset=True)  # the seed's sorted rows
        solution, table = solve(space), learner.policy(space)
        rows = space.totals > 0
    else:  # an order-reading table is judged where it plays: the seed's rows are its sorted positions
        space = space_for(rules)
        solution, table = solve(space), learner.policy(space)
        rows = (space.totals > 0) & np.all(np.diff(space.positions, axis=1) >= 0, axis=1)
    winners = np.flatnonzero(solution.win & rows)
    right = (table[winners] * solution.winning[winners]).sum(axis=1)
    return float(np.mean(np.isclose(right, 1.0))), solution.accuracy(table)


def versus_random(name: str, seed: int, scale: float) -> float:
    rules = Rules.parse("1-3-5-7-9")
    learner = make_learner(name, rules)
    seat = "first" if name == "td" else "loser"
    learner.train(int(5000 * scale), np.random.default_rng(seed), "random", seat=seat)
    space = learner.space
    return float(win_probabilities(space, learner.policy(space), make_agent("random", rules))[space.start, 0])


def qlearning_speed(scale: float) -> float:
    """Games per second through the seed's epsilon schedule (scaled), on 1-3-5-7-9."""
    schedule = [(int(games * scale), epsilon) for games, epsilon in SCHEDULE]
    learner = make_learner("qlearning", Rules.parse("1-3-5-7-9"), schedule=tuple(schedule))
    began = time.perf_counter()
    learner.train(sum(games for games, _ in schedule), np.random.default_rng(0))
    return sum(games for games, _ in schedule) / (time.perf_counter() - began)


def seedlike_speed(scale: float) -> float:
    """The same schedule in the seed's structure: a dict of scores keyed by (position
    string, move), the moves listed and scanned in Python at each turn."""
    rules = Rules.parse("1-3-5-7-9")
    rng = np.random.default_rng(0)
    scores = {}
    games = 0
    began = time.perf_counter()
    for steps, epsilon in SCHEDULE:
        for _ in range(int(steps * scale)):
            piles, history, to_move = list(rules.piles), ([], []), 0
            while any(piles):
                key = "-".join(map(str, piles))
                moves = [(i, k) for i, n in enumerate(piles) for k in range(1, n + 1)]
                if rng.random() < epsilon:
                    move = moves[rng.integers(len(moves))]
                else:
                    move = max(moves, key=lambda m: scores.get((key, m), 0))
                history[to_move].append((key, move))
                piles[move[0]] -= move[1]
                to_move ^= 1
            winner = to_move ^ 1  # normal play: the player who took the last object
            for seat in (0, 1):
                for cell in history[seat]:
                    scores[cell] = scores.get(cell, 0) + (1 if seat == winner else -1)
            games += 1
    return games / (time.perf_counter() - began)


def summary(values) -> str:
    values = np.asarray(values, dtype=float)
    return f"{values.mean():.4f} (seeds: {', '.join(f'{v:.4f}' for v in values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one seed, a tenth of each budget")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    seeds, scale = ((0,), 0.1) if args.quick else (SEEDS, 1.0)
    q_seeds = Q_SEEDS[:1] if args.quick else Q_SEEDS
    tasks = {}
    for seed in seeds:
        for opponent in ("expert", "random", "take-3"):
            tasks[("001", opponent, seed)] = delayed(wincount)(opponent, seed, scale)
        for heap, cap in ((17, 3), (20, 4)):
            tasks[("000", (heap, cap), seed)] = delayed(subgame)(heap, cap, seed, scale)
    for seed in q_seeds:
        for exploration in ("retry", "uniform"):
            tasks[("002", exploration, seed)] = delayed(qlearning)(seed, scale, exploration)
        tasks[("002", "ordered", seed)] = delayed(qlearning)(seed, scale, "retry", symmetry=False)
    for seed in seeds:
        tasks[("003", None, seed)] = delayed(greedy_accuracy)("quality", "7-5-3", int(15_000 * scale), seed)
        for name in ("td", "montecarlo"):
            tasks[("004", name, seed)] = delayed(versus_random)(name, seed, scale)
    began = time.perf_counter()
    results = dict(zip(tasks, Parallel(n_jobs=args.jobs)(tasks.values())))
    of = lambda key, what: [results[(key, what, s)] for s in seeds]  # noqa: E731
    print(f"learners against their seeds ({len(seeds)} seed(s), budget x{scale}; {time.perf_counter() - began:.0f} s)\n")
    print("001 wincount, heap 21 take 1-3, share of wins in the last 10,000 of 100,000 games:")
    for opponent, published in (("expert", "0.4995"), ("random", "about 0.96"), ("take-3", "about 1.0")):
        print(f"  vs {opponent:<7} ours {summary(of('001', opponent))}   published {published}")
    print("000 subgame, 5,000 self-play games, misère:")
    for (heap, cap), published in (((17, 3), "> 0.98"), ((20, 4), ">= 0.83")):
        least = [r[0] for r in of("000", (heap, cap))]
        share = [r[1] for r in of("000", (heap, cap))]
        print(f"  heap {heap} take 1-{cap}: least probability of the winning move {summary(least)}   "
              f"published {published}")
        print(f"  {'':18}winning heaps whose most probable move wins {summary(share)}")
    print(f"002 qlearning, 2-3-4-5 misère, 30,000 games, seeds {', '.join(map(str, q_seeds))}, winning positions "
          "whose greedy move wins:")
    for what, label in (("retry", "multisets, retry exploration"), ("uniform", "multisets, uniform exploration"),
                        ("ordered", "ordered positions, retry")):
        counts = [results[("002", what, s)] for s in q_seeds]
        print(f"  {label:<31} the seed's count (75 sorted positions) {summary([c[0] for c in counts])}"
              f"   published: all")
        print(f"  {'':31} every winning position of the board {summary([c[1] for c in counts])}")
    print(f"003 quality, 7-5-3, 15,000 games: winning positions with a winning greedy move "
          f"{summary(of('003', None))}   published: 'a good strategy'")
    for name in ("td", "montecarlo"):
        published = "0.80" if name == "td" else "none"
        print(f"004 {name:<10} 1-3-5-7-9, 5,000 games vs random: greedy first player beats random "
              f"{summary(of('004', name))}   published {published}")
    ours, baseline = qlearning_speed(scale), seedlike_speed(scale)
    ok = "OK" if ours >= SPEED_TARGET else "MISSED"
    print(f"\nqlearning self-play on 1-3-5-7-9, one core: {ours:,.0f} games/s (target >= {SPEED_TARGET:,}: {ok}); "
          f"seed-style dict baseline {baseline:,.0f} games/s; ratio {ours / baseline:.1f}x")


if __name__ == "__main__":
    main()
