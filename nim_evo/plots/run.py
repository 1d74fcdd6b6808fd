"""A run directory's pictures: its fitness history and its champion's policy."""

from __future__ import annotations

import sys
from pathlib import Path

from nim_evo.evaluation.strategy import load_strategy
from nim_evo.genomes import GenomeAgent
from nim_evo.plots import plain, save_figure
from nim_evo.plots.history import draw_history, load_history
from nim_evo.plots.policy import draw_policy
from nim_evo.plots.program import draw_program
from nim_evo.validation import UserError, printable


def draw_run(run_dir, fmt: str = "png", x: str = "generations", history=None, out=None,
             policy: bool = True) -> list[Path]:
    """Draw a run's ``fitness.<fmt>`` and its champion's ``policy.<fmt>`` into its directory
    (the fitness history to ``out`` instead, if given); return the paths written. A champion
    that cannot be pictured (none yet, or a board too big) is skipped with a note on stderr."""
    run_dir = Path(run_dir)
    history = history or load_history(run_dir)
    written = [save_figure(draw_history([history], x), out or run_dir / f"fitness.{fmt}")]
    if policy:
        champion = run_dir / "champion.json"
        try:
            if not champion.exists():
                raise UserError("the run has no champion yet (it has not finished)")
            agent = load_strategy(champion)
            title = plain(f"Champion of {history.run_id}: {history.genome} genome on {history.rules.name}, "
                          f"seed {history.seed}")
            written.append(save_figure(draw_policy(agent, title), run_dir / f"policy.{fmt}"))
            trees = agent.kind.trees(agent.genes, agent.rules) if isinstance(agent, GenomeAgent) else []
            if trees:  # an evolved program: its trees, simplified
                assert isinstance(agent, GenomeAgent)  # only a genome has trees
                title = plain(f"Champion of {history.run_id}: {agent.kind.describe(agent.genes, agent.rules)}")
                written.append(save_figure(draw_program(trees, title), run_dir / f"program.{fmt}"))
        except UserError as error:  # no champion yet, a damaged file, a board too big to draw
            print(printable(f"nim_evo: no policy picture for {run_dir}: {error}"), file=sys.stderr)
    return written
