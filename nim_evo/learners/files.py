"""A trained learner as versioned JSON: its rules, parameters, training record and state.

::

    {"format": "nim_evo/learner", "version": 1, "learner": "qlearning",
     "rules": {"game": "20-sub1.3.4"},
     "params": {...}, "games_played": 30000, "training": [{"episodes": 30000, ...}],
     "state": {"table": {"shape": [21, 3], "values": [...]}}}

``rules`` is the game's JSON form (:func:`nim_evo.games.registry.game_to_json`): on a Nim board
the board's own three fields, as every learner file has held since the first, and a file
without ``"game"`` is read as Nim's. State arrays are indexed by the engine's enumeration of the
game's positions and actions
(:class:`nim_evo.engine.space.Space`), or of its multisets with the parameter ``symmetry``
(:class:`nim_evo.engine.multiset.MultisetSpace`); the shapes are checked on loading. Floats are written
with Python's shortest round-trip repr, so a saved learner loads bit for bit.
"""

from __future__ import annotations

import json

import numpy as np

from nim_evo.games.registry import game_from_json, game_to_json
from nim_evo.io import FORMAT_VERSION, check_envelope, read_json
from nim_evo.atomic import atomic_write_text
from nim_evo.learners import LEARNERS, Learner
from nim_evo.validation import UserError

LEARNER_FORMAT = "nim_evo/learner"


def learner_document(learner: Learner, **meta) -> dict:
    """The versioned JSON document of a learner (``meta``: extra top-level keys)."""
    state = {}
    for key in learner.state_names:
        array = np.asarray(getattr(learner, key), dtype=np.float64)
        values = array.ravel().tolist()
        if np.all(array == np.round(array)) and np.all(np.abs(array) < 2 ** 53):
            values = [int(v) for v in values]  # counts stay readable
        state[key] = {"shape": list(array.shape), "values": values}
    return {**meta, "format": LEARNER_FORMAT, "version": FORMAT_VERSION, "learner": learner.name,
            "rules": game_to_json(learner.rules), "params": params_json(learner), "games_played": learner.games_played,
            "training": learner.training, "state": state}


def params_json(learner: Learner) -> dict:
    """The learner's parameters as JSON values (schedules as lists of pairs)."""
    return learner.params.as_json()


def learner_from_document(data: dict, source: str = "file", stochastic: bool = False) -> Learner:
    """The learner a document holds; a one-line ``ValueError`` if it is not a valid one."""
    check_envelope(data, source, LEARNER_FORMAT, FORMAT_VERSION, "learner")
    name = data.get("learner")
    if not isinstance(name, str) or name not in LEARNERS:
        raise UserError(f"{source} holds an unknown learner {name!r}")
    try:
        rules = game_from_json(data.get("rules"), source)
    except UserError as error:
        raise UserError(error if str(error).startswith(source) else f"{source}: {error}") from None
    params = data.get("params")
    if not isinstance(params, dict):
        raise UserError(f"{source} records no learner parameters")
    if "sorted_positions" in params and name == "qlearning":
        raise UserError(f"{source} was written by an older nim_evo (sorted_positions, now symmetry over "
                         "multisets); train it again")
    unknown = sorted(set(params) - set(LEARNERS[name].parameters()))
    if unknown:
        raise UserError(f"{source}: {name} has no parameter {unknown[0]!r}")
    try:
        learner = LEARNERS[name](rules, stochastic=stochastic, **params)
    except UserError as error:
        raise UserError(f"{source}: {error}") from None
    games = data.get("games_played")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise UserError(f"{source}: games_played must be a count, got {games!r}")
    state = data.get("state")
    if not isinstance(state, dict) or set(state) != set(learner.state_names):
        raise UserError(f"{source}: a {name} learner's state holds {', '.join(learner.state_names)}")
    for key in learner.state_names:
        expected = np.shape(getattr(learner, key))
        entry = state[key]
        try:
            values = np.array(entry["values"], dtype=np.float64)
            shape = tuple(entry["shape"])
        except (KeyError, TypeError, ValueError):
            raise UserError(f"{source}: state {key!r} is not a shape and a list of numbers") from None
        if shape != expected:
            raise UserError(f"{source}: state {key!r} has shape {list(shape)}, expected {list(expected)} "
                             f"for {rules.name}")
        if values.ndim != 1 or values.size != int(np.prod(expected)):
            raise UserError(f"{source}: state {key!r} should be a flat list of {int(np.prod(expected))} numbers")
        if not np.all(np.isfinite(values)):
            raise UserError(f"{source}: state {key!r} holds a value that is not a finite number")
        value = values.reshape(expected)
        setattr(learner, key, value if value.ndim else float(value))
    try:
        learner.check_state()
    except UserError as error:
        raise UserError(f"{source}: {error}") from None
    learner.games_played = games
    training = data.get("training", [])
    learner.training = list(training) if isinstance(training, list) else []
    return learner


def save_learner(learner: Learner, path, replace: bool = True, **meta) -> None:
    """Write ``learner`` to ``path`` atomically: the header indented, each state array on one
    line; with ``replace=False`` never over a file that exists (see :func:`~nim_evo.atomic.atomic_write_bytes`)."""
    document = learner_document(learner, **meta)
    state = document.pop("state")
    header = json.dumps(document, indent=1)
    arrays = ",\n".join(f"  {json.dumps(key)}: {json.dumps(entry, separators=(',', ':'))}" for key, entry in state.items())
    atomic_write_text(path, f'{header[:-2]},\n "state": {{\n{arrays}\n }}\n}}\n', replace)


def load_learner(path, rules=None, stochastic: bool = False) -> Learner:
    """Read a learner saved by :func:`save_learner`; ``rules``, if given, must match its own."""
    learner = learner_from_document(read_json(path), str(path), stochastic)
    if rules is not None and rules != learner.rules:
        raise UserError(f"{path} was trained for {learner.rules.name}, not {rules.name}")
    return learner
