"""The report of Moore's NIM Rules: a learner's answer at every position against the solver's.

One line per non-empty position of the learner's space::

    OK! 6 balls, best 1 probs: 1 with p=0.912 (w=803,l=12), 2 with p=0.051 (w=4,l=75), ...

``OK!`` where greedy play only plays winning moves, ``NO!`` where it may not, ``---`` at lost
positions; then the position, its winning moves, and each legal move with its probability
under the learner's stochastic rule (most probable first) and the learner's
:meth:`~nim_evo.learners.policy.LearnedPolicy.detail` of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from nim_evo.learners.policy import LearnedPolicy

if TYPE_CHECKING:
    from nim_evo.engine.solver import Solution


def report(learner: LearnedPolicy, solution: Solution) -> list[str]:
    """The lines of the report of ``learner`` (``solution``: the solver's over its space)."""
    space = learner.space
    rows = np.arange(space.n_positions)
    greedy, probabilities = learner.greedy_rows(rows), learner.stochastic_rows(rows)
    values = learner.values()
    one_heap = len(learner.rules.start) == 1
    label = (lambda m: str(space.move(m)[1])) if one_heap else (lambda m: str(space.move(m)))
    lines = []
    for index in range(1, space.n_positions):
        legal = np.flatnonzero(space.legal[index])
        order = legal[np.argsort(-probabilities[index, legal], kind="stable")]
        winning = np.flatnonzero(solution.winning[index])
        right = np.isclose((greedy[index] * solution.winning[index]).sum(), 1.0)
        tag = "---" if not len(winning) else "OK!" if right else "NO!"
        where = f"{space.position(index)[0]} balls" if one_heap else str(space.position(index))
        moves = ", ".join(f"{label(m)} with p={probabilities[index, m]:.3f} {learner.detail(index, m, values)}"
                          for m in order)
        lines.append(f"{tag} {where}, best {', '.join(label(m) for m in winning) or '0'} probs: {moves}")
    return lines
