"""A person's agent named on the command line: ``module:NAME`` or ``path/to/file.py:NAME``.

``NAME`` is an agent object, a class made with no arguments or with the rules, or a factory
called likewise (with nothing, or with its one parameter ``rules``); what it gives must
answer the agent protocol (:mod:`nim_evo.agents.protocol`). A course-style player is one
too: an object with ``choose_action``, or a function of one other parameter, a game state
(:mod:`nim_evo.agents.course`). Naming a Python module runs its code: that is what the
person asked for (reading a data file never runs code). A wrong spec (no such module or
file, a module without the name, something that is no agent, a module that fails to import)
is one line, a :class:`~nim_evo.validation.UserError`.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
from pathlib import Path

from nim_evo.games.base import Game
from nim_evo.agents.course import required_parameters
from nim_evo.agents.player import Player
from nim_evo.agents.protocol import NEEDS, as_player, is_agent
from nim_evo.io import read_regular
from nim_evo.validation import AgentError, UserError

MAX_CODE_BYTES = 16 * 2**20  # a person's agent's source file, digested to know it again at --resume

SPEC = re.compile(r"^(?P<source>[^:]+|[A-Za-z]:[^:]+):(?P<name>[A-Za-z_][A-Za-z0-9_]*)$")


def is_code(spec) -> bool:
    """Whether ``spec`` names an agent in Python code: ``dotted.module:NAME`` or ``file.py:NAME``."""
    match = SPEC.match(spec) if isinstance(spec, str) else None
    if match is None:
        return False
    source = match["source"]
    return source.endswith(".py") or all(part.isidentifier() for part in source.split("."))


def import_agent(spec: str, rules: Game) -> Player:
    """The player ``spec`` names, made for ``rules`` (see the module)."""
    match = SPEC.match(spec)
    if match is None or not is_code(spec):
        raise UserError(f"{spec!r} is not module:NAME or path/to/file.py:NAME")
    module = _module(match["source"], spec)
    try:
        thing = getattr(module, match["name"])
    except AttributeError:
        raise UserError(f"{match['source']} has no {match['name']} (from {spec})") from None
    except (Exception, SystemExit) as error:  # the module's own __getattr__
        raise UserError(f"{match['source']} raised {type(error).__name__} when asked for {match['name']} (from "
                        f"{spec}): {error}") from None
    try:  # what the agent's own properties say (its name, its rules, order_blind, its methods), read once here
        agent = _made(thing, rules, spec)
        if not is_agent(agent):
            raise UserError(f"{spec} is a {type(agent).__name__}, not an agent: {NEEDS}")
        player = as_player(agent, rules)
        if player.rules != rules:
            raise UserError(f"{spec} plays {player.rules.name}, not {rules.name}")
        for attribute in ("name", "order_blind", "rules"):
            getattr(agent, attribute, None)
    except (UserError, AgentError):
        raise
    except (Exception, SystemExit) as error:
        raise UserError(f"{spec} raised {type(error).__name__} as its attributes were read: {error}") from None
    return player


def source_digest(spec: str) -> str | None:
    """The sha256 of the file a code spec's code lives in (a resumed run must find the same
    code); None where there is no such file."""
    match = SPEC.match(spec)
    if match is None:
        raise TypeError(f"{spec!r} is no code spec (module:NAME or path/to/file.py:NAME)")
    source = match["source"]
    path: Path | None
    if source.endswith(".py"):
        path = Path(source)
    else:
        try:
            found = importlib.util.find_spec(source)
        except (ImportError, ValueError):
            found = None
        path = Path(found.origin) if found is not None and found.origin else None
    if path is None or not path.is_file():
        return None
    return hashlib.sha256(read_regular(path, MAX_CODE_BYTES, "code files")).hexdigest()


def _module(source: str, spec: str):
    """The module ``source`` names (a file's is loaded once, under a name of its own)."""
    if source.endswith(".py"):
        path = Path(source)
        if not path.is_file():
            raise UserError(f"no Python file {source} (from {spec})")
        name = "nim_evo_agent_" + hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
        if name in sys.modules:
            return sys.modules[name]
        loader = importlib.util.spec_from_file_location(name, path)
        assert loader is not None and loader.loader is not None  # a .py file always has a spec and a loader
        module = importlib.util.module_from_spec(loader)
        sys.modules[name] = module  # (its classes pickle within this process)
        return _run(lambda: loader.loader.exec_module(module), source, spec, forget=name)
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())  # as `python -m` would find it
    try:
        return _run(lambda: importlib.import_module(source), source, spec)
    except UserError:
        raise
    except ModuleNotFoundError:
        raise UserError(f"no module named {source} (from {spec}); run from the folder that holds it, or give "
                        "path/to/file.py:NAME") from None


def _run(load, source: str, spec: str, forget: str | None = None):
    try:
        result = load()
    except ModuleNotFoundError as error:
        if forget is None and error.name == source.split(".")[0]:
            raise
        if forget is not None:
            sys.modules.pop(forget, None)
        raise UserError(f"{source} could not be imported (from {spec}): {error}") from None
    except (Exception, SystemExit) as error:  # the person's module failed: what it raised, in one line
        if forget is not None:
            sys.modules.pop(forget, None)
        raise UserError(f"{source} could not be imported (from {spec}): {type(error).__name__}: {error}") from None
    return sys.modules[forget] if forget is not None else result


def _made(thing, rules: Game, spec: str):
    """An agent object (or a lab's strategy function) as it is; a class or a factory called
    with the rules or with nothing."""
    if not isinstance(thing, type) and (is_agent(thing) or not callable(thing)):
        return thing
    wanted = required_parameters(thing)
    if len(wanted) > 1:
        raise UserError(f"{spec} needs {len(wanted)} arguments; an agent's class or factory is called with the rules "
                        "or with nothing")
    try:
        return thing(rules) if wanted else thing()
    except UserError:
        raise
    except (Exception, SystemExit) as error:
        raise UserError(f"{spec} could not be made: {type(error).__name__}: {error}") from None
