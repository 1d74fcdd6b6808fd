"""Fitness against an opponent panel: sampled agrees with exact seat by seat (on tables and
on pile arrays), the starts, the sub-game value, per-position credit, jobs invariance across
several chunks, accuracy against the solver, and what a task sends to a worker."""

import io
import pickle
import threading
import time
from functools import lru_cache

import numpy as np
import pytest

from nim_evo import Rules
from nim_evo.agents import make_agent
from nim_evo.engine.solver import solve
from nim_evo.engine.policy import dense
from nim_evo.engine.space import space_for
from nim_evo.evaluation.exact import induced_each, win_probabilities
from nim_evo.evolution import cluster, fitness, induction, localpool, tasks
from nim_evo.evolution.fitness import Panel, accuracy, evaluate_chunk
from nim_evo.evolution.config import Config
from nim_evo.evolution.loop import make_toolbox, start, step
from nim_evo.genomes import GenomeAgent, get_kind, ruleset, table, thresholds

BOARDS = {"1-3-5-7": Rules((1, 3, 5, 7)), "2-3-4-misere": Rules((2, 3, 4), misere=True)}
SIGMAS = 4.5


def assert_close_per_seat(sampled, exact, games):
    """Every opponent's (first, second) sampled rate within SIGMAS binomial sigmas of the exact one."""
    assert sampled.keys() == exact.keys()
    for name in exact:
        for seat in (0, 1):
            p, got = exact[name][seat], sampled[name][seat]
            tolerance = SIGMAS * np.sqrt(p * (1 - p) / games) + 1e-9
            assert abs(got - p) <= tolerance, (
                f"against {name}, seat {seat}: sampled {got:.4f}, exact {p:.4f} (tolerance {tolerance:.4f})")


# -- 1. sampled matches exact, per opponent and per seat ---------------------------------------


def test_games_are_never_drawn_from_the_system_s_entropy():
    """A fitness that draws games needs a seed (``seed=None`` drew the system's entropy: two
    calls, two results); exact fitness on a tabled board draws nothing and needs none."""
    rules = BOARDS[next(iter(BOARDS))]
    genomes = [table.KIND.create(rules, np.random.default_rng(0))]
    panel = Panel.build(rules, ("random",), "start", "sampled")
    for call in (lambda: evaluate_chunk(get_kind("table"), panel, "sampled", 10, genomes, None),
                 lambda: fitness.evaluate_boards(get_kind("table"), (panel, panel), "sampled", 10, genomes, None)):
        with pytest.raises(TypeError, match="games are drawn here: give a seed"):
            call()
    exact = Panel.build(rules, ("random",), "start", "exact")
    assert evaluate_chunk(get_kind("table"), exact, "exact", 0, genomes, None)[0].games == 0


@pytest.mark.parametrize("board", list(BOARDS))
def test_sampled_table_fitness_matches_exact_per_seat(board):
    rules = BOARDS[board]
    names = ("random", "fixed-rules")
    sampled_panel = Panel.build(rules, names, "start", "sampled")
    exact_panel = Panel.build(rules, names, "start", "exact")
    rng = np.random.default_rng(11)
    genomes = [table.KIND.create(rules, rng) for _ in range(4)]
    games = 4000
    seed = np.random.SeedSequence(7)
    sampled = evaluate_chunk(get_kind("table"), sampled_panel, "sampled", games, genomes, seed)
    exact = evaluate_chunk(get_kind("table"), exact_panel, "exact", games, genomes, seed)
    for s, e in zip(sampled, exact, strict=True):
        assert s.games == 2 * games * len(names) and e.games == 0
        assert_close_per_seat(s.rates, e.rates, games)
        assert s.fitness == pytest.approx(np.mean([s.rates[n] for n in names]), abs=1e-12)


@pytest.mark.parametrize("board", list(BOARDS))
def test_pile_array_fitness_matches_exact_per_seat(board):
    """The path of boards too big to enumerate, on an enumerable board so exact values exist."""
    rules = BOARDS[board]
    names = ("random", "nimsum")
    piles_panel = Panel(rules, names, None, None)
    exact_panel = Panel.build(rules, names, "start", "exact")
    rng = np.random.default_rng(12)
    genomes = [ruleset.KIND.create(rules, rng) for _ in range(4)]
    games = 3000
    sampled = fitness._evaluate_on_piles(get_kind("rules"), piles_panel, games, genomes,
                                         np.random.SeedSequence(8)).evaluations(piles_panel.names)
    exact = evaluate_chunk(get_kind("rules"), exact_panel, "exact", games, genomes, None)
    for s, e in zip(sampled, exact, strict=True):
        assert s.games == 2 * games * len(names) and s.subgames == 0.0 and s.credit is None
        assert_close_per_seat(s.rates, e.rates, games)


# -- 2. starts="all" ----------------------------------------------------------------------------


@pytest.mark.parametrize("multiset", [False, True], ids=["ordered", "multiset"])
def test_all_starts_fitness_is_the_mean_over_every_position_and_seat(multiset):
    """Over multisets too: each multiset counts for the positions it stands for."""
    rules = Rules((2, 3, 4))
    names = ("random", "nimsum")
    space = space_for(rules)
    genes = table.KIND.create(rules, np.random.default_rng(3), multiset=multiset)
    everywhere, from_start = (
        evaluate_chunk(get_kind("table"), Panel.build(rules, names, starts, "exact", multiset=multiset), "exact", 0,
                       [genes], None)[0] for starts in ("all", "start"))

    # the ground truth on the ordered space
    values = [win_probabilities(space, table.policy(genes, space), make_agent(name, rules)) for name in names]
    assert everywhere.fitness == pytest.approx(np.mean([v[1:].mean() for v in values]), abs=1e-12)
    for name, v in zip(names, values):
        assert everywhere.rates[name] == pytest.approx(tuple(v[1:].mean(axis=0)), abs=1e-12)
        assert from_start.rates[name] == pytest.approx(tuple(v[space.start]), abs=1e-12)
    assert abs(everywhere.fitness - from_start.fitness) > 0.01


# -- 3. the sub-game value ----------------------------------------------------------------------


def scalar_values(rules, mine, theirs):
    """Win probability of ``mine`` from every position, either to move, by plain recursion on
    the scalar rules (no space arrays): ``{(piles, my_turn): p}``."""

    @lru_cache(maxsize=None)
    def value(piles, my_turn):
        if not any(piles):  # the one to move did not take the last object
            return rules.misere if my_turn else not rules.misere
        moves = (mine if my_turn else theirs)(piles)
        return sum(p * value(rules.apply(piles, m), not my_turn) for m, p in moves)

    return value


@pytest.mark.parametrize("multiset", [False, True], ids=["ordered", "multiset"])
@pytest.mark.parametrize("kind", ["table", "rules", "thresholds"])
def test_subgames_is_the_mean_win_probability_over_every_position_both_seats_and_opponents(kind, multiset):
    """By plain recursion on the scalar rules over every position of the board: the panel on
    the space of multisets gives the same rates and sub-game value as on the ordered one."""
    rules = Rules((2, 3, 4), misere=True)
    names = ("random", "nimsum", "fixed-rules")
    space = space_for(rules)
    rng = np.random.default_rng(4)
    options = {"multiset": multiset} if kind == "table" else {}
    genomes = [get_kind(kind).create(rules, rng, **options) for _ in range(2)]
    panel = Panel.build(rules, names, "start", "exact", multiset=multiset)
    results = evaluate_chunk(get_kind(kind), panel, "exact", 0, genomes, None)
    positions = [space.position(i) for i in range(1, space.n_positions)]
    for genes, result in zip(genomes, results, strict=True):
        mine = GenomeAgent(kind, genes, rules).distribution
        per_opponent = []
        for name in names:
            value = scalar_values(rules, mine, make_agent(name, rules).distribution)
            per_opponent.append(np.mean([value(p, turn) for p in positions for turn in (True, False)]))
            start = (value(rules.start, True), value(rules.start, False))
            assert result.rates[name] == pytest.approx(start, abs=1e-9)
        assert result.subgames == pytest.approx(np.mean(per_opponent), abs=1e-9)
        assert result.fitness == pytest.approx(np.mean([result.rates[n] for n in names]), abs=1e-9)


# -- 4. per-position credit ---------------------------------------------------------------------


@pytest.mark.parametrize("multiset", [False, True], ids=["ordered", "multiset"])
def test_table_credit_is_the_panel_average_of_the_exact_values(multiset):
    rules = Rules((1, 3, 5, 7))
    names = ("random", "nimsum", "fixed-rules")
    space = space_for(rules, multiset=multiset)
    panel = Panel.build(rules, names, "start", "exact", multiset=multiset)
    rng = np.random.default_rng(5)
    genomes = [table.KIND.create(rules, rng, multiset=multiset) for _ in range(3)]
    for genes, result in zip(genomes, evaluate_chunk(get_kind("table"), panel, "exact", 0, genomes, None), strict=True):
        values = np.mean([win_probabilities(space, genes, make_agent(n, rules)) for n in names], axis=0)
        mine, theirs = result.credit
        assert mine.shape == theirs.shape == (space.n_positions,)
        np.testing.assert_allclose(mine, values[:, 0], atol=1e-6)
        np.testing.assert_allclose(theirs, values[:, 1], atol=1e-6)

    others = {"rules": ruleset.KIND.create(rules, rng), "thresholds": thresholds.KIND.create(rules, rng)}
    for kind, genes in others.items():
        assert evaluate_chunk(get_kind(kind), panel, "exact", 0, [genes], None)[0].credit is None
    sampled = evaluate_chunk(get_kind("table"), panel, "sampled", 50, genomes, np.random.SeedSequence(1))
    assert all(result.credit is None for result in sampled)


# -- 5. jobs invariance over several chunks -----------------------------------------------------


def evolved(config: Config, jobs: int, generations: int = 2):
    """The state of a run of ``config`` on ``jobs`` workers after ``generations`` steps."""
    toolbox = make_toolbox(config, jobs)
    state = start(config, toolbox)
    for _ in range(generations):
        step(state, config, toolbox)
    return state


def test_fitness_does_not_depend_on_jobs_with_several_chunks():
    """Whole chunks (2 at generation 0, 3 per step): results landing on the wrong chunk would
    still give every individual a fitness, so only the values can tell."""
    per_task = fitness.INDIVIDUALS_PER_TASK
    config = Config(genome="thresholds", rules=Rules((2, 3, 4)), population=2 * per_task,
                    offspring=3 * per_task, opponents=("random", "nimsum"), fitness="sampled", games=300, seed=9)
    states = [evolved(config, jobs) for jobs in (1, 2)]
    assert all(s.logbook[0]["evals"] > per_task and s.logbook[-1]["evals"] > per_task for s in states)
    one, two = (state.population for state in states)
    assert len(one) == len(two) == config.population
    for a, b in zip(one, two):
        assert np.array_equal(a, b)
        assert a.fitness.values == b.fitness.values
        assert a.rates == b.rates
    assert len({ind.fitness.values for ind in one}) > 1  # the comparison has something to tell apart


# -- 6. accuracy --------------------------------------------------------------------------------


@pytest.mark.parametrize("board", list(BOARDS))
def test_accuracy_of_solver_moves_is_one(board):
    rules = BOARDS[board]
    solution = solve(rules)
    space = solution.space
    genes = np.zeros(space.n_positions, dtype=np.int16)
    for index in range(1, space.n_positions):
        piles = space.position(index)
        winning = solution.winning_moves(piles)
        genes[index] = space.move_index(winning[0] if winning else rules.legal_moves(piles)[-1])
    assert accuracy(get_kind("table"), genes, rules) == 1.0
    # one losing move in one winning position costs exactly that position
    spot, move = next((i, m) for i in range(1, space.n_positions)
                      for m in rules.legal_moves(space.position(i))
                      if solution.winning_moves(space.position(i))
                      and m not in solution.winning_moves(space.position(i)))
    flawed = genes.copy()
    flawed[spot] = space.move_index(move)
    winners = sum(bool(solution.winning_moves(space.position(i))) for i in range(1, space.n_positions))
    assert accuracy(get_kind("table"), flawed, rules) == pytest.approx(1 - 1 / winners, abs=1e-12)


@pytest.mark.parametrize("board", list(BOARDS))
def test_accuracy_of_all_random_thresholds_is_the_share_of_winning_moves(board):
    rules = BOARDS[board]
    solution = solve(rules)
    space = solution.space
    genes = np.zeros(len(thresholds.STRATEGIES))
    genes[thresholds.STRATEGIES.index("random")] = 1.0
    shares = []
    for index in range(1, space.n_positions):
        piles = space.position(index)
        winning = solution.winning_moves(piles)
        if winning:
            shares.append(len(winning) / len(rules.legal_moves(piles)))
    assert accuracy(get_kind("thresholds"), genes, rules) == pytest.approx(np.mean(shares), abs=1e-12)


# -- 7. what a task sends -----------------------------------------------------------------------

SEVEN = Rules((1, 3, 5, 7, 9, 11, 13))  # 21,318 multisets: exact fitness in tasks of 8 individuals


@lru_cache(maxsize=1)
def seven_panel() -> Panel:
    return Panel.build(SEVEN, ("random", "nimsum", "minimax"), multiset=True)


def test_a_pickled_panel_is_its_tables_and_a_process_rebuilds_it_once():
    """Pickled, a panel is a digest and its tables, kept sparse (a few large arrays each:
    memory-mapped by joblib's pool, scattered once by Dask), never its 147 sparse transition
    matrices, which the receiving process builds from the tables once and keeps by digest."""
    panel = seven_panel()
    buffers = []
    inband = pickle.dumps(panel, protocol=5, buffer_callback=buffers.append)
    parts = [array for table in panel.tables for array in (table.data, table.indices, table.indptr)]
    tables = sum(array.nbytes for array in parts)
    assert tables < sum(dense(table).nbytes for table in panel.tables) / 3  # (mostly zeros, as arrays)
    assert len(inband) < 3_000
    assert tables <= sum(buffer.raw().nbytes for buffer in buffers) < tables + 1_000
    assert len(pickle.dumps(panel)) < tables + 2_000  # the transitions (8 MB) stay behind
    Panel._shared.pop(panel.digest, None)
    restored = pickle.loads(inband, buffers=buffers)
    assert restored is not panel and restored.digest == panel.digest
    assert pickle.loads(pickle.dumps(panel)) is restored  # this process has it: not rebuilt
    assert all(not array.flags.writeable and not isinstance(array, np.memmap)
               for table in restored.tables for array in (table.data, table.indices, table.indptr))
    assert all(np.array_equal(dense(a), dense(b)) for a, b in zip(panel.tables, restored.tables, strict=True))
    for mine, theirs in zip(panel.transitions, restored.transitions, strict=True):
        for a, b in zip(mine.levels[1:], theirs.levels[1:], strict=True):
            assert (a != b).nnz == 0 and a.shape == b.shape
    rng = np.random.default_rng(3)
    genomes = [table.KIND.create(SEVEN, rng) for _ in range(3)]
    for a, b in zip(evaluate_chunk(get_kind("table"), panel, "exact", 0, genomes, None),
                    evaluate_chunk(get_kind("table"), restored, "exact", 0, genomes, None), strict=True):
        assert (a.fitness, a.subgames, a.rates) == (b.fitness, b.subgames, b.rates)
        assert all(np.array_equal(x, y) for x, y in zip(a.credit, b.credit))
    other = Panel.build(Rules((1, 3, 5)), ("random",), multiset=True)
    assert pickle.loads(pickle.dumps(other)).digest != panel.digest


class PoolPickler(pickle.Pickler):
    """Pickles as joblib's process pool does: a numpy array over ``max_nbytes`` (1 MB) is
    written once to a memory-mapped file, and a task holds a reference to it (stood for here
    by an empty array)."""

    def reducer_override(self, obj):
        if isinstance(obj, np.ndarray) and obj.nbytes > 2**20:
            return np.empty, ((0,),)
        return NotImplemented


def pool_size(obj) -> int:
    buffer = io.BytesIO()
    PoolPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return len(buffer.getvalue())


def test_a_local_task_carries_its_genomes_not_the_panel(monkeypatch):
    """What one task of ``--jobs 2`` sends, pickled as joblib's process pool pickles it: its
    genomes and seed, and the panel as a digest and references to its tables: ~340 KB,
    where the task used to carry the panel in its function (33 MB pickled, 8.4 MB past
    joblib's memory maps: the transitions' sparse matrices are small arrays each)."""
    sent = []

    class Recorder:
        """The run's workers, in this process, measuring each task as the pool would send it."""

        def map(self, calls):
            results = []
            for function, args, kwargs in calls:
                genomes = sum(np.asarray(g).nbytes for g in args[-2])
                sent.append((pool_size((function, args, kwargs)), genomes, args[1]))
                results.append(function(*args, **kwargs))
            return results

    monkeypatch.setattr(cluster, "workers", lambda jobs, *shared, threads=False: Recorder())
    config = Config(genome="thresholds", rules=SEVEN, population=8, offspring=16, seed=5)  # (a table evaluates here)
    toolbox = make_toolbox(config, 2)
    step(start(config, toolbox), config, toolbox)
    assert len(sent) == 2  # 16 offspring in tasks of 8 (the 8 of generation 0: one task, run here)
    assert all(panels is toolbox.panels for _, _, panels in sent)  # one object: joblib maps its tables once
    assert all(size < genomes + 20_000 for size, genomes, _ in sent), sent
    assert pool_size(toolbox.panel.transitions) > 7_000_000  # what stays behind: built where it is needed


def test_seven_heaps_give_the_same_result_with_1_and_2_jobs():
    """Exact fitness in several tasks on real workers: the workers rebuild the panel from
    its pickle and give what this process gives (a kind evaluated in the pool: thresholds)."""
    config = Config(genome="thresholds", rules=SEVEN, population=8, offspring=16, seed=5)
    one, two = (evolved(config, jobs) for jobs in (1, 2))
    assert len(one.logbook) == 3 and \
        [{k: v for k, v in r.items() if k != "seconds"} for r in one.logbook] == \
        [{k: v for k, v in r.items() if k != "seconds"} for r in two.logbook]
    for a, b in zip(one.population, two.population, strict=True):
        assert np.array_equal(a, b)
        assert a.fitness.values == b.fitness.values and a.rates == b.rates


def test_big_spaces_evaluate_in_threads_and_give_the_same_result(monkeypatch):
    """Exact fitness on a space past THREADED_SPACE runs its tasks in this process's threads
    (its panel shared, not copied): seven heaps made to count as big give what one job gives."""
    from nim_evo.evolution import fitness

    opened = []
    real = localpool.LocalPool.__init__

    def init(self, jobs, threads=False):
        opened.append(threads)
        real(self, jobs, threads)

    monkeypatch.setattr(localpool.LocalPool, "__init__", init)
    config = Config(genome="thresholds", rules=SEVEN, population=8, offspring=16, seed=5)
    monkeypatch.setattr(fitness, "THREADED_SPACE", 10**9)
    one = evolved(config, 1)
    assert opened == []
    monkeypatch.setattr(fitness, "THREADED_SPACE", 1000)
    two = evolved(config, 2)
    assert opened == [True]
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in one.logbook] == \
        [{k: v for k, v in r.items() if k != "seconds"} for r in two.logbook]
    for a, b in zip(one.population, two.population, strict=True):
        assert np.array_equal(a, b) and a.fitness.values == b.fitness.values


@pytest.mark.parametrize("restarts, mode", [(False, "exact"), (True, "exact"), (False, "sampled")])
def test_offspring_evaluated_beside_variation_give_the_run_the_map_gives(monkeypatch, restarts, mode):
    """A table run evaluates each chunk of offspring in a thread as soon as variation has
    made it (loop.overlaps): the same logbook, population and credit as its tasks run one
    after another through the map, with several chunks a generation (with a new population
    in the third: restarts; and with sampled games, each chunk's seed its own)."""
    import threading

    from nim_evo.evolution import loop

    where = []
    real = fitness.evaluate_boards

    def evaluate_boards(*args, **kwargs):
        where.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(fitness, "evaluate_boards", evaluate_boards)
    monkeypatch.setattr(fitness, "chunk_size", lambda panel, mode: 3)
    config = Config(genome="table", rules=Rules((1, 3, 5, 7)), population=8, offspring=16, seed=9,
                    restart=1 if restarts else None, fitness=mode, games=50)
    if restarts:  # (the third generation: a new population)
        monkeypatch.setattr(loop, "stalled", lambda logbook, patience: len(logbook) == 3)
    runs = {}
    for overlap in (False, True):
        monkeypatch.setattr(loop, "overlaps", lambda toolbox, config, overlap=overlap: overlap)
        where.clear()
        runs[overlap] = evolved(config, 1, generations=4)
        assert len(where) > 8 and set(where) == {not overlap}
    one, other = runs.values()
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in one.logbook] == \
        [{k: v for k, v in r.items() if k != "seconds"} for r in other.logbook]
    assert [r.get("restart", 0) for r in one.logbook] == [0, 0, 0, int(restarts), 0]
    assert (one.games > 0) == (mode == "sampled")
    for a, b in zip(one.population, other.population, strict=True):
        assert np.array_equal(a, b) and a.fitness.values == b.fitness.values and a.rates == b.rates
        assert (a.credit is b.credit is None) if mode == "sampled" else \
            all(np.array_equal(x, y) for x, y in zip(a.credit, b.credit))


def test_an_error_in_a_task_beside_variation_is_the_step_s_error(monkeypatch):
    """A task that fails in its thread fails the generation with its own exception; an error
    in variation (Ctrl-C) leaves the tasks not yet begun undone."""
    from nim_evo.evolution import loop

    config = Config(genome="table", rules=Rules((1, 3, 5, 7)), population=8, offspring=16, seed=9)
    monkeypatch.setattr(loop, "overlaps", lambda toolbox, config: True)
    monkeypatch.setattr(fitness, "chunk_size", lambda panel, mode: 2)
    toolbox = make_toolbox(config, 1)
    state = start(config, toolbox)
    calls = []

    def fails(genomes, seed):
        calls.append(len(genomes))
        raise ValueError("a task failed")

    toolbox.evaluate = fails
    with pytest.raises(ValueError, match="a task failed"):
        step(state, config, toolbox)
    assert calls  # (in the thread)

    calls.clear()
    started, release = threading.Event(), threading.Event()

    def task(genomes, seed):
        started.set()
        release.wait(60)
        calls.append(len(genomes))
        return []

    def vary(population, *args):  # three chunks cut, the first begun: then Ctrl-C
        for ind in population[:6]:
            child = toolbox.clone(ind)
            del child.fitness.values
            yield child
        started.wait(60)
        raise KeyboardInterrupt

    toolbox.evaluate = task
    monkeypatch.setattr(loop, "vary", vary)
    with pytest.raises(KeyboardInterrupt):
        step(state, config, toolbox)
    release.set()
    time.sleep(0.2)
    assert calls == [2]


def test_a_table_run_is_evaluated_in_its_process_beside_variation_whatever_its_jobs(monkeypatch):
    """On the local backend a table run opens no pool, one job or two, and, on two cores,
    evaluates beside its variation; a kind whose variation is Python's opens one for two jobs
    and never overlaps; on one core nothing overlaps."""
    from nim_evo.evolution import loop

    opened = []
    monkeypatch.setattr(localpool.LocalPool, "__init__", lambda self, jobs, threads=False: opened.append(jobs))

    def overlap(genome, jobs):
        config = Config(genome=genome, rules=Rules((1, 3, 5)), population=4, offspring=4, seed=1)
        return loop.overlaps(make_toolbox(config, jobs), config)

    monkeypatch.setattr(cluster, "usable_cores", lambda: 2)
    assert overlap("table", 1) and overlap("table", 2) and opened == []
    assert not overlap("rules", 1) and not overlap("rules", 2) and opened == [2]
    monkeypatch.setattr(cluster, "usable_cores", lambda: 1)
    assert not overlap("table", 1)


def test_a_chunk_of_as_many_genomes_as_a_board_has_positions_and_moves_is_a_stack_not_a_table():
    """1-4-6 of Dawson's Kayles has 21 multisets and 21 actions: a chunk of 21 programs' move
    arrays is shaped like one policy table, and was once read as one (a run of seed 0 failed so)."""
    import numpy as np

    from nim_evo.evolution.fitness import Panel, evaluate_chunk
    from nim_evo.games import game
    from nim_evo.genomes.program import KIND

    board = game("1-4-6-dawson")
    panel = Panel.build(board, ("perfect",), "all", "exact", multiset=True)
    assert (panel.space.n_positions, panel.space.n_moves) == (21, 21)
    genomes = [KIND.plain(KIND.create(board, np.random.default_rng(seed))) for seed in range(21)]
    together = evaluate_chunk(get_kind("program"), panel, "exact", 0, genomes, None, cases=True)
    alone = [evaluate_chunk(get_kind("program"), panel, "exact", 0, [genes], None, cases=True)[0] for genes in genomes]
    assert [e.fitness for e in together] == [e.fitness for e in alone]
    assert all(np.array_equal(a.cases, b.cases) for a, b in zip(together, alone))


def _the_whole_stack(kind, panel, genomes, policies, cases):
    """Exact fitness of every policy of a chunk, none evaluated once for others nor remembered."""
    return induction.induced(kind, panel, genomes, policies, cases, credit=False)


def test_genomes_alike_are_evaluated_once_and_get_the_bits_they_got_before(monkeypatch):
    """A chunk of programs with repeats gives each genome the evaluation the whole chunk
    evaluated gives, to the bit (the distinct policies evaluated once; all alike, twice: a
    stack of one is summed in another order), and a genome alone on eight boards and more gets
    the boards' results added one after another, as a sum of floats adds them (``np.sum``
    adds eight or more in pairs, other bits)."""
    kind = get_kind("program")
    rules = Rules((1, 3, 5, 7, 9))
    boards = [Rules(start, max_take, misere) for start in ((1, 2), (2, 3), (1, 3, 5), (3, 4), (2, 2, 3), (1, 4), (2, 5),
                                                           (1, 1, 4)) for max_take, misere in ((None, False), (3, True))]
    panels = tuple(Panel.build(board, ("random", "nimsum"), "all") for board in boards)
    rng = np.random.default_rng(4)
    programs = [kind.plain(kind.create(rules, rng)) for _ in range(3)]
    evaluated = []
    monkeypatch.setattr(induction, "induced_each",
                        lambda space, stack, opponents: evaluated.append(len(stack)) or
                        induced_each(space, stack, opponents))
    for chunk in ([programs[0], programs[1], programs[0], programs[2], programs[1], programs[0]],
                  [programs[1]] * 4):
        evaluated.clear()
        for panel in panels:  # (nothing remembered from the chunk before)
            panel.__dict__.pop("remembered", None)
        deduplicated = fitness.evaluate_boards(get_kind("program"), panels, "exact", 0, chunk, 1, cases=True)
        assert len(evaluated) == len(panels) and max(evaluated) == max(2, len(set(map(tuple, chunk))))
        with monkeypatch.context() as patch:
            patch.setattr(induction, "each_once", _the_whole_stack)
            whole = fitness.evaluate_boards(get_kind("program"), panels, "exact", 0, chunk, 1, cases=True)
        for one, other in zip(deduplicated, whole, strict=True):
            assert (one.fitness, one.subgames, one.rates, one.games) == (other.fitness, other.subgames, other.rates,
                                                                          other.games)
            assert np.array_equal(one.cases, other.cases) and one.cases.base is None  # (a copy: no chunk kept alive)
    (alone,) = fitness.evaluate_boards(get_kind("program"), panels, "exact", 0, programs[:1], 1)
    each = [evaluate_chunk(get_kind("program"), panel, "exact", 0, programs[:1], None)[0] for panel in panels]
    assert alone.fitness == sum(e.fitness for e in each) / len(panels)
    assert alone.subgames == sum(e.subgames for e in each) / len(panels)
    assert alone.rates == {name: tuple(sum(e.rates[name][seat] for e in each) / len(panels) for seat in (0, 1))
                           for name in each[0].rates}


def test_policies_a_panel_met_before_are_not_evaluated_again_and_get_the_same_bits(monkeypatch):
    """A panel remembers the policies it evaluated in chunks of two genomes and more: a chunk
    met again is not evaluated; one new policy among remembered ones is evaluated as two (a
    stack of one adds in another order); a chunk of one genome is evaluated alone and nothing
    of it is remembered. Every genome gets the bits evaluating its whole chunk gives."""
    kind = get_kind("program")
    rules = Rules((1, 3, 5, 7, 9))
    panel = Panel.build(Rules((2, 3, 5)), ("random", "nimsum"), "all")
    rng = np.random.default_rng(11)
    programs, seen = [], set()
    while len(programs) < 12:  # (programs that play the board apart)
        genes = kind.plain(kind.create(rules, rng))
        played = kind.policies([genes], (panel.space,))[0][0].tobytes()
        if played not in seen:
            seen.add(played)
            programs.append(genes)
    evaluated = []
    monkeypatch.setattr(induction, "induced_each",
                        lambda space, stack, opponents: evaluated.append(len(stack)) or
                        induced_each(space, stack, opponents))
    chunks = [programs[:6], programs[:6], programs[:5] + programs[6:7], programs[7:8], programs[7:8] + programs[:3],
              programs[8:12] + programs[8:10]]
    expected_stacks = [6, None, 2, 1, 2, 4]  # (None: nothing evaluated)
    for chunk, expected in zip(chunks, expected_stacks):
        evaluated.clear()
        ours = evaluate_chunk(kind, panel, "exact", 0, chunk, None, cases=True)
        assert evaluated == ([] if expected is None else [expected]), (chunk, evaluated)
        with monkeypatch.context() as patch:
            patch.setattr(induction, "each_once", _the_whole_stack)
            whole = evaluate_chunk(kind, panel, "exact", 0, chunk, None, cases=True)
        for one, other in zip(ours, whole, strict=True):
            assert (one.fitness, one.subgames, one.rates) == (other.fitness, other.subgames, other.rates)
            assert np.array_equal(one.cases, other.cases)


def _recording_toolbox(calls: list):
    """A toolbox whose evaluation records each task's genomes and gives each genome ten times itself."""
    class Toolbox:
        @staticmethod
        def evaluate(chunk, seed):
            calls.append(list(chunk))
            return [genes * 10 for genes in chunk]

        @staticmethod
        def map(function, chunks, seeds):
            return [function(chunk, seed) for chunk, seed in zip(chunks, seeds)]

    return Toolbox


def test_chunks_evaluated_together_are_one_task_but_a_last_chunk_of_one_genome(monkeypatch):
    """Evaluated together, a generation's chunks are one task (their first seed: exact fitness
    draws nothing), a last chunk of one genome its own, and the results come in order; a
    program run in its process evaluates so, with exact fitness only."""
    calls: list = []
    Toolbox = _recording_toolbox(calls)

    for count, expected in ((7, [[0, 1, 2, 3, 4, 5], [6]]), (8, [list(range(8))]), (3, [[0, 1, 2]]), (1, [[0]])):
        calls.clear()
        with tasks.Tasks(Toolbox, 3, np.random.SeedSequence(1), overlap=False, together=True) as chunks:
            for genes in range(count):
                chunks.add(genes)
            assert chunks.results() == [genes * 10 for genes in range(count)]
        assert calls == expected
    # remembered: a genome met before is not evaluated; a single one left is evaluated as two;
    # the last, alone in its task, is evaluated alone and never kept
    from nim_evo.engine.kept import Memo

    kept = Memo(100, 1 << 20)
    for count, keys, expected in ((5, "abcde", [list("abcd"), ["e"]]), (5, "abfde", [["f", "f"], ["e"]]),
                                  (4, "abfg", [["g", "g"]]), (3, "hbg", [["h", "h"], ["g"]])):
        calls.clear()
        with tasks.Tasks(Toolbox, 2, np.random.SeedSequence(1), overlap=False, together=True,
                         remembered=kept) as chunks:
            for key in keys[:count]:
                chunks.add(key, key)
            assert chunks.results() == [key * 10 for key in keys[:count]]
        assert calls == expected, (keys, calls)
    original, flags = tasks.Tasks.__init__, []

    def spy(self, toolbox, size, seeds, overlap, together=False, remembered=None):
        flags.append(together)
        original(self, toolbox, size, seeds, overlap, together, remembered)

    monkeypatch.setattr(tasks.Tasks, "__init__", spy)
    for genome, mode, jobs, expected in (("thresholds", "exact", 1, True), ("thresholds", "sampled", 1, False),
                                         ("thresholds", "exact", 2, False), ("table", "exact", 1, False)):
        flags.clear()
        config = Config(genome=genome, rules=Rules((2, 3, 4)), population=6, offspring=6, seed=1, fitness=mode)
        start(config, make_toolbox(config, jobs=jobs))
        assert flags == [expected], (genome, mode, jobs)


def test_tasks_evaluated_together_are_cut_at_a_bound_never_leaving_one_alone(monkeypatch):
    calls: list = []
    Toolbox = _recording_toolbox(calls)

    monkeypatch.setattr(tasks, "TOGETHER", 3)
    for count, size, expected in ((8, 2, [[0, 1, 2], [3, 4, 5], [6, 7]]), (7, 4, [[0, 1, 2], [3, 4, 5, 6]]),
                                  (7, 2, [[0, 1, 2], [3, 4, 5], [6]]),  # (the last chunk of one, alone)
                                  (4, 2, [[0, 1, 2, 3]])):
        calls.clear()
        with tasks.Tasks(Toolbox, size, np.random.SeedSequence(1), overlap=False, together=True) as chunks:
            for genes in range(count):
                chunks.add(genes)
            assert chunks.results() == [genes * 10 for genes in range(count)]
        assert calls == expected


def test_a_program_run_evaluated_together_and_remembering_is_the_run_of_one_task_a_chunk(monkeypatch):
    """More offspring than a chunk holds, merged into tasks of more genomes than a chunk (and
    genomes remembered from a generation before), give every individual the fitness, rates
    and cases, to the bit, that a task a chunk gives; the run's memory of evaluations is
    forgotten when its stage's evaluation is bound again (its panels changed)."""
    from nim_evo.evolution import loop, stages

    def run(together: bool):
        with monkeypatch.context() as patch:
            if not together:
                patch.setattr(fitness, "small_boards", lambda panels: False)
            config = Config(genome="program", rules=Rules((1, 3, 5, 7)), population=41, offspring=161, seed=3)
            toolbox = make_toolbox(config)
            state = start(config, toolbox)
            for _ in range(3):
                state = step(state, config, toolbox)
            return toolbox, [(ind.fitness.values, ind.rates, ind.cases.tobytes()) for ind in state.population]

    toolbox, together = run(True)
    assert together == run(False)[1]
    remembered = loop._remembered(toolbox)
    assert remembered.nbytes > 0 and loop._remembered(toolbox) is remembered
    stages.bind_stage(toolbox, Config(genome="program", rules=Rules((1, 3, 5, 7)), seed=3), 0)
    assert loop._remembered(toolbox) is not remembered
