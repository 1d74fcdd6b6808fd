"""Load a saved strategy, an exported genome or a trained learner, as a playable agent."""

from __future__ import annotations

from pathlib import Path

from nim_evo.agents.base import PositionalAgent
from nim_evo.engine.rules import RULES, Rules
from nim_evo.genomes import GENOME_FORMAT, GenomeAgent, genome_from_document, get_kind
from nim_evo.io import read_json
from nim_evo.validation import BOOL, PATH, UserError, validate


def load_strategy(path, rules: Rules | None = None, stochastic: bool = False) -> PositionalAgent:
    """The strategy saved in ``path`` as an agent with ``move(piles, rng)``.

    Args:
        path: a JSON file written by ``python -m nim_evo.run`` (an exported genome) or by
            ``python -m nim_evo.learn`` (a trained learner).
        rules: if given, the rules the caller plays: a board-free genome (rules, thresholds,
            program) plays any board of its family (the same cap, the same misère flag);
            any other file made for other rules is refused.
        stochastic: a learner plays greedily (its best move, ties uniformly) unless this
            asks for its own sampling rule; genomes are deterministic either way.
    Raises:
        ValueError: one line saying what is wrong with the file, or that its rules differ.
    """
    from nim_evo.learners.files import LEARNER_FORMAT, learner_from_document

    validate({"path": [PATH], "rules": [None, RULES], "stochastic": [BOOL]},
             {"path": path, "rules": rules, "stochastic": stochastic})
    data = read_json(path)
    if data.get("format") == LEARNER_FORMAT:
        agent = learner_from_document(data, str(path), stochastic)
        verb = "trained"
    elif data.get("format") == GENOME_FORMAT:
        kind, genes, file_rules = genome_from_document(data, source=str(path))
        agent = GenomeAgent(kind, genes, file_rules, name=data.get("name") or Path(path).stem)
        verb = "evolved"
    else:
        raise UserError(f"{path} is not a nim_evo genome or trained learner")
    if rules is None or rules == agent.rules:
        return agent
    if isinstance(agent, GenomeAgent) and get_kind(agent.kind).board_free:  # it plays any board of its family
        if (rules.max_take, rules.misere) == (agent.rules.max_take, agent.rules.misere):
            return GenomeAgent(agent.kind, agent.genes, rules, name=agent.name)
        raise UserError(f"{path} was {verb} for {_family(agent.rules)} and plays any board of it, but {rules.name} "
                        f"is {_family(rules)}")
    raise UserError(f"{path} was {verb} for {agent.rules.name}, not {rules.name}")


def _family(rules: Rules) -> str:
    cap = f"a cap of {rules.max_take}" if rules.max_take else "no cap"
    return f"{'misère' if rules.misere else 'normal'} play with {cap}"
