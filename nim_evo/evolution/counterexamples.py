"""Decisions a stage gains where its champion wins them all: counterexamples from the ladder.

A stage's decisions (:mod:`nim_evo.evaluation.decisions`) meet each heap past the boards in a
few positions, and a wrong value there is often played right: a champion can win every decision
with a value that shows wrong only beside a heap of the same value. Such a champion is at the
top of the stage's fitness, and nothing in the search tells it from a right one. Then, as
counterexample-driven genetic programming does (Krawiec, Błądek and
Swan, 2017: a program that passes every test meets a verifier, and the counterexample it finds
joins the tests), the champion plays the ladder's decisions (:func:`~nim_evo.evaluation.decisions.ladder`,
rung by rung from the smallest heap up, every position against perfect play, the family's
theory judging); the positions of the first rungs it loses (:data:`GROWN` at most) join the
stage's decisions, and the run scores its population and hall of fame again
(:func:`nim_evo.evolution.loop.step`). The search (the sweep among it) goes on with a fitness
that sees the error. No held-out position is read, and the stage grows by at most
:data:`MOST` positions.

The positions a stage gained are part of the run's state (:attr:`State.decided`, in its
checkpoint): a resumed run plays the decisions it left with (:func:`restore`).
"""

from __future__ import annotations

import numpy as np
from deap import base

from nim_evo.evaluation.decisions import WIDTH, Decisions
from nim_evo.genomes.protocol import GenomeKind

GROWN = 32  # positions a stage gains at once: the lost ones of the first rungs the champion loses
MOST = 512  # positions a stage gains in all (then it stops growing)
_LOST: dict = {}  # the ladder positions each champion asked last loses (a champion stays for generations)


def grow(toolbox: base.Toolbox, kind: GenomeKind, champion, decided: dict) -> bool:
    """Add to the stage's decisions the first ladder positions ``champion`` loses, if it wins
    every decision of the stage and the stage has not gained :data:`MOST`; record them in
    ``decided`` (stage: positions) and return whether any were added."""
    stage = toolbox.stage
    panels = toolbox.stage_panels[stage]
    mine = [k for k, panel in enumerate(panels) if isinstance(panel, Decisions)]
    had = decided.get(stage, np.zeros((0, WIDTH), dtype=np.int64))
    if len(mine) != 1 or len(had) >= MOST:  # (a stage decides on one board: its family's)
        return False
    panel = panels[mine[0]]
    plain = kind.plain(champion)
    if not panel.right(kind, [plain]).all():
        return False
    lost = _lost(panel, kind, plain)[:MOST - len(had)]
    if not len(lost):
        return False
    decided[stage] = np.concatenate([had, lost])
    toolbox.restored.add(stage)  # (what it gained is in its panel already)
    _rebuild(toolbox, stage, mine[0], lost)
    return True


def restore(toolbox: base.Toolbox, decided: dict) -> bool:
    """Give the toolbox's stage the decisions ``decided`` says it gained (a resumed run's),
    once; returns whether it did (the stage is to be bound again)."""
    stage = toolbox.stage
    gained = decided.get(stage)
    mine = [k for k, panel in enumerate(toolbox.stage_panels[stage]) if isinstance(panel, Decisions)]
    if gained is None or stage in toolbox.restored or len(mine) != 1:
        return False
    toolbox.restored.add(stage)
    _rebuild(toolbox, stage, mine[0], gained)
    return True


def _lost(panel: Decisions, kind: GenomeKind, plain) -> np.ndarray:
    """Up to :data:`GROWN` ladder positions the genome loses, from the lowest rung up, as
    ``(k, WIDTH)`` rows (an empty slot where a move splits)."""
    key = (kind, str(plain), panel.rules)
    if key not in _LOST:
        if len(_LOST) >= 8:
            _LOST.pop(next(iter(_LOST)))
        found: list[np.ndarray] = []
        for rung in panel.ladder():
            if rung is None:
                continue
            right = rung.right(kind, [plain])[0]
            found.extend(rung.positions[~right][:GROWN - len(found)])
            if len(found) >= GROWN:
                break
        lost = np.zeros((len(found), WIDTH), dtype=np.int64)
        if found:
            rows = np.array(found)
            lost[:, :rows.shape[1]] = rows
        _LOST[key] = lost
    return _LOST[key]


def _rebuild(toolbox: base.Toolbox, stage: int, k: int, gained: np.ndarray) -> None:
    """The stage's ``k``-th panel, a :class:`Decisions`, with ``gained``'s positions added,
    in the toolbox's panels (the run's own too when it is the last stage)."""
    panels = toolbox.stage_panels[stage]
    old = panels[k]
    width = max(old.positions.shape[1], gained.shape[1])
    both = np.zeros((len(old.positions) + len(gained), width), dtype=np.int64)
    both[:len(old.positions), :old.positions.shape[1]] = old.positions  # (heaps largest first: empty slots last)
    both[len(old.positions):, :gained.shape[1]] = gained
    new = Decisions.at(old.rules, both, old.names)
    assert new is not None  # (the panel's family has a theory: its decisions were built)
    panels = panels[:k] + (new,) + panels[k + 1:]
    toolbox.stage_panels = toolbox.stage_panels[:stage] + (panels,) + toolbox.stage_panels[stage + 1:]
    if stage == len(toolbox.stage_panels) - 1:
        toolbox.panels = panels
