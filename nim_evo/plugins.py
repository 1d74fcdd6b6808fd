"""Registries by name that other packages extend through entry points, as pytest finds plugins.

A :class:`Registry` maps names to what builds a thing (an agent's or a learner's class): the
built-in ones, then those a package declares under the registry's entry-point group, e.g. in
its ``pyproject.toml``::

    [project.entry-points."nim_evo.agents"]
    cautious = "mypackage.cautious:CautiousAgent"

and ``cautious`` is then a name every command and function accepts. A script or a test can
also call :meth:`Registry.register`. Entry points load on first use, so importing nim_evo
stays fast; a broken plug-in costs its own name (a warning), never nim_evo's.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping
from importlib.metadata import entry_points
from typing import TypeVar

from nim_evo.validation import UserError

_Factory = TypeVar("_Factory")


class Registry(Mapping):
    """Names -> factories, the built-in ones first (see the module)."""

    def __init__(self, group: str, builtin: dict, what: str, check: Callable[[str, object], None] | None = None):
        self.group, self.what, self.check = group, what, check
        self._items = dict(builtin)
        self._builtin = frozenset(builtin)
        self._loaded = False

    def register(self, name: object, factory: _Factory) -> _Factory:
        """Add ``factory`` under ``name``; a name another factory holds is refused in one line."""
        # a name must read as a name, not as another form of player spec (nim_evo.evaluation.specs:
        # code holds a colon, a file ends in .json or holds a slash; take-N is a fixed agent's)
        if not isinstance(name, str) or not name.strip() or name != name.strip() or any(c in name for c in ",:/\\") \
                or name.endswith(".json") or (name.startswith("take-") and name[5:].isdigit()):
            raise UserError(f"a {self.what} needs a name without commas, colons, slashes or surrounding spaces, that is "
                            f"no file name and no take-N, got {name!r}")
        if self.check is not None:
            self.check(name, factory)
        self._load()
        known = self._items.get(name)
        if known is not None and known is not factory:
            raise UserError(f"the {self.what} name {name!r} is taken by {getattr(known, '__module__', '?')}."
                            f"{getattr(known, '__qualname__', known)!s}")
        self._items[name] = factory
        return factory

    def __getitem__(self, name: str):
        self._load()
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        self._load()
        return iter(self._items)

    def __len__(self) -> int:
        self._load()
        return len(self._items)

    def __contains__(self, name) -> bool:
        self._load()
        return isinstance(name, str) and name in self._items

    def builtin(self, name: str) -> bool:
        """Whether ``name`` is one of nim_evo's own."""
        return name in self._builtin

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        for point in entry_points(group=self.group):
            try:
                self.register(point.name, point.load())
            except Exception as error:  # a broken plug-in costs its own name, never nim_evo's
                warnings.warn(f"{self.what} {point.name!r} from {point.value} not loaded: {error}", stacklevel=3)
