"""A run's state as its checkpoint holds it: frozen to JSON values and numpy arrays
(:func:`freeze`), and thawed back into DEAP's individuals, hall of fame and logbook
(:func:`thaw`), every field checked before use. A checkpoint is a file people pass around:
nothing in it is trusted, and whatever does not fit (a field missing or of the wrong type,
an array of the wrong shape, a gene out of range, a number not finite) is one line naming
the field. (DEAP's numpy individuals would pickle gene by gene as Python objects, slow and
large; and nim_evo reads no pickle.)"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

import numpy as np
from deap import tools

from nim_evo.evaluation.decisions import LARGEST, WIDTH
from nim_evo.evolution.config import Config
from nim_evo.evolution.counterexamples import MOST
from nim_evo.evolution.loop import State
from nim_evo.evolution.selection import HALL_OF_FAME, hall_of_fame
from nim_evo.genomes.protocol import like
from nim_evo.validation import UserError

LOGBOOK_COLUMNS = ("gen", "evals", "games", "min", "mean", "max", "accuracy")
# columns a record may have besides those and the opponents' (older runs lack some of them)
MORE_COLUMNS = ("subgames", "seconds", "restart", "heldout", "stage")


def freeze(state: State, config: Config) -> dict:
    """The state as a plain dict of arrays and numbers."""
    kind = config.kind
    return {"generation": state.generation, "population": [_freeze(ind, kind) for ind in state.population],
            "halloffame": [_freeze(ind, kind) for ind in state.halloffame], "logbook": list(state.logbook),
            "games": state.games, "seconds": state.seconds,
            **({"decided": {str(stage): positions for stage, positions in state.decided.items()}}
               if state.decided else {})}  # (a run whose decisions never grew writes what it wrote before)


def thaw(data, config: Config) -> State:
    """The state a :func:`freeze` dict describes, checked against ``config``."""
    if not isinstance(data, dict):
        raise UserError("state must be an object")
    generation = _count(data.get("generation"), "generation", config.generations)
    kind = config.kind
    population = _individuals(data.get("population"), "population", kind, config, config.population, config.population)
    if len({len(ind.cases) for ind in population if ind.cases is not None}) > 1:
        raise UserError("population: every individual's cases must be as many (one per sub-game)")
    halloffame = hall_of_fame(kind)
    # HallOfFame.insert puts an item before those of equal fitness and size: insert from the last,
    # so ties keep their order (the hall of fame replaces its last member by that order)
    for ind in reversed(_individuals(data.get("halloffame"), "halloffame", kind, config, 1, HALL_OF_FAME)):
        halloffame.insert(ind)
    logbook = tools.Logbook()
    for record in _records(data.get("logbook"), generation, config):
        logbook.record(**record)
    games = _count(data.get("games"), "games", 2**62)
    seconds: Any = data.get("seconds")  # any JSON value, checked below
    if not _real(seconds) or not 0 <= seconds < math.inf:
        raise UserError("seconds must be a finite number, 0 or more")
    return State(generation, population, halloffame, logbook, games, float(seconds),
                 decided=_decided(data.get("decided", {}), config))


MAX_CASES = 1 << 22  # sub-game win probabilities an individual may carry (lexicase selection's cases)


def _freeze(ind, kind) -> dict:
    # (neither credit nor cases: four fifths of a table run's checkpoint and most of a program
    # run's, and what evaluating the genes again gives, bit for bit, which a resumed run does:
    # loop.restore_evaluations; a file that has them is read with them)
    return {"genes": kind.plain(ind), "fitness": tuple(ind.fitness.values),
            "rates": getattr(ind, "rates", None), "credit": None}


def _individuals(items, where: str, kind, config: Config, least: int, most: int) -> list:
    if not isinstance(items, list) or not least <= len(items) <= most:
        size = f"{least}" if least == most else f"{least} to {most}"
        raise UserError(f"{where} must be a list of {size} individuals")
    return [_individual(item, f"{where}[{k}]", kind, config) for k, item in enumerate(items)]


def _individual(item, where: str, kind, config: Config):
    if not isinstance(item, dict) or not {"genes", "fitness", "rates", "credit"} <= set(item) <= {
            "genes", "fitness", "rates", "credit", "cases"}:
        raise UserError(f"{where} must have the fields genes, fitness, rates, credit (and cases with lexicase)")
    try:
        genes = kind.check_plain(item["genes"], config.rules, multiset=config.multiset)
    except UserError as error:
        text = str(error)
        raise UserError(f"{where}.{text}" if text.startswith("genes") else f"{where}.genes: {text}") from None
    ind = kind.individual(genes)  # through the creator class: its own fitness object
    ind.fitness.values = tuple(like(item["fitness"], [0.0] * len(ind.fitness.weights), f"{where}.fitness"))
    rates = item["rates"]
    if rates is not None:
        if not isinstance(rates, dict) or set(rates) != set(config.opponents):
            raise UserError(f"{where}.rates must give a pair of win rates for each opponent of the panel")
        rates = {name: tuple(like(rates[name], [0.0, 0.0], f"{where}.rates.{name}")) for name in config.opponents}
        if not all(0 <= rate <= 1 for pair in rates.values() for rate in pair):
            raise UserError(f"{where}.rates must lie in [0, 1]")
    ind.rates = rates
    credit = item["credit"]
    if credit is not None:
        if not kind.uses_credit:
            raise UserError(f"{where}.credit must be null: a {kind.name} genome has no credit")
        shape = np.shape(genes)
        credit = tuple(like(credit, [np.zeros(shape), np.zeros(shape)], f"{where}.credit"))
    ind.credit = credit
    ind.cases = _cases(item.get("cases"), f"{where}.cases", config)
    return ind


def _cases(cases, where: str, config: Config):
    """An individual's sub-game win probabilities: a float32 array of numbers in [0, 1]
    (lexicase selection's cases), or None: a checkpoint keeps none now (a resumed run evaluates
    them again), and a run that does not select by them has none."""
    if cases is None:
        return None
    if config.selector != "lexicase":
        raise UserError(f"{where} must be left out: the run does not select by lexicase")
    if (not isinstance(cases, np.ndarray) or cases.dtype != np.float32 or cases.ndim != 1
            or not 1 <= len(cases) <= MAX_CASES):
        raise UserError(f"{where} must be an array of 1 to {MAX_CASES:,} float32 win probabilities")
    if not (np.isfinite(cases).all() and (cases >= 0).all() and (cases <= 1).all()):
        raise UserError(f"{where} must hold win probabilities, numbers in [0, 1]")
    return cases


def _decided(decided, config: Config) -> dict:
    """The positions each stage's decisions gained (:mod:`~nim_evo.evolution.counterexamples`):
    for a stage number, an int64 array of up to :data:`~nim_evo.evolution.counterexamples.MOST`
    rows of :data:`~nim_evo.evaluation.decisions.WIDTH` heaps of at most
    :data:`~nim_evo.evaluation.decisions.LARGEST`, an empty slot in each, for a stage with
    decisions (a checkpoint of before they could grow has none)."""
    if not isinstance(decided, dict):
        raise UserError("decided must be an object: stage numbers and the positions their decisions gained")
    stages = {str(stage): stage for stage in range(len(config.stages)) if config.decision_rules(stage)}
    checked = {}
    for key, positions in decided.items():
        if key not in stages:
            raise UserError(f"decided: {key!r} is not a stage of the run with decisions "
                            f"({', '.join(stages) or 'it has none'})")
        if (not isinstance(positions, np.ndarray) or positions.dtype != np.int64 or positions.ndim != 2
                or positions.shape[1] != WIDTH or not 1 <= len(positions) <= MOST):
            raise UserError(f"decided.{key} must be an int64 array of 1 to {MOST} rows of {WIDTH} heaps")
        if not ((positions >= 0) & (positions <= LARGEST)).all():
            raise UserError(f"decided.{key} must hold heaps of 0 to {LARGEST}")
        if not (positions == 0).any(axis=1).all():
            raise UserError(f"decided.{key} must leave an empty slot in each row (a split fills it)")
        checked[stages[key]] = positions
    return checked


def _records(records, generation: int, config: Config) -> list:
    """The logbook's records: one per generation up to ``generation``, numbers in each column."""
    if not isinstance(records, list) or len(records) != generation + 1:
        raise UserError(f"logbook must hold a record for each generation 0 to {generation}")
    columns = (*LOGBOOK_COLUMNS, *config.opponents)
    allowed = {*columns, *MORE_COLUMNS}
    for k, record in enumerate(records):
        if not isinstance(record, dict) or not set(columns) <= set(record):
            raise UserError(f"logbook[{k}] must have the columns {', '.join(columns)}")
        unknown = sorted(set(record) - allowed, key=str)
        if unknown:  # the logbook.csv written from these records would have a column no reader expects
            raise UserError(f"logbook[{k}] has a column a run does not record: {unknown[0]!r}")
        if set(record) != set(records[0]):  # each row of logbook.csv has the header's columns
            raise UserError(f"logbook[{k}] has other columns than logbook[0]")
        if not all(_real(value) and not math.isinf(value) for value in record.values()):
            raise UserError(f"logbook[{k}] holds a value that is not a finite number")
        if record["gen"] != k:
            raise UserError(f"logbook[{k}] is the record of generation {record['gen']!r}")
        if "stage" in record and record["stage"] not in range(len(config.stages)):
            raise UserError(f"logbook[{k}] is in stage {record['stage']!r}; the run has stages 0 to "
                            f"{len(config.stages) - 1}")
    return records


def _count(value, where: str, most: int) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool) or not 0 <= value <= most:  # type: ignore[operator]  # typeshed: numbers.Integral has no >=
        raise UserError(f"{where} must be a whole number from 0 to {most}")
    return int(value)


def _real(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)
