"""Learned agents from the source write-ups (docs/explanation/references.md), on the shared engine, for any enumerable rules.

=============  ===================================  ===============================================================
name           from                                 what it learns
=============  ===================================  ===============================================================
wincount       the Simple Nim AI post               win counts per position and move, moves drawn in proportion
subgame        Moore's NIM Rules                    wins and losses of every sub-game of each game record
quality        the Math 495R Nim lab                move qualities 50, +29/-11, certain moves +-1000, window 90
qlearning      Kintner-Meyer's Q-learning report    a score table, +1/-1 per move, decaying epsilon schedule
td             Nagappan's CI report                 Q-learning updated move by move (the report's bugs fixed)
montecarlo     Nagappan's CI report                 Q from episodic returns (the report's bugs fixed)
=============  ===================================  ===============================================================

Each trains by self-play or against an opponent (:meth:`Learner.train`) with an explicit
``numpy.random.Generator``, plays greedily (or by its own rule with ``stochastic=True``)
and saves to versioned JSON (:mod:`nim_evo.learners.files`). Its parameters are a frozen
dataclass of its own (:mod:`nim_evo.learners.parameters`), checked when it is built. A
package adds a learner (a :class:`Learner` subclass and its parameters: a new learner is one
file) under the entry-point group ``nim_evo.learners``; a script with :func:`register`.
"""

from nim_evo.agents.registry import AGENTS
from nim_evo.learners.base import SEATS, Learner
from nim_evo.learners.parameters import LearnerParameters
from nim_evo.learners.qlearning import QLearner
from nim_evo.learners.quality import QualityLearner
from nim_evo.learners.reinforcement import MonteCarloLearner, TDLearner
from nim_evo.learners.subgame import SubgameLearner
from nim_evo.learners.wincount import WinCountLearner
from nim_evo.plugins import Registry
from nim_evo.validation import UserError


def _check(name: str, cls) -> None:
    if not (isinstance(cls, type) and issubclass(cls, Learner)):
        raise UserError(f"a learner is a nim_evo.learners.Learner subclass, got {cls!r}")
    if name in AGENTS:
        raise UserError(f"the learner name {name!r} is an agent's")


LEARNERS = Registry("nim_evo.learners", {cls.name: cls for cls in (
    WinCountLearner, SubgameLearner, QualityLearner, QLearner, TDLearner, MonteCarloLearner)}, "learner", _check)


def register(cls: type) -> type:
    """Register a :class:`Learner` subclass under its ``name``."""
    return LEARNERS.register(getattr(cls, "name", None), cls)


def make_learner(name: str, rules, **params) -> Learner:
    """A fresh learner by name (see ``LEARNERS``) with its source write-up's parameters unless given."""
    if name not in LEARNERS:
        raise UserError(f"unknown learner {name!r}; known learners: {', '.join(LEARNERS)}")
    return LEARNERS[name](rules, **params)


__all__ = ["LEARNERS", "SEATS", "register", "Learner", "LearnerParameters", "MonteCarloLearner", "QLearner", "QualityLearner", "SubgameLearner",
           "TDLearner", "WinCountLearner", "make_learner"]
