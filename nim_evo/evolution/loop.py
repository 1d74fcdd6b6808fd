"""Evolution with DEAP: the toolbox of a run and the (mu + lambda) loop (the run's
configuration is :mod:`~nim_evo.evolution.config`'s).

The loop is DEAP's ``eaMuPlusLambda``, written out so that it can checkpoint::

    evaluate the initial population; update the hall of fame; record
    for gen in 1 .. generations:
        offspring = vary(population, toolbox, lambda_, cxpb, mutpb)    (DEAP's varOr)
        evaluate the offspring with invalid fitness          (toolbox.map: joblib; or as they
                                                              are made, in a thread: overlaps)
        update the hall of fame with the offspring
        population = select(population + offspring, mu)
        record statistics; write a checkpoint

What differs from ``eaMuPlusLambda``: randomness is one numpy Generator re-derived at every
generation from ``SeedSequence([seed, gen])`` and passed to variation, selection and the
genome operators, so a run resumed from any checkpoint continues exactly as it would have
and no module-level random state is touched. DEAP's ``varOr`` and ``selTournament`` draw
from the global ``random`` module, so :func:`vary` and the selections of
:mod:`~nim_evo.evolution.selection` are the same algorithms written over the Generator
(DEAP's toolbox, creator types, statistics, logbook and ``selBest`` are used as they are,
and its hall of fame with parsimony among equals); the selection keeps the best individual
(elitist tournament or lexicase); evaluation is batched in chunks of individuals; each
individual also carries its per-opponent win rates and, for table genomes, its per-position
credit from the exact evaluator.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial

import numpy as np
from deap import base, tools
from joblib import Parallel, delayed

from nim_evo.engine import draws
from nim_evo.engine.kept import Memo
from nim_evo.engine.sizes import SpaceTooLarge, space_size
from nim_evo.evaluation.decisions import Decisions
from nim_evo.evolution import counterexamples, localsearch
from nim_evo.evaluation.heldout import seven_heaps_accuracy
from nim_evo.evolution import allocator, cluster, fitness, localpool, stages, tasks
from nim_evo.evolution.config import Config
from nim_evo.evolution.selection import hall_of_fame, select_elitist, select_lexicase
from nim_evo.validation import UserError


@dataclass
class State:
    """What a checkpoint holds: a plain dict of DEAP objects, as DEAP's checkpoint tutorial does."""

    generation: int
    population: list
    halloffame: tools.HallOfFame
    logbook: tools.Logbook
    games: int = 0
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)
    decided: dict = field(default_factory=dict)  # stage: the positions its decisions gained (counterexamples)


def clone(ind):
    """``copy.deepcopy`` of an individual (DEAP's ``clone``): its type's own deep copy asked
    at once, without ``deepcopy``'s dispatch and memo (variation clones a population a generation)."""
    copier = getattr(type(ind), "__deepcopy__", None)
    return copy.deepcopy(ind) if copier is None else copier(ind, {})


def make_toolbox(config: Config, jobs: int = 1, given: dict | None = None, overlap: bool = True) -> base.Toolbox:
    """The DEAP toolbox of a run: creation, variation, selection, evaluation, parallel map;
    ``given``: opponents given as agent objects, by the names ``config.opponents`` holds for them;
    ``overlap``: False for a run that shares the machine's cores with others (a sweep's, several
    at once): its offspring are never evaluated beside its variation (:func:`overlaps`)."""
    toolbox = base.Toolbox()
    toolbox.register("clone", clone)
    toolbox.overlap = overlap
    boards = tuple(dict.fromkeys(r for stage in range(len(config.stages)) for r in config.training_rules(stage)))
    if config.fitness == "exact" and all(rules.box and space_size(rules, multiset=config.multiset)
                                         > fitness.THREADED_SPACE for rules in boards):
        allocator.keep_large_arrays()  # before the panels are built (a board counted without building it)
    built = {}  # a board of several stages is built once
    for rules in boards:
        built[rules] = fitness.Panel.build(rules, config.opponents, config.starts, config.fitness, config.seed,
                                           multiset=config.multiset, order_blind=_order_blind(config), given=given)
    decided = {rules: Decisions.build(rules, config.opponents) for stage in range(len(config.stages))
               for rules in config.decision_rules(stage)}  # (None where theory does not reach: misère play)
    toolbox.stage_panels = tuple(tuple(built[rules] for rules in config.training_rules(stage))
                                 + tuple(decided[r] for r in config.decision_rules(stage) if decided[r] is not None)
                                 for stage in range(len(config.stages)))
    # the run's workers: on Dask, each stage's panels go to every one now, once (a task carries their key)
    toolbox.jobs = jobs
    _bind_map(toolbox, config)
    toolbox.panels = toolbox.stage_panels[-1]  # the run's own: its ceiling, its summary's
    toolbox.given = given
    toolbox.restored = set()  # stages whose decisions hold what the run's state says they gained (counterexamples)
    stages.bind_stage(toolbox, config, 0, dict.fromkeys(config.stages[0].held))  # (the kind's own: no stage before)
    return toolbox


def _bind_map(toolbox: base.Toolbox, config: Config) -> None:
    """Register the run's parallel map over its workers, which, on Dask, hold each stage's
    panels as they are now (sent again when a stage's decisions grow). A kind whose variation
    is numpy's work (a table: :attr:`~nim_evo.genomes.protocol.GenomeKind.overlapped`) is
    evaluated in this process on the local backend, whatever the jobs: beside its variation
    (:func:`overlaps`) it is faster than in a pool (twice on seven heaps, 1.2 times on eight;
    on nine, 10% slower than two threads, in less memory)."""
    jobs = toolbox.jobs
    toolbox.in_process = jobs == 1 or config.kind.overlapped and cluster.local_backend()
    threads = fitness.in_threads([panel for panels in toolbox.stage_panels for panel in panels])
    if threads:
        allocator.keep_large_arrays()  # (where make_toolbox could not tell before building: before the threads)
    workers = None if toolbox.in_process else cluster.workers(jobs, *toolbox.stage_panels, threads=threads)
    toolbox.register("map", joblib_map, 1 if toolbox.in_process else jobs, workers=workers)


def home_panel(toolbox: base.Toolbox, config: Config) -> fitness.Panel:
    """The opponents on the run's own board (what its summary plays): the training panel of
    that board, or, when fitness is measured on other boards, one built now."""
    for panel in toolbox.panels:
        if panel.rules == config.rules:
            return panel
    return fitness.Panel.build(config.rules, config.opponents, "start", "sampled", config.seed,
                               multiset=config.multiset, order_blind=_order_blind(config),
                               given=getattr(toolbox, "given", None))


def _order_blind(config: Config) -> bool:
    """Whether the run's genomes choose by pile sizes alone (its kind says so of a new genome)."""
    kind = config.kind
    return kind.order_blind(kind.create(config.rules, np.random.default_rng(0), multiset=config.multiset), config.rules)


def bind_generation(toolbox: base.Toolbox, config: Config, generation: int) -> np.random.Generator:
    """Seed this generation's randomness and bind it to the operators; returns the Generator."""
    sequence = np.random.SeedSequence([config.seed, generation])
    rng = np.random.default_rng(sequence)
    kind = config.kind
    mutate_options = {name: getattr(config, name) for name in kind.mutation_parameters
                      if getattr(config, name) is not None}
    held = {"held": toolbox.held} if getattr(toolbox, "held", ()) else {}  # parts a stage holds: never varied
    mutate_options.update(held)
    if kind.threaded:
        mutate_options["threads"] = cluster.local_threads(toolbox.jobs)
    decisions = [panel for panel in toolbox.stage_panels[toolbox.stage] if isinstance(panel, Decisions)]
    if decisions:  # (the last of a genome's cases: a heap mutation may read where its play first fails)
        mutate_options["decided"] = np.concatenate([d.positions for d in decisions])
    toolbox.register("mate", kind.crossover, rules=config.rules, rng=rng, **held)
    toolbox.register("mutate", kind.mutate, rules=config.rules, rng=rng, **mutate_options)
    if config.selector == "lexicase":
        toolbox.register("select", select_lexicase, rng=rng, size=kind.size)
    else:
        toolbox.register("select", select_elitist, tournsize=config.tournsize, rng=rng)
    toolbox.rng = rng
    return rng


def vary(population: list, toolbox: base.Toolbox, lambda_: int, cxpb: float, mutpb: float,
         rng: np.random.Generator) -> Iterator:
    """DEAP's ``varOr`` over ``rng``, its offspring one at a time as they are made: each of
    ``lambda_`` is a crossover of two distinct parents (the first child kept, probability
    ``cxpb``), a mutant (``mutpb``) or a parent reproduced as it is."""
    if cxpb + mutpb > 1.0:
        raise UserError("the sum of the crossover and mutation probabilities must be <= 1.0")
    for _ in range(lambda_):
        choice = rng.random()
        if choice < cxpb:
            first, second = (toolbox.clone(population[i]) for i in draws.two_of(rng, len(population)))
            child, _ = toolbox.mate(first, second)
            del child.fitness.values
        elif choice < cxpb + mutpb:
            child, = toolbox.mutate(toolbox.clone(population[rng.integers(len(population))]))
            del child.fitness.values
        else:
            child = population[rng.integers(len(population))]
        yield child


def joblib_map(jobs: int, function, *iterables, workers: cluster.Scattered | localpool.LocalPool | None = None) -> list:
    """``toolbox.map`` on joblib: results in submission order, whatever the worker count.

    A ``functools.partial`` (``toolbox.evaluate``) is sent as its function and arguments, so
    that the panel is an argument of every task, the same object each time, which joblib
    sends once: the run's local pool memory-maps its tables once for the run (see
    :class:`fitness.Panel` for how it pickles), and on Dask the panel is on the workers
    already and a task carries its key (see :func:`cluster.workers`). One task per chunk
    (``batch_size=1``): chunks are cut by the problem, not to be grouped.
    """
    items = list(zip(*iterables))
    if jobs == 1 or len(items) <= 1:
        return [function(*item) for item in items]
    arguments, keywords = (), {}
    if isinstance(function, partial):
        function, arguments, keywords = function.func, function.args, function.keywords
    calls = [delayed(function)(*arguments, *item, **keywords) for item in items]
    return Parallel(n_jobs=jobs, batch_size=1)(calls) if workers is None else workers.map(calls)


def evaluate(toolbox: base.Toolbox, config: Config, individuals: Iterable, generation: int, stream: int = 1) -> int:
    """Evaluate ``individuals`` (any iterable: a generation's offspring as variation makes
    them) in fixed chunks, a task each (:class:`~nim_evo.evolution.tasks.Tasks`: through
    ``toolbox.map``, or beside variation, see :func:`overlaps`); returns games played
    (sampled games drawn from the generation's ``stream``: 1 for its offspring).
    Exact fitness is a function of the genome alone, so where a kind reads no per-position
    credit, genomes that are the same are evaluated once (variation of a converged
    population makes many) and their copies take its results."""
    kind = config.kind
    key = None
    if config.fitness == "exact" and not kind.uses_credit:
        largest = max(max(panel.rules.start) for panel in toolbox.stage_panels[toolbox.stage])
        key = partial(_play_key, kind, largest)
    numbers: dict = {}  # a genome's play key: its number among those evaluated
    members = []  # each individual and its genome's number
    seeds = np.random.SeedSequence([config.seed, generation, stream])
    size = fitness.chunk_size(toolbox.panel, config.fitness)
    overlap = overlaps(toolbox, config)
    together = (toolbox.in_process and not overlap and config.fitness == "exact" and not kind.uses_credit
                and fitness.small_boards(toolbox.stage_panels[toolbox.stage]))  # (the tasks' fixed cost most of them)
    with tasks.Tasks(toolbox, size, seeds, overlap, together, _remembered(toolbox) if together else None) as chunks:
        for ind in individuals:
            genes = kind.plain(ind)
            played = None if key is None else key(genes)
            number = chunks.added if key is None else numbers.setdefault(played, chunks.added)
            if number == chunks.added:
                chunks.add(genes, played)
            members.append((ind, number))
        evaluated = chunks.results()
    for ind, number in members:
        result = evaluated[number]
        ind.fitness.values = (result.fitness, result.subgames)
        ind.rates = result.rates
        ind.credit = result.credit if config.credit else None
        ind.cases = result.cases
    return sum(result.games for result in evaluated)


def _play_key(kind, largest: int, genes):
    return kind.play_key(genes, largest)


REMEMBERED, REMEMBERED_BYTES = 4096, 64 << 20  # genomes' evaluations a run keeps, and their bytes (a few generations')


def _remembered(toolbox: base.Toolbox) -> Memo:
    """The evaluations the run keeps by its genomes' play keys, while its evaluation is bound
    as it is (a stage's panels: bound again, they are forgotten)."""
    held = getattr(toolbox, "remembered", None)
    if held is None or held[0] is not toolbox.evaluate:
        held = toolbox.remembered = (toolbox.evaluate, Memo(REMEMBERED, REMEMBERED_BYTES))
    return held[1]


def overlaps(toolbox: base.Toolbox, config: Config) -> bool:
    """Whether a generation's offspring are evaluated in a thread as variation makes them
    (:class:`~nim_evo.evolution.tasks.Tasks`): where the run evaluates in its own process
    (:func:`_bind_map`) with more than one core to run on (and them to itself: see
    :func:`make_toolbox`), and its kind's variation is numpy's work
    (:attr:`~nim_evo.genomes.protocol.GenomeKind.overlapped`), as its evaluation on a board
    with tables is. The offspring and their results are the same either way."""
    return toolbox.in_process and toolbox.overlap and cluster.usable_cores() > 1 and config.kind.overlapped


def make_statistics() -> tools.Statistics:
    """DEAP's statistics of a generation's fitness: its min, mean and max."""
    stats = tools.Statistics(key=lambda ind: ind.fitness.values[0])
    stats.register("min", np.min)
    stats.register("mean", np.mean)
    stats.register("max", np.max)
    return stats


def start(config: Config, toolbox: base.Toolbox) -> State:
    """Generation 0: a random population, evaluated and recorded."""
    began = time.perf_counter()
    bind_generation(toolbox, config, 0)
    population = [toolbox.individual(toolbox.rng) for _ in range(config.population)]
    games = evaluate(toolbox, config, population, 0)
    halloffame = hall_of_fame(config.kind)
    halloffame.update(population)
    logbook = tools.Logbook()
    state = State(0, population, halloffame, logbook, games, 0.0)
    _record(state, config, len(population), games, time.perf_counter() - began)
    return state


def step(state: State, config: Config, toolbox: base.Toolbox) -> State:
    """One generation of (mu + lambda), in place; returns the state."""
    began = time.perf_counter()
    generation = state.generation + 1
    stage = stages.stage_of(state)
    moving = stage + 1 < len(config.stages) and stages.stage_done(state, config, toolbox)
    kind = config.kind
    if moving:  # the next stage: a new population around the parts the champion hands on
        stage += 1
        _bind_stage(toolbox, config, stage, state.halloffame[0])
        state.halloffame = hall_of_fame(kind)  # (fitness of another stage: not comparable)
    elif toolbox.stage != stage:  # a run resumed in a later stage: its population holds the parts
        _bind_stage(toolbox, config, stage, state.population[0])
    if counterexamples.restore(toolbox, state.decided):  # (a resumed run: the decisions its stage gained)
        _panels_changed(toolbox, config, stage, state.population[0])
    restart = moving or config.stages[stage].restarts and stalled(state.logbook, config.patience)
    rescored = games = 0
    if (not restart and not config.stages[stage].restarts  # (a stage that restarts would see its best fall: stalled)
            and counterexamples.grow(toolbox, config.kind, state.halloffame[0], state.decided)):
        _panels_changed(toolbox, config, stage, state.population[0])
        rescored, games = _rescore(state, config, toolbox, generation)
    if not restart:  # (a new population needs nothing of the old one's)
        restore_evaluations(state, config, toolbox)
    bind_generation(toolbox, config, generation)
    offspring: list = []
    invalid: list = []

    def made() -> Iterator:  # the offspring to evaluate, as they are made
        for child in _offspring(state, config, toolbox, restart):
            offspring.append(child)
            if not child.fitness.valid:
                invalid.append(child)
                yield child

    games += evaluate(toolbox, config, made(), generation)
    state.halloffame.update(offspring)
    state.population[:] = offspring if restart else toolbox.select(state.population + offspring, config.population)
    state.generation = generation
    state.games += games
    _record(state, config, len(invalid) + rescored, games, time.perf_counter() - began, restart, stage)
    return state


def restore_evaluations(state: State, config: Config, toolbox: base.Toolbox) -> None:
    """Give the population back what its checkpoint does not keep of its evaluations (a
    resumed run's): per-position credit, where its kind's operators read it, and lexicase
    selection's cases, each genome evaluated again, which gives them bit for bit (exact
    fitness reads a genome alone; they are values per position). Fitness and win rates stay
    the checkpoint's: a genome evaluated alone in its chunk sums its sub-games in another
    order (numpy's pairwise sum of a row), other last bits."""
    if config.fitness != "exact":
        return
    credit = config.credit and config.kind.uses_credit
    cases = config.selector == "lexicase"
    missing = [ind for ind in state.population if credit and ind.credit is None or cases and ind.cases is None]
    if missing:
        again = [toolbox.clone(ind) for ind in missing]  # (the individuals themselves change at once, at the end)
        evaluate(toolbox, config, again, state.generation)
        for ind, evaluated in zip(missing, again):
            ind.credit, ind.cases = evaluated.credit, evaluated.cases


def _offspring(state: State, config: Config, toolbox: base.Toolbox, restart: bool) -> Iterator:
    """A generation's offspring, one at a time: variation's and the local search's, or with
    ``restart`` a new random population (the hall of fame keeps the run's best)."""
    if restart:
        for _ in range(config.population):
            yield toolbox.individual(toolbox.rng)
        return
    yield from vary(state.population, toolbox, config.offspring, config.cxpb, config.mutpb, toolbox.rng)
    yield from localsearch.improved(state.population, toolbox, config.kind, toolbox.rng)


def _bind_stage(toolbox: base.Toolbox, config: Config, stage: int, holder) -> None:
    """Bind ``stage`` (:func:`~nim_evo.evolution.stages.bind_stage`) with the parts it holds taken from ``holder``."""
    kind = config.kind
    stages.bind_stage(toolbox, config, stage, {part: kind.part(holder, part) for part in config.stages[stage].held})


def _panels_changed(toolbox: base.Toolbox, config: Config, stage: int, holder) -> None:
    """Bind the stage again, and the map where its workers hold the panels (Dask's), after
    the stage's decisions grew (:mod:`~nim_evo.evolution.counterexamples`)."""
    _bind_stage(toolbox, config, stage, holder)
    if isinstance(toolbox.map.keywords.get("workers"), cluster.Scattered):
        _bind_map(toolbox, config)


def _rescore(state: State, config: Config, toolbox: base.Toolbox, generation: int) -> tuple[int, int]:
    """Score the population and the hall of fame again, on the stage's panels as they are now
    (its decisions grown), the hall of fame ranked anew, its members first in their order
    (as a checkpoint's are read back: among equals, the earlier stays ahead); returns the
    individuals scored and the games played (sampled games from the generation's stream 2)."""
    members = list(state.halloffame)
    games = evaluate(toolbox, config, state.population + members, generation, stream=2)
    state.halloffame = hall_of_fame(config.kind)
    for ind in reversed(members):  # (insert puts an item before its equals)
        state.halloffame.insert(ind)
    state.halloffame.update(state.population)
    return len(state.population) + len(members), games


def stalled(logbook, patience: int) -> bool:
    """Whether the population's best fitness has not risen for ``patience`` generations since
    it began (the run's start or its last restart, as the logbook records them)."""
    if not patience:
        return False
    began = max((record["gen"] for record in logbook if record.get("restart")), default=0)
    best = [record["max"] for record in logbook if record["gen"] >= began]
    return len(best) > patience and max(best[-patience:]) <= max(best[:-patience])


def _record(state: State, config: Config, evals: int, games: int, seconds: float, restart: bool = False,
            stage: int = 0) -> None:
    champion = state.halloffame[0]  # the run's champion so far: what the run exports
    record = make_statistics().compile(state.population)
    kind = config.kind
    more: dict[str, float] = {}
    begun = not state.logbook  # (a run begun without a column goes on without it: each row has the header's)
    if (config.patience or len(config.stages) > 1) and (begun or "restart" in state.logbook[0]):
        more["restart"] = int(restart)
    if len(config.stages) > 1 and (begun or "stage" in state.logbook[0]):
        more["stage"] = stage
    if kind.board_free and (not state.logbook or "heldout" in state.logbook[0]):  # (several families: the least)
        more["heldout"] = round(min(seven_heaps_accuracy(config.kind, kind.plain(champion), rules)
                                    for rules in config.home_rules()), 6)
    rates = {f"{name}": round(sum(pair) / 2, 6) for name, pair in champion.rates.items()}
    try:
        accuracy = round(min(fitness.accuracy(config.kind, champion, rules) for rules in config.home_rules()), 6)
    except SpaceTooLarge:  # a board too big to solve: no accuracy
        accuracy = float("nan")
    state.seconds += seconds
    state.logbook.record(gen=state.generation, evals=evals, games=games,
                         **{k: round(float(v), 6) for k, v in record.items()},
                         subgames=round(champion.fitness.values[1], 6),
                         **rates, accuracy=accuracy, **more, seconds=round(seconds, 3))
