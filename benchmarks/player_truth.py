"""One player, one truth, measured: do the figures nim_evo reports describe the player that plays?

Not a speed benchmark: three agreement figures, for any checkout of nim_evo (the API it reads
is the same before and after issue 27), so that a version's figures can be set beside another's.

Usage: python benchmarks/player_truth.py   (about 5 s; prints three figures)
1. learners: distribution(piles) vs the row of policy(ordered space), share of positions that disagree
2. nimsum's exact sub-game win rate vs a td learner and a duck-typed FirstPile, ordered vs multiset
3. program genomes: win rate judged on multisets (fitness's view) vs the concrete moves on the ordered board
"""
import statistics
import sys
import time
import traceback

import numpy as np

import nim_evo
from nim_evo import Rules
from nim_evo.agents import make_agent
from nim_evo.agents.base import PositionalAgent
from nim_evo.engine.space import space_for
from nim_evo.evaluation.tournament import tournament
from nim_evo.genomes import GenomeAgent
from nim_evo.genomes import program
from nim_evo.learners import LEARNERS, make_learner

TOL = 1e-9
TRAIN = 2000          # self-play games for figure 1
TD_TRAIN = 5000       # self-play games for figure 2's td
N_PROGRAMS = 20       # figure 3
MISERE = Rules((2, 3, 4, 5), misere=True)
CAPPED = Rules((1, 3, 6), max_take=2)


def section(title):
    print(f"\n=== {title} ===", flush=True)


def guarded(fn, *args):
    """Run one measurement; an exception is printed (one line plus the last frame) instead of ending the script."""
    try:
        return fn(*args)
    except Exception as error:  # noqa: BLE001 - a changed package may raise anything
        frame = traceback.extract_tb(error.__traceback__)[-1]
        print(f"  ERROR {type(error).__name__}: {error} [{frame.filename}:{frame.lineno}]", flush=True)
        return None


# -- figure 1 ------------------------------------------------------------------------------------------------------
def disagreement(name, rules, symmetry):
    """Share of non-empty ordered positions where distribution(piles) != policy(ordered)[row], or is illegal."""
    learner = make_learner(name, rules, symmetry=symmetry)
    learner.train(TRAIN, np.random.default_rng(1))
    space = space_for(rules, multiset=False)
    table = learner.policy(space)
    bad = illegal = 0
    for index in range(1, space.n_positions):
        piles = tuple(int(p) for p in space.positions[index])
        dist = {}
        for move, p in learner.distribution(piles):
            move = (int(move[0]), int(move[1]))
            dist[move] = dist.get(move, 0.0) + float(p)
        dist = {m: p for m, p in dist.items() if p > TOL}
        row = {space.move(int(k)): float(table[index, k]) for k in np.flatnonzero(table[index] > TOL)}
        is_illegal = any(not rules.is_legal(piles, m) for m in dist)
        differ = set(dist) != set(row) or any(abs(dist[m] - row[m]) > TOL for m in dist)
        illegal += is_illegal
        bad += is_illegal or differ
    n = space.n_positions - 1
    return bad / n, illegal / n, n


def figure1():
    section(f"1. learner.distribution(piles) vs learner.policy(ordered space) row, {TRAIN} self-play games, rng 1")
    boards = (MISERE, CAPPED)
    for symmetry in (True, False):
        print(f"\nsymmetry={symmetry}: share of positions that disagree (of which an illegal move)")
        print(f"  {'learner':<11}" + "".join(f"{r.name:>28}" for r in boards))
        for name in LEARNERS:
            cells = []
            for rules in boards:
                result = guarded(disagreement, name, rules, symmetry)
                cells.append("error" if result is None else
                             f"{result[0]:7.2%} ({result[1]:6.2%} illegal) /{result[2]}")
            print(f"  {name:<11}" + "".join(f"{c:>28}" for c in cells), flush=True)


# -- figure 2 ------------------------------------------------------------------------------------------------------
class FirstPile(PositionalAgent):
    """Take one object from the first non-empty pile (reads pile order)."""

    name = "first-pile"

    def distribution(self, piles):
        for i, n in enumerate(piles):
            if n > 0:
                return [((i, 1), 1.0)]
        return []


class FirstPileDuck:
    """The same player, duck-typed (no base class): only rules, name and distribution."""

    name = "first-pile-duck"

    def __init__(self, rules):
        self.rules = rules

    def distribution(self, piles):
        return FirstPile.distribution(self, piles)


def rate(rules, player, opponent, multiset):
    return tournament(rules, player, [opponent], exact=True, starts="all", multiset=multiset)[0].win_rate


def figure2():
    rules = MISERE
    section(f"2. nimsum's exact sub-game win rate (starts=all, both seats) on {rules.name}")
    nimsum = make_agent("nimsum", rules)
    td = make_learner("td", rules, symmetry=False)
    td.train(TD_TRAIN, np.random.default_rng(1))
    print(f"  td: name={td.name!r} symmetry={td.symmetry} games={td.games_played}")
    print(f"  {'opponent':<18}{'ordered':>10}{'multisets':>11}{'diff (pts)':>12}")
    for opponent in (td, FirstPile(rules), FirstPileDuck(rules)):
        a = guarded(rate, rules, nimsum, opponent, False)
        b = guarded(rate, rules, nimsum, opponent, True)
        diff = f"{100 * (b - a):+.2f}" if a is not None and b is not None else "-"
        label = getattr(opponent, "name", type(opponent).__name__)
        print(f"  {label:<18}{a if a is None else f'{a:.4f}':>10}{b if b is None else f'{b:.4f}':>11}{diff:>12}",
              flush=True)


# -- figure 3 ------------------------------------------------------------------------------------------------------
class ConcreteProgram(PositionalAgent):
    """The program's own move at each concrete position (program.moves), nothing folded."""

    name = "program-concrete"

    def __init__(self, genes, rules):
        super().__init__(rules)
        self.genes, self.move_list = genes, tuple(rules.moves)

    def distribution(self, piles):
        if not any(piles):
            return []
        index = int(program.moves(self.genes, self.rules, np.array([piles], dtype=np.int64))[0])
        return [(self.move_list[index], 1.0)]


def program_rates(rules, seed, nimsum):
    genes = program.KIND.create(rules, np.random.default_rng(seed))
    agent = GenomeAgent("program", genes, rules)
    fitness_view = rate(rules, agent, nimsum, True)                        # (a) what fitness reads
    concrete = rate(rules, ConcreteProgram(genes, rules), nimsum, False)   # (b) what it plays
    genome_ordered = rate(rules, agent, nimsum, False)                      # (c) GenomeAgent on the ordered board
    return program.expression(genes), fitness_view, concrete, genome_ordered


def figure3():
    section(f"3. {N_PROGRAMS} random programs (create, rng s=0..{N_PROGRAMS - 1}): exact sub-game win rate vs nimsum")
    print("   (a) GenomeAgent on multisets (fitness)  (b) concrete program.moves on ordered  (c) GenomeAgent ordered")
    for rules in (Rules((1, 4, 6)), Rules((2, 3, 4, 5)), MISERE):
        nimsum = make_agent("nimsum", rules)
        diffs, differ, bc = [], 0, 0
        print(f"\n  board {rules.name}")
        for seed in range(N_PROGRAMS):
            result = guarded(program_rates, rules, seed, nimsum)
            if result is None:
                continue
            expr, a, b, c = result
            diffs.append(abs(a - b))
            differ += abs(a - b) > TOL
            bc += abs(b - c) > TOL
            mark = " *" if abs(a - b) > TOL else ""
            print(f"   s={seed:<2} a={a:.4f} b={b:.4f} c={c:.4f} {100 * (a - b):+6.2f} pts{mark}  {expr[:70]}",
                  flush=True)
        if diffs:
            print(f"  {rules.name}: (a) != (b) for {differ} of {len(diffs)}; median |a-b| "
                  f"{100 * statistics.median(diffs):.2f} pts (mean {100 * statistics.fmean(diffs):.2f}, "
                  f"max {100 * max(diffs):.2f}); median over differing only "
                  f"{100 * statistics.median([d for d in diffs if d > TOL] or [0]):.2f} pts; (b) != (c) for {bc}")


if __name__ == "__main__":
    print(f"nim_evo {getattr(nim_evo, '__version__', '?')} from {nim_evo.__file__}; python {sys.version.split()[0]}")
    started = time.time()
    for figure in (figure1, figure2, figure3):
        guarded(figure)
    print(f"\ndone in {time.time() - started:.0f}s")
