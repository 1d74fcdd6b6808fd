"""Load a saved strategy, an exported genome or a trained learner, as a playable agent, and
check what the file says about itself (:func:`check_metadata`)."""

from __future__ import annotations

from pathlib import Path

from nim_evo.games.base import Game
from nim_evo.games.nim import nim_board
from nim_evo.agents.base import Player
from nim_evo.annotations import StrPath
from nim_evo.engine.rules import Rules, family_name, family_of, parse_family
from nim_evo.games.registry import GAME
from nim_evo.genomes import GENOME_FORMAT, GenomeAgent, genome_from_document
from nim_evo.io import read_json
from nim_evo.validation import (BOOL, GENERATIONS, PATH, POPULATION, PROBABILITY, SEED, InstanceOf, Names, UserError,
                                shown, validate)

# What a strategy file says about itself that nim_evo shows or uses (export's page, a genome's
# name), each with what it may be; an absent field (or null) is one the file does not state.
class Families(Names):
    """The families a genome was evolved for at once: distinct names such as cap3-misere."""

    def __call__(self, value) -> bool:
        if not super().__call__(value) or len(value) > 64:
            return False
        try:
            return len({parse_family(name) for name in value}) == len(value)
        except UserError:
            return False

    def __str__(self) -> str:
        return "a list of distinct families (normal, misere, capK, capK-misere)"


METADATA = {"name": [None, InstanceOf(str, what="a string")],
            "run": [None, InstanceOf(str, what="a string")],
            "accuracy": [None, PROBABILITY],
            "run_config": [None, InstanceOf(dict, what="a JSON object")],
            "families": [None, Families()]}
# ... and of the run it comes from (its ``run_config``, or a run directory's ``config.json``)
RUN_METADATA: dict[str, list] = {"seed": [SEED], "generations": [GENERATIONS], "population": [POPULATION], "opponents": [Names()]}


def load_strategy(path: StrPath, rules: Game | None = None, stochastic: bool = False) -> Player:
    """The strategy saved in ``path`` as an agent with ``move(piles, rng)``.

    Args:
        path: a JSON file written by ``python -m nim_evo.run`` (an exported genome) or by
            ``python -m nim_evo.learn`` (a trained learner).
        rules: if given, the rules the caller plays: a board-free genome (rules, thresholds,
            program) plays any board of its family (the same cap, the same misère flag; a
            program evolved for several families, any board of those);
            any other file made for other rules is refused.
        stochastic: a learner plays greedily (its best move, ties uniformly) unless this
            asks for its own sampling rule; genomes are deterministic either way.
    Raises:
        UserError: one line saying what is wrong with the file (its metadata included, see
            :func:`check_metadata`), or that its rules differ.
    """
    # (import time: a genome's file loads no learner)
    from nim_evo.learners.files import LEARNER_FORMAT, learner_from_document

    validate({"path": [PATH], "rules": [None, GAME], "stochastic": [BOOL]},
             {"path": path, "rules": rules, "stochastic": stochastic})
    data = read_json(path)
    if data.get("format") not in (LEARNER_FORMAT, GENOME_FORMAT):
        raise UserError(f"{path} is not a nim_evo genome or trained learner")
    check_metadata(path, data)
    agent: Player
    if data.get("format") == LEARNER_FORMAT:
        agent = learner_from_document(data, str(path), stochastic)
        verb = "trained"
    else:
        kind, genes, file_rules = genome_from_document(data, source=str(path))
        agent = GenomeAgent(kind, genes, file_rules, name=data.get("name") or Path(path).stem)
        verb = "evolved"
    if rules is None or rules == agent.rules:
        return agent
    if isinstance(agent, GenomeAgent) and agent.kind.board_free:  # it plays any board of its family
        if not isinstance(rules, Rules) or not isinstance(agent.rules, Rules):  # a game of another family
            if _same_rule(agent.rules, rules):
                return GenomeAgent(agent.kind, agent.genes, rules, name=agent.name)
            raise UserError(f"{path} was {verb} for {agent.rules.name} and plays any board of its family and "
                            f"rule, not {rules.name} (a {rules.family} game)")
        families = [parse_family(name) for name in data.get("families") or ()] or [family_of(nim_board(agent.rules))]
        if family_of(rules) in families:
            return GenomeAgent(agent.kind, agent.genes, rules, name=agent.name)
        if len(families) > 1:
            raise UserError(f"{path} was {verb} for {', '.join(map(family_name, families))} and plays any board of "
                            f"them, but {rules.name} is {_family(rules)}")
        raise UserError(f"{path} was {verb} for {_family(agent.rules)} and plays any board of it, but {rules.name} "
                        f"is {_family(rules)}")
    raise UserError(f"{path} was {verb} for {agent.rules.name}, not {rules.name}")


def _family(rules: Game) -> str:
    rules = nim_board(rules)
    cap = f"a cap of {rules.max_take}" if rules.max_take else "no cap"
    return f"{'misère' if rules.misere else 'normal'} play with {cap}"


def check_metadata(path, data: dict) -> dict:
    """``data``, the strategy file ``path`` as read, once what it says about itself is checked:
    the fields of :data:`METADATA` and, in its ``run_config``, those of :data:`RUN_METADATA`.

    One policy for every one of them: a field that is absent (or null) is one the file does
    not state, and whoever shows it leaves it out; a field that is there but of another type
    or out of range (``"accuracy": "high"``, ``[1]``, ``10**400``; ``"opponents": 5`` or a
    string where a list of names belongs) is a :class:`UserError` naming the file and the
    field. Never a traceback, and never a wrong field silently shown or silently dropped:
    nim_evo writes these fields itself, so a wrong one means a damaged or edited file, and the
    person hears so. Strings are kept as written: whatever shows them makes them printable
    (:func:`nim_evo.validation.printable`; HTML-escaped on a page)."""
    _check_fields(path, "", METADATA, data)
    if data.get("run_config") is not None:
        check_run_config(path, data["run_config"], "run_config.")
    return data


def check_run_config(path, config: dict, prefix: str = "") -> dict:
    """``config``, a run's configuration read from ``path`` (a run directory's ``config.json``,
    or a strategy file's ``run_config``, ``prefix`` naming it), once the fields shown of it
    (:data:`RUN_METADATA`) are checked; the policy of :func:`check_metadata`."""
    if not isinstance(config, dict):
        raise UserError(f"{path}: {prefix.rstrip('.') or 'its configuration'} must be a JSON object, "
                        f"got {shown(config)}")
    _check_fields(path, prefix, {key: [None, *allowed] for key, allowed in RUN_METADATA.items()}, config)
    return config


def _check_fields(path, prefix: str, constraints: dict, data: dict) -> None:
    for key, allowed in constraints.items():
        value = data.get(key)
        if not any(value is None if c is None else c(value) for c in allowed):
            what = " or ".join(str(c) for c in allowed if c is not None)
            raise UserError(f"{path}: {prefix}{key} must be {what}, got {shown(value)}")


def _same_rule(game: Game, other: Game) -> bool:
    """Whether ``other`` is a board of ``game``'s family, rule and convention."""
    try:
        return type(game) is type(other) and game.board(getattr(other, "heaps", other.start)) == other
    except UserError:  # (no move on those heaps under game's rule)
        return False
