"""Throughput of fitness evaluation, beside what it replaced and beside the machine.

- **the machine**: what numpy does per second on one core on arrays that stay in cache
  (16-bit integer adds, and 64-bit multiply-adds, as the exact evaluator does them): the
  limit the evaluators are measured against;
- **table genomes**: position evaluations per second (genomes x positions x opponents) of the
  exact evaluator as a run's fitness calls it (``evaluate_chunk``: the induction, the win
  rates, the sub-games and the credit), 80 genomes in chunks of 8 as a generation evaluates
  them, on seven heaps (1-3-...-13, its 21,318 multisets, against random, nimsum and minimax)
  and on boards of other games (the evaluator reads the game: misère Nim, Kayles, Lasker's Nim,
  a subtraction game, against random, perfect and minimax), beside the evaluator of commit
  1be1205 (kept below as :func:`previous`, its induction level by level over the space's own
  numbering, its values read per opponent) in the same process: their ratio, and whether the
  win probabilities agree bit for bit; and the multiply-adds per second of the opponents'
  sparse steps (one per stored transition and genome), beside the machine's;
- **runs**: generations per second of the default table run on seven heaps, and, with
  ``--nine N``, of N generations of the table run on nine heaps (1-3-...-17, 690,690
  multisets, two workers), its setting up and its peak memory;
- **programs**: positions played per second (a move chosen at each) by 200 random programs on
  the training boards and on seven heaps, node evaluations per second (positions times the
  nodes of each program), and the same one program and one board at a time, as the
  evaluator before did it (with today's fold tables), in the same process; and on Kayles
  (7-8-9-10-kayles, programs with a heap part), now only.

    python benchmarks/throughput.py [--generations 20] [--nine 3]
"""

import argparse
import resource
import time

import numpy as np

from nim_evo import api
from nim_evo.engine.rules import Rules
from nim_evo.engine.space import space_for
from nim_evo.evaluation.batched import policy_table
from nim_evo.evaluation.exact import win_probabilities_each
from nim_evo.evolution.fitness import Panel, evaluate_chunk
from nim_evo.games import game
from nim_evo.genomes import get_kind
from nim_evo.genomes.program import TRAIN_BOARDS
from nim_evo.genomes.scoring import _lowest, scores

SEVEN = Rules((1, 3, 5, 7, 9, 11, 13))
NINE = Rules((1, 3, 5, 7, 9, 11, 13, 15, 17))
OPPONENTS = ("random", "nimsum", "minimax")
OTHER_OPPONENTS = ("random", "perfect", "minimax")  # (a run's default panel on another game)
OTHER_BOARDS = ("1-3-5-7-9-11-13-misere", "7-8-9-10-kayles", "3-5-7-9-lasker", "5-10-15-20-25-sub1.3.4")


def best_of(repeats: int, work) -> float:
    """The fastest of ``repeats`` timings of ``work()``, in seconds."""
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return min(times)


def machine() -> tuple[float, float]:
    """(16-bit adds, 64-bit multiply-adds) per second on one core, on 8,192-element arrays."""
    a16, b16 = np.arange(8192, dtype=np.int16), np.ones(8192, dtype=np.int16)
    a64, b64, c64 = np.random.default_rng(0).random((3, 8192))
    reps = 2000

    def adds():
        for _ in range(reps):
            np.add(a16, b16, out=a16)

    def fmas():
        for _ in range(reps):
            np.multiply(a64, b64, out=c64)
            np.add(c64, a64, out=c64)

    return reps * 8192 / best_of(3, adds), reps * 8192 / best_of(3, fmas)


def previous_transitions(space, table) -> list:
    """The previous evaluator's opponent: a sparse matrix per level over the space's numbering."""
    from scipy.sparse import csr_matrix

    table = policy_table(table, space)
    levels = []
    for idx in space.levels:
        rows, cols = np.nonzero((table[idx] > 0) & space.legal[idx])
        matrix = csr_matrix((table[idx[rows], cols], (rows, space.next[idx[rows], cols])),
                            shape=(len(idx), space.n_positions))
        matrix.sum_duplicates()
        levels.append(matrix)
    return levels


def previous(space, stack: np.ndarray, opponents: list) -> list[np.ndarray]:
    """The exact evaluator of commit 1be1205 for move arrays ``(k, n)`` (``opponents`` from
    :func:`previous_transitions`): the same induction, each level's positions gathered from
    the space's numbering."""
    k = len(stack)
    moves = np.ascontiguousarray(stack.T)
    results = []
    for levels in opponents:
        mine, theirs = np.empty((space.n_positions, k)), np.empty((space.n_positions, k))
        columns = np.arange(k)
        for level, idx in zip(levels, space.levels):
            theirs[idx] = level @ mine
            chosen = space.next[idx[:, None], np.where(space.terminal[idx, None], 0, moves[idx])]
            mine[idx] = theirs[chosen, columns]
            ended = idx[space.terminal[idx]]
            mine[ended] = space.rules.to_move_wins_at_end
            theirs[ended] = not space.rules.to_move_wins_at_end
        results.append(np.stack([mine.T, theirs.T], axis=-1))
    return results


def tables(report, rules, opponents) -> None:
    panel = Panel.build(rules, opponents, multiset=True)
    space = panel.space
    kind = get_kind("table")
    rng = np.random.default_rng(2026)
    genomes = [kind.create(rules, rng) for _ in range(80)]
    chunks = [genomes[i:i + 8] for i in range(0, len(genomes), 8)]
    before_opponents = [previous_transitions(space, table) for table in panel.tables]

    def before_fitness(chunk):  # (what fitness then read of each opponent's values, as it read them)
        k, count = len(chunk), len(panel.tables)
        rates, subgames = np.zeros((k, count, 2)), np.zeros(k)
        mine = np.zeros((k, space.n_positions), dtype=np.float32)
        theirs = np.zeros_like(mine)
        for o, values in enumerate(previous(space, np.stack(chunk), before_opponents)):
            rates[:, o] = np.average(values[:, panel.starts], weights=panel.weights, axis=1)
            either = values[:, 1:, 0] + values[:, 1:, 1]
            subgames += np.average(either / 2, weights=space.weights[1:], axis=1) / count
            mine += values[..., 0] / count
            theirs += values[..., 1] / count
        return [(mine[j].copy(), theirs[j].copy()) for j in range(k)]

    now = best_of(3, lambda: [evaluate_chunk(kind, panel, "exact", 0, chunk, None) for chunk in chunks])
    before = best_of(3, lambda: [before_fitness(chunk) for chunk in chunks])
    same = all(np.array_equal(a, b) for c in chunks
               for a, b in zip(win_probabilities_each(space, list(c), panel.transitions),
                               previous(space, np.stack(c), before_opponents)))
    evaluations = len(genomes) * space.n_positions * len(opponents)
    macs = len(genomes) * sum(level.nnz for opponent in panel.transitions for level in opponent.levels)
    report(f"exact fitness, table genomes ({rules.name}: {space.n_positions:,} multisets, {space.n_moves} moves, "
           f"x {len(opponents)} opponents x 80 genomes)", evaluations / now, evaluations / before, macs / now, same)


def runs(generations: int) -> None:
    began = time.perf_counter()
    run = api.evolve("table", SEVEN, generations=generations, progress=False)
    seconds = time.perf_counter() - began
    per = sum(record["seconds"] for record in run.logbook[1:]) / generations
    print(f"table run on {SEVEN.name} (default settings, {generations} generations): {1 / per:.2f} generations/s "
          f"({per:.3f} s each; 200 generations: about {200 * per:.0f} s of evolving; {seconds:.1f} s in all)")


def nine(generations: int) -> None:
    """The table run on nine heaps, two workers: its setting up, its generations, its peak memory."""
    began = time.perf_counter()
    run = api.evolve("table", NINE, generations=generations, jobs=2, progress=False)
    seconds = time.perf_counter() - began
    evolving = sum(record["seconds"] for record in run.logbook[1:])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"table run on {NINE.name} (690,690 multisets, two workers, {generations} generations): "
          f"{generations / evolving:.3f} generations/s ({evolving / generations:.1f} s each; setting up, generation "
          f"0 and checking {seconds - evolving:.0f} s; {seconds:.0f} s in all; accuracy "
          f"{run.logbook[-1]['accuracy']:.1%}); this process's peak {peak:.2f} GiB")


def one_at_a_time(population: list, space) -> np.ndarray:
    """The program evaluator before (commit 1be1205's ``policy``, today's fold tables): each
    program scores each board alone, and chooses its moves alone."""
    rows = []
    for genes in population:
        values = scores(genes, space.rules, np.sort(space.positions, axis=1), ascending=True)
        after = values[np.maximum(space.next, 0)]
        sizes = space.positions[:, space.moves[:, 0]].astype(np.int64)
        rows.append(_lowest(after, space.legal, sizes, space.moves[:, 1].astype(np.int64)))
    return np.stack(rows)


def programs() -> None:
    kind = get_kind("program")
    rng = np.random.default_rng(2026)
    population = [kind.plain(kind.create(SEVEN, rng)) for _ in range(200)]
    nodes = sum(kind.size(genes) for genes in population)
    for name, boards in (("training boards", [Rules(b) for b in TRAIN_BOARDS]), ("7 heaps", [SEVEN])):
        spaces = tuple(space_for(board, multiset=True) for board in boards)
        positions = sum(space.n_positions for space in spaces)
        now = best_of(3, lambda: kind.policies(population, spaces))
        before = best_of(3, lambda: [one_at_a_time(population, space) for space in spaces])
        same = all(np.array_equal(a, one_at_a_time(population, space))
                   for a, space in zip(kind.policies(population, spaces), spaces))
        print(f"programs on the {name} ({positions:,} multisets, {len(population)} random programs of "
              f"{nodes / len(population):.1f} nodes): {len(population) * positions / now:,.0f} positions/s "
              f"({nodes * positions / now:.3g} node evaluations/s), one program and board at a time "
              f"{len(population) * positions / before:,.0f} (ratio {before / now:.2f}x); moves "
              f"{'identical' if same else 'DIFFER'}")
    kayles = game("7-8-9-10-kayles")  # (programs with a heap part: the game's own values, folded)
    players = [kind.plain(kind.create(kayles, rng)) for _ in range(200)]
    space = space_for(kayles, multiset=True)
    now = best_of(3, lambda: kind.policies(players, (space,)))
    nodes = sum(kind.size(genes) for genes in players)
    print(f"programs on {kayles.name} ({space.n_positions:,} multisets, {space.n_moves} moves, 200 random programs "
          f"of {nodes / len(players):.1f} nodes with a heap part): {len(players) * space.n_positions / now:,.0f} "
          "positions/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generations", type=int, default=20, help="generations of the table run (default 20)")
    parser.add_argument("--nine", type=int, default=0, help="generations of the nine-heap table run (default 0: "
                                                           "not run; about a minute, and 12 s a generation)")
    args = parser.parse_args()
    adds, fmas = machine()
    print(f"the machine, one core, numpy on arrays in cache: {adds:.3g} 16-bit adds/s, {fmas:.3g} 64-bit multiply-adds/s")

    def report(what, now, before, macs, same):
        print(f"{what}: {now:.3g} position evaluations/s, the previous evaluator {before:.3g} (ratio "
              f"{now / before:.2f}x); the opponents' steps {macs:.3g} multiply-adds/s, {macs / fmas:.0%} of the "
              f"machine's; win probabilities {'identical' if same else 'DIFFER'}")

    tables(report, SEVEN, OPPONENTS)
    for name in OTHER_BOARDS:
        tables(report, game(name), OTHER_OPPONENTS)
    runs(args.generations)
    programs()
    if args.nine:
        nine(args.nine)


if __name__ == "__main__":
    main()
