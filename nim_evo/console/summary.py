"""What ``run`` prints when a run ends: the champion's fitness against what was possible, its
accuracy, a check of its win rates in fresh games, the run's counts and where time went.

Every figure says what it is measured against: the fitness beside the most any genome could
score against the panel (a perfect champion scores 0.6667 against random, nimsum and minimax,
since it cannot win the second seat against a perfect player), a sampled figure with its
margin, and times that add up to the command's own.
"""

from __future__ import annotations

import dataclasses
import math

from nim_evo.console.text import middle, wrapped
from nim_evo.engine.policy import dense
from nim_evo.engine.space import tabulable
from nim_evo.evaluation.opponents import KeptPlayer
from nim_evo.evaluation.specs import label
from nim_evo.evaluation.tournament import pile_tournament, tournament
from nim_evo.genomes import GenomeAgent

SUMMARY_GAMES = 5000  # games per seat against each opponent in the closing check
NAME_WIDTH = 22  # the opponent column's width: longer names (strategy files) are cut in the middle


def print_summary(run, panel, jobs: int) -> None:
    """The champion's lines and the check table (``panel``: the run's own board's)."""
    config, champion = run.config, run.genes
    print()
    print(wrapped(f"champion: {fitness_text(run)}"))
    if config.fitness == "sampled" or panel.tables is None:
        print(wrapped(f"  {noise_text(run)}", "    "))
    subgames = subgames_text(run)
    if subgames:
        print(f"  {subgames}")
    if run.accuracies is not None and len(run.accuracies) > 1:  # several families: each one's
        print(wrapped("  plays a winning move in " + ", ".join(
            f"{100 * share:.2f}% of winning positions of {board}" for board, share in run.accuracies.items()), "    "))
    elif run.accuracy is not None:
        print(f"  plays a winning move in {100 * run.accuracy:.2f}% of winning positions")
    described = config.kind.describe(champion, config.rules)
    if described is not None:
        print(wrapped(f"  {config.genome}: {described}", "    "))
        if config.rules.grundy_words() is not None:  # what theory says, beside what evolution found
            print(wrapped(f"  the game's Grundy values of one heap: {config.rules.grundy_words()}", "    "))
    if run.held_out is not None:
        print(wrapped("  on boards it never saw, a winning move in " + ", ".join(
            f"{100 * share:.2f}% of winning positions of {board}" for board, share in run.held_out.items()), "    "))
    results = _check(run, panel, jobs)
    names = [middle(label(spec), NAME_WIDTH) for spec in config.opponents]
    print(f"{SUMMARY_GAMES:,} fresh games per seat from the start against each opponent:")
    print(f"  {'opponent':<{NAME_WIDTH}}{'win rate':>9}  {'95% CI':<17}{'first':>7}{'second':>8}")
    for name, r in zip(names, results):
        print(f"  {name:<{NAME_WIDTH}}{r.win_rate:>9.3f}  [{r.ci_low:.3f}, {r.ci_high:.3f}]  "
              f"{r.first_rate:>7.3f}{r.second_rate:>8.3f}")
    state = run.state
    games = f"{state.games:,} games" if state.games else "no games (exact fitness)"
    print(f"{state.generation} generations, {sum(state.logbook.select('evals')):,} evaluations, {games}")


def fitness_text(run) -> str:
    """``fitness 0.6667 of at most 0.6667 possible against this panel``: the ceiling bounds what
    one policy can score (see :attr:`Panel.ceiling`), and a sampled figure may even read above it."""
    ceiling = run.ceiling
    text = f"fitness {run.genes.fitness.values[0]:.4f}"
    return text if ceiling is None else text + f" of at most {ceiling[0]:.4f} possible against this panel"


def subgames_text(run) -> str | None:
    """The second fitness value, exact fitness only: ``sub-games 0.6619 of at most 0.6619 (...)``."""
    ceiling = run.ceiling
    if run.config.fitness != "exact" or ceiling is None:
        return None
    return (f"sub-games {run.genes.fitness.values[1]:.4f} of at most {ceiling[1]:.4f} (the mean win rate from "
            "every position, either to move)")


def noise_text(run) -> str:
    """The margin of a sampled fitness: a mean of ``terms`` win rates (opponents x seats x
    boards) of ``games`` games each has a binomial standard error of at most
    ``sqrt(f (1 - f) / (terms * games))``, ``f`` the fitness itself (the rates' variances
    are largest when they are all equal)."""
    config, fitness = run.config, run.genes.fitness.values[0]
    terms = 2 * len(config.opponents) * len(getattr(run.toolbox, "panels", ())) or 1
    margin = 1.96 * math.sqrt(max(fitness * (1 - fitness), 0.0) / (terms * config.games))
    return (f"sampled from {config.games:,} games per opponent and seat: within about ±{margin:.4f} (95%), "
            "and, as the best of many sampled figures, it reads high; the fresh games below do not")


def times_text(setting_up: float, evolving: float, checking: float, state, first: int) -> str:
    """``time: 3.1 s = 0.6 s setting up + 2.2 s evolving 20 generations + 0.3 s checking``:
    the parts are rounded first, so they add up; a resumed run adds its evolving time over
    every session (the logbook's seconds)."""
    parts = [round(seconds, 1) for seconds in (setting_up, evolving, checking)]
    done = state.generation - first
    what = (f"generations {first + 1} to {state.generation}" if first and done > 1 else
            f"generation {state.generation}" if first and done == 1 else
            f"{done} generation{'s' * (done != 1)}")
    text = (f"time: {sum(parts):.1f} s = {parts[0]:.1f} s setting up + {parts[1]:.1f} s evolving {what} "
            f"+ {parts[2]:.1f} s checking the champion")
    if first:
        text += f"; {state.seconds:.1f} s evolving over all the run's sessions"
    return text


def _check(run, panel, jobs: int):
    """The champion against each opponent in fresh games from the start."""
    config = run.config
    seed = [config.seed, 2**31 - 1]
    if panel.tables is None:
        return pile_tournament(config.rules, config.kind, run.genes, list(panel.players or config.opponents),
                               SUMMARY_GAMES, seed, names=config.opponents)
    if not tabulable(config.rules, multiset=panel.multiset):  # past the arena's tables (the panel keeps its own
        # sparse): games on pile arrays, each opponent reading its kept table, at a fraction of the time and
        # memory of a sampled tournament's dense tables and samplers
        players = [KeptPlayer(table, panel.space, name) for table, name in zip(panel.tables, config.opponents)]
        return pile_tournament(config.rules, config.kind, run.genes, players, SUMMARY_GAMES, seed,
                               names=config.opponents)
    agent = GenomeAgent(config.kind, run.genes, config.rules, name=run.exported.stem if run.exported else "champion")
    tables = [dense(table) for table in panel.tables]
    results = tournament(config.rules, agent, tables, games=SUMMARY_GAMES, seed=seed, jobs=jobs,
                         multiset=panel.multiset)
    return [dataclasses.replace(r, opponent=name) for r, name in zip(results, config.opponents)]
