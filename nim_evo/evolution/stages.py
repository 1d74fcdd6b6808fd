"""A run's search in stages (:meth:`nim_evo.genomes.protocol.GenomeKind.stages`): which stage
a run is in, when a stage hands on to the next, and the toolbox bound to a stage.

A stage has its own training panels (``toolbox.stage_panels[stage]``, built once by
:func:`nim_evo.evolution.loop.make_toolbox`) and the parts of the genome it holds. The logbook
records the stage of every generation (its ``stage`` column), so a resumed run knows where it
is; a stage's held parts are read from its population (every genome holds them).
"""

from __future__ import annotations

from deap import base

from nim_evo.engine.rules import Rules
from nim_evo.evaluation.heldout import held_out_perfect, validates
from nim_evo.evolution import cluster, fitness, target


def bind_stage(toolbox: base.Toolbox, config, stage: int, held: dict | None = None) -> None:
    """Bind creation and evaluation to ``stage``: its panels, and ``held``, the parts of the
    genome its new genomes keep (by name: the stage before's, or ``None``, the kind's own)."""
    kind = config.kind
    panels = toolbox.stage_panels[stage]
    more: dict = {"held": held} if held else {}
    if kind.threaded:
        more["threads"] = cluster.local_threads(getattr(toolbox, "jobs", 1))
    toolbox.register("individual", _create, kind, config.rules, multiset=config.multiset, **more)
    toolbox.register("evaluate", fitness.evaluate_boards, config.kind, panels, config.fitness, config.games,
                     cases=config.selector == "lexicase")
    toolbox.panel = panels[0]
    toolbox.stage, toolbox.held = stage, tuple(held or ())


def stage_of(state) -> int:
    """The stage the run is in (the logbook's last ``stage``; 0 in a run of one stage)."""
    return int(state.logbook[-1].get("stage", 0)) if state.logbook else 0


def stage_done(state, config, toolbox: base.Toolbox) -> bool:
    """Whether the stage the run is in hands on to the next: its champion is perfect against
    the stage's panel (its fitness at their ceiling) and, for a genome that plays any board,
    on a validation sample of bigger boards (:func:`~nim_evo.evaluation.heldout.validates`).
    (Never on a count of generations: a stage that hands on what is not yet right leaves the
    next nothing to build on, and the same run resumed to more generations switches where it did.)"""
    stage = stage_of(state)
    top = fitness.ceiling(toolbox.stage_panels[stage])
    champion = state.halloffame[0]
    if top is None or champion.fitness.values[0] < top[0] - target.TOLERANCE:
        return False
    return beyond_its_boards(config, champion, stage)


def beyond_its_boards(config, champion, stage: int = -1) -> bool:
    """Whether a champion perfect on its boards is right beyond them too: for a genome that
    plays any board, on the validation sample in each family of ``stage`` (default: the
    last, the run's own), and in a heap game other than Nim, in its last stage, on both
    held-out sets too (:func:`~nim_evo.evaluation.heldout.held_out_perfect`: every position
    of the family's held-out board, and random boards of up to a million objects a heap), and
    in its stage of Nim's boards, with a fold that reads heaps in any order alike
    (:meth:`~nim_evo.genomes.protocol.GenomeKind.folds_in_any_order`); any other, always."""
    kind = config.kind
    if not kind.board_free:
        return True
    plain = kind.plain(champion)
    if not validates(config.kind, plain, config.stage_games(stage)):
        return False
    if isinstance(config.rules, Rules):
        return True
    if config.stages[stage].nim:  # (a heap game's stage of Nim's boards: its fold goes on to a heap part's values)
        return kind.folds_in_any_order(plain)
    return held_out_perfect(config.kind, plain, config.rules, config.seed)


def stage_ceiling(toolbox: base.Toolbox, state) -> float | None:
    """The most a genome can score against the panels of the stage the run is in."""
    top = fitness.ceiling(toolbox.stage_panels[stage_of(state)])
    return None if top is None else top[0]


def _create(kind, rules, rng, multiset: bool, **options):
    return kind.create(rules, rng, container=kind.individual, multiset=multiset, **options)  # (held parts, threads)
