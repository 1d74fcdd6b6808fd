"""Evolution with DEAP: creator types, the toolbox of a run, and the (mu + lambda) loop.

The loop is DEAP's ``eaMuPlusLambda``, written out so that it can checkpoint::

    evaluate the initial population; update the hall of fame; record
    for gen in 1 .. generations:
        offspring = vary(population, toolbox, lambda_, cxpb, mutpb)    (DEAP's varOr)
        evaluate the offspring with invalid fitness          (toolbox.map: joblib)
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

import json
import time
from dataclasses import asdict, dataclass, field
from functools import partial
from numbers import Integral

import numpy as np
from deap import base, tools
from joblib import Parallel, delayed

from nim_evo.engine.rules import RULES, Rules, family_name, family_of, parse_family, rules_from_json, rules_to_json
from nim_evo.engine.sizes import SpaceTooLarge, enumerable
from nim_evo.evaluation.heldout import seven_heaps_accuracy
from nim_evo.evolution import cluster, fitness, stages, target
from nim_evo.evolution.selection import hall_of_fame, select_elitist, select_lexicase
from nim_evo.genomes import get_kind, kind_names
from nim_evo.genomes.protocol import Stage
from nim_evo.validation import (GAMES, GENERATIONS, OFFSPRING, POPULATION, PROBABILITY, SEED, InstanceOf, Interval,
                                Names, Options, ParameterError, UserError, shown, validate)

SPACES = ("multiset", "ordered")
SELECTIONS = ("tournament", "lexicase")
CHECKPOINT_VERSION = 1


CONFIG_CONSTRAINTS: dict[str, list]
CONFIG_CONSTRAINTS = {
    "genome": [Options(of=kind_names)],
    "rules": [RULES],
    "generations": [GENERATIONS],
    "population": [POPULATION],
    "offspring": [OFFSPRING],
    "cxpb": [PROBABILITY],
    "mutpb": [PROBABILITY],
    "opponents": [Names()],
    "games": [GAMES],
    "fitness": [Options("exact", "sampled")],
    "starts": [Options("start", "all")],
    "seed": [SEED],
    "tournsize": [Interval(Integral, 1, None)],
    "indpb": [None, PROBABILITY],
    "greedy": [PROBABILITY],
    "credit": [InstanceOf(bool)],
    "space": [Options(*SPACES)],
    "train_boards": [None, InstanceOf(tuple, what="a tuple of boards")],
    "selection": [None, Options(*SELECTIONS)],
    "restart": [None, Interval(Integral, 0, None)],
    "until": [None, target.UNTIL],
    "families": [None, Names()],
    "staged": [InstanceOf(bool)],
}


@dataclass(frozen=True)
class Config:
    """Everything that decides a run's result (``jobs`` does not), checked when made
    (:data:`CONFIG_CONSTRAINTS`: a :class:`~nim_evo.validation.ParameterError` names what is wrong)."""

    genome: str
    rules: Rules
    generations: int = 200
    population: int = 40
    offspring: int = 80
    cxpb: float = 0.5
    mutpb: float = 0.5
    opponents: tuple[str, ...] = ("random", "nimsum", "minimax")
    games: int = 1000
    fitness: str = "exact"
    starts: str = "start"
    seed: int = 0
    tournsize: int = 3
    indpb: float | None = None   # per-gene mutation probability; None: the kind's default
    greedy: float = 1.0          # table genome: share of credit-guided gene mutations
    credit: bool = True          # table genome: operators read per-position credit (False: a plain GA)
    space: str = "multiset"      # the enumerated space fitness and table genes live on: multiset or ordered
    train_boards: tuple[tuple[int, ...] | str, ...] | None = None  # board-free kinds: the piles fitness is
    # measured on, each in the run's families (None: the kind's own set, or the board), or a game's
    # full name (2-3-cap3-misere), played in its own family alone
    selection: str | None = None  # survivors by tournament or lexicase (None: the kind's own choice)
    restart: int | None = None  # a new random population after this many generations without progress
    # (0: never; None: the kind's own choice)
    until: str | None = None  # stop at the first generation whose champion reaches this target
    # (:mod:`~nim_evo.evolution.target`: "accuracy=1", "ceiling"; None: run every generation)
    families: tuple[str, ...] | None = None  # several families at once, by name (normal, misere,
    # cap3, cap3-misere: the board's own among them), for a kind that reads the cap and the misère
    # flag; None: the board's own family alone
    staged: bool = True  # the kind's stages (False: a run begun before them, resumed as it began: one stage)

    def __post_init__(self):
        if isinstance(self.opponents, list):
            object.__setattr__(self, "opponents", tuple(self.opponents))
        if isinstance(self.families, list):
            object.__setattr__(self, "families", tuple(self.families))
        if isinstance(self.train_boards, (list, tuple)):
            object.__setattr__(self, "train_boards", tuple(tuple(b) if isinstance(b, (list, tuple)) else b
                                                           for b in self.train_boards))
        validate(CONFIG_CONSTRAINTS, vars(self))
        if self.cxpb + self.mutpb > 1:
            raise ParameterError("cxpb + mutpb", f"must be at most 1 (DEAP's varOr), got {self.cxpb + self.mutpb:g}")
        if self.families is not None:
            _check_families(self)
        if self.train_boards is not None:
            _check_train_boards(self.train_boards, get_kind(self.genome), self.family_pairs)
        if self.selection == "lexicase" and self.fitness != "exact":
            raise ParameterError("selection", "lexicase reads every sub-game's exact win probability: it needs "
                                 "exact fitness")
        if self.until is not None:
            _check_until(self)

    @property
    def selector(self) -> str:
        """How survivors are chosen: ``selection``, else the kind's own choice (tournament
        where fitness is sampled: lexicase needs every sub-game's exact value)."""
        if self.selection is not None:
            return self.selection
        return get_kind(self.genome).selection if self.fitness == "exact" else "tournament"

    @property
    def family_pairs(self) -> tuple[tuple[int | None, bool], ...]:
        """The run's families as ``(max_take, misere)`` pairs: ``families``, else its board's."""
        if self.families is None:
            return (family_of(self.rules),)
        return tuple(parse_family(name) for name in self.families)

    def home_rules(self) -> tuple[Rules, ...]:
        """The run's board in each of its families (what its accuracy is measured on)."""
        return tuple(Rules(self.rules.piles, cap, misere) for cap, misere in self.family_pairs)

    @property
    def stages(self) -> tuple[Stage, ...]:
        """How the search goes (:meth:`GenomeKind.stages`): one stage on the run's families,
        or several, each handing on parts of its champion to the next."""
        return get_kind(self.genome).stages(self.family_pairs, single=not self.staged)

    def training_rules(self, stage: int = -1) -> tuple[Rules, ...]:
        """The boards fitness is measured on in ``stage`` (default: the last, the run's own):
        ``train_boards``, else the kind's own training set (``train_boards`` of its class, and
        in families with a cap its ``capped_train_boards``), else the run's board; each in each
        of the stage's families (cap and misère flag)."""
        kind = get_kind(self.genome)
        boards = self.train_boards or kind.train_boards or (self.rules.piles,)
        families = self.stages[stage].families
        plain = [board for board in boards if not isinstance(board, str)]
        named = [Rules.parse(board) for board in boards if isinstance(board, str)]
        own = [rules if family_of(rules) in families else Rules(rules.piles, rules.max_take, False) for rules in named
               if family_of(rules) in families or (rules.max_take, False) in families and not any(m for _, m in families)]
        capped = () if self.train_boards else tuple(Rules(board, cap, misere) for cap, misere in families
                                                    if cap is not None for board in kind.capped_train_boards)
        every = (*(Rules(tuple(board), cap, misere) for cap, misere in families for board in plain), *own, *capped)
        return tuple(dict.fromkeys(every))  # a board given twice (plain, and by its name) counts once

    @property
    def patience(self) -> int:
        """Generations without progress before a new population: ``restart``, else the kind's (0: never)."""
        return get_kind(self.genome).restart if self.restart is None else self.restart

    @property
    def multiset(self) -> bool:
        return self.space == "multiset"

    def to_json(self) -> dict:
        data = asdict(self)
        data["rules"] = rules_to_json(self.rules)
        data["opponents"] = list(self.opponents)
        data["train_boards"] = None if self.train_boards is None else [
            b if isinstance(b, str) else list(b) for b in self.train_boards]
        data["families"] = None if self.families is None else list(self.families)
        return data

    @classmethod
    def from_json(cls, data: dict) -> Config:
        data = dict(data)
        if "space" not in data:  # runs begun before multisets kept the operators of their time
            data = {**get_kind(data.get("genome")).upgrade_config(data), "space": "ordered"}
        data["rules"] = rules_from_json(data.get("rules"), "the run's config")
        if not isinstance(data["opponents"], list):  # a string is no list of names ("abc" is not a, b, c)
            raise UserError(f"opponents must be a list of names, got {shown(data['opponents'])}")
        data["opponents"] = tuple(data["opponents"])
        data.setdefault("selection", "tournament")  # runs begun before lexicase selection and restarts
        data.setdefault("restart", 0)
        data.setdefault("until", None)  # runs begun before targets went every generation
        data.setdefault("families", None)  # and before families, played one
        data.setdefault("staged", False)  # and before stages: resumed in the one stage it began in
        return cls(**data)


def _check_families(config: Config) -> None:
    """Families a kind can read, by name, the board's own among them."""
    assert config.families is not None  # checked only where given
    pairs = []
    for name in config.families:
        try:
            pairs.append(parse_family(name))
        except UserError as error:
            raise ParameterError("families", f"names {str(error)[0].lower()}{str(error)[1:]}") from None
    if len(set(pairs)) != len(pairs):
        raise ParameterError("families", f"names a family twice: {','.join(config.families)}")
    if not get_kind(config.genome).reads_family and pairs != [family_of(config.rules)]:
        raise ParameterError("families", f"are for genomes that read the cap and the misère flag (program), not a "
                             f"{config.genome} genome")
    if family_of(config.rules) not in pairs:
        raise ParameterError("families", f"must hold the board's own family, {family_name(family_of(config.rules))} "
                             f"({config.rules.name}), got {','.join(config.families)}")


def _check_until(config: Config) -> None:
    """A target the run can tell it reached: the ceiling of exact fitness, the accuracy of a board the solver takes."""
    what, _ = target.parse(config.until)
    if what == target.CEILING and config.fitness != "exact":
        raise ParameterError("until", "ceiling needs exact fitness: a sampled win rate may read above the ceiling "
                             "by chance (give accuracy=X instead)")
    big = [rules for rules in config.home_rules() if not enumerable(rules, multiset=True)]
    if what == "accuracy" and big:
        raise ParameterError("until", f"{config.until} needs the champion's accuracy, and the board "
                             f"{big[0].name} is too big to solve (give ceiling, or a smaller --game)")


MAX_TRAIN_BOARDS, MAX_TRAIN_PILES, MAX_TRAIN_PILE = 12, 6, 15


def _check_train_boards(boards, kind, families) -> None:
    if not kind.board_free:
        raise ParameterError("train_boards", f"is for genomes that play any board, not a {kind.name} genome")
    if not 1 <= len(boards) <= MAX_TRAIN_BOARDS:
        raise ParameterError("train_boards", f"must name 1 to {MAX_TRAIN_BOARDS} boards, got {len(boards)}")
    for board in boards:
        if isinstance(board, str):  # a game's full name: its board, in its own family (one of the run's)
            try:
                rules = Rules.parse(board)
            except UserError as error:
                raise ParameterError("train_boards", f"names {error}") from None
            if family_of(rules) not in families:
                raise ParameterError("train_boards", f"name {board!r}, of {family_name(family_of(rules))}, not one "
                                     f"of the run's families ({', '.join(map(family_name, families))})")
            board = rules.piles
        if not (isinstance(board, tuple) and 1 <= len(board) <= MAX_TRAIN_PILES and
                all(isinstance(n, Integral) and not isinstance(n, bool) and 0 <= n <= MAX_TRAIN_PILE for n in board)  # type: ignore[operator]  # typeshed: numbers.Integral has no >=
                and any(board)):
            raise ParameterError("train_boards", f"boards are 1 to {MAX_TRAIN_PILES} piles of 0 to {MAX_TRAIN_PILE} "
                                 f"objects, got {board!r}")


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


def make_toolbox(config: Config, jobs: int = 1, given: dict | None = None) -> base.Toolbox:
    """The DEAP toolbox of a run: creation, variation, selection, evaluation, parallel map;
    ``given``: opponents given as agent objects, by the names ``config.opponents`` holds for them."""
    toolbox = base.Toolbox()
    built = {}  # a board of several stages is built once
    for rules in dict.fromkeys(r for stage in range(len(config.stages)) for r in config.training_rules(stage)):
        built[rules] = fitness.Panel.build(rules, config.opponents, config.starts, config.fitness, config.seed,
                                           multiset=config.multiset, order_blind=_order_blind(config), given=given)
    toolbox.stage_panels = tuple(tuple(built[rules] for rules in config.training_rules(stage))
                                 for stage in range(len(config.stages)))
    # the run's workers: on Dask, each stage's panels go to every one now, once (a task carries their key)
    toolbox.register("map", joblib_map, jobs, workers=cluster.workers(jobs, *toolbox.stage_panels) if jobs != 1
                     else None)
    toolbox.panels = toolbox.stage_panels[-1]  # the run's own: its ceiling, its summary's
    toolbox.given = given
    stages.bind_stage(toolbox, config, 0, dict.fromkeys(config.stages[0].held))  # (the kind's own: no stage before)
    return toolbox


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
    kind = get_kind(config.genome)
    return kind.order_blind(kind.create(config.rules, np.random.default_rng(0), multiset=config.multiset), config.rules)


def bind_generation(toolbox: base.Toolbox, config: Config, generation: int) -> np.random.Generator:
    """Seed this generation's randomness and bind it to the operators; returns the Generator."""
    sequence = np.random.SeedSequence([config.seed, generation])
    rng = np.random.default_rng(sequence)
    kind = get_kind(config.genome)
    mutate_options = {name: getattr(config, name) for name in kind.mutation_parameters
                      if getattr(config, name) is not None}
    held = {"held": toolbox.held} if getattr(toolbox, "held", ()) else {}  # parts a stage holds: never varied
    mutate_options.update(held)
    toolbox.register("mate", kind.crossover, rules=config.rules, rng=rng, **held)
    toolbox.register("mutate", kind.mutate, rules=config.rules, rng=rng, **mutate_options)
    if config.selector == "lexicase":
        toolbox.register("select", select_lexicase, rng=rng, size=kind.size)
    else:
        toolbox.register("select", select_elitist, tournsize=config.tournsize, rng=rng)
    toolbox.rng = rng
    return rng


def vary(population: list, toolbox: base.Toolbox, lambda_: int, cxpb: float, mutpb: float,
         rng: np.random.Generator) -> list:
    """DEAP's ``varOr`` over ``rng``: each of ``lambda_`` offspring is a crossover of two
    distinct parents (the first child kept, probability ``cxpb``), a mutant (``mutpb``) or
    a parent reproduced as it is."""
    if cxpb + mutpb > 1.0:
        raise UserError("the sum of the crossover and mutation probabilities must be <= 1.0")
    offspring = []
    for _ in range(lambda_):
        choice = rng.random()
        if choice < cxpb:
            first, second = (toolbox.clone(population[i]) for i in rng.choice(len(population), 2, replace=False))
            child, _ = toolbox.mate(first, second)
            del child.fitness.values
        elif choice < cxpb + mutpb:
            child, = toolbox.mutate(toolbox.clone(population[rng.integers(len(population))]))
            del child.fitness.values
        else:
            child = population[rng.integers(len(population))]
        offspring.append(child)
    return offspring


def joblib_map(jobs: int, function, *iterables, workers: cluster.Scattered | cluster.LocalPool | None = None) -> list:
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


def evaluate(toolbox: base.Toolbox, config: Config, individuals: list, generation: int) -> int:
    """Evaluate individuals in fixed chunks through ``toolbox.map``; returns games played.
    Exact fitness is a function of the genome alone, so where a kind reads no per-position
    credit, genomes that are the same are evaluated once (variation of a converged
    population makes many) and their copies take its results."""
    kind = get_kind(config.genome)
    plain = [kind.plain(ind) for ind in individuals]
    first = list(range(len(individuals)))
    if config.fitness == "exact" and not kind.uses_credit:
        seen: dict[str, int] = {}
        first = [seen.setdefault(json.dumps(genes, default=np.ndarray.tolist), k) for k, genes in enumerate(plain)]
    unique = sorted(set(first))
    groups = fitness.chunks(unique, fitness.chunk_size(toolbox.panel, config.fitness))
    seeds = np.random.SeedSequence([config.seed, generation, 1]).spawn(len(groups))
    results = toolbox.map(toolbox.evaluate, [[plain[k] for k in group] for group in groups], seeds)
    played, evaluated = 0, {}
    for group, evaluations in zip(groups, results):
        for k, result in zip(group, evaluations):
            evaluated[k] = result
            played += result.games
    for ind, k in zip(individuals, first):
        result = evaluated[k]
        ind.fitness.values = (result.fitness, result.subgames)
        ind.rates = result.rates
        ind.credit = result.credit if config.credit else None
        ind.cases = result.cases
    return played


def make_statistics() -> tools.Statistics:
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
    halloffame = hall_of_fame(get_kind(config.genome))
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
    kind = get_kind(config.genome)
    if moving:  # the next stage: a new population around the parts the champion hands on
        stage += 1
        stages.bind_stage(toolbox, config, stage, {part: kind.part(state.halloffame[0], part)
                                            for part in config.stages[stage].held})
        state.halloffame = hall_of_fame(kind)  # (fitness of another stage: not comparable)
    elif toolbox.stage != stage:  # a run resumed in a later stage: its population holds the parts
        stages.bind_stage(toolbox, config, stage, {part: kind.part(state.population[0], part)
                                            for part in config.stages[stage].held})
    bind_generation(toolbox, config, generation)
    restart = moving or stalled(state.logbook, config.patience)
    if restart:  # a new random population; the hall of fame keeps the run's best
        offspring = [toolbox.individual(toolbox.rng) for _ in range(config.population)]
    else:
        offspring = vary(state.population, toolbox, config.offspring, config.cxpb, config.mutpb, toolbox.rng)
    invalid = [ind for ind in offspring if not ind.fitness.valid]
    games = evaluate(toolbox, config, invalid, generation)
    state.halloffame.update(offspring)
    state.population[:] = offspring if restart else toolbox.select(state.population + offspring, config.population)
    state.generation = generation
    state.games += games
    _record(state, config, len(invalid), games, time.perf_counter() - began, restart, stage)
    return state


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
    kind = get_kind(config.genome)
    more: dict[str, float] = {}
    begun = not state.logbook  # (a run begun without a column goes on without it: each row has the header's)
    if (config.patience or len(config.stages) > 1) and (begun or "restart" in state.logbook[0]):
        more["restart"] = int(restart)
    if len(config.stages) > 1 and (begun or "stage" in state.logbook[0]):
        more["stage"] = stage
    if kind.board_free and (not state.logbook or "heldout" in state.logbook[0]):  # (several families: the least)
        more["heldout"] = round(min(seven_heaps_accuracy(config.genome, kind.plain(champion), rules)
                                    for rules in config.home_rules()), 6)
    rates = {f"{name}": round(sum(pair) / 2, 6) for name, pair in champion.rates.items()}
    try:
        accuracy = round(min(fitness.accuracy(config.genome, champion, rules) for rules in config.home_rules()), 6)
    except SpaceTooLarge:  # a board too big to solve: no accuracy
        accuracy = float("nan")
    state.seconds += seconds
    state.logbook.record(gen=state.generation, evals=evals, games=games,
                         **{k: round(float(v), 6) for k, v in record.items()},
                         subgames=round(champion.fitness.values[1], 6),
                         **rates, accuracy=accuracy, **more, seconds=round(seconds, 3))
