"""Learned agents (issue 5, in progress): learners that train by self-play on the shared engine.

A learner keeps a table over the enumerated space of its rules, trains with an explicit
``numpy.random.Generator``, plays greedily through the standard agent interface
(``distribution``/``move``/``policy``), and saves to versioned JSON.
"""

from nim_evo.learners.qlearning import QLearner

LEARNERS = {"qlearning": QLearner}

__all__ = ["LEARNERS", "QLearner"]
