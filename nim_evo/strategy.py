"""Load an exported genome (or, later, a trained learner) as a playable agent."""

from __future__ import annotations

from pathlib import Path

from nim_evo.genomes import GenomeAgent, genome_from_document
from nim_evo.io import read_json
from nim_evo.rules import Rules


def load_strategy(path, rules: Rules | None = None) -> GenomeAgent:
    """The strategy saved in ``path`` as an agent with ``move(piles, rng)``.

    Args:
        path: a JSON file written by ``python -m nim_evo.run`` (``genomes/...``).
        rules: if given, the rules the caller plays; a file made for other rules is refused.
    Raises:
        ValueError: one line saying what is wrong with the file, or that its rules differ.
    """
    data = read_json(path)
    kind, genes, file_rules = genome_from_document(data, source=str(path))
    if rules is not None and rules != file_rules:
        raise ValueError(f"{path} was evolved for {file_rules.name}, not {rules.name}")
    return GenomeAgent(kind, genes, file_rules, name=data.get("name") or Path(path).stem)
