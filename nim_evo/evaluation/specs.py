"""A player spec, the text that names a player (on a command line, in a run's opponents, in a
sweep's grid), read once into a :class:`Spec`: what kind of player it names and how results
label it. :func:`nim_evo.evaluation.opponents.resolve` is the one place that makes a spec
into a player.

A spec is, in the order it is read:

* ``module:NAME`` or ``path/to/file.py:NAME``: a person's agent in Python code (``code``;
  :mod:`nim_evo.agents.imported`, which runs the code, as asked);
* a path to a strategy file, an exported genome or a saved learner (``file``: a name ending in
  ``.json`` or holding a slash; a data file, read, never run);
* a learner's name (``learner``: ``qlearning``, ``td``, ...), trained for the board on first use;
* anything else names a fixed agent (``agent``: ``random``, ``nimsum``, ``minimax``,
  ``take-3``, ...), which :func:`~nim_evo.agents.registry.make_agent` knows or refuses.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from nim_evo.agents.imported import is_code
from nim_evo.agents.registry import AGENTS
from nim_evo.learners import LEARNERS

CODE, FILE, LEARNER, AGENT = "code", "file", "learner", "agent"


@dataclass(frozen=True)
class Spec:
    """A player spec read: its ``text`` as given and its ``form`` (``code``, ``file``,
    ``learner`` or ``agent``)."""

    text: str
    form: str

    @classmethod
    def parse(cls, text: str) -> Spec:
        """``text`` read as a spec (see the module)."""
        if is_code(text):
            return cls(text, CODE)
        if text.endswith(".json") or os.sep in text or "/" in text:
            return cls(text, FILE)
        return cls(text, LEARNER if text in LEARNERS else AGENT)

    @property
    def label(self) -> str:
        """How tables, pictures and games name the player: a file by its stem, code by the
        name it imports, anything else as written."""
        if self.form == CODE:
            return self.text.rsplit(":", 1)[1]
        return Path(self.text).stem if self.form == FILE else self.text

    @property
    def several(self) -> bool:
        """Whether the text names several players (``a,b``) where one is wanted: a comma
        outside a file's path."""
        return "," in self.text and self.form != FILE

    @property
    def known(self) -> bool:
        """Whether the text already names a player, whatever the board: code, a file, a
        learner, a fixed agent nim_evo knows (``take-N`` included). An agent object given in
        Python may not take such a name."""
        key = self.text.strip().lower()
        return self.form != AGENT or key in AGENTS or self.text in AGENTS or key.startswith("take-")


def label(text: str) -> str:
    """:attr:`Spec.label` of ``text``."""
    return Spec.parse(text).label


def is_file(text: str) -> bool:
    """Whether ``text`` names a strategy file (:data:`FILE`)."""
    return Spec.parse(text).form == FILE


def is_learner(text: str) -> bool:
    """Whether ``text`` names a learner, which is trained (or loaded from the cache) for its board."""
    return Spec.parse(text).form == LEARNER
