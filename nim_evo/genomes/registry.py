"""The genome kinds by name: the built-in ones and those other packages register.

A package adds a kind (a :class:`~nim_evo.genomes.protocol.GenomeKind` subclass, or an
instance of one) under the entry-point group ``nim_evo.genomes``, e.g. in its
``pyproject.toml``::

    [project.entry-points."nim_evo.genomes"]
    toy = "mypackage.toy:ToyKind"

and ``--genome toy``, :func:`nim_evo.evolve`, genome files and players then know it. A
script or a test can also call :func:`register`. Kinds load on first use, so importing
nim_evo stays fast.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import entry_points
import warnings

from nim_evo.genomes.protocol import GenomeKind
from nim_evo.validation import UserError

ENTRY_POINTS = "nim_evo.genomes"
BUILTIN = {"table": "nim_evo.genomes.table", "rules": "nim_evo.genomes.ruleset",
           "thresholds": "nim_evo.genomes.thresholds", "program": "nim_evo.genomes.program"}

_kinds: dict[str, GenomeKind] = {}
_loaded = False


def register(kind: GenomeKind | type) -> GenomeKind:
    """Add a kind (a :class:`GenomeKind` subclass or instance) under its ``name``; returns
    the instance. A name taken by another kind is refused in one line."""
    if isinstance(kind, type):
        missing = sorted(getattr(kind, "__abstractmethods__", ()))
        if missing and issubclass(kind, GenomeKind):
            raise UserError(f"genome kind {getattr(kind, 'name', kind.__name__)!r} does not define "
                            f"{', '.join(missing)} (see nim_evo.genomes.protocol.GenomeKind)")
        kind = kind()
    if not isinstance(kind, GenomeKind):
        raise TypeError(f"a genome kind is a nim_evo.genomes.protocol.GenomeKind, got {kind!r}")
    name = getattr(kind, "name", None)
    if not isinstance(name, str) or not name.isidentifier():
        raise UserError(f"a genome kind needs a name that is an identifier, got {name!r}")
    _load()
    known = _kinds.get(name)
    if known is not None and type(known) is not type(kind):
        raise UserError(f"genome kind {name!r} is taken by {type(known).__module__}.{type(known).__name__}")
    _kinds[name] = kind
    return kind


def get_kind(name: object) -> GenomeKind:
    """The kind called ``name`` (a kind given itself); one line naming the known kinds if
    there is none."""
    if isinstance(name, GenomeKind):
        return name
    _load()
    try:
        return _kinds[name]  # type: ignore[index]  # any value read from a file: not a name is the UserError below
    except (KeyError, TypeError):
        raise UserError(f"unknown genome {name!r}; known genomes: {', '.join(_kinds)}") from None


def kind_names() -> tuple[str, ...]:
    """Every kind's name: the built-in ones first, then the registered ones."""
    _load()
    return tuple(_kinds)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name, module in BUILTIN.items():
        _kinds[name] = import_module(module).KIND
    for point in entry_points(group=ENTRY_POINTS):
        try:
            register(point.load())
        except Exception as error:  # a broken plug-in costs its own kind, never nim_evo's
            warnings.warn(f"genome kind {point.name!r} from {point.value} not loaded: {error}", stacklevel=2)
