"""Players by spec (:mod:`nim_evo.evaluation.specs`): fixed agents, learned agents (trained on
first use), strategy files, a person's code, and agent objects given in Python.

:func:`resolve` makes each form into a player:

* a fixed agent's name (``random``, ``nimsum``, ``minimax``, ``take-3``, ...): the agent;
* a learner's name (``qlearning``, ``td``, ...): trained for the rules by self-play with
  the seed's parameters and budget, with the given seed, on first use, then cached as a
  learner file keyed by rules, learner, parameters, episodes and seed (so a second run,
  or a resumed one, loads the same learner instead of training it again);
* a path to a strategy file (an exported genome or a saved learner), played greedily;
* ``module:NAME`` or ``path/to/file.py:NAME``: a person's agent in Python code
  (:mod:`nim_evo.agents.imported`; naming a module runs its code, as asked);
* the name of an agent object given in Python (``evolve(opponents=[MyAgent(), "nimsum"])``):
  ``given`` maps such names to the objects.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from nim_evo.games.base import Game
from nim_evo.agents.imported import import_agent
from nim_evo.agents.player import Player
from nim_evo.agents.protocol import as_player
from nim_evo.agents.registry import make_agent
from nim_evo.evaluation.specs import CODE, FILE, LEARNER, Spec, is_learner
from nim_evo.evaluation.strategy import load_strategy
from nim_evo.io import FORMAT_VERSION, read_json
from nim_evo.learners import LEARNERS
from nim_evo.learners.files import learner_from_document, params_json, save_learner
from nim_evo.validation import UserError

CACHE_ENV = "NIM_EVO_CACHE"


def cache_dir() -> Path:
    """Where trained opponents are kept: ``$NIM_EVO_CACHE``, else ``$XDG_CACHE_HOME/nim_evo``
    (``~/.cache/nim_evo``), under ``learners/``."""
    root = os.environ.get(CACHE_ENV) or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "nim_evo"
    return Path(root) / "learners"


def resolve(spec: str, rules: Game, seed: int = 0, progress=None, given: dict | None = None):
    """The agent an opponent spec names, for ``rules`` (see the module docstring); ``given``:
    agent objects given in Python, by the names they stand under.

    Raises:
        UserError: one line for an unknown name, an unreadable file or a file for other rules.
    """
    if given and spec in given:
        return as_player(given[spec], rules)
    form = Spec.parse(spec).form
    if form == CODE:
        return import_agent(spec, rules)
    if form == FILE:
        return load_strategy(spec, rules)
    if form == LEARNER:
        return trained(spec, rules, seed, progress=progress)
    return make_agent(spec, rules)


def pile_player(spec: str, rules: Game, seed: int = 0, given: dict | None = None):
    """The player an opponent spec names, for games on pile arrays on a board too big for
    tables (:mod:`nim_evo.engine.piles`); a learner is refused in one line."""
    if is_learner(spec) and not (given and spec in given):
        raise UserError(f"opponent {spec!r} needs the board's tables, and {rules.name} is too big for them; "
                        "the panel can hold agents that play from the piles (random, nimsum, take-N, ...)")
    return resolve(spec, rules, seed, given=given)


def _cache_key(name: str, rules: Game, seed: int, episodes: int | None, params: dict) -> tuple[Path, dict, int]:
    learner = LEARNERS[name](rules, **params)
    episodes = learner.episodes if episodes is None else episodes
    key = {"learner": name, "algorithm": learner.algorithm, "format": FORMAT_VERSION, "params": params_json(learner),
           "rules": rules.name, "episodes": episodes, "seed": seed}
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]
    return cache_dir() / f"{name}-{rules.file_stem}-seed{seed}-{digest}.json", key, episodes


def cached_path(name: str, rules: Game, seed: int = 0, episodes: int | None = None, **params) -> Path:
    """Where :func:`trained` keeps (or would keep) this learner."""
    return _cache_key(name, rules, seed, episodes, params)[0]


_TRAINED: dict = {}  # this process's trained opponents, so an unwritable cache costs one training


def trained(name: str, rules: Game, seed: int = 0, episodes: int | None = None, progress=None, **params):
    """A learner trained by self-play for ``rules``: loaded from the cache when it holds one
    trained the same way (same learner and algorithm version, parameters, board, budget and
    seed), otherwise trained and written to the cache (atomically)."""
    path, key, episodes = _cache_key(name, rules, seed, episodes, params)
    if path in _TRAINED:
        return _TRAINED[path]
    learner = None
    if path.exists():
        try:
            document = read_json(path)
            # only an entry that records this very training (a learn file copied in, another
            # seed's or opponent's, is not one, whatever its name)
            if document.get("cache_key") == key:  # read_json gives an object or raises
                learner = learner_from_document(document, str(path))
        except UserError:
            pass  # a damaged cache entry is trained again and replaced
        if learner is not None and (learner.name != name or learner.rules != rules or learner.games_played != episodes
                                    or params_json(learner) != key["params"]):
            learner = None  # the key says one training, the file holds another: trained again, replaced
    if learner is None:
        learner = LEARNERS[name](rules, **params)
        learner.train(episodes, np.random.default_rng(seed), progress=progress)
        try:
            save_learner(learner, path, cache_key=key)
        except OSError:
            pass  # an unwritable cache costs a retraining in the next process, nothing else
    _TRAINED[path] = learner
    return learner


class KeptPlayer(Player):
    """An opponent as a run's panel keeps it, a sparse policy table over a space
    (:func:`~nim_evo.engine.policy.kept`), as a player of the board's positions: each
    position's row, read at its multiset and put on its own piles (:meth:`unfold`). For games
    on pile arrays where dense tables and their samplers would not fit in memory."""

    def __init__(self, table, space, name: str):
        super().__init__(space.rules)
        self.table, self.space, self.name, self.order_blind = table, space, name, space.multiset

    def move_probabilities(self, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions, dtype=np.int64)
        rows = self.table[self.space.indices(positions)].toarray()
        return self.space.unfold(positions, rows) if self.space.multiset else rows
